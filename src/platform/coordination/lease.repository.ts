import { sql } from 'kysely';
import type { DbExecutor } from '../db/index.ts';

/** A live lease row as the scheduler and the stream view read it. */
export interface LeaseRow {
  stream_id: string;
  node_id: string;
  epoch: number;
  expires_at: number;
  since: number;
}

export interface NodeRow {
  node_id: string;
  role: string;
  capacity: number;
  started_at: number;
  heartbeat_at: number;
  /** where the other nodes reach it (migration 021); null from a node of an older version */
  internal_url?: string | null;
}

/**
 * Queries of stream ownership (migration 014). Every time is epoch ms from the caller's clock, so
 * the same statements run on SQLite and PostgreSQL and tests can drive time. Claims are single
 * conditional upserts: the row lock PostgreSQL takes for ON CONFLICT DO UPDATE re-checks the
 * condition against the latest row, so of two nodes claiming a free stream exactly one wins.
 */
export const leaseRepository = {
  /** Takes or extends the lease; null while another node holds it unexpired. */
  async claim(db: DbExecutor, streamId: string, nodeId: string, now: number, ttlMs: number): Promise<{ epoch: number; expires_at: number } | null> {
    const { rows } = await sql<{ epoch: number; expires_at: number }>`
      insert into stream_leases (stream_id, node_id, epoch, expires_at, since)
      values (${streamId}, ${nodeId}, 1, ${now + ttlMs}, ${now})
      on conflict (stream_id) do update set
        epoch = case when stream_leases.node_id = excluded.node_id and stream_leases.expires_at > ${now}
                     then stream_leases.epoch else stream_leases.epoch + 1 end,
        since = case when stream_leases.node_id = excluded.node_id and stream_leases.expires_at > ${now}
                     then stream_leases.since else excluded.since end,
        node_id = excluded.node_id,
        expires_at = excluded.expires_at
      where stream_leases.expires_at <= ${now} or stream_leases.node_id = excluded.node_id
      returning epoch, expires_at`.execute(db);
    const r = rows[0];
    return r ? { epoch: Number(r.epoch), expires_at: Number(r.expires_at) } : null;
  },
  async renew(db: DbExecutor, streamId: string, nodeId: string, epoch: number, now: number, ttlMs: number): Promise<boolean> {
    const res = await db
      .updateTable('stream_leases')
      .set({ expires_at: now + ttlMs })
      .where('stream_id', '=', streamId)
      .where('node_id', '=', nodeId)
      .where('epoch', '=', epoch)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  },
  /** Extends every unexpired lease of the node in one statement; answers the rows it extended. */
  async renewAllOf(db: DbExecutor, nodeId: string, now: number, ttlMs: number): Promise<Array<{ stream_id: string; epoch: number }>> {
    const rows = await db
      .updateTable('stream_leases')
      .set({ expires_at: now + ttlMs })
      .where('node_id', '=', nodeId)
      .where('expires_at', '>', now)
      .returning(['stream_id', 'epoch'])
      .execute();
    return rows.map((r) => ({ stream_id: r.stream_id, epoch: Number(r.epoch) }));
  },
  async release(db: DbExecutor, streamId: string, nodeId: string, epoch: number): Promise<void> {
    await db
      .updateTable('stream_leases')
      .set({ expires_at: 0 })
      .where('stream_id', '=', streamId)
      .where('node_id', '=', nodeId)
      .where('epoch', '=', epoch)
      .execute();
  },
  /** Gives up every lease of a node id (a restart under the same VIGIL_NODE_ID: the old process is gone). */
  async releaseAllOf(db: DbExecutor, nodeId: string): Promise<void> {
    await db.updateTable('stream_leases').set({ expires_at: 0 }).where('node_id', '=', nodeId).where('expires_at', '>', 0).execute();
  },
  /** The lease row of a deleted stream goes with it. */
  async forget(db: DbExecutor, streamId: string): Promise<void> {
    await db.deleteFrom('stream_leases').where('stream_id', '=', streamId).execute();
  },
  async live(db: DbExecutor, now: number, streamIds?: readonly string[]): Promise<LeaseRow[]> {
    if (streamIds && streamIds.length === 0) return [];
    let q = db.selectFrom('stream_leases').selectAll().where('expires_at', '>', now);
    if (streamIds) q = q.where('stream_id', 'in', [...streamIds]);
    const rows = await q.execute();
    return rows.map((r) => ({ ...r, epoch: Number(r.epoch), expires_at: Number(r.expires_at), since: Number(r.since) }));
  },
  /**
   * The lease rows of these streams inside the caller's write transaction. On PostgreSQL the rows
   * are read FOR SHARE: a takeover (an UPDATE of the row) waits until this transaction commits,
   * so a batch fenced here is ordered before the next owner's epoch.
   */
  async lockForWrite(trx: DbExecutor, dialect: 'sqlite' | 'postgres', streamIds: readonly string[]): Promise<LeaseRow[]> {
    if (streamIds.length === 0) return [];
    let q = trx
      .selectFrom('stream_leases')
      .selectAll()
      .where('stream_id', 'in', [...streamIds]);
    if (dialect === 'postgres') q = q.forShare();
    const rows = await q.execute();
    return rows.map((r) => ({ ...r, epoch: Number(r.epoch), expires_at: Number(r.expires_at), since: Number(r.since) }));
  },
  async heartbeat(db: DbExecutor, node: NodeRow): Promise<void> {
    await db
      .insertInto('cluster_nodes')
      .values(node)
      .onConflict((oc) =>
        oc
          .column('node_id')
          .doUpdateSet({ heartbeat_at: node.heartbeat_at, capacity: node.capacity, role: node.role, internal_url: node.internal_url ?? null }),
      )
      .execute();
  },
  async liveNodes(db: DbExecutor, since: number): Promise<NodeRow[]> {
    const rows = await db.selectFrom('cluster_nodes').selectAll().where('heartbeat_at', '>', since).orderBy('node_id').execute();
    return rows.map((r) => ({ ...r, capacity: Number(r.capacity), started_at: Number(r.started_at), heartbeat_at: Number(r.heartbeat_at) }));
  },
  /** The owner of a stream's unexpired lease and the address it heartbeats (forwarding, migration 021). */
  async ownerAddress(db: DbExecutor, streamId: string, now: number): Promise<{ node_id: string; internal_url: string | null } | undefined> {
    return db
      .selectFrom('stream_leases as l')
      .innerJoin('cluster_nodes as n', 'n.node_id', 'l.node_id')
      .select(['l.node_id', 'n.internal_url'])
      .where('l.stream_id', '=', streamId)
      .where('l.expires_at', '>', now)
      .executeTakeFirst();
  },
  /** A secret every node shares: the first node's `value` is kept, later ones read it. */
  async sharedSecret(db: DbExecutor, name: string, value: string, createdAt: string): Promise<string> {
    await db
      .insertInto('server_secrets')
      .values({ name, value, created_at: createdAt })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
    return row.value;
  },
  async removeNode(db: DbExecutor, nodeId: string): Promise<void> {
    await db.deleteFrom('cluster_nodes').where('node_id', '=', nodeId).execute();
  },
  /** Rows of nodes silent for long (killed, never restarted) are dropped. */
  async pruneNodes(db: DbExecutor, before: number): Promise<void> {
    await db.deleteFrom('cluster_nodes').where('heartbeat_at', '<', before).execute();
  },
};
