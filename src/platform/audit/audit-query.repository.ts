import { sql } from 'kysely';
import { type DbExecutor, type PageQuery, type AuditCheckpointTable, paginate } from '../db/index.ts';
import type { AuditRow } from './audit.repository.ts';

export interface AuditFilter {
  resourceType?: string;
  resourceId?: string;
  /** a key id or an operator name */
  actor?: string;
  /** any of these actions: each exact, or a family ending in ".*" (e.g. webhook.*) */
  action?: readonly string[];
  /** none of these actions (same forms), e.g. detection.* to hide detection entries */
  excludeAction?: readonly string[];
  /** ISO instants, inclusive */
  since?: string;
  until?: string;
}

/**
 * What of a tenant's trail a key may read: an organization key limited to
 * locations sees only entries of those locations — organization-wide entries (no location: keys,
 * webhooks and rules over several places, automation, responders) are for unrestricted keys; in a
 * household no key sees entries about a muted sensor or a room or sensor left alone.
 */
export interface AuditVisibility {
  /** null = every location */
  allowedLocations: readonly string[] | null;
  hiddenLocations: readonly string[];
  hiddenStreams: readonly string[];
  /** incidents, alerts and protocol runs that a hidden sensor or place gave rise to */
  hiddenResources: readonly string[];
}

export const FULL_VISIBILITY: AuditVisibility = { allowedLocations: null, hiddenLocations: [], hiddenStreams: [], hiddenResources: [] };

export type AuditCheckpointRow = Omit<AuditCheckpointTable, 'head_seq' | 'entry_count'> & { head_seq: number; entry_count: number };

const toCheckpointRow = (r: AuditCheckpointTable): AuditCheckpointRow => ({ ...r, head_seq: Number(r.head_seq), entry_count: Number(r.entry_count) });

/**
 * `action` equal to an exact name, or in a family (`incident.*`, `protocol_run.*`). The family's
 * LIKE pattern escapes `%`, `_` and `\` and says which character escapes: SQLite has no default
 * escape character (PostgreSQL's is the backslash), so `protocol_run.*` found nothing on SQLite.
 */
function actionMatches(pattern: string) {
  if (!pattern.endsWith('.*')) return sql<boolean>`${sql.ref('action')} = ${pattern}`;
  const like = `${pattern.slice(0, -2).replace(/[\\%_]/g, '\\$&')}.%`;
  return sql<boolean>`${sql.ref('action')} like ${like} escape '\\'`;
}

/** Read queries over the audit trail and its checkpoints (the append side lives in audit.repository.ts). */
export const auditQueryRepository = {
  listQuery(db: DbExecutor, tenantId: string, f: AuditFilter, v: AuditVisibility = FULL_VISIBILITY) {
    let qb = db.selectFrom('audit_log').selectAll().where('tenant_id', '=', tenantId);
    if (f.resourceType) qb = qb.where('resource_type', '=', f.resourceType);
    if (f.resourceId) qb = qb.where('resource_id', '=', f.resourceId);
    if (f.actor) {
      const actor = f.actor;
      qb = qb.where((eb) => eb.or([eb('actor_key_id', '=', actor), eb('actor_operator', '=', actor)]));
    }
    if (f.action?.length) {
      const any = f.action;
      qb = qb.where((eb) => eb.or(any.map((a) => actionMatches(a))));
    }
    if (f.excludeAction?.length) {
      const none = f.excludeAction;
      qb = qb.where((eb) => eb.not(eb.or(none.map((a) => actionMatches(a)))));
    }
    if (f.since) qb = qb.where('at', '>=', f.since);
    if (f.until) qb = qb.where('at', '<=', f.until);
    // a location-limited key reads its places only; NULL scope ("not about one place") stays
    // visible to unrestricted keys and, for households, through the explicit IS NULL arms below
    const allowed = v.allowedLocations;
    if (allowed) qb = allowed.length === 0 ? qb.where(sql<boolean>`false`) : qb.where('location', 'in', [...allowed]);
    if (v.hiddenLocations.length) qb = qb.where((eb) => eb.or([eb('location', 'is', null), eb('location', 'not in', [...v.hiddenLocations])]));
    if (v.hiddenStreams.length) qb = qb.where((eb) => eb.or([eb('stream_id', 'is', null), eb('stream_id', 'not in', [...v.hiddenStreams])]));
    if (v.hiddenResources.length) qb = qb.where((eb) => eb.or([eb('resource_id', 'is', null), eb('resource_id', 'not in', [...v.hiddenResources])]));
    return qb;
  },

  /** One tenant's chain in order, `limit` rows after seq `afterSeq`, up to `maxSeq` (verification and export stream in chunks). */
  async chainChunk(db: DbExecutor, tenantId: string, afterSeq: number, limit: number, maxSeq?: number): Promise<AuditRow[]> {
    let qb = db.selectFrom('audit_log').selectAll().where('tenant_id', '=', tenantId).where('seq', '>', afterSeq);
    if (maxSeq !== undefined) qb = qb.where('seq', '<=', maxSeq);
    const rows = await qb.orderBy('seq', 'asc').limit(limit).execute();
    return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
  },

  /** The chain positions (seq) of entries of a tenant, by id. */
  async seqsOf(db: DbExecutor, tenantId: string, ids: readonly string[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await db
      .selectFrom('audit_log')
      .select('seq')
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', [...ids])
      .execute();
    return rows.map((r) => Number(r.seq));
  },

  async head(db: DbExecutor, tenantId: string): Promise<{ seq: number; id: string; hash: string } | null> {
    const row = await db
      .selectFrom('audit_log')
      .select(['seq', 'id', 'hash'])
      .where('tenant_id', '=', tenantId)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? { ...row, seq: Number(row.seq) } : null;
  },

  async countBetween(db: DbExecutor, tenantId: string, afterSeq: number, toSeq: number): Promise<number> {
    const row = await db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', tenantId)
      .where('seq', '>', afterSeq)
      .where('seq', '<=', toSeq)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async latestCheckpoint(db: DbExecutor, tenantId: string): Promise<AuditCheckpointRow | null> {
    const row = await db.selectFrom('audit_checkpoints').selectAll().where('tenant_id', '=', tenantId).orderBy('id', 'desc').limit(1).executeTakeFirst();
    return row ? toCheckpointRow(row) : null;
  },

  /** Checkpoints whose head lies in (afterSeq, toSeq] (toSeq omitted: every later one), oldest first. */
  async checkpointsInRange(db: DbExecutor, tenantId: string, afterSeq: number, toSeq?: number): Promise<AuditCheckpointRow[]> {
    let qb = db.selectFrom('audit_checkpoints').selectAll().where('tenant_id', '=', tenantId).where('head_seq', '>', afterSeq);
    if (toSeq !== undefined) qb = qb.where('head_seq', '<=', toSeq);
    return (await qb.orderBy('head_seq', 'asc').orderBy('id', 'asc').execute()).map(toCheckpointRow);
  },

  checkpointsQuery(db: DbExecutor, tenantId: string) {
    return db.selectFrom('audit_checkpoints').selectAll().where('tenant_id', '=', tenantId);
  },

  /** A page of entries matching the filter that the reader may see (docs/design.md "Lists"). */
  listPage(db: DbExecutor, tenantId: string, f: AuditFilter, v: AuditVisibility, page: PageQuery) {
    return paginate(this.listQuery(db, tenantId, f, v), 'id', page);
  },

  checkpointsPage(db: DbExecutor, tenantId: string, page: PageQuery) {
    return paginate(this.checkpointsQuery(db, tenantId), 'id', page);
  },

  async insertCheckpoint(db: DbExecutor, row: AuditCheckpointRow): Promise<void> {
    await db.insertInto('audit_checkpoints').values(row).execute();
  },

  /** Where an entry belongs (location, stream), for deciding whether a confined key may see its id. */
  placeOf(db: DbExecutor, tenantId: string, id: string) {
    return db
      .selectFrom('audit_log')
      .select(['location', 'stream_id', 'resource_id'])
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async tenantIds(db: DbExecutor): Promise<string[]> {
    return (await db.selectFrom('tenants').select('id').execute()).map((r) => r.id);
  },

  async serverSecret(db: DbExecutor, name: string): Promise<string | null> {
    return (await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirst())?.value ?? null;
  },

  async deleteServerSecret(db: DbExecutor, name: string): Promise<void> {
    await db.deleteFrom('server_secrets').where('name', '=', name).execute();
  },

  /** Stores the value unless one exists (first node to start wins); returns the stored one. */
  async ensureServerSecret(db: DbExecutor, name: string, value: string, createdAt: string): Promise<string> {
    await db
      .insertInto('server_secrets')
      .values({ name, value, created_at: createdAt })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    return (await this.serverSecret(db, name))!;
  },
};
