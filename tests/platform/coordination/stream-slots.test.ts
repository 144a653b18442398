import { after, describe, test } from 'node:test';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import assert from 'node:assert/strict';
import { InProcessStreamSlots, RedisStreamSlots, type StreamSlots } from '../../../src/platform/coordination/index.ts';
import { startRedis } from '../../helpers/redis.ts';

/** A clock the contract moves by hand; implementations are built on it. */
export interface SlotClock {
  advance(ms: number): Promise<void>;
}

/** What every StreamSlots must do: a per-key limit, idempotent release, leases that expire unless renewed. */
export function streamSlotsContract(name: string, create: () => Promise<{ slots: StreamSlots; clock: SlotClock }>): void {
  describe(`StreamSlots contract: ${name}`, () => {
    test('at most `limit` slots per key; other keys are not limited by it', async () => {
      const { slots } = await create();
      const held = await Promise.all(Array.from({ length: 3 }, () => slots.tryAcquire('k1', 3)));
      assert.ok(held.every((s) => s !== null));
      assert.equal(await slots.tryAcquire('k1', 3), null);
      assert.equal(await slots.openCount('k1'), 3);
      assert.notEqual(await slots.tryAcquire('k2', 3), null);
      assert.equal(await slots.openCount('k2'), 1);
    });

    test('release frees the slot once, however often it is called', async () => {
      const { slots } = await create();
      const a = (await slots.tryAcquire('k', 2))!;
      const b = (await slots.tryAcquire('k', 2))!;
      await a.release();
      await a.release();
      assert.equal(await slots.openCount('k'), 1);
      assert.notEqual(await slots.tryAcquire('k', 2), null);
      assert.equal(await slots.tryAcquire('k', 2), null);
      await b.release();
      assert.equal(await slots.openCount('k'), 1);
    });

    test('a slot that is not renewed expires and stops counting; a renewed one stays', async () => {
      const { slots, clock } = await create();
      const kept = (await slots.tryAcquire('k', 2, 1_000))!;
      const dead = (await slots.tryAcquire('k', 2, 1_000))!;
      assert.equal(await slots.tryAcquire('k', 2, 1_000), null);
      await clock.advance(700);
      assert.equal(await kept.renew(), true);
      await clock.advance(700); // dead's lease ran out at 1000
      assert.equal(await slots.openCount('k'), 1);
      assert.equal(await dead.renew(), false, 'an expired slot cannot be renewed back');
      assert.notEqual(await slots.tryAcquire('k', 2, 1_000), null);
      await dead.release(); // releasing an expired slot frees nothing else
      assert.equal(await slots.openCount('k'), 2);
      await kept.release();
      assert.equal(await kept.renew(), false, 'a released slot cannot be renewed');
      assert.equal(await slots.openCount('k'), 1);
    });
  });
}

streamSlotsContract('in-process', async () => {
  let now = 1_000_000;
  return { slots: new InProcessStreamSlots(() => now), clock: { advance: async (ms) => void (now += ms) } };
});

// the shared store on a real redis-server, its lease clock moved by hand like the in-process one's
const redis = await startRedis();
const clients: Redis[] = [];
after(async () => {
  for (const c of clients) c.disconnect();
  await redis.close();
});
streamSlotsContract('Redis', async () => {
  const client = new Redis(redis.url);
  clients.push(client);
  await new Promise((r) => client.once('ready', r));
  let now = 1_000_000;
  const noFallback: StreamSlots = { tryAcquire: () => Promise.reject(new Error('fell back')), openCount: () => Promise.reject(new Error('fell back')) };
  return {
    slots: new RedisStreamSlots(client, noFallback, { prefix: `test:${randomUUID()}:`, now: () => now }),
    clock: { advance: async (ms) => void (now += ms) },
  };
});
