import { sql } from 'kysely';
import { type DbExecutor, type AlertTable, type PageQuery, paginate } from '../../platform/db/index.ts';

export type AlertRow = AlertTable;

export const alertRepository = {
  async insertMany(db: DbExecutor, rows: AlertRow[]): Promise<void> {
    // 17 columns per row: well inside SQLite's bound-parameter limit at 500 rows
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('alerts')
        .values(rows.slice(i, i + 500))
        .execute();
  },
  findForTenant(db: DbExecutor, tenantId: string, id: string) {
    return db.selectFrom('alerts').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  },
  listQuery(db: DbExecutor, tenantId: string, locations: readonly string[] | null) {
    let q = db.selectFrom('alerts').selectAll().where('tenant_id', '=', tenantId);
    if (locations) q = locations.length ? q.where('location', 'in', [...locations]) : q.where(sql<boolean>`1 = 0`);
    return q;
  },
  /** A page of the alerts a key may see, filtered (docs/design.md "Lists"); `since` is an ISO time. */
  listPage(
    db: DbExecutor,
    tenantId: string,
    locations: readonly string[] | null,
    f: { ruleId?: string; status?: AlertTable['status']; location?: string; since?: string },
    page: PageQuery,
  ) {
    let q = this.listQuery(db, tenantId, locations);
    if (f.ruleId) q = q.where('rule_id', '=', f.ruleId);
    if (f.status) q = q.where('status', '=', f.status);
    if (f.location) q = q.where('location', '=', f.location);
    if (f.since) q = q.where('fired_at', '>=', f.since);
    return paginate(q, 'id', page);
  },
  listByIncident(db: DbExecutor, incidentId: string) {
    return db.selectFrom('alerts').selectAll().where('incident_id', '=', incidentId).orderBy('id', 'asc').limit(1000).execute();
  },
  /** Detection time of each rule's last alert per scene: the cooldowns to restore after a restart. */
  lastFiredByRuleAndScene(db: DbExecutor) {
    return db
      .selectFrom('alerts')
      .select(['rule_id', 'scene_id', (eb) => eb.fn.max<number>('detected_at').as('last')])
      .groupBy(['rule_id', 'scene_id'])
      .execute();
  },
  /**
   * Cluster mode: claims a rule's firing at a scene for the detection time `at`, unless another
   * firing (from any node) lies within `cooldownMs` of it either way. One conditional upsert: on
   * PostgreSQL the row lock of ON CONFLICT DO UPDATE makes a second node's claim wait for the
   * first's transaction and then re-check against its time, so at most one of them fires.
   */
  async claimCooldown(db: DbExecutor, ruleId: string, sceneId: string, at: number, cooldownMs: number): Promise<boolean> {
    const { rows } = await sql<{ last_at: number }>`
      insert into alert_cooldowns (rule_id, scene_id, last_at) values (${ruleId}, ${sceneId}, ${at})
      on conflict (rule_id, scene_id) do update set last_at = case when excluded.last_at > alert_cooldowns.last_at then excluded.last_at else alert_cooldowns.last_at end
      where abs(excluded.last_at - alert_cooldowns.last_at) >= ${cooldownMs}
      returning last_at`.execute(db);
    return rows.length > 0;
  },
  async update(db: DbExecutor, id: string, patch: Partial<AlertRow>): Promise<void> {
    await db.updateTable('alerts').set(patch).where('id', '=', id).execute();
  },
};
