import type { DbExecutor, TenantTable } from '../db/index.ts';

export type TenantKind = TenantTable['kind'];

export const tenantRepository = {
  findByName(db: DbExecutor, kind: TenantKind, name: string) {
    return db.selectFrom('tenants').selectAll().where('kind', '=', kind).where('name', '=', name).executeTakeFirst();
  },
  findById(db: DbExecutor, id: string) {
    return db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async any(db: DbExecutor): Promise<boolean> {
    return (await db.selectFrom('tenants').select('id').limit(1).executeTakeFirst()) !== undefined;
  },
  async insert(db: DbExecutor, row: TenantTable): Promise<void> {
    await db.insertInto('tenants').values(row).execute();
  },
  async updateSettings(db: DbExecutor, id: string, settings: string): Promise<void> {
    await db.updateTable('tenants').set({ settings }).where('id', '=', id).execute();
  },
};
