/**
 * Round Q, bare hours (docs/decisions.md, "Round Q: bare hours"): a range of two bare hours in one half of the
 * clock ("7:30 to 9") stays in one half; a repeating one keeps each day's hours (not moved to the evening); a follow-up's hours
 * are of the day the request named ("while I'm at work tomorrow" — "9 to 6"); "and weekends too" adds to a
 * watch's repeat; a time said as the reason for arming ("we're all out till 5, arm the house") leaves arming as it
 * is, until disarmed; clock times written with a dot ("12.30", "7.45pm"). The phrasings beside them that must keep
 * their old reading are checked too. Phrasings are our own, not the set's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';
import type { HouseholdContext } from '../../src/home/agent/context.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);

// lisbon (Europe/Lisbon, UTC in November): garage, driveway, backyard and other places. Thursday 19 Nov 2026.
const at = (hhmm: string): HouseholdContext => ({ ...contexts.lisbon, now: Date.parse(`2026-11-19T${hhmm}:00Z`) });
const withWeekdayWatch: HouseholdContext = {
  ...at('13:00'),
  watches: [
    {
      id: 'wat_garage_weekdays',
      subject: 'garage',
      sensor_ids: ['sen_garage_motion'],
      starts_at: '2026-11-19T09:00:00.000Z',
      ends_at: '2026-11-19T17:00:00.000Z',
      recurrence: 'weekdays',
      window: 'weekdays, 09:00 to 17:00',
    },
  ],
};

type Turn = { changes: { tool: string; args: Record<string, unknown> }[]; reply: string };
function window(turn: Turn, message: string): [string | undefined, string | undefined] {
  assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
  const { starts_at, ends_at } = turn.changes[0].args as { starts_at?: string; ends_at?: string };
  return [starts_at?.slice(0, 16), ends_at?.slice(0, 16)];
}

async function expectWindow(ctx: HouseholdContext, messages: string[], start: string, end: string) {
  const turns = await converse(ctx, messages);
  const last = turns.at(-1)!;
  assert.deepEqual(window(last, messages.join(' / ')), [start, end], `${messages.join(' / ')}: ${last.reply}`);
  return last;
}

async function expectAsked(ctx: HouseholdContext, message: string, says?: RegExp) {
  const [turn] = await converse(ctx, [message]);
  assert.equal(turn.changes.length, 0, `${message}: ${turn.reply}`);
  if (says) assert.match(turn.reply, says, message);
}

test('two bare hours in one half of the clock stay in that half, never 19:30 to 09:00', async () => {
  await expectWindow(at('13:00'), ['watch the garage 7:30 to 9'], '2026-11-19T19:30', '2026-11-19T21:00');
  await expectWindow(at('13:00'), ['watch the driveway from 8 till 10'], '2026-11-19T20:00', '2026-11-19T22:00');
  await expectWindow(at('13:00'), ['watch the backyard 6.15 to 7.45'], '2026-11-19T18:15', '2026-11-19T19:45');
  // must not fire: a range that crosses midnight on the clock stays overnight
  await expectWindow(at('18:20'), ['watch the garage from 11 till 6'], '2026-11-19T23:00', '2026-11-20T06:00');
  await expectWindow(at('23:47'), ['watch the garage 12 til 6'], '2026-11-20T00:00', '2026-11-20T06:00');
});

test("a repeating range in one half keeps the hours' own reading, on the next day it fits, never moved to the evening", async () => {
  for (const [message, start, end] of [
    ['watch the driveway weekdays 7:30 to 9', '2026-11-20T07:30', '2026-11-20T09:00'],
    ['keep an eye on the backyard on weekdays from 7 to 9', '2026-11-20T07:00', '2026-11-20T09:00'],
    ['watch the garage every day 8 to 10', '2026-11-20T08:00', '2026-11-20T10:00'],
  ]) {
    const turn = await expectWindow(at('13:00'), [message], start, end);
    assert.notEqual(turn.changes[0].args.recurrence, 'none', message);
  }
  // must not fire: a one-off range whose morning is gone is the evening's, as before
  await expectWindow(at('13:00'), ['watch the garage 7 to 9'], '2026-11-19T19:00', '2026-11-19T21:00');
});

test("a repeating daytime range keeps its hours: not moved to the evening because today's morning is gone", async () => {
  const turn = await expectWindow(at('13:00'), ['watch the garage weekdays 9 to 5'], '2026-11-19T13:00', '2026-11-19T17:00');
  assert.equal(turn.changes[0].args.recurrence, 'weekdays');
  const morning = await expectWindow(at('13:00'), ['watch the garage every weekday morning 7 to 9'], '2026-11-20T07:00', '2026-11-20T09:00');
  assert.equal(morning.changes[0].args.recurrence, 'weekdays');
  // must not fire: the night said keeps the night's reading
  const night = await expectWindow(at('13:00'), ['watch the garage every weeknight from 11 till 6'], '2026-11-19T23:00', '2026-11-20T06:00');
  assert.equal(night.changes[0].args.recurrence, 'weekdays');
});

test('hours given after the agent asked until when are of the day the request named', async () => {
  for (const request of ["watch the garage while I'm at work tomorrow", 'keep an eye on the driveway tomorrow while we are out']) {
    const [first] = await converse(at('18:10'), [request]);
    assert.equal(first.changes.length, 0, `${request}: ${first.reply}`);
    await expectWindow(at('18:10'), [request, '9 to 6'], '2026-11-20T09:00', '2026-11-20T18:00');
  }
  // must not fire: hours that name their own day keep it
  await expectWindow(at('18:10'), ["watch the garage while I'm at work tomorrow", 'saturday 9 to 6'], '2026-11-21T09:00', '2026-11-21T18:00');
});

test('"and weekends too" adds the other days to a watch that repeats on weekdays', async () => {
  for (const message of ['and weekends too', 'weekends as well please', 'also at weekends']) {
    const [, turn] = await converse(withWeekdayWatch, ['change the garage watch to 10 till 4', message]);
    assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
    assert.deepEqual(turn.changes[0].args, { watch_id: 'wat_garage_weekdays', recurrence: 'daily' }, `${message}: ${turn.reply}`);
  }
  // must not fire: said without "too", the days replace the watch's own
  for (const message of ['make it weekends', 'weekends instead']) {
    const [, turn] = await converse(withWeekdayWatch, ['change the garage watch to 10 till 4', message]);
    assert.equal(turn.changes[0]?.args.recurrence, 'weekends', `${message}: ${turn.reply}`);
  }
});

test('a time said as the reason for arming does not turn arming into a watch', async () => {
  for (const message of ["we're all out till 5, arm the house", 'we are out until 6pm so arm the house please', "I'm away till tomorrow, arm the house"]) {
    const [turn] = await converse(at('13:00'), [message]);
    assert.deepEqual(
      turn.changes.map((c) => [c.tool, c.args]),
      [['arm_house', { arm: true }]],
      `${message}: ${turn.reply}`,
    );
    assert.match(turn.reply, /until you disarm/, message);
  }
  // must not fire: a watch with that end is a watch; an end on the arming itself is asked
  await expectWindow(at('13:00'), ["we're out till 5, watch the garage"], '2026-11-19T13:00', '2026-11-19T17:00');
  await expectAsked(at('13:00'), 'arm the house till 5');
});

test('clock times written with a dot are clock times', async () => {
  await expectWindow(at('13:00'), ['watch the garage tomorrow between 9 and 12.30'], '2026-11-20T09:00', '2026-11-20T12:30');
  await expectWindow(at('13:00'), ['watch the garage tomorrow between 9.15 and 11'], '2026-11-20T09:15', '2026-11-20T11:00');
  await expectWindow(at('13:00'), ['watch the garage from 7.45pm till 11pm'], '2026-11-19T19:45', '2026-11-19T23:00');
  // must not fire: an amount with a dot stays an amount
  await expectWindow(at('13:00'), ['watch the garage for 2.5 hours'], '2026-11-19T13:00', '2026-11-19T15:30');
});
