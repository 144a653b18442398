import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import * as m001 from './001_foundation.ts';

export interface DialectMigration {
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
}

/** Ordered by name; append new migrations, never edit a landed one. */
export const MIGRATIONS: Record<string, DialectMigration> = {
  '001_foundation': m001,
};
