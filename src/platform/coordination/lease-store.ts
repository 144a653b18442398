/**
 * Stream ownership across nodes (docs/design.md "Multi-node": leases with fencing epochs). A node claims
 * a stream for a ttl and renews it while it ingests; when it stops renewing, another node may
 * claim it. Every claim that takes a stream over gets a higher epoch than any before it, so writes
 * stamped with an older epoch (a paused node waking up) can be refused.
 */
export interface StreamLease {
  streamId: string;
  nodeId: string;
  /** fencing token: strictly greater than the epoch of every earlier owner of this stream */
  epoch: number;
  expiresAt: number;
}

export interface LeaseStore {
  /**
   * Takes the stream for `ttlMs`, or null while another node holds an unexpired lease. A claim by
   * the node already holding it extends the lease and keeps its epoch; any other successful claim
   * gets a new, higher epoch.
   */
  claim(streamId: string, nodeId: string, ttlMs: number): Promise<{ epoch: number; expiresAt: number } | null>;
  /** Extends the lease held with `epoch`; false when it expired and was taken over, or was released. */
  renew(streamId: string, nodeId: string, epoch: number, ttlMs: number): Promise<boolean>;
  /** Gives the stream up (only the lease of that node and epoch); others may claim it at once. */
  release(streamId: string, nodeId: string, epoch: number): Promise<void>;
  /** The unexpired lease on a stream, if any. */
  owner(streamId: string): Promise<StreamLease | null>;
}

/** Leases in this process's memory (one node; tests). Time is `now` (a test's clock may drive it). */
export class InProcessLeaseStore implements LeaseStore {
  private readonly leases = new Map<string, StreamLease>();
  /** the last epoch handed out per stream, kept after release so epochs never go back */
  private readonly epochs = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async claim(streamId: string, nodeId: string, ttlMs: number) {
    const now = this.now();
    const held = this.live(streamId, now);
    if (held && held.nodeId !== nodeId) return null;
    const epoch = held ? held.epoch : (this.epochs.get(streamId) ?? 0) + 1;
    this.epochs.set(streamId, epoch);
    const lease = { streamId, nodeId, epoch, expiresAt: now + ttlMs };
    this.leases.set(streamId, lease);
    return { epoch, expiresAt: lease.expiresAt };
  }

  async renew(streamId: string, nodeId: string, epoch: number, ttlMs: number): Promise<boolean> {
    const now = this.now();
    const held = this.live(streamId, now);
    if (!held || held.nodeId !== nodeId || held.epoch !== epoch) return false;
    held.expiresAt = now + ttlMs;
    return true;
  }

  async release(streamId: string, nodeId: string, epoch: number): Promise<void> {
    const held = this.leases.get(streamId);
    if (held && held.nodeId === nodeId && held.epoch === epoch) this.leases.delete(streamId);
  }

  async owner(streamId: string): Promise<StreamLease | null> {
    const held = this.live(streamId, this.now());
    return held ? { ...held } : null;
  }

  private live(streamId: string, now: number): StreamLease | null {
    const held = this.leases.get(streamId);
    if (!held) return null;
    if (held.expiresAt <= now) {
      this.leases.delete(streamId);
      return null;
    }
    return held;
  }
}
