import type { RateLimitStore } from '../coordination/index.ts';

/**
 * Per-key request rate limiting (DESIGN.md "Rate limits"): a fixed one-minute window per key,
 * shared by every route the key calls. The counters live in a RateLimitStore
 * (platform/coordination: in-process now; a shared store counts across nodes).
 */
export type { RateLimitStore };

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
  policy = 'per-key',
): Promise<RateDecision> {
  const { count, resetAt } = await store.hit(bucket, WINDOW_MS, now);
  return rateDecision(count, resetAt, limit, now, policy);
}

const WINDOW_MS = 60_000;
const ALLOWED: RateDecision = Object.freeze({ allowed: true, headers: Object.freeze({}) as Record<string, string> });

function rateDecision(count: number, resetAt: number, limit: number, now: number, policy: string): RateDecision {
  const remaining = Math.max(0, limit - count);
  const resetS = Math.max(1, Math.ceil((resetAt - now) / 1000));
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"${policy}";q=${limit};w=60`,
    RateLimit: `"${policy}";r=${remaining};t=${resetS}`,
  };
  if (count > limit) headers['Retry-After'] = String(resetS);
  return { allowed: count <= limit, headers };
}

/**
 * Failed authentications per client address (issue 9 §9): after `limit` failures in a minute the
 * address gets 429 rate_limit_exceeded, good key or not, until the window ends, with the same
 * RateLimit headers as the per-key limit (policy "failed-auth"). Only failures count, so clients
 * that authenticate never use it up.
 */
export class AuthFailureLimiter {
  constructor(private readonly store: RateLimitStore, private readonly limit: number) {}

  /**
   * Before a key is looked at: whether the address is already over the limit, with the headers of
   * the 429 when it is. An allowed request carries no failed-auth headers, so none are built for it
   * (this runs on every authenticated request, issue 16 §4).
   */
  async check(address: string, now: number): Promise<RateDecision> {
    const { count, resetAt } = await this.store.peek(this.bucket(address), WINDOW_MS, now);
    if (count < this.limit) return ALLOWED;
    return rateDecision(count + 1, resetAt, this.limit, now, 'failed-auth');
  }

  /** Counts one failure; the decision says whether the address is now over the limit. */
  async fail(address: string, now: number): Promise<RateDecision> {
    return checkRateLimit(this.store, this.bucket(address), this.limit, now, 'failed-auth');
  }

  private bucket(address: string) {
    return `failed-auth:${address}`;
  }
}
