/**
 * Before round Q, times people plainly say (docs/decisions.md, "Before round Q: times"): a day named with a clock range
 * ("friday 6pm to midnight", "sat 8am to sun 8pm", "5 tonight to sunday 6pm"), repeating windows ("every weekend 8am
 * to noon", "every night, midnight to 6", "every weekday 6 to 7 in the morning"), follow-ups that stretch the end
 * ("stretch it to 9 in the morning", "extend it an hour"), a stay away said by where ("while we're at the cottage"), a
 * sentence of times alone after a watch asked for, and a stance said with the request ("I don't trust the lads").
 * The phrasings beside them that must keep their old reading are checked too. Phrasings are our own, not the sets'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';
import type { HouseholdContext } from '../../src/home/agent/context.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);

// lisbon (Europe/Lisbon, UTC in November): garage, driveway, backyard and other places. Thursday 19 Nov 2026, 11:00.
const midday: HouseholdContext = { ...contexts.lisbon, now: Date.parse('2026-11-19T11:00:00Z') };
// Thursday 22 Oct 2026 (UTC+1 until the clocks go back at 02:00 on Sunday 25 Oct)
const beforeChange: HouseholdContext = { ...contexts.lisbon, now: Date.parse('2026-10-22T11:00:00Z') };

type Turn = { changes: { tool: string; args: Record<string, unknown> }[]; reply: string };
function window(turn: Turn, message: string): [string | undefined, string | undefined] {
  assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
  const { starts_at, ends_at } = turn.changes[0].args as { starts_at?: string; ends_at?: string };
  return [starts_at?.slice(0, 16), ends_at?.slice(0, 16)];
}

async function expectWindow(message: string, start: string, end: string, ctx: HouseholdContext = midday, recurrence?: string) {
  const [turn] = await converse(ctx, [message]);
  assert.deepEqual(window(turn, message), [start, end], `${message}: ${turn.reply}`);
  if (recurrence) assert.equal(turn.changes[0].args.recurrence, recurrence, `${message}: ${turn.reply}`);
}

test('a named day with a clock range is that day, the next one of its name', async () => {
  for (const message of [
    'watch the garage friday 6pm to midnight',
    'watch the garage 6pm friday till midnight',
    'keep an eye on the garage on friday from 6pm to midnight',
    'garage fri 6p-12a',
  ])
    await expectWindow(message, '2026-11-20T18:00', '2026-11-21T00:00');
});

test('a range from one named day to another keeps both days, short names too', async () => {
  for (const message of [
    'watch the driveway sat 8am to sun 8pm',
    'watch the driveway saturday 8am right through to sunday 8pm',
    'watch the driveway from saturday 8am all the way to sunday 8pm',
    'driveway saturday 8am through to sunday 8pm please',
  ])
    await expectWindow(message, '2026-11-21T08:00', '2026-11-22T20:00');
});

test('an evening hour said "tonight" starts a window that ends on a named day', async () => {
  await expectWindow('watch the backyard 5 tonight to sunday 6pm', '2026-11-19T17:00', '2026-11-22T18:00');
  await expectWindow('watch the backyard 8 tonight till sunday 6pm', '2026-11-19T20:00', '2026-11-22T18:00');
  await expectWindow('watch the backyard 6 tonight till monday 7am', '2026-11-19T18:00', '2026-11-23T07:00');
  // (an early hour after a range's connector is still the night's morning)
  await expectWindow('watch the backyard between 10 and 6 tonight', '2026-11-19T22:00', '2026-11-20T06:00');
});

test('repeating windows keep the hours said', async () => {
  await expectWindow('garage every weekend 8am to noon', '2026-11-21T08:00', '2026-11-21T12:00', midday, 'weekends');
  await expectWindow('garage, every night, midnight to 6', '2026-11-20T00:00', '2026-11-20T06:00', midday, 'daily');
  await expectWindow('every weekday 6 to 7 in the morning watch the garage', '2026-11-20T06:00', '2026-11-20T07:00', midday, 'weekdays');
  await expectWindow('watch the garage weekdays 5 to 8am', '2026-11-20T05:00', '2026-11-20T08:00', midday, 'weekdays');
});

test('a start without am/pm takes the half of an end said the same day, never one past it', async () => {
  await expectWindow('watch the garage tomorrow 6 to 8am', '2026-11-20T06:00', '2026-11-20T08:00');
  await expectWindow('watch the garage 1 to 5pm', '2026-11-19T13:00', '2026-11-19T17:00');
  await expectWindow('watch the garage midnight to 6', '2026-11-20T00:00', '2026-11-20T06:00');
  // the start after the end on the clock face stays the night's
  await expectWindow('watch the garage 10 to 6am', '2026-11-19T22:00', '2026-11-20T06:00');
  // an end on a day of its own says nothing of the start's half
  await expectWindow("watch the garage from five o'clock on saturday until eight o'clock on monday morning", '2026-11-21T17:00', '2026-11-23T08:00');
});

test('a range across the clocks going back keeps the wall-clock hours', async () => {
  await expectWindow('watch the garage sat 8pm to sun 8pm', '2026-10-24T19:00', '2026-10-25T20:00', beforeChange);
});

test('a follow-up stretches the end of the watch just made', async () => {
  for (const message of ['stretch it to 9 in the morning', 'stretch that to 9am', 'extend it to 9 in the morning']) {
    const [, turn] = await converse(midday, ['watch the garage tonight', message]);
    assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
    assert.equal(turn.changes[0].tool, 'update_watch', `${message}: ${turn.reply}`);
    assert.equal(String(turn.changes[0].args.ends_at).slice(0, 16), '2026-11-20T09:00', `${message}: ${turn.reply}`);
  }
  for (const [message, minutes] of [
    ['extend it an hour', 60],
    ['extend it 30 minutes', 30],
    ['stretch it another hour', 60],
    ['extend it by another hour', 60],
  ] as const) {
    const [made, turn] = await converse(midday, ['watch the garage tonight', message]);
    assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
    const before = Date.parse(String(made.changes[0].args.ends_at));
    assert.equal(Date.parse(String(turn.changes[0].args.ends_at)) - before, minutes * 60_000, `${message}: ${turn.reply}`);
  }
  // ("extend it" alone says not by how much: asked)
  const [, bare] = await converse(midday, ['watch the garage tonight', 'extend it']);
  assert.equal(bare.changes.length, 0, bare.reply);
});

test('"while we\'re at the cottage" is time away, and a sentence of times alone says when', async () => {
  for (const message of [
    "can you watch the garage while we're at the cottage? 5 tonight to sunday 6pm",
    'could you watch the garage while we are at the cabin, 5 tonight to sunday 6pm',
    'can you watch the garage? 5 tonight to sunday 6pm',
  ])
    await expectWindow(message, '2026-11-19T17:00', '2026-11-22T18:00');
  // no end said: asked, and the cottage is no place of the home to watch
  const [away] = await converse(midday, ["watch the garage while we're at the cottage"]);
  assert.equal(away.changes.length, 0, away.reply);
  assert.doesNotMatch(away.reply, /cottage/, away.reply);
  // (a watch with its own hours is not moved by a later sentence's time)
  const [twice] = await converse(midday, ['watch the garage from 8pm to 6am. we leave at 7']);
  assert.ok(
    twice.changes.every((c) => c.args.starts_at === undefined || String(c.args.starts_at).slice(0, 16) !== '2026-11-19T19:00'),
    twice.reply,
  );
});

test('what the speaker does not trust is a reason, not a request taken back', async () => {
  for (const message of [
    "garage tomorrow evening 6 to 10, I don't trust the lads",
    "garage tomorrow evening 6 to 10, we've got visitors and we don't trust the new lodger",
    'watch the garage tomorrow evening 6 to 10, i do not trust the teenagers',
  ])
    await expectWindow(message, '2026-11-20T18:00', '2026-11-20T22:00');
  // a negated request is still one
  const [dont] = await converse(midday, ["don't watch the garage tomorrow"]);
  assert.ok(!dont.changes.some((c) => c.tool === 'create_watch'), dont.reply);
  // ("…and text my wife": a part of its own is not swallowed by the reason)
  const [more] = await converse(midday, ["garage tomorrow evening 6 to 10, I don't trust the lads and text my wife"]);
  assert.equal(more.changes.length, 0, more.reply);
});
