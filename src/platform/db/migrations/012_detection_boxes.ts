import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * Detection boxes ("the latest snapshot with boxes"): where a tracked object is in the
 * frame its snapshot shows, as JSON [x, y, w, h] in 0..1 of the frame. Nullable: sandbox and
 * sensor detections have no frame, and rows written before this migration keep none. And an
 * index for a stream's latest snapshot.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('detections').addColumn('box', 'text').execute();
  // a stream's latest snapshot (GET /v1/streams/{id}/snapshot, the zone editor's backdrop)
  await db.schema.createIndex('snapshots_stream_at').on('snapshots').columns(['stream_id', 'at']).execute();
}
