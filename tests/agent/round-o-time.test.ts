/**
 * Round O household, times and follow-ups (docs/decisions.md, "Round O: times and follow-ups"): a repeating
 * window said as "every weekday 9 to 11" whose first occurrence today is still ahead starts today; a start edit
 * without am/pm keeps the watch's day ("start it at 4 instead" of tonight's watch is 16:00 today, not tomorrow);
 * "move it to monday" moves the watch's day and keeps its hours. The phrasings beside them that must keep their
 * old reading are checked too. Phrasings are our own, not those of the blind sets.
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
const early: HouseholdContext = { ...contexts.lisbon, now: Date.parse('2026-11-19T07:45:00Z') };
const midday: HouseholdContext = { ...contexts.lisbon, now: Date.parse('2026-11-19T11:00:00Z') };

type Turn = { changes: { tool: string; args: Record<string, unknown> }[]; reply: string };
function window(turn: Turn, message: string): [string | undefined, string | undefined] {
  assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
  const { starts_at, ends_at } = turn.changes[0].args as { starts_at?: string; ends_at?: string };
  return [starts_at?.slice(0, 16), ends_at?.slice(0, 16)];
}

test('a repeating weekday window still ahead today starts today', async () => {
  for (const message of [
    'every weekday 9 to 11 in the morning can you watch the garage',
    'every weekday from 9 to 11 watch the driveway',
    'each weekday 9 till 11 keep an eye on the backyard',
    'watch the garage weekdays 9 to 11',
  ]) {
    const [turn] = await converse(early, [message]);
    assert.deepEqual(window(turn, message), ['2026-11-19T09:00', '2026-11-19T11:00'], `${message}: ${turn.reply}`);
    assert.equal(turn.changes[0].args.recurrence, 'weekdays', `${message}: ${turn.reply}`);
  }
});

test('a named day or a weekend pattern still starts on its own day', async () => {
  const [friday] = await converse(early, ['on friday 9 to 11 watch the garage']);
  assert.deepEqual(window(friday, 'on friday'), ['2026-11-20T09:00', '2026-11-20T11:00'], friday.reply);
  const [weekend] = await converse(early, ['every weekend 9 to 11 watch the garage']);
  assert.deepEqual(window(weekend, 'every weekend'), ['2026-11-21T09:00', '2026-11-21T11:00'], weekend.reply);
});

test('a start edit without am/pm keeps the watch day when the other half-day is still ahead', async () => {
  for (const [message, start] of [
    ['hmm, start it at 4 instead', '2026-11-19T16:00'],
    ['actually make it start at 3', '2026-11-19T15:00'],
    ['can it begin at 4:30 instead', '2026-11-19T16:30'],
  ]) {
    const [made, turn] = await converse(midday, ['watch the garage tonight', message]);
    const [s, e] = window(turn, message);
    assert.equal(s, start, `${message}: ${turn.reply}`);
    // (the end is sent as the watch has it since round R, "Round R: times")
    assert.equal(e, (made.changes[0].args as { ends_at: string }).ends_at.slice(0, 16), `${message}: ${turn.reply}`);
  }
});

test('a start edit that needs no other half-day keeps its old reading', async () => {
  // an evening hour on a night watch is that evening's
  const [, ten] = await converse(midday, ['watch the garage from 9pm to 6am', 'start it at 10 instead']);
  assert.equal(window(ten, 'start at 10')[0], '2026-11-19T22:00', ten.reply);
  // am said: the morning's, never moved to the afternoon
  const [, four] = await converse(midday, ['watch the garage tonight', 'start it at 4am instead']);
  assert.notEqual(window(four, 'start at 4am')[0], '2026-11-19T16:00', four.reply);
});

test('"move it to monday" moves the watch day and keeps its hours', async () => {
  for (const [message, day] of [
    ['move it to saturday', '2026-11-21'],
    ['change it to monday', '2026-11-23'],
    ['move it to saturday instead', '2026-11-21'],
    ['switch it to monday', '2026-11-23'],
  ]) {
    const [, turn] = await converse(midday, ['watch the garage tomorrow from 10 to 2', message]);
    assert.deepEqual(window(turn, message), [`${day}T10:00`, `${day}T14:00`], `${message}: ${turn.reply}`);
  }
});

test('a day after an end word or an extending verb is still the new end', async () => {
  for (const message of ['extend it to saturday', 'keep it going till saturday', 'move the end to saturday']) {
    const [, turn] = await converse(midday, ['watch the garage tomorrow from 10 to 2', message]);
    if (!turn.changes.length) continue; // asked: fine, never a moved day
    const [s] = window(turn, message);
    assert.notEqual(s, '2026-11-21T10:00', `${message}: ${turn.reply}`);
  }
});

test('a watch stood down earlier is put back on for the time now said', async () => {
  for (const message of ['actually put it back on, just for tonight', 'hmm, turn it back on for tonight', 'put that back on tonight please']) {
    const [, , turn] = await converse(midday, ['watch the garage tomorrow from 10 to 2', 'stand down the garage watch', message]);
    assert.deepEqual(
      turn.changes.map((c) => c.tool),
      ['create_watch'],
      `${message}: ${turn.reply}`,
    );
    assert.match(String(turn.changes[0].args.starts_at), /^2026-11-19T17:/, `${message}: ${turn.reply}`);
    assert.equal(turn.changes[0].args.subject, 'garage', `${message}: ${turn.reply}`);
  }
});

test('"put it back on" with nothing stood down never creates a watch of its own', async () => {
  const [, turn] = await converse(midday, ['mute the garage camera', 'put it back on tonight']);
  assert.ok(!turn.changes.some((c) => c.tool === 'create_watch'), turn.reply);
});
