import type { DbExecutor } from '../../platform/db/index.ts';
import type { ResponderTable } from '../../platform/db/index.ts';
import { paginate, type PageQuery } from '../../platform/db/index.ts';

export type ResponderRow = ResponderTable;

export const responderRepository = {
  async insert(db: DbExecutor, row: ResponderRow): Promise<void> {
    await db.insertInto('responders').values(row).execute();
  },
  findForTenant(db: DbExecutor, tenantId: string, id: string) {
    return db.selectFrom('responders').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  },
  listQuery(db: DbExecutor, tenantId: string) {
    return db.selectFrom('responders').selectAll().where('tenant_id', '=', tenantId);
  },
  listPage(db: DbExecutor, tenantId: string, f: { escalationLevel?: number }, page: PageQuery) {
    let q = this.listQuery(db, tenantId);
    if (f.escalationLevel !== undefined) q = q.where('escalation_level', '=', f.escalationLevel);
    return paginate(q, 'id', page);
  },
  /** Everyone a protocol at this level reaches (issue 3 §4: "every responder at or below the level"). */
  listAtOrBelow(db: DbExecutor, tenantId: string, level: number) {
    return db.selectFrom('responders').selectAll().where('tenant_id', '=', tenantId).where('escalation_level', '<=', level).orderBy('id', 'asc').execute();
  },
  async update(db: DbExecutor, id: string, patch: Partial<ResponderRow>): Promise<void> {
    await db.updateTable('responders').set(patch).where('id', '=', id).execute();
  },
  async delete(db: DbExecutor, id: string): Promise<void> {
    await db.deleteFrom('responders').where('id', '=', id).execute();
  },
};
