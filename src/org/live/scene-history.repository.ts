import { sql } from 'kysely';
import type { DbExecutor } from '../../platform/db/index.ts';

export interface BucketPeak {
  scene_id: string;
  stream_id: string;
  bucket: number;
  people: number;
  last: number;
}

/**
 * Queries behind the people-over-time chart; person_count readings only, grouped in
 * SQL. Each takes several scenes at once, so the wall's charts are one request and two queries
 * whatever the number of scenes (docs/decisions.md, "The wall in one request per view").
 */
export const sceneHistoryRepository = {
  /**
   * Per scene, stream and bucket of [from, to]: the peak person_count and the last one (which holds
   * into the following buckets). Window functions, which SQLite and PostgreSQL both have.
   */
  async peaksPerBucket(db: DbExecutor, sceneIds: readonly string[], from: number, to: number, bucketMs: number): Promise<BucketPeak[]> {
    if (sceneIds.length === 0) return [];
    const bucket = sql`CAST((at - ${from}) / ${bucketMs} AS INTEGER)`;
    const { rows } = await sql<BucketPeak>`
      SELECT scene_id, stream_id, bucket, people, last FROM (
        SELECT scene_id, stream_id, ${bucket} AS bucket, value AS last,
               MAX(value) OVER (PARTITION BY stream_id, ${bucket}) AS people,
               ROW_NUMBER() OVER (PARTITION BY stream_id, ${bucket} ORDER BY at DESC, id DESC) AS rn
        FROM detections
        WHERE scene_id IN (${sql.join(sceneIds)}) AND type = 'person_count' AND at >= ${from} AND at <= ${to}
      ) readings
      WHERE rn = 1`.execute(db);
    return rows.map((r) => ({ scene_id: r.scene_id, stream_id: r.stream_id, bucket: Number(r.bucket), people: Number(r.people), last: Number(r.last) }));
  },

  /** Each stream's last person_count before `from`, per scene: a count holds until the next reading. */
  async readingsBefore(db: DbExecutor, sceneIds: readonly string[], from: number): Promise<Array<{ scene_id: string; stream_id: string; people: number }>> {
    if (sceneIds.length === 0) return [];
    const rows = await db
      .selectFrom('detections as d')
      .select(['d.scene_id', 'd.stream_id', 'd.value'])
      .where('d.scene_id', 'in', sceneIds)
      .where('d.type', '=', 'person_count')
      .where('d.at', '=', (eb) =>
        eb
          .selectFrom('detections as x')
          .select(sql<number>`MAX(x.at)`.as('m'))
          .whereRef('x.stream_id', '=', 'd.stream_id')
          .where('x.type', '=', 'person_count')
          .where('x.at', '<', from),
      )
      .execute();
    return rows.map((r) => ({ scene_id: r.scene_id as string, stream_id: r.stream_id, people: Number(r.value ?? 0) }));
  },
};
