import { type DbExecutor, type WatchTable, type PageQuery, paginate } from '../../platform/db/index.ts';

export type WatchRow = WatchTable;

export const watchRepository = {
  async insert(db: DbExecutor, row: WatchRow): Promise<void> {
    await db.insertInto('watches').values(row).execute();
  },
  findForTenant(db: DbExecutor, tenantId: string, id: string) {
    return db.selectFrom('watches').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  },
  listQuery(db: DbExecutor, tenantId: string, status: WatchRow['status']) {
    return db.selectFrom('watches').selectAll().where('tenant_id', '=', tenantId).where('status', '=', status);
  },
  listPage(db: DbExecutor, tenantId: string, status: WatchRow['status'], page: PageQuery) {
    return paginate(this.listQuery(db, tenantId, status), 'id', page);
  },
  /** Active watches of one household, or of every household (server start). */
  listActive(db: DbExecutor, tenantId: string | null) {
    let q = db.selectFrom('watches').selectAll().where('status', '=', 'active').orderBy('id', 'asc');
    if (tenantId) q = q.where('tenant_id', '=', tenantId);
    return q.execute();
  },
  /** Which of these watches are still active, read inside the caller's transaction. */
  async filterActive(db: DbExecutor, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await db.selectFrom('watches').select('id').where('id', 'in', ids).where('status', '=', 'active').execute();
    return new Set(rows.map((r) => r.id));
  },
  async update(db: DbExecutor, id: string, patch: Partial<WatchRow>): Promise<void> {
    await db.updateTable('watches').set(patch).where('id', '=', id).execute();
  },
};
