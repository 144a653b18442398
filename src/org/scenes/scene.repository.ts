import { sql } from 'kysely';
import { type DatabaseHandle, type DbExecutor, type SceneTable, type PageQuery, cachedHotRead, paginate } from '../../platform/db/index.ts';

export type SceneRow = SceneTable;

/** What a scene read needs of each of its streams: its id, and its status and last frame for freshness. */
export interface SceneStreamRef {
  id: string;
  status: string;
  last_frame_at: string | null;
  source_type: string;
}

/**
 * A scene and the ids of its streams in one statement (one row per stream, or one row with a null
 * stream id): `GET /v1/scenes/:id` is the read path the read bench measures (docs/decisions.md, 'Read path, third pass'), and each statement is a
 * read transaction of its own. What it found is kept until anything on the database file changes
 * (`cachedHotRead`; docs/decisions.md, "Request path: the scene read's rows kept until the database
 * changes"), frozen: the scene's counts and freshness are still worked out from the engine and the
 * clock on every read (scene.service.ts `toView`).
 */
export const findWithStreamIds = cachedHotRead(
  (db, tenantId: string, id: string) =>
    db
      .selectFrom('scenes')
      // a scene's streams, found through streams(scene_id) (migration 028); the tenant condition
      // stays, so a stream of another tenant could never join
      .leftJoin('streams', (join) => join.onRef('streams.scene_id', '=', 'scenes.id').onRef('streams.tenant_id', '=', 'scenes.tenant_id'))
      .selectAll('scenes')
      // each stream's status and last frame: the scene's freshness (src/org/scenes/scene-freshness.ts)
      .select([
        'streams.id as stream_id',
        'streams.status as stream_status',
        'streams.last_frame_at as stream_last_frame_at',
        'streams.source_type as stream_source_type',
      ])
      .where('scenes.tenant_id', '=', tenantId)
      .where('scenes.id', '=', id),
  sceneWithStreams,
);

/** The scene's row and its streams from the statement's rows (one per stream, or one with a null stream id), frozen; undefined when there is no scene. */
function sceneWithStreams(
  rows: Array<SceneRow & { stream_id: string | null; stream_status: string | null; stream_last_frame_at: string | null; stream_source_type: string | null }>,
): { row: SceneRow; streams: readonly SceneStreamRef[] } | undefined {
  if (rows.length === 0) return undefined;
  const { stream_id: _streamId, stream_status: _s, stream_last_frame_at: _l, stream_source_type: _t, ...row } = rows[0];
  const streams = rows.flatMap((r) =>
    r.stream_id === null
      ? []
      : [
          Object.freeze({
            id: r.stream_id,
            status: r.stream_status ?? 'connecting',
            last_frame_at: r.stream_last_frame_at ?? null,
            source_type: r.stream_source_type ?? 'rtsp',
          }),
        ],
  );
  return Object.freeze({ row: Object.freeze(row), streams: Object.freeze(streams) });
}

export const sceneRepository = {
  /** A scene of the tenant with its streams (id, status, last frame, source type; unordered); undefined when there is none. */
  findWithStreamIds(database: DatabaseHandle, tenantId: string, id: string): Promise<{ row: SceneRow; streams: readonly SceneStreamRef[] } | undefined> {
    return findWithStreamIds(database, tenantId, id);
  },
  /** scene id → its time zone, for the given scenes */
  async timeZones(db: DbExecutor, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .selectFrom('scenes')
      .select(['id', 'time_zone'])
      .where('id', 'in', [...ids])
      .execute();
    return new Map(rows.map((r) => [r.id, r.time_zone]));
  },
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
  /** A page of the scenes a key may see, optionally at one location (docs/design.md "Lists"). */
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
  /**
   * Cluster mode: records this node's held anomalies of a scene (key → held until, epoch ms; a
   * later time wins), drops the scene's expired ones, and answers how many are held now by every
   * node together (migration 021).
   */
  async shareAnomalies(db: DbExecutor, sceneId: string, held: ReadonlyArray<readonly [string, number]>, now: number): Promise<number> {
    for (let i = 0; i < held.length; i += 500) {
      await db
        .insertInto('scene_anomalies')
        .values(held.slice(i, i + 500).map(([key, until]) => ({ scene_id: sceneId, anomaly_key: key, until_at: until })))
        .onConflict((oc) =>
          oc.columns(['scene_id', 'anomaly_key']).doUpdateSet({
            until_at: sql<number>`case when excluded.until_at > scene_anomalies.until_at then excluded.until_at else scene_anomalies.until_at end`,
          }),
        )
        .execute();
    }
    await db.deleteFrom('scene_anomalies').where('scene_id', '=', sceneId).where('until_at', '<=', now).execute();
    return this.activeAnomalies(db, sceneId, now);
  },
  /** Cluster mode: the scene's anomalies held now by any node. */
  async activeAnomalies(db: DbExecutor, sceneId: string, now: number): Promise<number> {
    const r = await db
      .selectFrom('scene_anomalies')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('scene_id', '=', sceneId)
      .where('until_at', '>', now)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  },
};
