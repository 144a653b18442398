import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { DEFAULT_SLOT_TTL_MS, type StreamSlot, type StreamSlots } from './stream-slots.ts';
import type { OnFallback } from './redis-rate-limit-store.ts';

// Each key's slots are a sorted set: member = slot id, score = lease expiry (ms). Time is Redis's
// own clock (TIME) unless the caller passes one (tests move it by hand), so nodes whose clocks
// disagree still agree on when a lease ran out. Expired members are dropped before counting.
const NOW = `
local now = tonumber(ARGV[1])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end`;
// the set itself outlives its longest lease by a margin, so a key nobody uses disappears
const KEEP = `
local keep = tonumber(ARGV[3]) + 60000
if redis.call('PTTL', KEYS[1]) < keep then redis.call('PEXPIRE', KEYS[1], keep) end`;

/** ARGV: now|'', limit, ttl, slot id → 1 acquired, 0 at the limit */
const ACQUIRE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[4])
${KEEP}
return 1`;

/** ARGV: now|'', (unused), ttl, slot id → 1 renewed, 0 expired or released */
const RENEW = `${NOW}
local expires = redis.call('ZSCORE', KEYS[1], ARGV[4])
if not expires then return 0 end
if tonumber(expires) <= now then
  redis.call('ZREM', KEYS[1], ARGV[4])
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[4])
${KEEP}
return 1`;

/** ARGV: now|'' → unexpired slots */
const COUNT = `${NOW}
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')`;

/**
 * Concurrent stream slots in Redis, shared by every node: the limit holds across nodes, and the
 * slots of a node that died (and so stopped renewing) stop counting once their lease runs out.
 * When Redis cannot answer, slots are taken from this node's own store (`fallback`) instead
 * (docs/decisions.md), so the limit still holds per node while Redis is down.
 */
export class RedisStreamSlots implements StreamSlots {
  constructor(
    private readonly redis: Redis,
    private readonly fallback: StreamSlots,
    private readonly opts: { onFallback?: OnFallback; prefix?: string; now?: () => number; log?: { warn(obj: unknown, msg?: string): void } } = {},
  ) {}

  async tryAcquire(keyId: string, limit: number, ttlMs = DEFAULT_SLOT_TTL_MS): Promise<StreamSlot | null> {
    if (this.redis.status !== 'ready') return this.fallBack(new Error(`Redis ${this.redis.status}`)).tryAcquire(keyId, limit, ttlMs);
    const key = this.key(keyId);
    const id = randomUUID();
    let acquired: number;
    try {
      acquired = Number(await this.redis.eval(ACQUIRE, 1, key, this.now(), String(limit), String(ttlMs), id));
    } catch (err) {
      return this.fallBack(err).tryAcquire(keyId, limit, ttlMs);
    }
    if (acquired !== 1) return null;
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        // never rejects: a slot Redis did not hear released still frees itself when its lease runs out
        await this.redis.zrem(key, id).catch((err: unknown) => this.opts.log?.warn({ err }, 'stream slot release failed; it expires with its lease'));
      },
      renew: async () => {
        if (released) return false;
        return Number(await this.redis.eval(RENEW, 1, key, this.now(), '0', String(ttlMs), id)) === 1;
      },
    };
  }

  async openCount(keyId: string): Promise<number> {
    if (this.redis.status !== 'ready') return this.fallBack(new Error(`Redis ${this.redis.status}`)).openCount(keyId);
    try {
      return Number(await this.redis.eval(COUNT, 1, this.key(keyId), this.now()));
    } catch (err) {
      return this.fallBack(err).openCount(keyId);
    }
  }

  private key(keyId: string): string {
    return `${this.opts.prefix ?? 'vigil:slots:'}${keyId}`;
  }

  /** '' lets the script read Redis's clock */
  private now(): string {
    return this.opts.now ? String(this.opts.now()) : '';
  }

  private fallBack(err: unknown): StreamSlots {
    this.opts.onFallback?.('stream_slots', err);
    return this.fallback;
  }
}
