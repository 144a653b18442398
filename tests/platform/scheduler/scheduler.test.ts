import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, createTestDatabase } from '../../helpers/harness.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../../src/platform/db/database.ts';
import { ManualClock, systemClock, type Clock } from '../../../src/platform/time/clock.ts';
import { Scheduler, type JobHandler } from '../../../src/platform/scheduler/index.ts';
import { scheduledJobRepository } from '../../../src/platform/scheduler/scheduled-job.repository.ts';

/**
 * The scheduler on a real database (both dialects): two Scheduler instances are two nodes sharing
 * it. Effects are rows in server_secrets written in the job's own transaction, so "how many times
 * did it happen" is a count of rows.
 */

const LEASE = 30_000;

async function withDatabase(dialect: (typeof DIALECTS)[number], fn: (database: DatabaseHandle) => Promise<void>): Promise<void> {
  const dbase = await createTestDatabase(dialect);
  const database = openDatabase({ databaseUrl: dbase.overrides.databaseUrl ?? null, dataDir: dbase.overrides.dataDir! });
  try {
    await migrateToLatest(database);
    await fn(database);
  } finally {
    await database.close();
    await dbase.drop();
  }
}

/** A handler that writes `effect-<node>-<key>` with the job's completion, in one transaction. */
function effectHandler(database: DatabaseHandle, node: string, gate?: Promise<void>): JobHandler {
  return async (job, run) => {
    await gate; // a stalled node (GC pause, SIGSTOP) between its claim and its effect
    await database.withWriteLock(async (trx) => {
      await run.completeIn(trx);
      await trx
        .insertInto('server_secrets')
        .values({ name: `effect-${node}-${job.key}`, value: String(job.attempt), created_at: new Date(0).toISOString() })
        .execute();
    });
  };
}

const effects = async (database: DatabaseHandle) =>
  (await database.db.selectFrom('server_secrets').select('name').where('name', 'like', 'effect-%').orderBy('name').execute()).map((r) => r.name);

for (const dialect of DIALECTS) {
  describe(`scheduled jobs (${dialect})`, () => {
    test('the same timer scheduled from two nodes is one row; rescheduling moves it; it fires once, at the later time', async () => {
      await withDatabase(dialect, async (database) => {
        const clock = new ManualClock();
        const one = new Scheduler({ database, clock, nodeId: 'one', leaseMs: LEASE });
        const two = new Scheduler({ database, clock, nodeId: 'two', leaseMs: LEASE });
        one.handle('test.job', effectHandler(database, 'one'));
        two.handle('test.job', effectHandler(database, 'two'));
        const t0 = clock.now();
        await database.withWriteLock((trx) => one.scheduleIn(trx, { kind: 'test.job', key: 'k', dueAt: t0 + 5_000 }));
        await database.withWriteLock((trx) => two.scheduleIn(trx, { kind: 'test.job', key: 'k', dueAt: t0 + 8_000 }));
        one.wakeAt(t0 + 5_000);
        two.wakeAt(t0 + 8_000);
        assert.equal((await database.db.selectFrom('scheduled_jobs').select('id').execute()).length, 1);
        await clock.advance(5_000);
        await Promise.all([one.settled(), two.settled()]);
        assert.deepEqual(await effects(database), [], 'moved to the later time');
        await clock.advance(3_000);
        await Promise.all([one.settled(), two.settled()]);
        await clock.advance(60_000);
        await Promise.all([one.settled(), two.settled()]);
        assert.equal((await effects(database)).length, 1);
        await Promise.all([one.stop(), two.stop()]);
      });
    });

    test('a stalled node whose lease ran out writes nothing when it resumes: the node that took over did it, once', async () => {
      await withDatabase(dialect, async (database) => {
        const clock = new ManualClock();
        let resume!: () => void;
        const stalled = new Promise<void>((r) => (resume = r));
        const paused = new Scheduler({ database, clock, nodeId: 'paused', leaseMs: LEASE });
        const other = new Scheduler({ database, clock, nodeId: 'other', leaseMs: LEASE, pollMs: 5_000 });
        paused.handle('test.job', effectHandler(database, 'paused', stalled));
        const due = clock.now() + 1_000;
        await database.withWriteLock((trx) => paused.scheduleIn(trx, { kind: 'test.job', key: 'k', dueAt: due }));
        paused.wakeAt(due);
        await clock.advance(1_000);
        await new Promise((r) => setTimeout(r, 50));
        const claimed = await scheduledJobRepository.find(database.db, 'test.job', 'k');
        assert.equal(claimed?.claimed_by, 'paused');
        // the other node joins; it leaves the claim alone while the lease holds
        other.handle('test.job', effectHandler(database, 'other'));
        await other.start();
        for (let i = 0; i < 5; i++) {
          await clock.advance(5_000);
          await other.settled();
        }
        assert.deepEqual(await effects(database), []);
        for (let i = 0; i < 2; i++) {
          await clock.advance(5_000);
          await other.settled();
        }
        assert.deepEqual(await effects(database), ['effect-other-k'], 'taken over once the lease ran out');
        resume();
        await paused.settled();
        assert.deepEqual(await effects(database), ['effect-other-k'], 'the stale claim rolled back its effect');
        const row = await scheduledJobRepository.find(database.db, 'test.job', 'k');
        assert.equal(row?.run_count, 1);
        assert.equal(row?.last_done_by, 'other');
        await Promise.all([paused.stop(), other.stop()]);
      });
    });

    test('a failing job is retried later with its error kept; a cancelled one never runs; a kind without a handler here is left for other nodes', async () => {
      await withDatabase(dialect, async (database) => {
        const clock = new ManualClock();
        const node = new Scheduler({ database, clock, nodeId: 'n', leaseMs: LEASE });
        let calls = 0;
        node.handle('test.flaky', async () => {
          if (++calls === 1) throw new Error('disk full');
        });
        node.handle('test.job', effectHandler(database, 'n'));
        const now = clock.now();
        await database.withWriteLock(async (trx) => {
          await node.scheduleIn(trx, { kind: 'test.flaky', key: 'f', dueAt: now });
          await node.scheduleIn(trx, { kind: 'test.job', key: 'cancelled', dueAt: now + 1_000 });
          await node.scheduleIn(trx, { kind: 'test.elsewhere', key: 'e', dueAt: now });
          await node.cancelIn(trx, 'test.job', 'cancelled');
        });
        node.wakeAt(now);
        await node.settled();
        const failed = await scheduledJobRepository.find(database.db, 'test.flaky', 'f');
        assert.equal(failed?.last_error, 'disk full');
        assert.equal(failed?.done_at, null);
        assert.equal(Number(failed?.due_at), now + 5_000, 'retried 5 s later');
        await clock.advance(5_000);
        await node.settled();
        const ok = await scheduledJobRepository.find(database.db, 'test.flaky', 'f');
        assert.equal(calls, 2);
        assert.notEqual(ok?.done_at, null);
        assert.equal(ok?.last_error, null);
        await clock.advance(60_000);
        await node.settled();
        assert.deepEqual(await effects(database), [], 'the cancelled job never ran');
        const elsewhere = await scheduledJobRepository.find(database.db, 'test.elsewhere', 'e');
        assert.equal(elsewhere?.claimed_by, null);
        assert.equal(elsewhere?.done_at, null);
        await node.stop();
      });
    });
  });
}

test('a job due in 40 days sleeps quietly: the timer waits, not firing at once and spinning (real timers)', async () => {
  await withDatabase('sqlite', async (database) => {
    let timers = 0;
    const clock: Clock = { ...systemClock, setTimeout: (fn, ms) => (timers++, systemClock.setTimeout(fn, ms)) };
    const node = new Scheduler({ database, clock, nodeId: 'one', leaseMs: LEASE });
    node.handle('test.job', effectHandler(database, 'one'));
    const dueAt = Date.now() + 40 * 24 * 3600_000;
    await database.withWriteLock((trx) => node.scheduleIn(trx, { kind: 'test.job', key: 'far', dueAt }));
    node.wakeAt(dueAt);
    await new Promise((r) => setTimeout(r, 500));
    await node.settled();
    assert.ok(timers <= 2, `armed ${timers} timers in half a second`);
    assert.deepEqual(await effects(database), [], 'nothing ran early');
    await node.stop();
  });
});
