import { sql } from 'kysely';
import { type DbExecutor, type StreamTable, type PageQuery, paginate } from '../../platform/db/index.ts';

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
  /** A page of the streams a key may see, optionally at one location (docs/design.md "Lists"). */
  listPage(db: DbExecutor, tenantId: string, locations: readonly string[] | null, f: { location?: string }, page: PageQuery) {
    let q = this.listQuery(db, tenantId, locations);
    if (f.location) q = q.where('location', '=', f.location);
    return paginate(q, 'id', page);
  },
  listForTenant(db: DbExecutor, tenantId: string) {
    return this.listQuery(db, tenantId, null).execute();
  },
  /** Each stream's id and scene, with its status and last frame (a scene view lists its streams and says how fresh it is). */
  listSceneIds(db: DbExecutor, tenantId: string) {
    return db.selectFrom('streams').select(['id', 'scene_id', 'status', 'last_frame_at', 'source_type']).where('tenant_id', '=', tenantId).execute();
  },
  /** A stream by id whatever its tenant (WHIP: the publish token, not a key, says who may use it). */
  findById(db: DbExecutor, id: string) {
    return db.selectFrom('streams').selectAll().where('id', '=', id).executeTakeFirst();
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
