import type { DatabaseHandle, DbExecutor } from '../db/index.ts';
import type { LeaseStore, StreamLease } from './lease-store.ts';
import { leaseRepository, type NodeRow } from './lease.repository.ts';

/** Where a stream runs, as the stream view shows it. */
export interface StreamAssignment {
  nodeId: string;
  epoch: number;
  /** epoch ms: when this owner claimed it */
  since: number;
}

/** One stream's claim a detection batch is written under. */
export interface FenceClaim {
  streamId: string;
  nodeId: string;
  epoch: number;
}

/**
 * A write refused because its stream's lease moved on (a paused or partitioned node woke up after
 * another node took the stream over). Not an API error: nothing a client sent is wrong.
 */
export class FencedWriteError extends Error {
  constructor(readonly streams: string[]) {
    super(`stale stream lease: ${streams.join(', ')} is owned by another epoch now; the batch was not written`);
    this.name = 'FencedWriteError';
  }
}

/**
 * Stream leases in the database (migration 014), shared by every node on it: the cluster-mode
 * LeaseStore, plus what the ownership scheduler needs beyond the interface (batch renewal, the
 * live leases, node heartbeats) and the fence a detection batch passes inside its transaction.
 * Runs on SQLite too (contract tests), where one node is all there is.
 */
export class SqlLeaseStore implements LeaseStore {
  constructor(
    private readonly database: DatabaseHandle,
    private readonly now: () => number = Date.now,
  ) {}

  async claim(streamId: string, nodeId: string, ttlMs: number) {
    const r = await leaseRepository.claim(this.database.db, streamId, nodeId, this.now(), ttlMs);
    return r ? { epoch: r.epoch, expiresAt: r.expires_at } : null;
  }

  renew(streamId: string, nodeId: string, epoch: number, ttlMs: number): Promise<boolean> {
    return leaseRepository.renew(this.database.db, streamId, nodeId, epoch, this.now(), ttlMs);
  }

  release(streamId: string, nodeId: string, epoch: number): Promise<void> {
    return leaseRepository.release(this.database.db, streamId, nodeId, epoch);
  }

  async owner(streamId: string): Promise<StreamLease | null> {
    const [r] = await leaseRepository.live(this.database.db, this.now(), [streamId]);
    return r ? { streamId: r.stream_id, nodeId: r.node_id, epoch: r.epoch, expiresAt: r.expires_at } : null;
  }

  /** Renews every unexpired lease of the node; answers streamId → epoch of those still held. */
  async renewAll(nodeId: string, ttlMs: number): Promise<Map<string, number>> {
    const rows = await leaseRepository.renewAllOf(this.database.db, nodeId, this.now(), ttlMs);
    return new Map(rows.map((r) => [r.stream_id, r.epoch]));
  }

  releaseAllOf(nodeId: string): Promise<void> {
    return leaseRepository.releaseAllOf(this.database.db, nodeId);
  }

  forget(streamId: string): Promise<void> {
    return leaseRepository.forget(this.database.db, streamId);
  }

  /** Unexpired leases (of the given streams, or all), for balancing and the stream view. */
  async assignments(streamIds?: readonly string[]): Promise<Map<string, StreamAssignment>> {
    const rows = await leaseRepository.live(this.database.db, this.now(), streamIds);
    return new Map(rows.map((r) => [r.stream_id, { nodeId: r.node_id, epoch: r.epoch, since: r.since }]));
  }

  /**
   * Inside a write transaction: throws FencedWriteError unless every claim is still the stream's
   * current, unexpired lease. Rows are read FOR SHARE on PostgreSQL (see leaseRepository).
   */
  async assertHeld(trx: DbExecutor, claims: readonly FenceClaim[]): Promise<void> {
    if (claims.length === 0) return;
    const ids = [...new Set(claims.map((c) => c.streamId))];
    const rows = new Map((await leaseRepository.lockForWrite(trx, this.database.dialect, ids)).map((r) => [r.stream_id, r]));
    const now = this.now();
    const stale = claims.filter((c) => {
      const r = rows.get(c.streamId);
      return !r || r.node_id !== c.nodeId || r.epoch !== c.epoch || r.expires_at <= now;
    });
    if (stale.length) throw new FencedWriteError([...new Set(stale.map((c) => c.streamId))]);
  }

  /** This node is alive (and how much it can run). */
  heartbeat(node: { nodeId: string; role: string; capacity: number; startedAt: number; internalUrl?: string | null }): Promise<void> {
    return leaseRepository.heartbeat(this.database.db, {
      node_id: node.nodeId,
      role: node.role,
      capacity: node.capacity,
      started_at: node.startedAt,
      heartbeat_at: this.now(),
      internal_url: node.internalUrl ?? null,
    });
  }

  /** Nodes whose heartbeat is younger than `withinMs`. */
  liveNodes(withinMs: number): Promise<NodeRow[]> {
    return leaseRepository.liveNodes(this.database.db, this.now() - withinMs);
  }

  async leaveCluster(nodeId: string): Promise<void> {
    await leaseRepository.removeNode(this.database.db, nodeId);
  }

  pruneNodes(olderThanMs: number): Promise<void> {
    return leaseRepository.pruneNodes(this.database.db, this.now() - olderThanMs);
  }
}
