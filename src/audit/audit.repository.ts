import type { DbExecutor } from '../db/database.ts';
import type { AuditTable } from '../db/schema.ts';
import { computeAuditHash, GENESIS_HASH, type AuditFields } from './audit-chain.ts';

export type AuditRow = Omit<AuditTable, 'seq'> & { seq: number };

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
    const rows: Omit<AuditRow, 'seq'>[] = [];
    for (const e of entries) {
      let prev = heads.get(e.tenant_id);
      if (prev === undefined) prev = await this.headHash(db, e.tenant_id);
      const hash = computeAuditHash(prev, e);
      rows.push({ ...e, prev_hash: prev, hash });
      heads.set(e.tenant_id, hash);
    }
    // chunk to stay under SQLite's bound-parameter limit
    for (let i = 0; i < rows.length; i += 500) {
      await db.insertInto('audit_log').values(rows.slice(i, i + 500)).execute();
    }
  },
};
