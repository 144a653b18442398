/**
 * Times people type and say before round S (docs/decisions.md, "Before round S: times"): shorthand clocks and amounts
 * ("18h30", "until 0630", "for 2h", "til 7ish", "first light"), the night said as "in the night" or "the small hours"
 * (the rest of this night before 05:00, the coming night after 21:00, and in a question the night itself, never the
 * evening). Phrasings are our own, with those where the change must not fire.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { findTimePhrase } from '../../src/platform/language/time/past-range.ts';
import { at, converse, expectAsked, windowOf } from './lisbon-workshop.ts';

async function expectWindow(ctx: HouseholdContext, said: string, start: string, end: string | RegExp) {
  const [turn] = await converse(ctx, [said]);
  const [s, e] = windowOf(turn, said);
  assert.equal(s, start, `${said}: ${turn.reply}`);
  if (typeof end === 'string') assert.equal(e, end, `${said}: ${turn.reply}`);
  else assert.match(e ?? '', end, `${said}: ${turn.reply}`);
}

test('clock times typed in shorthand are those clock times', async () => {
  await expectWindow(at('13:20'), 'watch the workshop till 18h30', '2026-11-21T13:20', '2026-11-21T18:30');
  await expectWindow(at('13:20'), 'watch the yard until 0630', '2026-11-21T13:20', '2026-11-22T06:30');
  await expectWindow(at('13:20'), 'watch the yard from 2200 to 0600', '2026-11-21T22:00', '2026-11-22T06:00');
  await expectWindow(at('13:20'), 'keep an eye on the office till 9h', '2026-11-21T13:20', '2026-11-22T09:00');
  await expectWindow(at('13:20'), 'watch the workshop from 19h to 23h', '2026-11-21T19:00', '2026-11-21T23:00');
  await expectWindow(at('13:20'), 'watch the workshop til 7ish', '2026-11-21T13:20', '2026-11-21T19:00');
  await expectWindow(at('13:20'), 'watch the yard until sixish', '2026-11-21T13:20', '2026-11-21T18:00');
  await expectWindow(at('13:20'), 'watch the yard till 6.30pm', '2026-11-21T13:20', '2026-11-21T18:30');
  await expectWindow(at('13:20'), 'watch the workshop until quarter to midnight', '2026-11-21T13:20', '2026-11-21T23:45');
  await expectWindow(at('13:20'), 'watch the yard till first light', '2026-11-21T13:20', /^2026-11-22T0[67]:/);
  await expectWindow(at('09:00'), 'watch the yard until last light', '2026-11-21T09:00', /^2026-11-21T1[78]:/);
});

test('an amount glued to its unit is that long from now, never a later start', async () => {
  await expectWindow(at('13:20'), 'watch the workshop for 2h', '2026-11-21T13:20', '2026-11-21T15:20');
  await expectWindow(at('13:20'), 'watch the yard for 9hrs', '2026-11-21T13:20', '2026-11-21T22:20');
  await expectWindow(at('13:20'), 'watch the office for 1.5h', '2026-11-21T13:20', '2026-11-21T14:50');
  await expectWindow(at('13:20'), 'watch the yard for 2hr', '2026-11-21T13:20', '2026-11-21T15:20');
  await expectWindow(at('13:20'), 'watch the workshop for 45m', '2026-11-21T13:20', '2026-11-21T14:05');
  await expectWindow(at('13:20'), 'watch the workshop for 30mins', '2026-11-21T13:20', '2026-11-21T13:50');
});

test('what cannot be read as a time is asked, never defaulted', async () => {
  for (const said of ['watch the yard for 40', 'watch the yard for a bit', 'watch the workshop till the kids are up', 'watch the office after dinner']) {
    await expectAsked(at('13:20'), said);
  }
});

test('"in the night", "during the night", "the small hours": now until sunrise at night, the rest of this night before 05:00', async () => {
  for (const said of [
    'watch the yard during the night',
    'keep an eye on the yard in the night',
    'watch the yard in the small hours',
    'watch the yard in the wee hours',
  ]) {
    await expectWindow(at('22:30'), said, '2026-11-21T22:30', /^2026-11-22T07:/);
    await expectWindow(at('04:30'), said, '2026-11-21T04:30', /^2026-11-21T07:/);
    await expectWindow(at('01:00'), said, '2026-11-21T01:00', /^2026-11-21T07:/);
    // from 05:00 on, and by day, the coming night
    await expectWindow(at('05:30'), said, '2026-11-21T17:21', /^2026-11-22T07:/);
    await expectWindow(at('13:20'), said, '2026-11-21T17:21', /^2026-11-22T07:/);
  }
  // must not fire: "tonight" after 02:00 stays the coming night (docs/decisions.md, "Round J household: time")
  await expectWindow(at('04:30'), 'watch the yard tonight', '2026-11-21T17:21', /^2026-11-22T07:/);
});

test('in a question, "in the night" is the night itself: the night so far from the evening on, last night by day', () => {
  const read = (hhmm: string, text: string) => {
    const p = findTimePhrase(text, { now: Date.parse(`2026-11-21T${hhmm}:00Z`), timeZone: 'Europe/Lisbon' }).phrase;
    assert.equal(p.kind, 'range', `${hhmm} ${text}`);
    return p.kind === 'range' ? [new Date(p.from).toISOString().slice(0, 16), new Date(p.to).toISOString().slice(0, 16)] : [];
  };
  assert.deepEqual(read('23:00', 'anything in the yard during the night'), ['2026-11-21T18:00', '2026-11-21T23:00']);
  assert.deepEqual(read('21:30', 'any motion in the night'), ['2026-11-21T18:00', '2026-11-21T21:30']);
  assert.deepEqual(read('08:00', 'anything in the night'), ['2026-11-20T18:00', '2026-11-21T06:00']);
  assert.deepEqual(read('03:00', 'what happened through the night'), ['2026-11-20T18:00', '2026-11-21T03:00']);
  assert.deepEqual(read('08:00', 'anything in the small hours'), ['2026-11-21T00:00', '2026-11-21T05:00']);
  assert.deepEqual(read('03:00', 'anything in the wee hours'), ['2026-11-21T00:00', '2026-11-21T03:00']);
  assert.deepEqual(read('08:00', 'anything in the early hours of the morning'), ['2026-11-21T00:00', '2026-11-21T05:00']);
  // must not fire: "last night", "tonight", "overnight" read as before
  assert.deepEqual(read('08:00', 'anything last night'), ['2026-11-20T18:00', '2026-11-21T06:00']);
  assert.deepEqual(read('23:00', 'anything tonight'), ['2026-11-21T18:00', '2026-11-21T23:00']);
});

test('a household question about the night asked in the evening starts at this evening, not last night', async () => {
  const [late] = await converse(at('23:00'), ['anything in the yard during the night?']);
  assert.equal(late.changes.length, 0);
  assert.doesNotMatch(late.reply, /Nov 20/, late.reply);
  const [morning] = await converse(at('08:00'), ['anything in the yard during the night?']);
  assert.match(morning.reply, /Nov 20 17:2\d to 06:00/, morning.reply);
});

test('a bare range whose morning reading is the small hours, gone, and whose afternoon reading is ahead today is the afternoon', async () => {
  await expectWindow(at('13:20'), 'watch the yard between 3 and 6', '2026-11-21T15:00', '2026-11-21T18:00');
  await expectWindow(at('11:00'), 'keep an eye on the workshop from 2 to 5', '2026-11-21T14:00', '2026-11-21T17:00');
  await expectWindow(at('08:00'), 'watch the office between 3 and 5:30', '2026-11-21T15:00', '2026-11-21T17:30');
  // must not fire: the afternoon's reading passed (both readings tomorrow), the morning's still ahead, a crossing
  // range, or a range with both readings ahead
  await expectAsked(at('19:00'), 'watch the yard between 3 and 6');
  await expectAsked(at('02:00'), 'watch the yard between 3 and 6');
  await expectAsked(at('08:00'), 'watch the yard from 10 to 2');
  await expectAsked(at('08:00'), 'watch the workshop from 9 till 5');
  await expectAsked(at('06:00'), 'watch the workshop from 7 to 9');
});

test('someone dropping or stopping by, said beside a watch, is a reason, not a stand-down', async () => {
  for (const said of [
    'watch the yard tomorrow 9 to 11, the courier is dropping off a parcel',
    "watch the yard tomorrow from 9 to 11, guy's dropping off a pallet",
    'keep an eye on the yard tomorrow 9 to 11, my mate is dropping by',
  ]) {
    const [turn] = await converse(at('13:20'), [said]);
    assert.deepEqual(
      turn.changes.map((c) => c.tool),
      ['create_watch'],
      `${said}: ${turn.reply}`,
    );
    assert.deepEqual(windowOf(turn, said), ['2026-11-22T09:00', '2026-11-22T11:00']);
  }
  // must not fire: "drop it", "drop the yard watch" still stand the watch down
  for (const said of ['drop it', 'drop the yard watch']) {
    const turns = await converse(at('13:20'), ['watch the yard tonight', said]);
    assert.deepEqual(
      turns[1].changes.map((c) => c.tool),
      ['stand_down_watch'],
      `${said}: ${turns[1].reply}`,
    );
  }
});

test('a bare hour before a comma keeps its reading: "a" after the comma is no "am"', async () => {
  await expectWindow(at('13:20'), 'watch the workshop till 5, a parcel is coming', '2026-11-21T13:20', '2026-11-21T17:00');
  await expectWindow(at('13:20'), 'watch the yard until 6, a friend is picking up the van', '2026-11-21T13:20', '2026-11-21T18:00');
  // must not fire: "5am", "5 a.m." and "5a" are the morning
  await expectWindow(at('13:20'), 'watch the workshop till 5 a.m.', '2026-11-21T13:20', '2026-11-22T05:00');
  await expectWindow(at('13:20'), 'watch the workshop till 5a', '2026-11-21T13:20', '2026-11-22T05:00');
});
