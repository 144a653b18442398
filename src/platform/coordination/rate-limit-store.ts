/**
 * Request counters for rate limits (docs/design.md "Rate limits"): fixed windows keyed by a bucket (a
 * key id, a client address). One interface so a store shared by several nodes (Redis)
 * can replace the in-process one without the limiter changing.
 */
export interface RateLimitStore {
  /** Counts one hit in the window containing `now`; returns the count so far and when the window resets. */
  hit(bucket: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }>;
  /** The count so far in the window containing `now`, without counting a hit. */
  peek(bucket: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }>;
  /**
   * `hit` answered at once, for a store that needs no I/O (counters in this process's memory): an
   * authenticated request whose key is cached then runs its checks without a promise
   * (src/platform/http/auth.ts). A shared store (Redis) leaves it out.
   */
  hitNow?(bucket: string, windowMs: number, now: number): { count: number; resetAt: number };
}

/** Counters in this process's memory: exact for one node. Windows are aligned to multiples of windowMs. */
export class InProcessRateLimitStore implements RateLimitStore {
  private windows = new Map<string, { start: number; count: number }>();

  /** Buckets kept before old windows are pruned (bounds memory under many distinct addresses). */
  constructor(private readonly pruneAbove = 100_000) {}

  async hit(bucket: string, windowMs: number, now: number) {
    return this.hitNow(bucket, windowMs, now);
  }

  hitNow(bucket: string, windowMs: number, now: number) {
    const start = Math.floor(now / windowMs) * windowMs;
    let w = this.windows.get(bucket);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(bucket, w);
      if (this.windows.size > this.pruneAbove) this.prune(start);
    }
    w.count += 1;
    return { count: w.count, resetAt: start + windowMs };
  }

  async peek(bucket: string, windowMs: number, now: number) {
    const start = Math.floor(now / windowMs) * windowMs;
    const w = this.windows.get(bucket);
    return { count: w && w.start === start ? w.count : 0, resetAt: start + windowMs };
  }

  private prune(currentStart: number) {
    for (const [k, w] of this.windows) if (w.start < currentStart) this.windows.delete(k);
  }
}
