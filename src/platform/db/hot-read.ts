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
  const now = syncHotRead(build);
  return async (database, ...params) => now(database, params) ?? build(database.db, ...params).execute();
}

/**
 * The synchronous half of a hot read: the rows when the statement can run at once on SQLite (no
 * transaction open on the connection, the statement not busy), undefined otherwise.
 */
function syncHotRead<P extends unknown[], Row>(build: (db: Db, ...params: P) => Compilable<Row>): (database: DatabaseHandle, params: P) => Row[] | undefined {
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
  return (database, params) => {
    const sqlite = database.sqlite;
    if (!sqlite || sqlite.inTransaction) return undefined;
    const entry = prepared.has(sqlite) ? prepared.get(sqlite)! : prepare(database, params.length);
    if (!entry || entry.statement.busy) return undefined;
    return entry.statement.all(entry.order.map((i) => params[i])) as Row[];
  };
}

/** How often a cached hot read answered from its cache (`hits`) or ran its statement (`misses`); `keep: false` reads as `hotRead` (bench/scene-read-cost.ts compares). */
export interface HotReadCacheStats {
  hits: number;
  misses: number;
  keep: boolean;
}

/**
 * A hot read whose answer is kept, per parameter values, for as long as the database file has not
 * changed: SQLite only, and only while nothing on the file changed since the rows were read
 * (docs/decisions.md, "Request path: the scene read's rows kept until the database changes").
 * Before each call it asks the connection two things, both cheaper than the statement:
 * `total_changes()`, the rows this connection has inserted, changed or deleted since it opened
 * (every write of this process, Kysely's and the raw repositories' alike, committed or not), and
 * `PRAGMA data_version`, which moves when any other connection commits (the admin CLI, a second
 * server, the `sqlite3` shell). When either moved, everything kept is dropped. So a read never
 * answers from rows older than the last committed write, whoever made it.
 *
 * `shape` turns the rows into the answer once, when they are read; the answer is shared by every
 * call until it is dropped, so `shape` freezes what it returns and callers copy what they change.
 * Answers are kept only from a statement run at once (no transaction open on the connection);
 * while a transaction is open the call reads through Kysely as `hotRead` does. PostgreSQL always
 * reads through Kysely, nothing kept. `stats` counts hits and misses.
 */
export function cachedHotRead<P extends Array<string | number>, Row, Out>(
  build: (db: Db, ...params: P) => Compilable<Row> & { execute(): Promise<Row[]> },
  shape: (rows: Row[]) => Out,
  maxEntries = 10_000,
): ((database: DatabaseHandle, ...params: P) => Promise<Out>) & { stats: HotReadCacheStats } {
  const now = syncHotRead(build);
  const kept = new WeakMap<SQLite.Database, KeptAnswers<Out>>();
  const stats: HotReadCacheStats = { hits: 0, misses: 0, keep: true };
  const read = async (database: DatabaseHandle, ...params: P): Promise<Out> => {
    const sqlite = database.sqlite;
    if (!sqlite || sqlite.inTransaction || !stats.keep) return shape(now(database, params) ?? (await build(database.db, ...params).execute()));
    let answers = kept.get(sqlite);
    if (!answers) kept.set(sqlite, (answers = new KeptAnswers<Out>(sqlite, maxEntries)));
    // asked before the statement runs: a commit in between drops answers that were already new
    answers.dropIfChanged();
    const key = params.join('\u0000');
    const hit = answers.get(key);
    if (hit !== undefined) {
      stats.hits++;
      return hit;
    }
    stats.misses++;
    const rows = now(database, params);
    if (rows === undefined) return shape(await build(database.db, ...params).execute());
    return answers.set(key, shape(rows));
  };
  return Object.assign(read, { stats });
}

/** The answers kept for one connection, valid while its `total_changes()` and `data_version` stay as they were. */
class KeptAnswers<Out> {
  private readonly answers = new Map<string, Out>();
  private readonly changes: SQLite.Statement;
  private readonly version: SQLite.Statement;
  private seenChanges = -1;
  private seenVersion = -1;

  constructor(
    sqlite: SQLite.Database,
    private readonly maxEntries: number,
  ) {
    this.changes = sqlite.prepare('SELECT total_changes()').pluck();
    this.version = sqlite.prepare('PRAGMA data_version').pluck();
  }

  /** Drops every answer when the connection wrote or another connection committed since the last call. */
  dropIfChanged(): void {
    const changes = this.changes.get() as number;
    const version = this.version.get() as number;
    if (changes === this.seenChanges && version === this.seenVersion) return;
    this.answers.clear();
    this.seenChanges = changes;
    this.seenVersion = version;
  }

  get(key: string): Out | undefined {
    return this.answers.get(key);
  }

  /** Keeps `answer` (an undefined one, nothing found, is not kept). */
  set(key: string, answer: Out): Out {
    if (answer === undefined) return answer;
    // the oldest entry (Map keeps insertion order) makes room
    if (this.answers.size >= this.maxEntries) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(key, answer);
    return answer;
  }
}
