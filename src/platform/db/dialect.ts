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
