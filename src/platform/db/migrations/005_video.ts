import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * Real video: the JPEG snapshot kept with person and vehicle detections. One frame's
 * JPEG serves every detection the frame produced, so the image lives once in `snapshots` and
 * `detection_snapshots` maps detection ids onto it. Both carry the frame instant (epoch ms) so
 * the history retention prunes them with the detections.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';

  await db.schema
    .createTable('snapshots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('stream_id', 'text', (c) => c.notNull())
    .addColumn('at', sql.raw(bigint), (c) => c.notNull())
    .addColumn('jpeg', sql.raw(blob), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('snapshots_at').on('snapshots').columns(['at']).execute();

  await db.schema
    .createTable('detection_snapshots')
    .addColumn('detection_id', 'text', (c) => c.primaryKey())
    .addColumn('snapshot_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('at', sql.raw(bigint), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('detection_snapshots_at').on('detection_snapshots').columns(['at']).execute();
}
