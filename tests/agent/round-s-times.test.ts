/**
 * Round S, times (docs/decisions.md, "Round S: times"): a closing or opening time said as a window's end ("from
 * closing at 6", "until we open at 8") takes that half of the day, and a day said with the other end does not move
 * it; "today" said before a range's end word stays the start's; the night the clocks go back, a range's end in the
 * repeated hour is the first of the two, said in the reply (a start in it, or a time that does not exist, is asked);
 * "9 to 6 tomorrow" with no "from" is tomorrow's 09:00 to 18:00, as "tomorrow 9 to 6" is; a home's name that is a function word
 * ("the till", "the till cam") is the place after a determiner and a time word elsewhere. Phrasings beside them that
 * must keep their old reading are checked too. Phrasings are our own, not the set's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';
import type { HouseholdContext } from '../../src/home/agent/context.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);

// lisbon (Europe/Lisbon): front porch, driveway, kitchen, garage, backyard, living room, nursery.
const on = (iso: string): HouseholdContext => ({ ...contexts.lisbon, now: Date.parse(iso) });
// Thursday 16 Jul 2026, WEST (UTC+1): 15:30 local
const summer = on('2026-07-16T14:30:00Z');
// a corner shop with a till: a room named "till" and a camera named "till cam" in another room
const shop = (iso: string): HouseholdContext => ({
  ...on(iso),
  rooms: [{ name: 'shop floor' }, { name: 'till' }, { name: 'stockroom' }],
  sensors: [
    { id: 'floor_cam', name: 'shop floor camera', kind: 'camera', room: 'shop floor', muted: false },
    { id: 'till_cam', name: 'till camera', kind: 'camera', room: 'till', muted: false },
    { id: 'stock_cam', name: 'stockroom camera', kind: 'camera', room: 'stockroom', muted: false },
  ],
  watches: [],
});
const kiosk = (iso: string): HouseholdContext => ({
  ...on(iso),
  rooms: [{ name: 'shop floor' }, { name: 'stockroom' }],
  sensors: [
    { id: 'floor_cam', name: 'shop floor camera', kind: 'camera', room: 'shop floor', muted: false },
    { id: 'till_cam', name: 'till camera', kind: 'camera', room: 'shop floor', muted: false },
    { id: 'stock_cam', name: 'stockroom camera', kind: 'camera', room: 'stockroom', muted: false },
  ],
  watches: [],
});

type Turn = { changes: { tool: string; args: Record<string, unknown> }[]; reply: string };
function window(turn: Turn, message: string): [string | undefined, string | undefined] {
  assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
  const { starts_at, ends_at } = turn.changes[0].args as { starts_at?: string; ends_at?: string };
  return [starts_at?.slice(0, 16), ends_at?.slice(0, 16)];
}

async function expectWindow(ctx: HouseholdContext, messages: string[], start: string, end: string): Promise<Turn> {
  const turns = await converse(ctx, messages);
  const last = turns.at(-1)!;
  assert.deepEqual(window(last, messages.join(' / ')), [start, end], `${messages.join(' / ')}: ${last.reply}`);
  return last;
}

async function expectAsked(ctx: HouseholdContext, messages: string[], says?: RegExp) {
  const turns = await converse(ctx, messages);
  const last = turns.at(-1)!;
  assert.equal(last.changes.length, 0, `${messages.join(' / ')}: ${last.reply}`);
  if (says) assert.match(last.reply, says, messages.join(' / '));
}

test('a closing time is the evening and an opening time the morning, a day said with the end leaving the start', async () => {
  // 15:30 local: closing at 6 is 18:00 today (17:00Z), not 06:00 tomorrow
  await expectWindow(summer, ['watch the garage from closing at 6 until 8 tomorrow morning'], '2026-07-16T17:00', '2026-07-17T07:00');
  await expectWindow(summer, ['watch the driveway after we shut at 7:30 till 9 tomorrow morning'], '2026-07-16T18:30', '2026-07-17T08:00');
  await expectWindow(summer, ['garage from when they close at 10 until we open at 7 please'], '2026-07-16T21:00', '2026-07-17T06:00');
  await expectWindow(summer, ['watch the backyard tonight from when we close at 9 until we open at 8'], '2026-07-16T20:00', '2026-07-17T07:00');
  // the word of the opening time is no door to look for
  const [turn] = await converse(summer, ['watch the garage from closing at 9 until we open at 7']);
  assert.equal(turn.changes[0]?.args.conditions, undefined, turn.reply);
  // must not fire: a range inside the morning keeps its day; a clock after no from/until word is a plain time
  await expectWindow(summer, ['watch the garage from 6 until 9 tomorrow morning'], '2026-07-17T05:00', '2026-07-17T08:00');
  await expectWindow(summer, ['watch the garage from closing at 6pm until 9 tomorrow morning'], '2026-07-16T17:00', '2026-07-17T08:00');
});

test('"today" said before a range\'s end word is the start\'s day, the end keeping its own', async () => {
  // 09:00 local: sunset today until 10 tomorrow morning
  const turn = await converse(on('2026-07-16T08:00:00Z'), ['watch the garage from sunset today until 10 tomorrow morning']);
  const [start, end] = window(turn[0], 'sunset today');
  assert.match(start ?? '', /^2026-07-16T(19|20):/);
  assert.equal(end, '2026-07-17T09:00');
  const [dusk] = await converse(on('2026-07-16T08:00:00Z'), ['watch the driveway from dusk today till 7 tomorrow morning']);
  const [duskStart, duskEnd] = window(dusk, 'dusk today');
  assert.match(duskStart ?? '', /^2026-07-16T(19|20):/);
  assert.equal(duskEnd, '2026-07-17T06:00');
  // must not fire: "today until 5" is still today's
  await expectWindow(on('2026-07-16T08:00:00Z'), ['watch the garage today until 5'], '2026-07-16T08:00', '2026-07-16T16:00');
});

// Lisbon's clocks go back at 02:00 WEST on Sunday 25 Oct 2026 (01:00–02:00 happens twice) and forward at 01:00 WET
// on Sunday 29 Mar 2026 (01:00–02:00 does not exist)
test('the night the clocks go back, a range ending in the repeated hour ends at the first one, and says so', async () => {
  const autumn = on('2026-10-24T12:00:00Z');
  const turn = await expectWindow(autumn, ['watch the garage from 10pm to 1am'], '2026-10-24T21:00', '2026-10-25T00:00');
  assert.match(turn.reply, /clocks go back that night, so 01:00 happens twice: I'll stop at the first 01:00/);
  await expectWindow(autumn, ['watch the driveway from 11pm till 1:30am'], '2026-10-24T22:00', '2026-10-25T00:30');
  // must not fire: a start in the repeated hour, or an end with no start, is asked; an end past it is plain
  await expectAsked(autumn, ['watch the garage from 1am to 4am'], /happens twice/);
  await expectAsked(autumn, ['watch the garage until 1:15am'], /happens twice/);
  const plain = await expectWindow(autumn, ['watch the garage from 10pm to 3am'], '2026-10-24T21:00', '2026-10-25T03:00');
  assert.doesNotMatch(plain.reply, /clocks/);
  // the night the clocks go forward, a time that does not exist is still asked
  await expectAsked(on('2026-03-28T12:00:00Z'), ['watch the garage from 10pm to 1:30am'], /does not exist/);
});

test('"9 to 6 tomorrow" with no "from" is the day\'s hours tomorrow, said in the evening too; "from 9 to 6 tomorrow" is asked', async () => {
  const evening = on('2026-07-16T19:30:00Z');
  await expectWindow(evening, ['watch the garage 9 to 6 tomorrow'], '2026-07-17T08:00', '2026-07-17T17:00');
  await expectWindow(evening, ['watch the garage', '8 till 5 tomorrow'], '2026-07-17T07:00', '2026-07-17T16:00');
  await expectWindow(on('2026-07-16T09:00:00Z'), ['driveway 10 to 4 tomorrow please'], '2026-07-17T09:00', '2026-07-17T15:00');
  // must not fire: "from" before the range leaves it open; the day said first; no day word; a day part after it
  await expectAsked(evening, ['watch the garage from 9 to 6 tomorrow'], /09:00 to 18:00 tomorrow, or 21:00 to 06:00 overnight/);
  await expectWindow(evening, ['watch the garage tomorrow 9 to 6'], '2026-07-17T08:00', '2026-07-17T17:00');
  await expectWindow(evening, ['watch the garage 10 to 6'], '2026-07-16T21:00', '2026-07-17T05:00');
  await expectWindow(evening, ['watch the garage 10 to 6 tomorrow night'], '2026-07-17T21:00', '2026-07-18T05:00');
});

test('a name that is a function word ("the till") is the place after a determiner, and a time word elsewhere', async () => {
  const noon = '2026-07-16T11:00:00Z';
  await expectWindow(shop(noon), ['watch the till till 6'], '2026-07-16T11:00', '2026-07-16T17:00');
  await expectWindow(shop(noon), ['watch the till', 'till 6 please'], '2026-07-16T11:00', '2026-07-16T17:00');
  const [muted] = await converse(shop(noon), ['mute the till cam']);
  assert.deepEqual(muted.changes[0]?.args, { sensor_id: 'till_cam' }, muted.reply);
  const [kioskMuted] = await converse(kiosk(noon), ['mute the till camera']);
  assert.deepEqual(kioskMuted.changes[0]?.args, { sensor_id: 'till_cam' }, kioskMuted.reply);
  const cam = await expectWindow(kiosk(noon), ['watch the till cam for the next two hours'], '2026-07-16T11:00', '2026-07-16T13:00');
  assert.deepEqual(cam.changes[0].args.sensor_ids, ['till_cam']);
  // must not fire: "till" with no determiner is the time word
  const stock = await expectWindow(shop(noon), ['watch the stockroom till 6'], '2026-07-16T11:00', '2026-07-16T17:00');
  assert.deepEqual(stock.changes[0].args.sensor_ids, ['stock_cam']);
  const kept = await expectWindow(kiosk(noon), ['watch the stockroom camera till 6 please'], '2026-07-16T11:00', '2026-07-16T17:00');
  assert.deepEqual(kept.changes[0].args.sensor_ids, ['stock_cam']);
});
