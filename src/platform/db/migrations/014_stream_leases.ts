import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * Scale-out: which node runs each stream, and which nodes are alive to run them.
 *
 * `stream_leases` holds one row per stream ever claimed. A node owns a stream while `expires_at`
 * (epoch ms) is ahead; `epoch` only grows (a takeover or a claim after a release adds one), and
 * every detection batch is written only while its stream's row still carries the epoch the writer
 * claimed under (fencing). A release keeps the row (expires_at = 0) so the epoch never goes back.
 * `since` is when the current owner took the stream (the stream view's `assignment.since`).
 *
 * `cluster_nodes` is each node's heartbeat: live workers share the streams in proportion to
 * `capacity` (detector threads).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const bigint = sql.raw(dialect === 'postgres' ? 'bigint' : 'integer');
  await db.schema
    .createTable('stream_leases')
    .addColumn('stream_id', 'text', (c) => c.primaryKey())
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('epoch', bigint, (c) => c.notNull())
    .addColumn('expires_at', bigint, (c) => c.notNull())
    .addColumn('since', bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stream_leases_node').on('stream_leases').columns(['node_id', 'expires_at']).execute();
  await db.schema
    .createTable('cluster_nodes')
    .addColumn('node_id', 'text', (c) => c.primaryKey())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull())
    .addColumn('started_at', bigint, (c) => c.notNull())
    .addColumn('heartbeat_at', bigint, (c) => c.notNull())
    .execute();
}
