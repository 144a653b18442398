import type { RateLimitStore } from '../coordination/index.ts';

/**
 * Per-key request rate limiting (docs/design.md "Rate limits"): a fixed one-minute window per key,
 * shared by every route the key calls. The counters live in a RateLimitStore
 * (platform/coordination: in-process now; a shared store counts across nodes).
 */
export type { RateLimitStore };

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

/** IETF draft-ietf-httpapi-ratelimit-headers (structured fields): RateLimit-Policy and RateLimit. */
export async function checkRateLimit(store: RateLimitStore, bucket: string, limit: number, now: number, policy = 'per-key'): Promise<RateDecision> {
  const { count, resetAt } = await store.hit(bucket, WINDOW_MS, now);
  return rateDecision(count, resetAt, limit, now, policy);
}

/** `checkRateLimit` answered at once by a store that needs no I/O (`hitNow`); undefined when the store has to be awaited. */
export function checkRateLimitNow(store: RateLimitStore, bucket: string, limit: number, now: number, policy = 'per-key'): RateDecision | undefined {
  if (!store.hitNow) return undefined;
  const { count, resetAt } = store.hitNow(bucket, WINDOW_MS, now);
  return rateDecision(count, resetAt, limit, now, policy);
}

const WINDOW_MS = 60_000;

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
 * Failed authentications (docs/decisions.md "Lockout by attempt": reworked so that they lock out attempts, not addresses; see
 * docs/decisions.md, "Lockout by attempt"): every failure counts once against the client address
 * and once against the presented key's prefix (`vk_live_` and its first four random characters,
 * what a key's preview shows). Over `limit` failures in a minute on either, a failing attempt is
 * answered 429 rate_limit_exceeded instead of 401, with RateLimit headers of policy "failed-auth".
 * A key that authenticates is never refused by these counters: behind a proxy or a shared NAT one
 * client's bad guesses cannot lock the others out, and guessing still gains nothing (the answer to
 * a wrong key is 401 or 429, never a hint; the key space is 178 bits).
 */
export class AuthFailureLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly limit: number,
  ) {}

  /** Counts one failure of `presented` (the bearer token, if any) from `address`. */
  async fail(address: string, presented: string | undefined, now: number): Promise<RateDecision> {
    const byAddress = await checkRateLimit(this.store, `failed-auth:${address}`, this.limit, now, 'failed-auth');
    const prefix = keyPrefixOf(presented);
    if (prefix === null) return byAddress;
    const byPrefix = await checkRateLimit(this.store, `failed-auth-key:${prefix}`, this.limit, now, 'failed-auth');
    // the stricter of the two decides, and its headers are the ones the client sees
    if (!byPrefix.allowed && byAddress.allowed) return byPrefix;
    return byAddress;
  }
}

/** The part of a presented key its preview shows (e.g. `vk_live_AbCd`), or null when it is not key-shaped. */
export function keyPrefixOf(presented: string | undefined): string | null {
  if (presented === undefined || !/^vk_(live|test)_[0-9A-Za-z]{4}/.test(presented)) return null;
  return presented.slice(0, 12);
}
