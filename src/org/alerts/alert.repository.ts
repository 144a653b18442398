import { sql } from 'kysely';
import type { DbExecutor } from '../../platform/db/database.ts';
import type { AlertTable } from '../../platform/db/schema.ts';

export type AlertRow = AlertTable;

export const alertRepository = {
  async insertMany(db: DbExecutor, rows: AlertRow[]): Promise<void> {
    // 17 columns per row: well inside SQLite's bound-parameter limit at 500 rows
    for (let i = 0; i < rows.length; i += 500) await db.insertInto('alerts').values(rows.slice(i, i + 500)).execute();
  },
  findForTenant(db: DbExecutor, tenantId: string, id: string) {
    return db.selectFrom('alerts').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  },
  listQuery(db: DbExecutor, tenantId: string, locations: readonly string[] | null) {
    let q = db.selectFrom('alerts').selectAll().where('tenant_id', '=', tenantId);
    if (locations) q = locations.length ? q.where('location', 'in', [...locations]) : q.where(sql<boolean>`1 = 0`);
    return q;
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
  async update(db: DbExecutor, id: string, patch: Partial<AlertRow>): Promise<void> {
    await db.updateTable('alerts').set(patch).where('id', '=', id).execute();
  },
};
