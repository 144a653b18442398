import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * Recordings (docs/decisions.md, "Recordings: a second output of the decoding ffmpeg"):
 *
 * - `recording_segments`: one row per closed segment (about 10 s of video, or one phone still):
 *   its stream, start and end (epoch ms), file path under the recordings directory, SHA-256, size
 *   and the audit entry that sealed it. Written in the transaction that appends that entry.
 * - `recording_holds`: a legal hold on an incident keeps the segments around its time past
 *   retention until released (plus the configured days).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const bigint = sql.raw(dialect === 'postgres' ? 'bigint' : 'integer');
  await db.schema
    .createTable('recording_segments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('stream_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('start_at', bigint, (c) => c.notNull())
    .addColumn('end_at', bigint, (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('bytes', bigint, (c) => c.notNull())
    .addColumn('codec', 'text', (c) => c.notNull())
    .addColumn('audit_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('recording_segments_stream_start').on('recording_segments').columns(['stream_id', 'start_at']).execute();
  await db.schema.createIndex('recording_segments_end').on('recording_segments').columns(['end_at']).execute();
  await db.schema
    .createTable('recording_holds')
    .addColumn('incident_id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('set_at', 'text', (c) => c.notNull())
    .addColumn('released_at', 'text')
    .execute();
}
