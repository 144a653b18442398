import type pg from 'pg';
import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Database } from './schema.ts';

export interface PipelinedTransaction {
  /** the executor handed to the transaction's body */
  db: Kysely<Database>;
  /**
   * Statements whose results nobody waits for: sent just before the next statement of the
   * transaction, or with COMMIT, in the same round trip. Their order among all statements is kept.
   */
  defer(statements: readonly CompiledQuery[]): void;
  /** sends what was deferred and COMMIT together; throws if any of them failed (nothing was committed then) */
  commit(): Promise<void>;
}

/** a statement text is prepared under a name from its NAME_AFTER-th use on; at most MAX_NAMED texts are */
const NAME_AFTER = 2;
const MAX_NAMED = 64;
const uses = new Map<string, number>();
const names = new Map<string, string>();

/**
 * The name a statement text is prepared under on the pipeline's connections, once it recurs
 * (docs/decisions.md, "Pipeline p95 tail"): the server then parses it once per connection instead
 * of in every commit. It is still planned at every execution (the pool's connections run with
 * plan_cache_mode = force_custom_plan, database.ts): with the generic plan PostgreSQL switched to,
 * made while the tables were small, the insert's execution grew with the tables. The pipeline's
 * statements are a few fixed texts (its insert is the same whatever the batch size); texts that
 * vary (an IN list of another length) stop being named once MAX_NAMED are, and the counts of
 * texts seen once start over past a bound.
 */
function statementName(text: string): string | undefined {
  const named = names.get(text);
  if (named !== undefined || names.size >= MAX_NAMED) return named;
  const n = (uses.get(text) ?? 0) + 1;
  if (n < NAME_AFTER) {
    if (uses.size >= 4 * MAX_NAMED) uses.clear();
    uses.set(text, n);
    return undefined;
  }
  uses.delete(text);
  const name = `vigil_pipe_${names.size}`;
  names.set(text, name);
  return name;
}

/**
 * A Kysely executor over one checked-out PostgreSQL connection in node-postgres' pipeline mode,
 * without Kysely's one-query-at-a-time mutex: a query is put on the wire when it is made, behind
 * whatever the connection is still waiting for, so queries made together share one round trip
 * (docs/decisions.md, "PostgreSQL commit in two round trips"). The server still runs them one after
 * the other, in the order they were sent; each keeps its own Sync, and inside the transaction a
 * failed statement aborts it, so every later one fails too (nothing after a failure is applied).
 */
export function pipelinedTransaction(client: pg.PoolClient): PipelinedTransaction {
  let deferred: CompiledQuery[] = [];
  const outcomes: Array<Promise<unknown>> = [];
  const sendDeferred = () => {
    for (const q of deferred) {
      const sent = client.query({ text: q.sql, values: [...q.parameters], name: statementName(q.sql) });
      // observed at commit; a failure also aborts the transaction, so every later statement fails
      sent.catch(() => undefined);
      outcomes.push(sent);
    }
    deferred = [];
  };
  const connection: DatabaseConnection = {
    async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
      sendDeferred();
      const { command, rowCount, rows } = await client.query({ text: compiled.sql, values: [...compiled.parameters], name: statementName(compiled.sql) });
      const counted = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
      return { numAffectedRows: counted ? BigInt(rowCount ?? 0) : undefined, rows: (rows ?? []) as R[] };
    },
    async *streamQuery(): AsyncIterableIterator<QueryResult<never>> {
      throw new Error('streaming is not available inside a pipelined commit');
    },
  };
  const refuse = async () => {
    throw new Error('a pipelined commit is already a transaction: nested transactions are not available in it');
  };
  const driver: Driver = {
    init: async () => undefined,
    acquireConnection: async () => connection,
    beginTransaction: refuse,
    commitTransaction: refuse,
    rollbackTransaction: refuse,
    releaseConnection: async () => undefined,
    destroy: async () => undefined,
  };
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  return {
    db,
    defer: (statements) => void deferred.push(...statements),
    async commit() {
      sendDeferred();
      const done = client.query('COMMIT');
      const settled = await Promise.allSettled([...outcomes, done]);
      const failed = settled.find((s) => s.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
      // PostgreSQL answers COMMIT of an aborted transaction with ROLLBACK, not an error
      const { command } = (settled[settled.length - 1] as PromiseFulfilledResult<pg.QueryResult>).value;
      if (command !== 'COMMIT') throw new Error(`the commit was rolled back (${command})`);
    },
  };
}
