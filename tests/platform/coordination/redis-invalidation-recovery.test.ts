/**
 * What RedisCacheInvalidation does when Redis goes away (docs/decisions.md "Redis down"): a publish
 * still tells this process's subscribers at once, a message Redis did not take is sent when the
 * connection is back, and a node whose subscription was cut off re-reads everything (EVERY_KEY).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { EVERY_KEY, RedisCacheInvalidation, connectCommands, connectSubscriber, whenReady } from '../../../src/platform/coordination/index.ts';
import { startRedis, type TestRedis } from '../../helpers/redis.ts';

let redis: TestRedis;
const clients: Redis[] = [];
before(async () => {
  redis = await startRedis();
});
after(async () => {
  for (const c of clients) c.disconnect();
  await redis.close();
});

async function node(channel: string) {
  const pub = connectCommands(redis.url);
  const sub = connectSubscriber(redis.url);
  clients.push(pub, sub);
  const bus = new RedisCacheInvalidation(pub, sub, { channel });
  await whenReady(pub, 3_000);
  await bus.start();
  const seen: string[] = [];
  bus.subscribe('automation', (key) => void seen.push(key));
  return { pub, sub, bus, seen };
}

async function until(probe: () => boolean, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) assert.fail(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('a publish Redis did not take reaches the other nodes once the connection is back', async () => {
  const channel = `test:${randomUUID()}`;
  const a = await node(channel);
  const b = await node(channel);
  await a.bus.publish('automation', 'org_1');
  await until(() => b.seen.includes('org_1'), 1_000, 'org_1 on node B');

  a.pub.disconnect(); // only node A's publishing connection is gone
  const started = Date.now();
  await a.bus.publish('automation', 'org_2');
  assert.ok(Date.now() - started < 500, 'publish did not wait for Redis');
  assert.ok(a.seen.includes('org_2'), 'node A’s own subscribers were told at once');
  assert.equal(a.bus.unsentCount, 1);
  await new Promise((r) => setTimeout(r, 100));
  assert.ok(!b.seen.includes('org_2'));

  await a.pub.connect();
  await until(() => b.seen.includes('org_2'), 1_000, 'org_2 on node B after the reconnect');
  assert.equal(a.bus.unsentCount, 0);
  assert.ok(!b.seen.includes(EVERY_KEY), 'node B never lost its subscription');
});

test('a node whose subscription was cut off re-reads everything when it is back', async () => {
  const channel = `test:${randomUUID()}`;
  const a = await node(channel);
  const b = await node(channel);
  await redis.stop();
  await until(() => b.sub.status !== 'ready', 3_000, 'the subscriber seeing Redis gone');
  await a.bus.publish('automation', 'org_3'); // lost for node B: Redis is down
  assert.ok(a.seen.includes('org_3'));
  await redis.restart();
  await until(() => b.seen.includes(EVERY_KEY), 5_000, 'EVERY_KEY on node B');
});
