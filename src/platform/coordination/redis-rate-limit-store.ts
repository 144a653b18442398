import type { Redis } from 'ioredis';
import type { RateLimitStore } from './rate-limit-store.ts';

/** Called when a shared store could not be used and this node's own store answered instead. */
export type OnFallback = (store: 'rate_limit' | 'stream_slots' | 'invalidation', err: unknown) => void;

/**
 * INCR and, on the window's first hit, PEXPIRE, in one script so a counter can never be left
 * without an expiry. The key names the window's start, so an old window is never counted into.
 */
const HIT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

/**
 * Fixed-window counters in Redis, exact across every node sharing it (docs/design.md "Rate limits"):
 * the same windows (aligned to multiples of windowMs of the caller's clock) and so the same
 * headers as the in-process store. When Redis cannot answer (down, or slower than the command
 * time-out) the node counts in its own `fallback` store instead (docs/decisions.md "Redis down:
 * rate limits fail over to each node"), so a limit still holds per node.
 */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly fallback: RateLimitStore,
    private readonly onFallback: OnFallback = () => undefined,
    private readonly prefix = 'vigil:rl:',
  ) {}

  async hit(bucket: string, windowMs: number, now: number) {
    const start = Math.floor(now / windowMs) * windowMs;
    const resetAt = start + windowMs;
    if (this.redis.status !== 'ready') return this.fallBack('hit', bucket, windowMs, now, new Error(`Redis ${this.redis.status}`));
    try {
      // kept a window longer than it counts: only garbage collection, the key name ends the window
      const count = Number(await this.redis.eval(HIT, 1, this.key(bucket, start), String(resetAt - now + windowMs)));
      return { count, resetAt };
    } catch (err) {
      return this.fallBack('hit', bucket, windowMs, now, err);
    }
  }

  async peek(bucket: string, windowMs: number, now: number) {
    const start = Math.floor(now / windowMs) * windowMs;
    if (this.redis.status !== 'ready') return this.fallBack('peek', bucket, windowMs, now, new Error(`Redis ${this.redis.status}`));
    try {
      const raw = await this.redis.get(this.key(bucket, start));
      return { count: raw === null ? 0 : Number(raw), resetAt: start + windowMs };
    } catch (err) {
      return this.fallBack('peek', bucket, windowMs, now, err);
    }
  }

  private key(bucket: string, start: number): string {
    return `${this.prefix}${bucket}:${start}`;
  }

  private fallBack(op: 'hit' | 'peek', bucket: string, windowMs: number, now: number, err: unknown) {
    this.onFallback('rate_limit', err);
    return this.fallback[op](bucket, windowMs, now);
  }
}
