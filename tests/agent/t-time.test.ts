/**
 * Times before round T (docs/decisions.md, "Before round T: times"): a range whose two ends each carry their own day
 * ("from 6 today until 9 tomorrow", "8pm tonight till 7am tomorrow", "today 9 until tomorrow 5") keeps each end's day;
 * a bare end hour takes the morning's only when that makes one night's window; an end before its start never stands,
 * and where both readings are sensible, or the start has passed, it is asked. An "-ish" clock is taken as the clock
 * and the reply says which. Phrasings are our own, with those where the change must not fire.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { at, converse, expectAsked, type Turn } from './lisbon-workshop.ts';

async function expectWindow(ctx: HouseholdContext, said: string, start: string, end: string) {
  const [turn] = (await converse(ctx, [said])) as Turn[];
  assert.equal(turn.changes.length, 1, `${said}: ${turn.reply}`);
  const { starts_at, ends_at } = turn.changes[0].args as { starts_at?: string; ends_at?: string };
  assert.equal(starts_at?.slice(0, 16), start, `${said}: ${turn.reply}`);
  assert.ok(ends_at?.slice(0, 16).startsWith(end), `${said}: ${ends_at} ${turn.reply}`);
}

test('each end of a range keeps its own day: the start today, the end tomorrow', async () => {
  await expectWindow(at('14:00'), 'watch the yard from 6 today until 9 tomorrow', '2026-11-21T18:00', '2026-11-22T09:00');
  await expectWindow(at('14:00'), 'watch the workshop from 8pm today until 7 tomorrow', '2026-11-21T20:00', '2026-11-22T07:00');
  await expectWindow(at('14:00'), 'keep an eye on the yard 6pm tonight till 9am tomorrow', '2026-11-21T18:00', '2026-11-22T09:00');
  await expectWindow(at('14:00'), 'watch the office today 9 until tomorrow 5', '2026-11-21T21:00', '2026-11-22T05:00');
  await expectWindow(at('14:00'), 'watch the yard from 6 p.m. today till 7 a.m. tomorrow', '2026-11-21T18:00', '2026-11-22T07:00');
  await expectWindow(at('14:00'), 'watch the workshop from 11pm tonight till 6:30am tomorrow', '2026-11-21T23:00', '2026-11-22T06:30');
  await expectWindow(at('14:00'), 'watch the yard from 6:30 tonight until 7:15 tomorrow morning', '2026-11-21T18:30', '2026-11-22T07:15');
  await expectWindow(at('14:00'), 'watch the yard from 10 tonight to 6 tomorrow morning', '2026-11-21T22:00', '2026-11-22T06:00');
  await expectWindow(at('14:00'), 'watch the workshop from 3 today till 2 tomorrow', '2026-11-21T15:00', '2026-11-22T02:00');
});

test('an end that is later on the clock than its start is the next day at that hour, not moved', async () => {
  await expectWindow(at('14:00'), 'watch the workshop from 8pm today until 9pm tomorrow', '2026-11-21T20:00', '2026-11-22T21:00');
  await expectWindow(at('14:00'), 'watch the yard from 6 today until 7 tomorrow evening', '2026-11-21T18:00', '2026-11-22T19:00');
});

test('a range with its own days is asked when its start has passed or both halves of an hour are sensible', async () => {
  // the start's hour has passed today (13:00 at 14:00)
  await expectAsked(at('14:00'), 'watch the yard from 1 today until 6 tomorrow');
  // "9 today" at 08:00 is 09:00 or 21:00
  await expectAsked(at('08:00'), 'watch the yard from 9 today until 5 tomorrow');
});

test('an "-ish" clock is the clock, and the reply says the time taken', async () => {
  for (const said of ['watch the workshop till 7ish', 'watch the workshop until 7 ish please', 'watch the workshop till sevenish']) {
    const [turn] = (await converse(at('13:20'), [said])) as Turn[];
    assert.equal(turn.changes.length, 1, `${said}: ${turn.reply}`);
    assert.equal((turn.changes[0].args as { ends_at?: string }).ends_at?.slice(0, 16), '2026-11-21T19:00', said);
    assert.match(turn.reply, /\b19:00\b/, `${said}: ${turn.reply}`);
  }
});

test('a start said as an event with its clock starts at that clock; the end keeps its own day', async () => {
  await expectWindow(at('14:00'), 'watch the yard after work at 5:30 until midnight', '2026-11-21T17:30', '2026-11-22T00:00');
  await expectWindow(at('14:00'), 'watch the workshop once the shop shuts at 7 until 8 tomorrow morning', '2026-11-21T19:00', '2026-11-22T08:00');
  await expectWindow(at('14:00'), 'watch the yard from when I leave at 6 till 7 tomorrow morning', '2026-11-21T18:00', '2026-11-22T07:00');
  await expectWindow(at('14:00'), 'watch the office after my shift at 10 till 6 tomorrow', '2026-11-21T22:00', '2026-11-22T06:00');
  await expectWindow(at('14:00'), 'watch the yard after the match at 9 until 1', '2026-11-21T21:00', '2026-11-22T01:00');
  await expectWindow(at('14:00'), 'watch the workshop from when the van comes at 4pm till 6pm', '2026-11-21T16:00', '2026-11-21T18:00');
});

test('an event with no clock, or with no end after its clock, is asked; a place after "from" is no event', async () => {
  await expectAsked(at('14:00'), 'watch the yard after dinner until midnight');
  await expectAsked(at('14:00'), 'watch the yard after work at 5:30');
  await expectAsked(at('14:00'), 'watch the workshop once we are done until 7');
  // (the yard is a place of the home, never hidden as an event's words)
  const [turn] = (await converse(at('14:00'), ['watch the office from the yard at 6 until 9'])) as Turn[];
  assert.ok(turn.changes.length === 0 || JSON.stringify(turn.changes).includes('yard_cam'), turn.reply);
});

test('an end said as an event with its clock ends at that clock; waking is the morning', async () => {
  await expectWindow(at('18:10'), 'watch the office till my sister gets home at 9:30', '2026-11-21T18:10', '2026-11-21T21:30');
  await expectWindow(at('21:05'), 'yard from now till the kids wake up around 8', '2026-11-21T21:05', '2026-11-22T08:00');
  await expectWindow(at('14:00'), 'watch the workshop until the kids wake up about 7', '2026-11-21T14:00', '2026-11-22T07:00');
  await expectAsked(at('14:00'), 'watch the yard until my sister gets home');
});

test('two bare hours said with "from" on a weekday still to come, both halves a usual watch, are asked', async () => {
  await expectAsked(at('14:00'), 'watch the yard sunday from 8 to 10');
  await expectAsked(at('14:00'), 'watch the yard on monday from 7 to 9');
  // (without "from", or on "tomorrow", a day's hours as before)
  await expectWindow(at('14:00'), 'watch the yard tomorrow 9 to 11', '2026-11-22T09:00', '2026-11-22T11:00');
  await expectWindow(at('14:00'), 'watch the yard sunday 9 to 11', '2026-11-22T09:00', '2026-11-22T11:00');
  // a word or am/pm picks the half; a range across noon is the day's
  await expectWindow(at('14:00'), 'watch the yard sunday morning from 8 to 10', '2026-11-22T08:00', '2026-11-22T10:00');
  await expectWindow(at('14:00'), 'watch the yard sunday from 8 to 10am', '2026-11-22T08:00', '2026-11-22T10:00');
  await expectWindow(at('14:00'), 'watch the yard sunday from 9 to 5', '2026-11-22T09:00', '2026-11-22T17:00');
});

test('"till the sun goes down" after a clock start is sunset, not an end nobody knows; "tnght" is tonight', async () => {
  await expectWindow(at('10:00'), 'watch the yard from 4pm tomorrow till the sun goes down', '2026-11-22T16:00', '2026-11-22T17:2');
  await expectWindow(at('10:00'), 'watch the yard from 2pm till the sun goes down', '2026-11-21T14:00', '2026-11-21T17:2');
  // (an end someone else decides stays asked)
  await expectAsked(at('10:00'), 'watch the yard from 2pm till the builders have gone');
  const [turn] = (await converse(at('10:00'), ['watch the workshop tnght'])) as Turn[];
  assert.equal(turn.changes.length, 1, turn.reply);
});
