/**
 * Before round N (docs/decisions.md, "Before round N: household and scene readings"): a place named only in a
 * trailing reason; "the others" with nothing said to be the others of; a range ending next morning whose start
 * has no am/pm; a day-to-day range ending in a day's part; a slip of "house" beside arming; a perception said
 * with the "I" dropped after a question; a small-hours range asked in the morning (scenes). Each class with
 * phrasings that must act, and phrasings where the change must not fire. Phrasings are our own, not the blind sets'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { interpretQuery } from '../../src/org/scenes/query/query-interpreter.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);
const tools = (turn: { changes: { tool: string }[] }) => turn.changes.map((c) => c.tool);
const args = (turn: { changes: { args: Record<string, unknown> }[] }) => turn.changes.map((c) => c.args);

// lisbon (Europe/Lisbon, UTC in November): front porch camera, driveway camera, back door contact (kitchen),
// garage motion, backyard camera, living room camera, nursery camera. Saturday 21 Nov 2026.
const midday: HouseholdContext = { ...contexts.lisbon, now: Date.parse('2026-11-21T11:00:00Z') };
const evening: HouseholdContext = { ...contexts.lisbon, now: Date.parse('2026-11-21T19:00:00Z') };
const armed: HouseholdContext = {
  ...midday,
  watches: [
    {
      id: 'wat_armed',
      subject: 'house',
      sensor_ids: midday.sensors.map((s) => s.id),
      starts_at: '2026-11-21T08:00:00.000Z',
      ends_at: '2027-11-21T08:00:00.000Z',
      recurrence: 'none',
      window: 'armed until disarmed',
    },
  ],
};

test('a place named only in a trailing reason is never a target: the agent asks whether it is meant too', async () => {
  // (the reason may say why the named sensor misfires, or ask for its place too: one question, no change —
  // docs/decisions.md, "Coverage probe")
  for (const message of [
    'mute the driveway camera, the garage keeps creaking',
    'mute the driveway camera, the garage is making a racket',
    'silence the driveway camera, the backyard has foxes in it',
  ]) {
    const [turn] = await converse(midday, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /only what you named/, message);
  }
  // a request for a place the home lacks, with a known place in the reason: nothing changes
  for (const message of ['mute the shed camera, the garage keeps creaking', 'mute the attic sensor, the nursery was noisy']) {
    const [turn] = await converse(midday, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
  }
  // a place listed after a comma, with no verb of its own, is still a target
  for (const message of ['mute the driveway camera, the garage one too', 'mute the driveway camera and the garage']) {
    const [turn] = await converse(midday, [message]);
    assert.deepEqual(tools(turn), ['mute_sensor', 'mute_sensor'], `${message}: ${turn.reply}`);
  }
});

test('"the others" with nothing kept or named is asked; kept before it, every other watch stands down', async () => {
  for (const message of ['stop all the others', 'please cancel all the others', 'stop the others', 'bin the rest']) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.equal(turn.asked, true, `${message}: ${turn.reply}`);
  }
  // one watch only: still no antecedent, still asked
  const [one] = await converse('lisbon_one_watch', ['stop all the others']);
  assert.deepEqual(one.changes, [], one.reply);
  for (const message of [
    'keep the garage watch, stop all the others',
    'keep the garage watch, cancel the rest',
    'just keep the garage watch, stop all the others',
    'keep the garage one, stop all the others',
    'leave the garage watch alone, stop all the others',
    'leave the garage one alone, bin the rest',
  ]) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(tools(turn), ['stand_down_watch', 'stand_down_watch'], `${message}: ${turn.reply}`);
    assert.ok(!args(turn).some((a) => a.watch_id === 'wat_garage_evening'), `${message}: ${turn.reply}`);
  }
  // a place left alone (not its watch) beside "the others" keeps nothing: asked, never a boundary and every watch down
  const [alone] = await converse('lisbon_watching', ['leave the garage alone, stop all the others']);
  assert.deepEqual(alone.changes, [], alone.reply);
  const [boundary] = await converse('lisbon_watching', ['leave the garage alone']);
  assert.deepEqual(tools(boundary), ['set_boundary'], boundary.reply);
  // "all" of its own still means every watch
  for (const message of ['stop all the watches', 'stop everything']) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.equal(tools(turn).filter((t) => t === 'stand_down_watch').length, 3, `${message}: ${turn.reply}`);
  }
  // a kept watch with a time of its own is no "keep" of what runs
  const [timed] = await converse('lisbon_watching', ['keep the garage watch till midnight, stop all the others']);
  assert.ok(!args(timed).some((a) => a.watch_id === 'wat_garage_evening' && !('ends_at' in a)), timed.reply);
});

test('a range whose end is next morning and whose start has no am/pm starts the evening before', async () => {
  for (const [message, start, end] of [
    ['watch the garage from 10 till 7 tomorrow morning', '2026-11-21T22:00:00.000Z', '2026-11-22T07:00:00.000Z'],
    ['watch the driveway 11 to 6 tomorrow morning', '2026-11-21T23:00:00.000Z', '2026-11-22T06:00:00.000Z'],
    ['keep an eye on the backyard from ten till seven tomorrow morning', '2026-11-21T22:00:00.000Z', '2026-11-22T07:00:00.000Z'],
    ['watch the garage from 9:30 until 6 tomorrow morning', '2026-11-21T21:30:00.000Z', '2026-11-22T06:00:00.000Z'],
  ] as const) {
    for (const ctx of [midday, evening]) {
      const [turn] = await converse(ctx, [message]);
      assert.deepEqual(tools(turn), ['create_watch'], `${message}: ${turn.reply}`);
      assert.equal(turn.changes[0].args.starts_at, start, `${message}: ${turn.reply}`);
      assert.equal(turn.changes[0].args.ends_at, end, `${message}: ${turn.reply}`);
    }
  }
  // a start before the end on the clock face is that morning's, as before
  for (const [message, start, end] of [
    ['watch the garage from 8 till 11 tomorrow morning', '2026-11-22T08:00:00.000Z', '2026-11-22T11:00:00.000Z'],
    ['watch the garage from 5 till 7 tomorrow morning', '2026-11-22T05:00:00.000Z', '2026-11-22T07:00:00.000Z'],
  ] as const) {
    const [turn] = await converse(midday, [message]);
    assert.deepEqual(tools(turn), ['create_watch'], `${message}: ${turn.reply}`);
    assert.equal(turn.changes[0].args.starts_at, start, `${message}: ${turn.reply}`);
    assert.equal(turn.changes[0].args.ends_at, end, `${message}: ${turn.reply}`);
  }
});

test('"from tomorrow until <day> night": from the start of the first day to the part of the last', async () => {
  for (const [message, start, end] of [
    ['watch the garage from tomorrow until wednesday night', '2026-11-22T00:00:00.000Z', '2026-11-25T22:00:00.000Z'],
    ['keep an eye on the driveway from tomorrow till tuesday evening', '2026-11-22T00:00:00.000Z', '2026-11-24T18:00:00.000Z'],
    ['watch the backyard from monday until thursday night', '2026-11-23T00:00:00.000Z', '2026-11-26T22:00:00.000Z'],
  ] as const) {
    const [turn] = await converse(midday, [message]);
    assert.deepEqual(tools(turn), ['create_watch'], `${message}: ${turn.reply}`);
    assert.equal(turn.changes[0].args.starts_at, start, `${message}: ${turn.reply}`);
    assert.equal(turn.changes[0].args.ends_at, end, `${message}: ${turn.reply}`);
  }
  // a statement's day beside an end is still asked (round K), and an end day with no part is read as before
  for (const message of [
    'we are off for a few days from tomorrow, please watch the garage until wednesday night',
    'watch the garage from tomorrow until wednesday',
  ]) {
    const [turn] = await converse(midday, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
  }
});

test('a slip of "house" beside arming is read as "house"; a real word is never rewritten', async () => {
  for (const message of ['dissarm the hosue', 'disarm the huose', 'disarm the houes please']) {
    const [turn] = await converse(armed, [message]);
    assert.deepEqual(args(turn), [{ arm: false }], `${message}: ${turn.reply}`);
  }
  const [arm] = await converse(midday, ['arm the hosue']);
  assert.deepEqual(args(arm), [{ arm: true }], arm.reply);
  for (const message of ['disarm the hose', 'disarm the horse']) {
    const [turn] = await converse(armed, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
  }
});

test('a perception said with the "I" dropped after a request is its reason, and "like" before an amount is a hedge', async () => {
  for (const message of [
    'can you watch the garage for like 45 mins? heard something out there',
    'can you watch the garage for 45 mins? heard something',
    'watch the garage for like 45 mins, saw someone by the door',
    'could you keep an eye on the garage for 45 minutes? noticed a fox',
  ]) {
    const [turn] = await converse(midday, [message]);
    assert.deepEqual(tools(turn), ['create_watch'], `${message}: ${turn.reply}`);
    assert.deepEqual(turn.changes[0].args.sensor_ids, ['sen_garage_motion'], `${message}: ${turn.reply}`);
    assert.equal(Date.parse(String(turn.changes[0].args.ends_at)) - Date.parse(String(turn.changes[0].args.starts_at)), 45 * 60_000, message);
  }
  // a request with no place, beside a perception, is still asked
  const [vague] = await converse(midday, ['can you watch for 45 mins? heard something']);
  assert.deepEqual(vague.changes, [], vague.reply);
});

test('scenes: a bare-hour range asked in the morning is asked back when both the small hours and yesterday afternoon have passed', () => {
  const ctx = { timeZone: 'Europe/London', windowMs: 300_000, location: 'front_entrance' };
  const morning = Date.parse('2026-06-10T08:00:00Z');
  for (const query of ['how many people came between 2 and 4?', 'any cars between 3 and 5?', 'how many people arrived from 1 to 3?']) {
    const r = interpretQuery(query, { ...ctx, now: morning });
    assert.equal(r.ok, false, query);
    if (!r.ok) assert.match(r.reason, /small hours, or in the afternoon/, query);
  }
  // said with its half of the day, its day, or asked in the afternoon: answered as before
  for (const [query, now, from] of [
    ['how many people came between 2 and 4pm?', morning, '2026-06-09T13:00:00.000Z'],
    ['how many people came between 2 and 4am?', morning, '2026-06-10T01:00:00.000Z'],
    ['how many people came between 2 and 4 yesterday?', morning, '2026-06-09T13:00:00.000Z'],
    ['how many people came between 2 and 4?', Date.parse('2026-06-10T16:00:00Z'), '2026-06-10T13:00:00.000Z'],
    ['how many people came between 10 and 11?', morning, '2026-06-09T21:00:00.000Z'],
  ] as const) {
    const r = interpretQuery(query, { ...ctx, now });
    assert.equal(r.ok, true, query);
    if (r.ok) assert.equal(new Date(r.interpretation.from!).toISOString(), from, query);
  }
});
