import type BetterSqlite3 from 'better-sqlite3';
import type { RawBuilder } from 'kysely';
import type { DatabaseHandle, DbExecutor } from './database.ts';

/**
 * The SQLite/PostgreSQL differences that repositories share (dialect differences stay
 * in repositories and here, never in services).
 */

/**
 * Runs a write that is atomic on its own on PostgreSQL (one statement, or one statement with a
 * data-modifying CTE) directly on the pool, so concurrent workers do not queue on the advisory
 * write lock; on SQLite inside the database write lock, where BEGIN IMMEDIATE keeps it from
 * interleaving with another transaction on the one connection or failing busy against another
 * process (the CLI). `fn` receives the executor and whether it runs on PostgreSQL.
 */
export function writeAtomically<T>(database: DatabaseHandle, fn: (db: DbExecutor, postgres: boolean) => Promise<T>): Promise<T> {
  return database.dialect === 'postgres' ? fn(database.db, true) : database.withWriteLock((trx) => fn(trx, false));
}

/**
 * A write that rides with another in one transaction (the pipeline's detection insert beside its
 * audit append): on SQLite it runs on the raw connection, on PostgreSQL it is a statement the other
 * sends inside its own (one round trip). The repository that runs both picks the side.
 */
export interface CompanionWrite {
  sqlite(raw: BetterSqlite3.Database): void;
  postgres(): RawBuilder<unknown>;
}

/**
 * Whether reads started ahead inside a transaction ride with its commit (PostgreSQL's pipelined
 * transaction, see database.withTenantWriteLock). SQLite's reads run at once when asked, so there
 * is nothing to start early.
 */
export function sendsReadsAhead(database: DatabaseHandle): boolean {
  return database.dialect === 'postgres';
}

/** Whether the database carries LISTEN/NOTIFY between nodes (PostgreSQL); SQLite serves one node. */
export function carriesNotify(database: DatabaseHandle): boolean {
  return database.dialect === 'postgres';
}
