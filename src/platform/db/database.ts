import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type CompiledQuery, type Migration, type Transaction } from 'kysely';
import type { Database } from './schema.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { createRequire } from 'node:module';
import { pipelinedTransaction, type PipelinedTransaction } from './pg-pipelined.ts';
import { startSqliteCheckpointer, type CheckpointerOptions } from './sqlite-checkpointer.ts';

import type { Dialect } from './dialect-name.ts';
export type { Dialect };
export type Db = Kysely<Database>;
export type DbExecutor = Kysely<Database> | Transaction<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /**
   * The raw better-sqlite3 connection behind `db` (SQLite only). Only for repositories' hot-path
   * batch writes, and only inside withWriteLock, which holds Kysely's connection mutex, so
   * synchronous statements cannot interleave with another transaction's queries.
   */
  sqlite: SQLite.Database | null;
  /** Runs fn in a transaction holding the database-wide write lock (SQLite BEGIN IMMEDIATE, PostgreSQL advisory lock). */
  withWriteLock<T>(fn: (trx: DbExecutor) => Promise<T>): Promise<T>;
  /**
   * Runs fn in a transaction that writes rows of these tenants only, their audit chains included
   * (the detection pipeline's batch commit). On PostgreSQL it holds the database-wide
   * write lock in shared mode (so it still waits for, and excludes, every withWriteLock writer, whose
   * read-then-write invariants are unchanged) plus an exclusive lock per tenant (`lockTenants`):
   * two such writers, on one node or several, queue on each other only when they share a tenant.
   * BEGIN and the locks go in one round trip. On SQLite it is withWriteLock (one writer anyway).
   */
  withTenantWriteLock<T>(tenantIds: readonly string[], fn: (trx: DbExecutor) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

// PostgreSQL returns int8 as strings by default; our int8 columns hold epoch milliseconds and
// sequence numbers, both safely inside Number's integer range.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

const WRITE_LOCK_KEY = 727_001; // advisory lock id for serialised writers (audit chain heads)
/** the first key of the two-key advisory locks held per tenant (the second is tenantLockKey) */
export const TENANT_LOCK_SPACE = 727_002;

/**
 * A tenant's advisory lock key: 32-bit FNV-1a of its id as a signed int4. Two tenants whose keys
 * collide only share a lock (they queue on each other), which is safe.
 */
export function tenantLockKey(tenantId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < tenantId.length; i++) {
    h ^= tenantId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/**
 * The tenants whose chain locks an executor of `withTenantWriteLock` holds (PostgreSQL): a chained
 * append inside it need not take them again.
 */
const tenantLocksHeld = new WeakMap<DbExecutor, ReadonlySet<string>>();

/** Whether `db` is a `withTenantWriteLock` transaction holding every one of these tenants' chain locks. */
export function holdsTenantLocks(db: DbExecutor, tenantIds: readonly string[]): boolean {
  const held = tenantLocksHeld.get(db);
  return held !== undefined && tenantIds.every((t) => held.has(t));
}

const deferrable = new WeakMap<DbExecutor, PipelinedTransaction>();

/**
 * Writes whose results the caller does not need, as the last of what it writes: inside the
 * pipeline's commit on PostgreSQL (`withTenantWriteLock`) they are sent with the transaction's next
 * statement, or with COMMIT, in the same round trip, and a failure fails the commit; anywhere else
 * they run now, in order. Either way they run after every statement made before and before every
 * statement made after (docs/decisions.md, "PostgreSQL commit in two round trips").
 */
export async function writeBeforeCommit(db: DbExecutor, statements: readonly CompiledQuery[]): Promise<void> {
  const trx = deferrable.get(db);
  if (trx) return trx.defer(statements);
  for (const q of statements) await db.executeQuery(q);
}

/**
 * The statements taking the tenants' chain locks (PostgreSQL), always in ascending key order so two
 * writers locking overlapping sets cannot deadlock. The keys are integers we computed, so they are
 * inlined: the text then runs in the simple protocol, several statements in one round trip.
 */
export function tenantLockStatements(tenantIds: readonly string[]): string {
  const keys = [...new Set(tenantIds.map(tenantLockKey))].sort((a, b) => a - b);
  return keys.map((k) => `SELECT pg_advisory_xact_lock(${TENANT_LOCK_SPACE}, ${k});`).join(' ');
}

export interface OpenDatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  poolSize?: number;
  /** errors of idle pooled connections (server restart, admin termination) */
  onIdleError?: (err: Error) => void;
  /** SQLite: the WAL checkpointer's interval and catch-up threshold (tests make them small) */
  checkpoint?: Pick<CheckpointerOptions, 'intervalMs' | 'restartFrames' | 'onError'>;
}

/** PostgreSQL when a database URL is given, else SQLite in a file under dataDir. */
export function openDatabase(opts: OpenDatabaseOptions): DatabaseHandle {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.poolSize, opts.onIdleError);
  return openSqlite(opts.dataDir, opts.checkpoint);
}

function openPostgres(databaseUrl: string, poolSize: number | undefined, onIdleError: ((err: Error) => void) | undefined): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize ?? 10 });
  // node-postgres: an idle client whose connection dies emits 'error' on the pool; without a
  // listener that is an uncaught exception that would take the whole service down. The pool
  // discards that client and opens a new one on the next query.
  pool.on('error', (err) => onIdleError?.(err));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  // the pipeline's commits: one at a time per node, so two connections cover a commit and the
  // one a shutdown or a test may start beside it
  // its statements are prepared once per connection (pg-pipelined.ts statementName) but planned
  // at every execution: a generic plan made while the tables were small is kept after they grow,
  // and the insert's execution then grew with them (docs/decisions.md, "Pipeline p95 tail")
  const pipelinePool = new pg.Pool({ connectionString: databaseUrl, max: 2, pipeline: true, options: '-c plan_cache_mode=force_custom_plan' });
  pipelinePool.on('error', (err) => onIdleError?.(err));
  return {
    db,
    dialect: 'postgres',
    sqlite: null,
    withWriteLock: (fn) =>
      db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${WRITE_LOCK_KEY})`.execute(trx);
        return fn(trx);
      }),
    withTenantWriteLock: (tenantIds, fn) => pipelinedTenantWriteLock(pipelinePool, tenantIds, fn),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      await db.destroy();
      await pipelinePool.end();
    },
  };
}

/**
 * PostgreSQL's withTenantWriteLock: a transaction by hand on a connection of the pipeline pool, in
 * node-postgres' pipeline mode: BEGIN and the locks are sent without waiting, and fn's first
 * statements (and whatever it makes together) follow on the wire, so they share one round trip
 * (docs/decisions.md, "PostgreSQL commit in two round trips"). Statements sent behind the locks
 * run once the locks are granted, each with a snapshot taken then.
 */
async function pipelinedTenantWriteLock<T>(pipelinePool: pg.Pool, tenantIds: readonly string[], fn: (trx: DbExecutor) => Promise<T>): Promise<T> {
  const client = await pipelinePool.connect();
  const locked = client.query(`BEGIN; SELECT pg_advisory_xact_lock_shared(${WRITE_LOCK_KEY}); ${tenantLockStatements(tenantIds)}`);
  const trx = pipelinedTransaction(client);
  tenantLocksHeld.set(trx.db, new Set(tenantIds));
  deferrable.set(trx.db, trx);
  let broken: Error | undefined;
  try {
    // fn's statements fail too when the locks could not be taken (the transaction is aborted);
    // both are waited for, so nothing of fn is still running when the connection goes back
    const [lock, run] = await Promise.allSettled([locked, fn(trx.db)]);
    if (lock.status === 'rejected') throw lock.reason;
    if (run.status === 'rejected') throw run.reason;
    await trx.commit();
    return run.value;
  } catch (err) {
    await client.query('ROLLBACK').catch((e: Error) => void (broken = e));
    throw err;
  } finally {
    // a connection that could not even roll back is dropped, not reused
    client.release(broken);
  }
}

function openSqlite(dataDir: string, checkpoint: OpenDatabaseOptions['checkpoint']): DatabaseHandle {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'vigil.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('wal_autocheckpoint = 0');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  // the catch-up holds Kysely's connection mutex, which every transaction and query on this
  // connection takes: no write can start while the worker copies the last frames back
  const checkpointer = startSqliteCheckpointer(file, createRequire(import.meta.url).resolve('better-sqlite3'), {
    ...checkpoint,
    quiesce: (catchUp) => db.connection().execute(() => catchUp()),
  });
  const withWriteLock = sqliteWriteLock(sqlite, db);
  return {
    db,
    dialect: 'sqlite',
    sqlite,
    withWriteLock,
    withTenantWriteLock: (_tenantIds, fn) => withWriteLock(fn),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      await checkpointer.stop();
      await db.destroy();
    },
  };
}

/**
 * SQLite's withWriteLock. BEGIN IMMEDIATE takes the write lock up front, so a reader-then-writer
 * transaction cannot fail with SQLITE_BUSY_SNAPSHOT when another process (the CLI) wrote in
 * between. The statements run on the raw connection while Kysely's connection mutex is held.
 */
function sqliteWriteLock(sqlite: SQLite.Database, db: Db): DatabaseHandle['withWriteLock'] {
  const begin = sqlite.prepare('BEGIN IMMEDIATE');
  const commit = sqlite.prepare('COMMIT');
  const rollback = sqlite.prepare('ROLLBACK');
  return <T>(fn: (trx: DbExecutor) => Promise<T>): Promise<T> =>
    db.connection().execute(async (conn) => {
      begin.run();
      try {
        const result = await fn(conn);
        commit.run();
        return result;
      } catch (err) {
        if (sqlite.inTransaction) rollback.run();
        throw err;
      }
    });
}

/**
 * Kysely's SQLite driver prepares every statement anew; preparing is a large share of a small
 * query's cost. Statements are reusable, so keep the most recently used ones by SQL text
 * (queries are parameterised, so the set of texts is small apart from multi-row inserts).
 */
function withStatementCache(sqlite: SQLite.Database, max = 500) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(text: string): SQLite.Statement {
      let st = cache.get(text);
      if (st && !st.busy) {
        cache.delete(text); // re-insert: Map order is our LRU order
        cache.set(text, st);
        return st;
      }
      st = sqlite.prepare(text);
      cache.set(text, st);
      if (cache.size > max) cache.delete(cache.keys().next().value as string);
      return st;
    },
    close: () => sqlite.close(),
  };
}

function migratorFor(handle: DatabaseHandle): Migrator {
  const migrations: Record<string, Migration> = {};
  for (const [name, m] of Object.entries(MIGRATIONS)) {
    migrations[name] = { up: (db) => m.up(db, handle.dialect) };
  }
  return new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrations },
  });
}

/**
 * Migrations this code knows that the database has not run (/readyz: a node must not serve a
 * schema older than its code; another node of a rolling upgrade normally migrates it).
 */
export async function pendingMigrations(handle: DatabaseHandle): Promise<string[]> {
  const infos = await migratorFor(handle).getMigrations();
  return infos.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

export async function migrateToLatest(handle: DatabaseHandle): Promise<void> {
  const migrator = migratorFor(handle);
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
  }
}

/**
 * The file other processes open to share this database (a single node on SQLite: the admin CLI, a
 * second server); null on PostgreSQL and for an in-memory database, which no other process can open.
 */
export function sharedDatabaseFile(database: DatabaseHandle): string | null {
  const sqlite = database.sqlite;
  return sqlite && !sqlite.memory ? sqlite.name : null;
}

/**
 * Whether another process committed to the database since the last call (SQLite's per-connection
 * `data_version`, which changes only when another connection commits: the admin CLI on the same file).
 * Always false on PostgreSQL, where other processes announce changes through coordination.
 * On a statement prepared once, but still a read transaction (file locks) per call, so it is
 * skipped while `othersAnnounce` says every other process on the file announces its changes to
 * this one (the serving process owning the file's socket, coordination's SocketCacheInvalidation),
 * after one last look once that starts: a commit from before then was announced to nobody.
 */
export function externalCommitProbe(database: DatabaseHandle, othersAnnounce: () => boolean = () => false): () => boolean {
  const sqlite = database.sqlite;
  if (!sqlite) return () => false;
  // one prepared statement: better-sqlite3's pragma() prepares its statement anew on each call,
  // which was about 4% of an authenticated read
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  let seen = dataVersion.get() as number;
  let trusting = false;
  return () => {
    if (othersAnnounce()) {
      if (trusting) return false;
      trusting = true;
    } else trusting = false;
    const now = dataVersion.get() as number;
    if (now === seen) return false;
    seen = now;
    return true;
  };
}
