import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, migrateToLatest, type DatabaseHandle } from '../../../src/platform/db/database.ts';
import { FencedWriteError, SqlLeaseStore } from '../../../src/platform/coordination/index.ts';
import { createTestDatabase, DIALECTS } from '../../helpers/harness.ts';
import { leaseStoreContract } from './lease-store.test.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function freshStore(dialect: 'sqlite' | 'postgres'): Promise<{ leases: SqlLeaseStore; database: DatabaseHandle; advance(ms: number): Promise<void> }> {
  const dbase = await createTestDatabase(dialect);
  const database = openDatabase({ databaseUrl: dbase.overrides.databaseUrl ?? null, dataDir: dbase.overrides.dataDir! });
  await migrateToLatest(database);
  cleanups.push(async () => {
    await database.close();
    await dbase.drop();
  });
  let now = 5_000_000;
  return { leases: new SqlLeaseStore(database, () => now), database, advance: async (ms) => void (now += ms) };
}

for (const dialect of DIALECTS) {
  leaseStoreContract(`sql (${dialect})`, () => freshStore(dialect));

  describe(`SqlLeaseStore beyond the contract (${dialect})`, () => {
    test('a batch is fenced inside its transaction: the current owner writes, a stale epoch or an expired lease is refused', async () => {
      const { leases, database, advance } = await freshStore(dialect);
      const a = (await leases.claim('s1', 'node-a', 1_000))!;
      await database.withWriteLock((trx) => leases.assertHeld(trx, [{ streamId: 's1', nodeId: 'node-a', epoch: a.epoch }]));
      await advance(1_500);
      // expired, nobody took it yet: still refused (the owner stopped renewing, so it may not write)
      await assert.rejects(
        database.withWriteLock((trx) => leases.assertHeld(trx, [{ streamId: 's1', nodeId: 'node-a', epoch: a.epoch }])),
        FencedWriteError,
      );
      const b = (await leases.claim('s1', 'node-b', 10_000))!;
      await assert.rejects(
        database.withWriteLock((trx) => leases.assertHeld(trx, [{ streamId: 's1', nodeId: 'node-a', epoch: a.epoch }])),
        (err: unknown) => err instanceof FencedWriteError && err.streams.join() === 's1',
      );
      await database.withWriteLock((trx) => leases.assertHeld(trx, [{ streamId: 's1', nodeId: 'node-b', epoch: b.epoch }]));
      // a stream never claimed cannot be written under a claim either
      await assert.rejects(
        database.withWriteLock((trx) => leases.assertHeld(trx, [{ streamId: 'nope', nodeId: 'node-b', epoch: 1 }])),
        FencedWriteError,
      );
    });

    test('renewAll extends only what the node still holds; assignments show owner, epoch and since', async () => {
      const { leases, advance } = await freshStore(dialect);
      const s1 = (await leases.claim('s1', 'node-a', 1_000))!;
      await leases.claim('s2', 'node-a', 1_000);
      await advance(500);
      await leases.claim('s3', 'node-b', 1_000);
      assert.deepEqual([...(await leases.renewAll('node-a', 1_000)).keys()].sort(), ['s1', 's2']);
      await advance(900); // s1/s2 renewed to +1000 from t+500; s3 still ok
      const view = await leases.assignments();
      assert.deepEqual(view.get('s1'), { nodeId: 'node-a', epoch: s1.epoch, since: 5_000_000 });
      assert.equal(view.get('s3')?.nodeId, 'node-b');
      await advance(1_000);
      assert.equal((await leases.renewAll('node-a', 1_000)).size, 0, 'expired leases are not renewed');
      assert.equal((await leases.assignments()).size, 0);
    });

    test('heartbeats: live nodes are those heard from recently; a node that leaves is gone at once', async () => {
      const { leases, advance } = await freshStore(dialect);
      await leases.heartbeat({ nodeId: 'n1', role: 'all', capacity: 2, startedAt: 1 });
      await leases.heartbeat({ nodeId: 'n2', role: 'worker', capacity: 1, startedAt: 1 });
      assert.deepEqual(
        (await leases.liveNodes(5_000)).map((n) => [n.node_id, n.capacity]),
        [
          ['n1', 2],
          ['n2', 1],
        ],
      );
      await advance(6_000);
      await leases.heartbeat({ nodeId: 'n2', role: 'worker', capacity: 1, startedAt: 1 });
      assert.deepEqual(
        (await leases.liveNodes(5_000)).map((n) => n.node_id),
        ['n2'],
      );
      await leases.leaveCluster('n2');
      assert.deepEqual(await leases.liveNodes(5_000), []);
    });
  });
}
