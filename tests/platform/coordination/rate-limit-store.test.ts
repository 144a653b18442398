import { after, describe, test } from 'node:test';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import assert from 'node:assert/strict';
import { InProcessRateLimitStore, RedisRateLimitStore, type RateLimitStore } from '../../../src/platform/coordination/index.ts';
import { startRedis } from '../../helpers/redis.ts';

/** What every RateLimitStore must do: fixed windows aligned to multiples of windowMs, per bucket. */
export function rateLimitStoreContract(name: string, create: () => Promise<RateLimitStore>): void {
  describe(`RateLimitStore contract: ${name}`, () => {
    const minute = 60_000;
    const t0 = Date.parse('2026-11-21T12:00:00.000Z'); // a multiple of a minute

    test('counts hits in the window and says when it resets', async () => {
      const store = await create();
      assert.deepEqual(await store.hit('a', minute, t0 + 1_000), { count: 1, resetAt: t0 + minute });
      assert.deepEqual(await store.hit('a', minute, t0 + 59_999), { count: 2, resetAt: t0 + minute });
      assert.deepEqual(await store.peek('a', minute, t0 + 30_000), { count: 2, resetAt: t0 + minute });
      // peek does not count
      assert.deepEqual(await store.peek('a', minute, t0 + 30_000), { count: 2, resetAt: t0 + minute });
    });

    test('a new window starts from zero; buckets are independent', async () => {
      const store = await create();
      await store.hit('a', minute, t0);
      await store.hit('a', minute, t0 + 10);
      assert.deepEqual(await store.hit('a', minute, t0 + minute), { count: 1, resetAt: t0 + 2 * minute });
      assert.deepEqual(await store.peek('b', minute, t0 + minute), { count: 0, resetAt: t0 + 2 * minute });
      assert.deepEqual(await store.hit('b', minute, t0 + minute), { count: 1, resetAt: t0 + 2 * minute });
    });

    test('concurrent hits are each counted once', async () => {
      const store = await create();
      const counts = await Promise.all(Array.from({ length: 25 }, () => store.hit('c', minute, t0 + 5)));
      assert.deepEqual(
        counts.map((c) => c.count).sort((x, y) => x - y),
        Array.from({ length: 25 }, (_, i) => i + 1),
      );
    });
  });
}

rateLimitStoreContract('in-process', async () => new InProcessRateLimitStore());
rateLimitStoreContract('in-process, pruning old windows', async () => new InProcessRateLimitStore(1));

// the shared store: a real redis-server; each run of the contract counts under its own prefix
const redis = await startRedis();
const clients: Redis[] = [];
after(async () => {
  for (const c of clients) c.disconnect();
  await redis.close();
});
rateLimitStoreContract('Redis', async () => {
  const client = new Redis(redis.url);
  clients.push(client);
  await new Promise((r) => client.once('ready', r));
  // a fallback that fails loudly: the contract must be met by Redis itself
  const noFallback: RateLimitStore = { hit: () => Promise.reject(new Error('fell back')), peek: () => Promise.reject(new Error('fell back')) };
  return new RedisRateLimitStore(client, noFallback, undefined, `test:${randomUUID()}:`);
});
