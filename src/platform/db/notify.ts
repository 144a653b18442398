import { sql } from 'kysely';
import type { DbExecutor } from './database.ts';

/** PostgreSQL NOTIFY on `channel`; inside a transaction it is delivered when the transaction commits. */
export async function notifyIn(db: DbExecutor, channel: string): Promise<void> {
  await sql`select pg_notify(${channel}, '')`.execute(db);
}
