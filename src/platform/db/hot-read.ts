import type SQLite from 'better-sqlite3';
import type { Compilable } from 'kysely';
import type { DatabaseHandle, Db } from './database.ts';

/**
 * A hot read: a select defined once with Kysely, run on SQLite as one prepared
 * statement called synchronously on the raw connection, and through Kysely otherwise.
 *
 * Why: on an authenticated read, Kysely's per-query path (building and compiling the query,
 * the connection mutex, promise hops) cost more than SQLite executing the statement. The query is
 * compiled once with placeholder values; each call binds its own values in their place.
 *
 * When it is safe: a synchronous statement cannot interleave with anything, and runs in its own
 * implicit read transaction, so it sees exactly the committed rows, as a Kysely query would.
 * The one exception is a transaction open on the shared connection (withWriteLock holds one across
 * awaits): a raw read would then see that transaction's uncommitted rows, so the call goes through
 * Kysely, which waits for the transaction to end. PostgreSQL always goes through Kysely.
 *
 * Every parameter must be a single value (no `in` lists), so the statement's shape never depends on
 * the values.
 */
export function hotRead<P extends unknown[], Row>(
  build: (db: Db, ...params: P) => Compilable<Row> & { execute(): Promise<Row[]> },
): (database: DatabaseHandle, ...params: P) => Promise<Row[]> {
  // per connection: tests and the CLI open several databases in one process
  const prepared = new WeakMap<SQLite.Database, { statement: SQLite.Statement; order: number[] } | null>();
  const prepare = (database: DatabaseHandle, arity: number) => {
    const sentinels = Array.from({ length: arity }, (_, i) => `\u0000hot-read-param-${i}\u0000`);
    const compiled = build(database.db, ...(sentinels as P)).compile();
    const order = compiled.parameters.map((v) => sentinels.indexOf(v as string));
    // a constant Kysely inlined as a parameter, or a value used in a list: not a shape we can rebind
    const entry = order.some((i) => i < 0) ? null : { statement: database.sqlite!.prepare(compiled.sql), order };
    prepared.set(database.sqlite!, entry);
    return entry;
  };
  return async (database, ...params) => {
    const sqlite = database.sqlite;
    if (sqlite && !sqlite.inTransaction) {
      const entry = prepared.has(sqlite) ? prepared.get(sqlite)! : prepare(database, params.length);
      if (entry && !entry.statement.busy) return entry.statement.all(entry.order.map((i) => params[i])) as Row[];
    }
    return build(database.db, ...params).execute();
  };
}
