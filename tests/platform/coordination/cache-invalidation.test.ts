import { after, describe, test } from 'node:test';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import assert from 'node:assert/strict';
import { InProcessCacheInvalidation, RedisCacheInvalidation, type CacheInvalidation } from '../../../src/platform/coordination/index.ts';
import { startRedis } from '../../helpers/redis.ts';

/** What every CacheInvalidation must do: deliver each key to every subscriber of its topic, in this process before publish resolves. */
export function cacheInvalidationContract(name: string, create: () => Promise<CacheInvalidation>): void {
  describe(`CacheInvalidation contract: ${name}`, () => {
    test('every subscriber of the topic gets the key before publish resolves; other topics do not', async () => {
      const bus = await create();
      const seen: string[] = [];
      bus.subscribe('automation', async (key) => {
        await new Promise((r) => setTimeout(r, 5)); // an async reload finishes before publish returns
        seen.push(`a1:${key}`);
      });
      bus.subscribe('automation', (key) => void seen.push(`a2:${key}`));
      bus.subscribe('household', (key) => void seen.push(`h:${key}`));
      await bus.publish('automation', 'org_1');
      assert.deepEqual(seen.sort(), ['a1:org_1', 'a2:org_1']);
      await bus.publish('nobody_listens', 'x');
    });

    test('unsubscribed handlers are not called', async () => {
      const bus = await create();
      const seen: string[] = [];
      const off = bus.subscribe('api_key', (key) => void seen.push(key));
      await bus.publish('api_key', 'key_1');
      off();
      await bus.publish('api_key', 'key_2');
      assert.deepEqual(seen, ['key_1']);
    });

    test('a failing subscriber fails the publish but the others are still told', async () => {
      const bus = await create();
      const seen: string[] = [];
      bus.subscribe('alert_rule', () => {
        throw new Error('reload failed');
      });
      bus.subscribe('alert_rule', (key) => void seen.push(key));
      await assert.rejects(bus.publish('alert_rule', 'org_1/rule_1'), /reload failed/);
      assert.deepEqual(seen, ['org_1/rule_1']);
    });
  });
}

cacheInvalidationContract('in-process', async () => new InProcessCacheInvalidation());

// the shared bus on a real redis-server (what it adds across nodes is in redis-coordination.test.ts)
const redis = await startRedis();
const clients: Redis[] = [];
after(async () => {
  for (const c of clients) c.disconnect();
  await redis.close();
});
cacheInvalidationContract('Redis', async () => {
  const pub = new Redis(redis.url);
  const sub = new Redis(redis.url);
  clients.push(pub, sub);
  const bus = new RedisCacheInvalidation(pub, sub, { channel: `test:${randomUUID()}` });
  await bus.start();
  await new Promise((r) => (pub.status === 'ready' ? r(null) : pub.once('ready', r)));
  return bus;
});
