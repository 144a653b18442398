import type { DbExecutor, AutomationSettingsTable } from '../../platform/db/index.ts';

export type AutomationSettingsRow = AutomationSettingsTable;

export const automationRepository = {
  listAll(db: DbExecutor) {
    return db.selectFrom('automation_settings').selectAll().execute();
  },
  find(db: DbExecutor, tenantId: string) {
    return db.selectFrom('automation_settings').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
  },
  async upsert(db: DbExecutor, row: AutomationSettingsRow): Promise<void> {
    await db
      .insertInto('automation_settings')
      .values(row)
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ ...row }))
      .execute();
  },
};
