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
      const sent = client.query(q.sql, [...q.parameters]);
      // observed at commit; a failure also aborts the transaction, so every later statement fails
      sent.catch(() => undefined);
      outcomes.push(sent);
    }
    deferred = [];
  };
  const connection: DatabaseConnection = {
    async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
      sendDeferred();
      const { command, rowCount, rows } = await client.query(compiled.sql, [...compiled.parameters]);
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
