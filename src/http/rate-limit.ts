/**
 * Per-key request rate limiting (DESIGN.md "Rate limits"): a fixed one-minute window per key,
 * shared by every route the key calls. The store is swappable (in-memory here; a Redis store
 * shares counters across nodes).
 */
export interface RateLimitStore {
  /** Counts one hit in the window containing `now`; returns the count so far and when the window resets. */
  hit(bucket: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  private windows = new Map<string, { start: number; count: number }>();

  async hit(bucket: string, windowMs: number, now: number) {
    const start = Math.floor(now / windowMs) * windowMs;
    let w = this.windows.get(bucket);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(bucket, w);
      if (this.windows.size > 100_000) this.prune(start);
    }
    w.count += 1;
    return { count: w.count, resetAt: start + windowMs };
  }

  private prune(currentStart: number) {
    for (const [k, w] of this.windows) if (w.start < currentStart) this.windows.delete(k);
  }
}

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

/** IETF draft-ietf-httpapi-ratelimit-headers (structured fields): RateLimit-Policy and RateLimit. */
export async function checkRateLimit(
  store: RateLimitStore,
  bucket: string,
  limit: number,
  now: number,
): Promise<RateDecision> {
  const windowMs = 60_000;
  const { count, resetAt } = await store.hit(bucket, windowMs, now);
  const remaining = Math.max(0, limit - count);
  const resetS = Math.max(1, Math.ceil((resetAt - now) / 1000));
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"per-key";q=${limit};w=60`,
    RateLimit: `"per-key";r=${remaining};t=${resetS}`,
  };
  if (count > limit) headers['Retry-After'] = String(resetS);
  return { allowed: count <= limit, headers };
}
