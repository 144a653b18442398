import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration, type Transaction } from 'kysely';
import type { Database } from './schema.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { createRequire } from 'node:module';
import { startSqliteCheckpointer } from './sqlite-checkpointer.ts';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;
export type DbExecutor = Kysely<Database> | Transaction<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** Runs fn in a transaction holding the database-wide write lock (SQLite BEGIN IMMEDIATE, PostgreSQL advisory lock). */
  withWriteLock<T>(fn: (trx: DbExecutor) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

// PostgreSQL returns int8 as strings by default; our int8 columns hold epoch milliseconds and
// sequence numbers, both safely inside Number's integer range.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

const WRITE_LOCK_KEY = 727_001; // advisory lock id for serialised writers (audit chain heads)

export function openDatabase(opts: { databaseUrl: string | null; dataDir: string; poolSize?: number }): DatabaseHandle {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: 'postgres',
      withWriteLock: (fn) =>
        db.transaction().execute(async (trx) => {
          await sql`select pg_advisory_xact_lock(${WRITE_LOCK_KEY})`.execute(trx);
          return fn(trx);
        }),
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      close: () => db.destroy(),
    };
  }
  mkdirSync(opts.dataDir, { recursive: true });
  const file = join(opts.dataDir, 'vigil.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('wal_autocheckpoint = 0');
  const checkpointer = startSqliteCheckpointer(file, createRequire(import.meta.url).resolve('better-sqlite3'));
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    db,
    dialect: 'sqlite',
    // BEGIN IMMEDIATE takes the write lock up front, so a reader-then-writer transaction cannot
    // fail with SQLITE_BUSY_SNAPSHOT when another process (the CLI) wrote in between.
    withWriteLock: (fn) =>
      db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          const result = await fn(conn);
          await sql`commit`.execute(conn);
          return result;
        } catch (err) {
          await sql`rollback`.execute(conn);
          throw err;
        }
      }),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      await checkpointer.stop();
      await db.destroy();
    },
  };
}

export async function migrateToLatest(handle: DatabaseHandle): Promise<void> {
  const migrations: Record<string, Migration> = {};
  for (const [name, m] of Object.entries(MIGRATIONS)) {
    migrations[name] = { up: (db) => m.up(db, handle.dialect) };
  }
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
  }
}
