import type { DbExecutor } from '../db/database.ts';
import type { AuditRow } from './audit.repository.ts';

export interface AuditFilter {
  resourceType?: string;
  resourceId?: string;
  /** a key id or an operator name */
  actor?: string;
  /** exact action, or a prefix ending in ".*" (e.g. webhook.*) */
  action?: string;
  /** ISO instants, inclusive */
  since?: string;
  until?: string;
}

/** Read queries over the audit trail (the append side lives in audit.repository.ts). */
export const auditQueryRepository = {
  listQuery(db: DbExecutor, tenantId: string, f: AuditFilter) {
    let qb = db.selectFrom('audit_log').selectAll().where('tenant_id', '=', tenantId);
    if (f.resourceType) qb = qb.where('resource_type', '=', f.resourceType);
    if (f.resourceId) qb = qb.where('resource_id', '=', f.resourceId);
    if (f.actor) {
      const actor = f.actor;
      qb = qb.where((eb) => eb.or([eb('actor_key_id', '=', actor), eb('actor_operator', '=', actor)]));
    }
    if (f.action) {
      qb = f.action.endsWith('.*')
        ? qb.where('action', 'like', `${f.action.slice(0, -2).replace(/[\\%_]/g, '\\$&')}.%`)
        : qb.where('action', '=', f.action);
    }
    if (f.since) qb = qb.where('at', '>=', f.since);
    if (f.until) qb = qb.where('at', '<=', f.until);
    return qb;
  },

  /** One tenant's chain in order, `limit` rows after seq `afterSeq` (verification and export stream in chunks). */
  async chainChunk(db: DbExecutor, tenantId: string, afterSeq: number, limit: number): Promise<AuditRow[]> {
    const rows = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('seq', '>', afterSeq)
      .orderBy('seq', 'asc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
  },
};
