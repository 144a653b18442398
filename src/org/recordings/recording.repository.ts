import type { DbExecutor, RecordingHoldTable, RecordingSegmentTable } from '../../platform/db/index.ts';

export type SegmentRow = RecordingSegmentTable;
export type HoldRow = RecordingHoldTable;

/** numbers come back as strings from PostgreSQL bigint columns */
function normalise(r: SegmentRow): SegmentRow {
  return { ...r, start_at: Number(r.start_at), end_at: Number(r.end_at), bytes: Number(r.bytes) };
}

/** Recorded segments and legal holds (migration 023). Queries only. */
export const recordingRepository = {
  async insert(db: DbExecutor, row: SegmentRow): Promise<void> {
    await db.insertInto('recording_segments').values(row).execute();
  },

  /** The stream's segments overlapping [from, to), oldest first. */
  async overlapping(db: DbExecutor, tenantId: string, streamId: string, from: number, to: number): Promise<SegmentRow[]> {
    const rows = await db
      .selectFrom('recording_segments')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('stream_id', '=', streamId)
      .where('start_at', '<', to)
      .where('end_at', '>', from)
      .orderBy('start_at')
      .orderBy('id')
      .execute();
    return rows.map(normalise);
  },

  /** The latest segment ending at or before `at`, and the earliest starting at or after it. */
  async nearest(db: DbExecutor, tenantId: string, streamId: string, at: number): Promise<{ before: SegmentRow | null; after: SegmentRow | null }> {
    const before = await db
      .selectFrom('recording_segments')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('stream_id', '=', streamId)
      .where('end_at', '<=', at)
      .orderBy('end_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    const after = await db
      .selectFrom('recording_segments')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('stream_id', '=', streamId)
      .where('start_at', '>=', at)
      .orderBy('start_at')
      .limit(1)
      .executeTakeFirst();
    return { before: before ? normalise(before) : null, after: after ? normalise(after) : null };
  },

  async byPath(db: DbExecutor, path: string): Promise<SegmentRow | undefined> {
    const row = await db.selectFrom('recording_segments').selectAll().where('path', '=', path).executeTakeFirst();
    return row ? normalise(row) : undefined;
  },

  /** The oldest segments (every tenant) after a cursor, for retention and the quota. */
  async oldestAfter(db: DbExecutor, limit: number, after: { end_at: number; id: string } | null): Promise<SegmentRow[]> {
    let q = db.selectFrom('recording_segments').selectAll();
    if (after) q = q.where((eb) => eb.or([eb('end_at', '>', after.end_at), eb.and([eb('end_at', '=', after.end_at), eb('id', '>', after.id)])]));
    const rows = await q.orderBy('end_at').orderBy('id').limit(limit).execute();
    return rows.map(normalise);
  },

  async totalBytes(db: DbExecutor): Promise<number> {
    const row = await db
      .selectFrom('recording_segments')
      .select((eb) => eb.fn.sum<string | number | null>('bytes').as('total'))
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  },

  async deleteIds(db: DbExecutor, ids: string[]): Promise<void> {
    if (ids.length) await db.deleteFrom('recording_segments').where('id', 'in', ids).execute();
  },

  async setHold(db: DbExecutor, row: HoldRow): Promise<void> {
    await db.deleteFrom('recording_holds').where('incident_id', '=', row.incident_id).execute();
    await db.insertInto('recording_holds').values(row).execute();
  },

  async hold(db: DbExecutor, tenantId: string, incidentId: string): Promise<HoldRow | undefined> {
    return db.selectFrom('recording_holds').selectAll().where('tenant_id', '=', tenantId).where('incident_id', '=', incidentId).executeTakeFirst();
  },

  /**
   * Incidents of these streams that hold their segments: open or acknowledged, closed less than
   * `holdDays` ago, or under a legal hold not released (or released less than `holdDays` ago).
   */
  async holdingIncidents(
    db: DbExecutor,
    streamIds: string[],
    closedAfterIso: string,
  ): Promise<Array<{ id: string; stream_id: string; created_at: string; last_activity_at: number; closed_at: string | null; status: string; held: number }>> {
    if (streamIds.length === 0) return [];
    const rows = await db
      .selectFrom('incidents')
      .leftJoin('recording_holds', 'recording_holds.incident_id', 'incidents.id')
      .select([
        'incidents.id',
        'incidents.stream_id',
        'incidents.created_at',
        'incidents.last_activity_at',
        'incidents.closed_at',
        'incidents.status',
        'recording_holds.set_at',
        'recording_holds.released_at',
      ])
      .where('incidents.stream_id', 'in', streamIds)
      .where((eb) =>
        eb.or([
          eb('incidents.status', 'in', ['open', 'acknowledged']),
          eb('incidents.closed_at', '>', closedAfterIso),
          eb.and([
            eb('recording_holds.set_at', 'is not', null),
            eb.or([eb('recording_holds.released_at', 'is', null), eb('recording_holds.released_at', '>', closedAfterIso)]),
          ]),
        ]),
      )
      .execute();
    return rows.map((r) => ({
      id: r.id,
      stream_id: r.stream_id,
      created_at: r.created_at,
      last_activity_at: Number(r.last_activity_at),
      closed_at: r.closed_at,
      status: r.status,
      held: r.set_at !== null ? 1 : 0,
    }));
  },
};
