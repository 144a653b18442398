import type { DbExecutor, DetectionSnapshotTable, SnapshotTable } from '../../platform/db/index.ts';

export const snapshotRepository = {
  /** One JPEG and the detections it illustrates. */
  async insert(db: DbExecutor, snapshot: SnapshotTable, links: DetectionSnapshotTable[]): Promise<void> {
    await db.insertInto('snapshots').values(snapshot).execute();
    if (links.length) await db.insertInto('detection_snapshots').values(links).execute();
  },
  /** The JPEG of a detection of this tenant, with the detection's location (for key restrictions). */
  findForDetection(db: DbExecutor, tenantId: string, detectionId: string) {
    return db
      .selectFrom('detection_snapshots as ds')
      .innerJoin('snapshots as s', 's.id', 'ds.snapshot_id')
      .innerJoin('detections as d', 'd.id', 'ds.detection_id')
      .select(['s.jpeg as jpeg', 'd.location as location', 's.at as at'])
      .where('ds.detection_id', '=', detectionId)
      .where('ds.tenant_id', '=', tenantId)
      .executeTakeFirst();
  },
  /**
   * A stream's latest JPEG of this tenant, with the location of the detections it illustrates (for
   * key restrictions; a snapshot is stored only with detections, so there always is one).
   */
  latestForStream(db: DbExecutor, tenantId: string, streamId: string) {
    return db
      .selectFrom('snapshots as s')
      .innerJoin('detection_snapshots as ds', 'ds.snapshot_id', 's.id')
      .innerJoin('detections as d', 'd.id', 'ds.detection_id')
      .select(['s.jpeg as jpeg', 'd.location as location', 's.at as at'])
      .where('s.tenant_id', '=', tenantId)
      .where('s.stream_id', '=', streamId)
      .orderBy('s.at', 'desc')
      .limit(1)
      .executeTakeFirst();
  },
  async deleteOlderThan(db: DbExecutor, cutoff: number): Promise<number> {
    await db.deleteFrom('detection_snapshots').where('at', '<', cutoff).execute();
    const res = await db.deleteFrom('snapshots').where('at', '<', cutoff).executeTakeFirst();
    return Number(res.numDeletedRows);
  },
};
