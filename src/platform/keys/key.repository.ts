import type { DbExecutor, ApiKeyTable } from '../db/index.ts';

export const keyRepository = {
  async insert(db: DbExecutor, row: ApiKeyTable): Promise<void> {
    await db.insertInto('api_keys').values(row).execute();
  },
  findByHash(db: DbExecutor, hash: string) {
    return db.selectFrom('api_keys').selectAll().where('key_hash', '=', hash).executeTakeFirst();
  },
  findById(db: DbExecutor, id: string) {
    return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  },
  findForTenant(db: DbExecutor, tenantId: string, id: string) {
    return db.selectFrom('api_keys').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  },
  /** Every key of one tenant, newest first (a tenant holds tens of keys, not thousands). */
  listForTenant(db: DbExecutor, tenantId: string) {
    return db.selectFrom('api_keys').selectAll().where('tenant_id', '=', tenantId).orderBy('id', 'desc').execute();
  },
  listAll(db: DbExecutor) {
    return db
      .selectFrom('api_keys')
      .innerJoin('tenants', 'tenants.id', 'api_keys.tenant_id')
      .selectAll('api_keys')
      .select('tenants.name as tenant_name')
      .orderBy('api_keys.id', 'desc')
      .execute();
  },
  /** Which of these keys are revoked (or gone). */
  async revokedAmong(db: DbExecutor, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const live = new Set((await db.selectFrom('api_keys').select('id').where('id', 'in', ids).where('revoked_at', 'is', null).execute()).map((r) => r.id));
    return ids.filter((id) => !live.has(id));
  },
  async revoke(db: DbExecutor, id: string, at: string): Promise<boolean> {
    const res = await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  },
};
