import type { DbExecutor } from '../../platform/db/database.ts';
import type { AlertRuleTable } from '../../platform/db/schema.ts';

export type AlertRuleRow = AlertRuleTable;

export const alertRuleRepository = {
  listAll(db: DbExecutor) {
    return db.selectFrom('alert_rules').selectAll().execute();
  },
  findForTenant(db: DbExecutor, tenantId: string, id: string) {
    return db.selectFrom('alert_rules').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  },
  listQuery(db: DbExecutor, tenantId: string) {
    return db.selectFrom('alert_rules').selectAll().where('tenant_id', '=', tenantId);
  },
  async insert(db: DbExecutor, row: AlertRuleRow): Promise<void> {
    await db.insertInto('alert_rules').values(row).execute();
  },
  async update(db: DbExecutor, id: string, patch: Partial<AlertRuleRow>): Promise<void> {
    await db.updateTable('alert_rules').set(patch).where('id', '=', id).execute();
  },
  async delete(db: DbExecutor, id: string): Promise<void> {
    await db.deleteFrom('alert_rules').where('id', '=', id).execute();
  },
};
