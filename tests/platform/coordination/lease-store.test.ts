import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { InProcessLeaseStore, type LeaseStore } from '../../../src/platform/coordination/index.ts';

/** What every LeaseStore must do: one owner at a time, leases that run out, fencing epochs that only grow. */
export function leaseStoreContract(name: string, create: () => Promise<{ leases: LeaseStore; advance(ms: number): Promise<void> }>): void {
  describe(`LeaseStore contract: ${name}`, () => {
    test('one owner at a time; the holder renews and re-claims with the same epoch', async () => {
      const { leases, advance } = await create();
      const a = await leases.claim('stream_1', 'node-a', 1_000);
      assert.ok(a);
      assert.equal(await leases.claim('stream_1', 'node-b', 1_000), null);
      assert.deepEqual({ ...(await leases.owner('stream_1'))!, expiresAt: 0 }, { streamId: 'stream_1', nodeId: 'node-a', epoch: a.epoch, expiresAt: 0 });
      await advance(800);
      assert.equal(await leases.renew('stream_1', 'node-a', a.epoch, 1_000), true);
      await advance(800); // past the first expiry, inside the renewed one
      assert.equal(await leases.claim('stream_1', 'node-b', 1_000), null);
      const again = await leases.claim('stream_1', 'node-a', 1_000);
      assert.equal(again?.epoch, a.epoch);
      assert.equal(await leases.owner('stream_2'), null);
      assert.ok(await leases.claim('stream_2', 'node-b', 1_000), 'streams are independent');
    });

    test('an expired lease is taken over with a higher epoch; the old holder can no longer renew or release it', async () => {
      const { leases, advance } = await create();
      const a = (await leases.claim('s', 'node-a', 1_000))!;
      await advance(1_000);
      assert.equal(await leases.owner('s'), null);
      const b = (await leases.claim('s', 'node-b', 1_000))!;
      assert.ok(b.epoch > a.epoch);
      assert.equal(await leases.renew('s', 'node-a', a.epoch, 1_000), false);
      await leases.release('s', 'node-a', a.epoch);
      assert.equal((await leases.owner('s'))?.nodeId, 'node-b');
    });

    test('after a release anyone may claim at once, and the epoch still grows', async () => {
      const { leases } = await create();
      const a = (await leases.claim('s', 'node-a', 60_000))!;
      await leases.release('s', 'node-a', a.epoch);
      assert.equal(await leases.owner('s'), null);
      assert.equal(await leases.renew('s', 'node-a', a.epoch, 60_000), false);
      const a2 = (await leases.claim('s', 'node-a', 60_000))!;
      assert.ok(a2.epoch > a.epoch, 'a claim after a release is a new claim');
      await leases.release('s', 'node-a', a2.epoch);
      const b = (await leases.claim('s', 'node-b', 60_000))!;
      assert.ok(b.epoch > a2.epoch);
    });

    test('concurrent claims of a free stream: exactly one wins', async () => {
      const { leases } = await create();
      const results = await Promise.all(['n1', 'n2', 'n3', 'n4'].map((n) => leases.claim('s', n, 60_000)));
      assert.equal(results.filter((r) => r !== null).length, 1);
    });
  });
}

leaseStoreContract('in-process', async () => {
  let now = 5_000_000;
  return { leases: new InProcessLeaseStore(() => now), advance: async (ms) => void (now += ms) };
});
