import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * Cluster-wide state that was per node (docs/decisions.md, "Cluster: the owner takes the frames,
 * shared cooldowns and anomalies"):
 *
 * - `cluster_nodes.internal_url`: where the other nodes reach this node (VIGIL_INTERNAL_URL), so a
 *   node that receives a phone frame or a WHIP request for a stream another node runs forwards it
 *   to that owner.
 * - `alert_cooldowns`: the detection time each rule last fired per scene, claimed with one
 *   conditional upsert in the transaction that writes the alert, so two nodes cannot both fire
 *   the "same" alert inside its cooldown.
 * - `scene_anomalies`: each node's held anomalies of a scene (key → held until, epoch ms); the
 *   scene's `active_anomalies` is the count of the unexpired rows of every node.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const bigint = sql.raw(dialect === 'postgres' ? 'bigint' : 'integer');
  await db.schema.alterTable('cluster_nodes').addColumn('internal_url', 'text').execute();
  await db.schema
    .createTable('alert_cooldowns')
    .addColumn('rule_id', 'text', (c) => c.notNull())
    .addColumn('scene_id', 'text', (c) => c.notNull())
    .addColumn('last_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('alert_cooldowns_pk', ['rule_id', 'scene_id'])
    .execute();
  await db.schema
    .createTable('scene_anomalies')
    .addColumn('scene_id', 'text', (c) => c.notNull())
    .addColumn('anomaly_key', 'text', (c) => c.notNull())
    .addColumn('until_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('scene_anomalies_pk', ['scene_id', 'anomaly_key'])
    .execute();
}
