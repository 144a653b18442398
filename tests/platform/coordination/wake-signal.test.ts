import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../../src/platform/db/database.ts';
import { InProcessWakeSignal, PostgresWakeSignal, type WakeSignal } from '../../../src/platform/coordination/index.ts';
import { createTestDatabase } from '../../helpers/harness.ts';

/** Counts calls of `fn`; `done()` resolves once it was called `n` times, or rejects after `ms`. */
function calls(n: number, ms = 3_000): { fn: () => void; done: () => Promise<void>; count: () => number } {
  let count = 0;
  const waiters: Array<() => void> = [];
  return {
    fn: () => {
      if (++count >= n) for (const w of waiters.splice(0)) w();
    },
    count: () => count,
    done: () =>
      count >= n
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`expected ${n} wakes, got ${count}`)), ms);
            waiters.push(() => {
              clearTimeout(timer);
              resolve();
            });
          }),
  };
}

const settle = (ms = 150) => new Promise((r) => setTimeout(r, ms));

/**
 * What every WakeSignal must do: wake each listener of a channel, not others, stop after
 * unlisten, and tie a wake sent inside a transaction to its commit (never waking on rollback).
 * `db` is the database the signal's wakes are sent with.
 */
export function wakeSignalContract(
  name: string,
  create: () => Promise<{ signal: WakeSignal; db: DatabaseHandle['db']; notifiesOnCommitOnly: boolean; close(): Promise<void> }>,
): void {
  describe(`WakeSignal contract: ${name}`, () => {
    test('every listener of the channel wakes; listeners of other channels do not; unlisten stops it', async () => {
      const s = await create();
      try {
        const a = calls(1);
        const b = calls(1);
        const other = calls(1);
        const offA = await s.signal.listen('vigil_test_a', a.fn);
        const offB = await s.signal.listen('vigil_test_a', b.fn);
        const offOther = await s.signal.listen('vigil_test_other', other.fn);
        await s.signal.wake('vigil_test_a');
        await Promise.all([a.done(), b.done()]);
        await settle();
        assert.equal(other.count(), 0);
        await offA();
        await offA(); // twice is harmless
        await s.signal.wake('vigil_test_a');
        await settle();
        assert.equal(a.count(), 1, 'no wake after unlisten');
        assert.equal(b.count(), 2);
        await offB();
        await offOther();
      } finally {
        await s.close();
      }
    });

    test('what a listener reads after a wake sent inside a transaction includes that transaction; a rollback never shows', async () => {
      const s = await create();
      try {
        await sql`create table wake_probe (n integer)`.execute(s.db);
        const seen: number[] = [];
        const woken = calls(1);
        const read = async () => {
          const { rows } = await sql<{ n: number | string }>`select count(*) as n from wake_probe`.execute(s.db);
          seen.push(Number(rows[0].n));
          woken.fn();
        };
        const off = await s.signal.listen('vigil_test_tx', () => void read());
        await s.db.transaction().execute(async (trx) => {
          await sql`insert into wake_probe (n) values (1)`.execute(trx);
          await s.signal.wake('vigil_test_tx', trx);
          await settle(); // time for a wake sent too early to show
        });
        await woken.done();
        assert.deepEqual(seen, [1], 'the listener saw the committed row');
        await off();

        const rolledBack: number[] = [];
        const off2 = await s.signal.listen('vigil_test_rb', () => {
          void sql<{ n: number | string }>`select count(*) as n from wake_probe`.execute(s.db).then(({ rows }) => rolledBack.push(Number(rows[0].n)));
        });
        await assert.rejects(
          s.db.transaction().execute(async (trx) => {
            await sql`insert into wake_probe (n) values (2)`.execute(trx);
            await s.signal.wake('vigil_test_rb', trx);
            throw new Error('rollback');
          }),
          /rollback/,
        );
        await settle(300);
        // NOTIFY is never sent on rollback; an in-process signal may wake once, harmlessly (a wake is a
        // nudge): either way nothing of the rolled-back transaction is seen
        if (s.notifiesOnCommitOnly) assert.deepEqual(rolledBack, []);
        else
          assert.ok(
            rolledBack.every((n) => n === 1),
            `saw ${rolledBack.join(',')}`,
          );
        await off2();
      } finally {
        await s.close();
      }
    });

    test('a channel name that is not a plain identifier is refused', async () => {
      const s = await create();
      try {
        await assert.rejects(
          s.signal.listen('bad; drop table x', () => undefined),
          /invalid wake channel/,
        );
        await assert.rejects(s.signal.wake('Bad-Name'), /invalid wake channel/);
      } finally {
        await s.close();
      }
    });
  });
}

const dropAfter: Array<() => Promise<void>> = [];
after(async () => {
  for (const d of dropAfter) await d();
});

wakeSignalContract('in-process (SQLite)', async () => {
  const dbase = await createTestDatabase('sqlite');
  const database = openDatabase({ databaseUrl: null, dataDir: dbase.overrides.dataDir! });
  const signal = new InProcessWakeSignal();
  return {
    signal,
    db: database.db,
    notifiesOnCommitOnly: false,
    close: async () => {
      await database.close();
      await dbase.drop();
    },
  };
});

wakeSignalContract('postgres NOTIFY', async () => {
  const dbase = await createTestDatabase('postgres');
  const url = dbase.overrides.databaseUrl!;
  const database = openDatabase({ databaseUrl: url, dataDir: dbase.overrides.dataDir! });
  const signal = new PostgresWakeSignal({ db: database.db, connectionString: url });
  dropAfter.push(() => dbase.drop());
  return {
    signal,
    db: database.db,
    notifiesOnCommitOnly: true,
    close: () => database.close(),
  };
});
