/**
 * The shared past-range reader (src/platform/language/time/past-range.ts) and the clock primitives
 * both surfaces use (docs/decisions.md, "Scene questions: round F — the shared time reader"):
 * a range ending at midnight or noon reads a bare start hour as the nearer one; a leading zero
 * or a 24-hour clock is never moved to the other half of the day. Tested on the reader itself, on
 * the household agent's past questions (list_events bounds) and on scene questions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { findTimePhrase } from '../../src/platform/language/index.ts';
import { parseClockTime } from '../../src/platform/language/time/primitives.ts';
import { interpretQuery } from '../../src/org/scenes/query/query.ts';
import { planOffline } from '../../src/home/agent/offline-planner.ts';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { HouseholdSimulator } from '../agent/household-simulator.ts';
import { fromWallClock } from '../../src/platform/time/zoned-time.ts';

const ZONE = 'Europe/Lisbon';
// Saturday 21 November 2026, 17:00 in Lisbon (the household contexts' "lisbon" moment)
const NOW = fromWallClock({ year: 2026, month: 11, day: 21, hour: 17, minute: 0 }, ZONE);
const at = (day: number, hour: number, minute = 0) => fromWallClock({ year: 2026, month: 11, day, hour, minute }, ZONE);
const read = (text: string) => findTimePhrase(text, { now: NOW, timeZone: ZONE }).phrase;

function range(text: string): { from: number; to: number } {
  const p = read(text);
  assert.equal(p.kind, 'range', `${text}: ${JSON.stringify(p)}`);
  return p.kind === 'range' ? { from: p.from, to: p.to } : { from: NaN, to: NaN };
}

test('a range that ends at midnight or noon reads a bare start hour as the nearer one', () => {
  assert.deepEqual(range('anyone between 10 and midnight yesterday'), { from: at(20, 22), to: at(21, 0) });
  assert.deepEqual(range('anything from 11 until midnight yesterday'), { from: at(20, 23), to: at(21, 0) });
  assert.deepEqual(range('people between 7 and noon yesterday'), { from: at(20, 7), to: at(20, 12) });
  // the end's half of the day said: the start is the reading that makes the shorter span up to it
  assert.deepEqual(range('anyone between 9 and 1pm yesterday'), { from: at(20, 9), to: at(20, 13) });
  assert.deepEqual(range('anyone between 4 and 6pm yesterday'), { from: at(20, 16), to: at(20, 18) });
  // inside "last night": the night's hours
  assert.deepEqual(range('between 9 and 11 last night'), { from: at(20, 21), to: at(20, 23) });
  // both said: as said, across midnight
  assert.deepEqual(range('between 11pm and 1am last night'), { from: at(20, 23), to: at(21, 1) });
});

test('a leading zero or a 24-hour clock is never moved to the afternoon', () => {
  const p = read('at 03:20 yesterday');
  assert.equal(p.kind === 'point' && p.at, at(20, 3, 20));
  const q = read('at 00:40 yesterday');
  assert.equal(q.kind === 'point' && q.at, at(20, 0, 40));
  assert.deepEqual(range('between 01:00 and 04:30 yesterday'), { from: at(20, 1), to: at(20, 4, 30) });
  assert.deepEqual(range('from 06:15 to 07:00 yesterday'), { from: at(20, 6, 15), to: at(20, 7) });
  assert.deepEqual(range('between 21:00 and 23:30 yesterday'), { from: at(20, 21), to: at(20, 23, 30) });
  // a bare 1–12 on a past day keeps the documented daytime reading (3 is 15:00)
  const bare = read('at 3:20 yesterday');
  assert.equal(bare.kind === 'point' && bare.at, at(20, 15, 20));
  // the primitive says the same
  assert.equal(parseClockTime('03:20')?.meridiemCertain, true);
  assert.equal(parseClockTime('3:20')?.meridiemCertain, false);
  assert.equal(parseClockTime('15:20')?.meridiemCertain, true);
});

test("household surface: a past question's bounds come out as said (list_events since/until)", () => {
  const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
  const household = new HouseholdSimulator(structuredClone(contexts.lisbon));
  assert.equal(household.ctx.now, NOW);
  const bounds = (message: string) => {
    const call = planOffline(message, household.ctx).calls.find((c) => c.tool === 'list_events');
    assert.ok(call, message);
    return { since: call.args.since, until: call.args.until };
  };
  const iso = (t: number) => new Date(t).toISOString();
  assert.deepEqual(bounds('what happened on the porch between 02:00 and 04:00 yesterday?'), { since: iso(at(20, 2)), until: iso(at(20, 4)) });
  assert.equal(bounds('what happened on the porch since 03:20 yesterday?').since, iso(at(20, 3, 20)));
  assert.deepEqual(bounds('what happened on the porch between 10pm and midnight yesterday?'), { since: iso(at(20, 22)), until: iso(at(21, 0)) });
  // "between 10 and midnight yesterday": never the morning (00:00 to 10:00) any more
  assert.equal(bounds('what happened on the porch between 10 and midnight yesterday?').until, iso(at(21, 0)));
});

test('scene surface: the same phrases in a scene question', () => {
  const ctx = { now: NOW, windowMs: 15 * 60_000, timeZone: ZONE, location: 'lobby' };
  const ask = (q: string) => {
    const r = interpretQuery(q, ctx);
    assert.ok(r.ok, `${q}: ${r.ok ? '' : r.reason}`);
    return r.interpretation;
  };
  const late = ask('was anyone in the lobby between 10 and midnight yesterday?');
  assert.deepEqual([late.from, late.to], [at(20, 22), at(21, 0)]);
  const early = ask('how many people were in the lobby at 03:20 yesterday?');
  assert.deepEqual([early.from, early.to], [at(20, 3, 20), at(20, 3, 20)]);
  // written with a leading zero it has no other reading to offer
  assert.equal(early.other_reading, undefined);
  assert.ok(ask('how many people were in the lobby at 3:20 yesterday?').other_reading, 'a bare 3:20 offers the other reading');
  // "this time yesterday" at 17:00 is 17:00 yesterday, with no other reading
  const sameTime = ask('how many people were here this time yesterday?');
  assert.deepEqual([sameTime.from, sameTime.other_reading], [at(20, 17), undefined]);
});
