import { sql } from 'kysely';
import type { DbExecutor } from '../../platform/db/index.ts';
import type { SceneTable } from '../../platform/db/index.ts';
import { paginate, type PageQuery } from '../../platform/db/index.ts';

export type SceneRow = SceneTable;

export const sceneRepository = {
  findByLocation(db: DbExecutor, tenantId: string, location: string) {
    return db.selectFrom('scenes').selectAll().where('tenant_id', '=', tenantId).where('location', '=', location).executeTakeFirst();
  },
  findForTenant(db: DbExecutor, tenantId: string, id: string) {
    return db.selectFrom('scenes').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  },
  listQuery(db: DbExecutor, tenantId: string, locations: readonly string[] | null) {
    let q = db.selectFrom('scenes').selectAll().where('tenant_id', '=', tenantId);
    if (locations) q = locations.length ? q.where('location', 'in', [...locations]) : q.where(sql<boolean>`1 = 0`);
    return q;
  },
  /** A page of the scenes a key may see, optionally at one location (DESIGN.md "Lists"). */
  listPage(db: DbExecutor, tenantId: string, locations: readonly string[] | null, f: { location?: string }, page: PageQuery) {
    let q = this.listQuery(db, tenantId, locations);
    if (f.location) q = q.where('location', '=', f.location);
    return paginate(q, 'id', page);
  },
  listForTenant(db: DbExecutor, tenantId: string) {
    return db.selectFrom('scenes').selectAll().where('tenant_id', '=', tenantId).execute();
  },
  findById(db: DbExecutor, id: string) {
    return db.selectFrom('scenes').selectAll().where('id', '=', id).executeTakeFirst();
  },
  listAll(db: DbExecutor) {
    return db.selectFrom('scenes').selectAll().execute();
  },
  async insert(db: DbExecutor, row: SceneRow): Promise<void> {
    await db.insertInto('scenes').values(row).execute();
  },
  async update(db: DbExecutor, id: string, patch: Partial<SceneRow>): Promise<void> {
    await db.updateTable('scenes').set(patch).where('id', '=', id).execute();
  },
};
