import { sql } from 'kysely';
import type { DbExecutor } from '../../platform/db/database.ts';
import type { StreamTable } from '../../platform/db/schema.ts';

export type StreamRow = StreamTable;

export const streamRepository = {
  async insert(db: DbExecutor, row: StreamRow): Promise<void> {
    await db.insertInto('streams').values(row).execute();
  },
  findForTenant(db: DbExecutor, tenantId: string, id: string) {
    return db.selectFrom('streams').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  },
  /** Base query for a tenant's streams, optionally limited to locations (key restrictions). */
  listQuery(db: DbExecutor, tenantId: string, locations: readonly string[] | null) {
    let q = db.selectFrom('streams').selectAll().where('tenant_id', '=', tenantId);
    if (locations) q = locations.length ? q.where('location', 'in', [...locations]) : q.where(sql<boolean>`1 = 0`);
    return q;
  },
  listRunnable(db: DbExecutor) {
    return db.selectFrom('streams').selectAll().execute();
  },
  listByScene(db: DbExecutor, sceneId: string) {
    return db.selectFrom('streams').selectAll().where('scene_id', '=', sceneId).execute();
  },
  async update(db: DbExecutor, id: string, patch: Partial<StreamRow>): Promise<void> {
    await db.updateTable('streams').set(patch).where('id', '=', id).execute();
  },
  async delete(db: DbExecutor, id: string): Promise<void> {
    await db.deleteFrom('streams').where('id', '=', id).execute();
  },
};
