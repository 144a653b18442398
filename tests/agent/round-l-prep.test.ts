/**
 * Before round L (docs/decisions.md, "Before round L"): a time clause said before a request; a day said
 * in a statement beside a watch; standing down a place only the arming watch covers. Each class with
 * phrasings that must ask and change nothing, and phrasings that must still act. Phrasings are our own, not those of the blind sets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { ARMED_WINDOW } from '../../src/home/agent/tools/arm-house.ts';
import { getSunTime } from '../../src/platform/language/index.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);
const tools = (turn: { changes: { tool: string }[] }) => turn.changes.map((c) => c.tool);

// lisbon: front porch camera, driveway camera, back door contact (kitchen), garage motion, backyard
// camera, living room camera, nursery camera. Midday: the sun sets at about 17:20.
const midday: HouseholdContext = { ...contexts.lisbon, now: Date.parse('2026-11-21T11:00:00Z') };
const evening: HouseholdContext = { ...contexts.lisbon, now: Date.parse('2026-11-21T20:00:00Z') };
const sunset = getSunTime('sunset', { year: 2026, month: 11, day: 21 }, { now: midday.now, timeZone: midday.timeZone, location: midday.location });
const sunrise = getSunTime('sunrise', { year: 2026, month: 11, day: 22 }, { now: midday.now, timeZone: midday.timeZone, location: midday.location });

test('a sun clause before a watch request starts the watch at that sun time', async () => {
  for (const message of [
    'when it gets dark watch the driveway',
    'once it is dark, keep an eye on the driveway',
    'as soon as the sun goes down watch the driveway',
    'when the sun sets could you watch the driveway',
  ]) {
    const [turn] = await converse(midday, [message]);
    assert.deepEqual(tools(turn), ['create_watch'], `${message}: ${turn.reply}`);
    assert.equal(Date.parse(String(turn.changes[0].args.starts_at)), sunset, `${message}: ${turn.reply}`);
    assert.equal(Date.parse(String(turn.changes[0].args.ends_at)), sunrise, `${message}: ${turn.reply}`);
  }
  const [untilMidnight] = await converse(midday, ['once it gets dark monitor the garage till midnight']);
  assert.deepEqual(tools(untilMidnight), ['create_watch'], untilMidnight.reply);
  assert.equal(Date.parse(String(untilMidnight.changes[0].args.starts_at)), sunset, untilMidnight.reply);
});

test('an event the agent cannot know, a second start, an at-once change or a sun time already past is asked about', async () => {
  for (const [ctx, message] of [
    [midday, 'after we leave watch the driveway'],
    [midday, 'when the kids are asleep, keep an eye on the nursery'],
    [midday, 'once everyone is in bed watch the backyard till 7'],
    [midday, 'when it gets dark watch the driveway from 9pm'],
    [midday, 'once it is dark mute the garage motion'],
    [evening, 'when it gets dark watch the driveway'],
  ] as const) {
    const [turn] = await converse(ctx, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.equal(turn.asked, true, `${message}: ${turn.reply}`);
  }
});

test('a question that opens with "when" stays a question, and times said plainly still act', async () => {
  for (const message of ['when does the driveway watch end?', 'when is the garage watched?']) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
  }
  for (const message of ['after dark watch the driveway', 'after 10pm till 6am watch the driveway', 'watch the driveway from sunset']) {
    const [turn] = await converse(midday, [message]);
    assert.deepEqual(tools(turn), ['create_watch'], `${message}: ${turn.reply}`);
  }
  // (a clock start with no end is asked until when since round R, "Round R: times")
  const [open] = await converse(midday, ['after 10pm watch the driveway']);
  assert.match(open.reply, /until when/);
});

test('a day said in a statement beside a watch is no silent start: it asks now or that day', async () => {
  for (const message of [
    "we're off to Faro tomorrow so watch the driveway until Sunday night",
    'we fly out tomorrow so please keep an eye on the garage till sunday',
    'watch the backyard till sunday night because we leave tomorrow',
    'watch the backyard until sunday night, we are away from tomorrow',
    "we're off tomorrow so watch the driveway for the week",
  ]) {
    const [turn] = await converse(midday, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /not when to start: now, or "/, `${message}: ${turn.reply}`);
  }
});

test('a watch whose own words give its start still takes the statement’s day, and a watch with no statement acts', async () => {
  const [cleaner] = await converse(midday, ['the cleaner comes tomorrow so watch the living room from 2pm to 4pm']);
  assert.deepEqual(tools(cleaner), ['create_watch'], cleaner.reply);
  assert.match(String(cleaner.changes[0].args.starts_at), /^2026-11-22T14:00/, cleaner.reply);
  for (const message of ['watch the driveway until sunday night', 'watch the driveway tomorrow from 9am to 5pm']) {
    const [turn] = await converse(midday, [message]);
    assert.deepEqual(tools(turn), ['create_watch'], `${message}: ${turn.reply}`);
  }
});

function armed(): HouseholdContext {
  const home = contexts.lisbon;
  const ids = home.sensors.filter((s) => s.kind === 'camera' || s.kind === 'contact').map((s) => s.id);
  const watch = { id: 'wat_armed', subject: 'house', sensor_ids: ids, starts_at: '2026-11-21T08:00:00.000Z', ends_at: '9999-12-31T23:59:59.000Z' };
  return { ...home, watches: [{ ...watch, recurrence: 'none', window: ARMED_WINDOW }] } as HouseholdContext;
}

test('standing down a place that only the arming watch covers asks: leave it out, or disarm?', async () => {
  for (const message of ['stop watching the driveway', 'stand down the backyard and the nursery', 'no need to watch the living room']) {
    const [turn] = await converse(armed(), [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /armed watch, or to disarm/, `${message}: ${turn.reply}`);
  }
  for (const message of ['stop watching everything', 'disarm the house']) {
    const [turn] = await converse(armed(), [message]);
    assert.deepEqual(tools(turn), ['arm_house'], `${message}: ${turn.reply}`);
  }
});

test('a place with a watch of its own beside the arming watch is still stood down', async () => {
  const home = armed();
  const driveway = home.sensors.find((s) => s.room === 'driveway')!;
  const own = { ...home.watches[0], id: 'wat_drive', subject: 'driveway', sensor_ids: [driveway.id], window: 'tonight', ends_at: '2026-11-22T07:00:00.000Z' };
  const [turn] = await converse({ ...home, watches: [...home.watches, own] }, ['stop watching the driveway']);
  assert.ok(tools(turn).includes('stand_down_watch'), turn.reply);
});
