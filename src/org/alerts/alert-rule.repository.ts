import { type DbExecutor, type AlertRuleTable, type PageQuery, paginate } from '../../platform/db/index.ts';
import { sql } from 'kysely';

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
  /** A page of a tenant's rules; `ids` limits it to those rules (null: all of them). */
  listPage(db: DbExecutor, tenantId: string, ids: readonly string[] | null, page: PageQuery) {
    let q = this.listQuery(db, tenantId);
    if (ids) q = ids.length ? q.where('id', 'in', [...ids]) : q.where(sql<boolean>`1 = 0`);
    return paginate(q, 'id', page);
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
