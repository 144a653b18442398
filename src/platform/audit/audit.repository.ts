import type BetterSqlite3 from 'better-sqlite3';
import type { DatabaseHandle, DbExecutor } from '../db/index.ts';
import type { AuditTable } from '../db/index.ts';
import { chainEntries, GENESIS_HASH, type AuditFields, type ChainedAuditRow } from './audit-chain.ts';

export type AuditRow = Omit<AuditTable, 'seq'> & { seq: number };

const COLUMNS = ['id', 'tenant_id', 'at', 'actor_key_id', 'actor_operator', 'action', 'resource_type', 'resource_id', 'request_id', 'data', 'prev_hash', 'hash', 'format', 'data_hash', 'salt', 'location', 'stream_id'] as const;
const sqliteStatements = new WeakMap<BetterSqlite3.Database, { head: BetterSqlite3.Statement; insert: BetterSqlite3.Statement }>();

function statementsFor(raw: BetterSqlite3.Database) {
  let s = sqliteStatements.get(raw);
  if (!s) {
    s = {
      head: raw.prepare('SELECT hash FROM audit_log WHERE tenant_id = ? ORDER BY seq DESC LIMIT 1').pluck(),
      insert: raw.prepare(`INSERT INTO audit_log (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => '@' + c).join(', ')})`),
    };
    sqliteStatements.set(raw, s);
  }
  return s;
}

/** Queries only. Appends must run inside DatabaseHandle.withWriteLock so chain heads are not raced. */
export const auditRepository = {
  async headHash(db: DbExecutor, tenantId: string): Promise<string> {
    const row = await db
      .selectFrom('audit_log')
      .select('hash')
      .where('tenant_id', '=', tenantId)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.hash ?? GENESIS_HASH;
  },

  /** Chains and inserts entries in order. Caller holds the write lock. */
  async appendChained(db: DbExecutor, entries: AuditFields[]): Promise<void> {
    if (entries.length === 0) return;
    const heads = new Map<string, string>();
    for (const t of new Set(entries.map((e) => e.tenant_id))) heads.set(t, await this.headHash(db, t));
    const rows: ChainedAuditRow[] = chainEntries(entries, (t) => heads.get(t)!);
    // chunk to stay under SQLite's bound-parameter limit
    for (let i = 0; i < rows.length; i += 500) {
      await db.insertInto('audit_log').values(rows.slice(i, i + 500)).execute();
    }
  },

  /** The same append as prepared statements on the raw SQLite connection (detection hot path). Caller holds the write lock. */
  appendChainedSqlite(raw: BetterSqlite3.Database, entries: AuditFields[]): void {
    if (entries.length === 0) return;
    const st = statementsFor(raw);
    for (const row of chainEntries(entries, (t) => (st.head.get(t) as string | undefined) ?? GENESIS_HASH)) st.insert.run(row);
  },

  /**
   * The append of the detection pipeline's commit, inside `database.withWriteLock` (`trx` is its
   * transaction): prepared statements on SQLite's raw connection, the Kysely append on PostgreSQL.
   */
  async appendChainedLocked(database: DatabaseHandle, trx: DbExecutor, entries: AuditFields[]): Promise<void> {
    if (database.sqlite) this.appendChainedSqlite(database.sqlite, entries);
    else await this.appendChained(trx, entries);
  },
};
