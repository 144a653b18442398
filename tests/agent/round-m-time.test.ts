/**
 * Round M household, times (docs/decisions.md, "Round M household: times"): a part of the day said
 * before a range settles both its hours; a start said as "from 8 tonight" with no end is asked
 * about (and the answer closes it); an edit said as "10 to 7" (a time or a range) is asked about;
 * a local time that happens twice, or not at all, on the night the clocks change is asked about.
 * The phrasings beside them that must keep their old reading are checked too. Phrasings are our
 * own, not those of the blind sets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';
import type { HouseholdContext } from '../../src/home/agent/context.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);

// lisbon (Europe/Lisbon: UTC in winter, UTC+1 in summer): garage motion, driveway camera, backyard camera…
const at = (iso: string, base = contexts.lisbon): HouseholdContext => ({ ...base, now: Date.parse(iso) });

type Turn = { changes: { tool: string; args: Record<string, unknown> }[]; reply: string };
function window(turn: Turn, message: string): [string, string] {
  assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
  const { starts_at, ends_at } = turn.changes[0].args as { starts_at: string; ends_at: string };
  return [starts_at.slice(0, 16), ends_at.slice(0, 16)];
}

test('a part of the day said before a range settles both its hours', async () => {
  const morning = at('2026-11-21T10:00:00Z');
  for (const [message, want] of [
    ['watch the driveway tomorrow morning from quarter to seven till half past eight', ['2026-11-22T06:45', '2026-11-22T08:30']],
    ['watch the garage tomorrow morning from 6 till 8', ['2026-11-22T06:00', '2026-11-22T08:00']],
    ['keep an eye on the backyard tomorrow morning from 5:30 until 7', ['2026-11-22T05:30', '2026-11-22T07:00']],
    // the hours that already fit the part keep them
    ['watch the garage tomorrow afternoon from 1 to 4', ['2026-11-22T13:00', '2026-11-22T16:00']],
    ['watch the garage tomorrow evening from 6 to 9', ['2026-11-22T18:00', '2026-11-22T21:00']],
  ] as const) {
    const [turn] = await converse(morning, [message]);
    assert.deepEqual(window(turn, message), want, message);
  }
});

test('"from 8 tonight" with no end asks until when, and the answer closes the window', async () => {
  const evening = at('2026-11-21T17:00:00Z');
  for (const message of ['watch the garage from 8 tonight', 'keep an eye on the driveway from nine tonight']) {
    const [turn] = await converse(evening, [message]);
    assert.equal(turn.changes.length, 0, `${message}: ${turn.reply}`);
    assert.match(turn.reply, /until when/i, turn.reply);
  }
  const [, answer] = await converse(evening, ['watch the garage from 8 tonight', 'till midnight']);
  assert.equal(answer.changes[0]?.tool, 'create_watch', answer.reply);
  assert.deepEqual(window(answer, 'till midnight'), ['2026-11-21T20:00', '2026-11-22T00:00']);
});

test('a night window said with its start, or a start with an end or a length, is not asked about', async () => {
  const evening = at('2026-11-21T17:00:00Z');
  for (const [message, want] of [
    ['watch the garage from 10 tonight till 6', ['2026-11-21T22:00', '2026-11-22T06:00']],
    ['watch the garage from 9 tonight for 90 mins', ['2026-11-21T21:00', '2026-11-21T22:30']],
  ] as const) {
    const [turn] = await converse(evening, [message]);
    assert.deepEqual(window(turn, message), want, message);
  }
  // "tonight from 10": the night's window, till sunrise
  const [night] = await converse(evening, ['watch the garage tonight from 10']);
  assert.equal(night.changes.length, 1, night.reply);
  assert.equal(window(night, 'tonight from 10')[0], '2026-11-21T22:00');
});

test('an edit said as "10 to 7" (a clock time or a range) is asked about', async () => {
  for (const message of ['make it 10 to 7 instead', 'change it to 20 to 9', 'make it 25 to 8 instead']) {
    const [turn] = await converse('lisbon_one_watch', [message]);
    assert.equal(turn.changes.length, 0, `${message}: ${turn.reply}`);
    assert.match(turn.reply, /could be the time|didn't understand/, turn.reply);
  }
});

test('an edit whose words settle the reading is made', async () => {
  for (const message of ['make it 10 till 6 instead', 'make it from 10 to 6', 'make it 10pm to 6am']) {
    const [turn] = await converse('lisbon_one_watch', [message]);
    assert.equal(turn.changes[0]?.tool, 'update_watch', `${message}: ${turn.reply}`);
  }
});

test('a time that happens twice, or not at all, on the night the clocks change is asked about', async () => {
  // Lisbon goes back at 02:00 on 25 October 2026 (01:00–02:00 twice) and forward at 01:00 on 29 March 2026
  for (const [now, message, said] of [
    ['2026-10-24T19:00:00Z', 'watch the garage from 1 to 3 tonight', /twice/],
    ['2026-10-24T19:00:00Z', 'watch the driveway till 1:30am', /twice/],
    ['2026-03-28T19:00:00Z', 'watch the garage from 1:30am till 6am', /does not exist/],
  ] as const) {
    const [turn] = await converse(at(now), [message]);
    assert.equal(turn.changes.length, 0, `${message}: ${turn.reply}`);
    assert.match(turn.reply, said, turn.reply);
  }
  // a range's end in the repeated hour after a start said before it is the first one, said in the reply
  // (docs/decisions.md, "Round S: times")
  const [ended] = await converse(at('2026-10-24T19:00:00Z'), ['watch the driveway from 11pm till 1:30am']);
  assert.equal(ended.changes.length, 1, ended.reply);
  assert.match(ended.reply, /01:30 happens twice: I'll stop at the first 01:30/, ended.reply);
});

test('the same times on a night with no clock change, or clear of the change, are watched', async () => {
  for (const [now, message] of [
    ['2026-10-17T19:00:00Z', 'watch the garage from 1 to 3 tonight'],
    ['2026-10-24T19:00:00Z', 'watch the garage from 3am till 6am'],
    ['2026-03-28T19:00:00Z', 'watch the garage from 3am till 6am'],
    ['2026-03-21T19:00:00Z', 'watch the garage from 1:30am till 6am'],
  ] as const) {
    const [turn] = await converse(at(now), [message]);
    assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
  }
});

// "between 3 and 6" without "today" said at 11:00 is the afternoon too since "Before round S: times" (docs/decisions.md);
// tests/agent/before-s-time.test.ts holds that class
test('"between 3 and 6 today" said when the morning reading is over is the afternoon; otherwise it is asked', async () => {
  const [late] = await converse(at('2026-11-21T11:00:00Z'), ['watch the garage between 3 and 6 today']);
  assert.deepEqual(window(late, 'between 3 and 6 today'), ['2026-11-21T15:00', '2026-11-21T18:00']);
  for (const [now, message] of [
    ['2026-11-21T19:00:00Z', 'watch the garage between 3 and 6'],
    ['2026-11-21T01:00:00Z', 'watch the garage between 3 and 6 today'],
  ] as const) {
    const [turn] = await converse(at(now), [message]);
    assert.equal(turn.changes.length, 0, `${message} at ${now}: ${turn.reply}`);
  }
});
