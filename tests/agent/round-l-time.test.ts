/**
 * Round L household, times (docs/decisions.md, "Round L household: times"): a day said after an end
 * ("till 7 tomorrow") dates that end only when the start is still ahead tonight, in one message or
 * answering a question; several whole days with no hours ("next week") are asked about unless the
 * words say every hour of them. The phrasings beside them that must keep their old reading are
 * checked too. Phrasings are our own, not those of the blind sets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';
import type { HouseholdContext } from '../../src/home/agent/context.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);

// lisbon (Europe/Lisbon, UTC in November): front porch camera, driveway camera, back door contact
// (kitchen), garage motion, backyard camera, living room camera, nursery camera
const at = (iso: string): HouseholdContext => ({ ...contexts.lisbon, now: Date.parse(iso) });
const evening = at('2026-11-21T21:10:00Z');
const morning = at('2026-11-21T10:00:00Z');

function window(turn: { changes: { tool: string; args: Record<string, unknown> }[]; reply: string }, message: string): [string, string] {
  assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
  const { starts_at, ends_at } = turn.changes[0].args as { starts_at: string; ends_at: string };
  return [starts_at.slice(0, 16), ends_at.slice(0, 16)];
}

test('"till 7 tomorrow" said in the evening with a bare start still ahead tonight: tonight until tomorrow morning', async () => {
  for (const [message, want] of [
    ['watch the garage from 11 till 7 tomorrow', ['2026-11-21T23:00', '2026-11-22T07:00']],
    ['keep an eye on the driveway from 10:30 until 7:30 tomorrow', ['2026-11-21T22:30', '2026-11-22T07:30']],
    ['watch the backyard from 11 to 8 tomorrow', ['2026-11-21T23:00', '2026-11-22T08:00']],
  ] as const) {
    const [turn] = await converse(evening, [message]);
    assert.deepEqual(window(turn, message), want, message);
  }
});

test('a follow-up that gives only the end and its day keeps the start asked about tonight', async () => {
  for (const [first, second, want] of [
    ['watch the garage from 11', 'till 7 tomorrow', ['2026-11-21T23:00', '2026-11-22T07:00']],
    ['watch the driveway from 10:30', 'until 6 tomorrow', ['2026-11-21T22:30', '2026-11-22T06:00']],
    ['watch the backyard from 11pm', 'to 7 tomorrow', ['2026-11-21T23:00', '2026-11-22T07:00']],
  ] as const) {
    const [ask, turn] = await converse(evening, [first, second]);
    if (first.endsWith('pm')) assert.ok(ask.changes.length <= 1);
    else assert.ok(ask.asked, `${first}: ${ask.reply}`);
    const change = turn.changes.at(-1)!;
    const args = change.args as { starts_at?: string; ends_at: string };
    if (change.tool === 'create_watch') assert.equal(args.starts_at!.slice(0, 16), want[0], `${first} — ${second}: ${turn.reply}`);
    assert.equal(args.ends_at.slice(0, 16), want[1], `${first} — ${second}: ${turn.reply}`);
  }
});

test("a day said before the range, a start already gone tonight, or the morning keep the day's range", async () => {
  for (const [ctx, message, want] of [
    [evening, 'watch the garage tomorrow 11 to 7', ['2026-11-22T11:00', '2026-11-22T19:00']],
    [evening, 'watch the garage from 9 till 5 tomorrow', ['2026-11-22T09:00', '2026-11-22T17:00']],
    [morning, 'watch the garage from 11 till 7 tomorrow', ['2026-11-22T11:00', '2026-11-22T19:00']],
    // ("9 to 5 tomorrow" said at 18:30: 21:00 is more than two hours off, so the working day's)
    [at('2026-11-21T18:30:00Z'), 'watch the driveway 9 to 5 tomorrow', ['2026-11-22T09:00', '2026-11-22T17:00']],
  ] as const) {
    const [turn] = await converse(ctx, [message]);
    if (turn.asked) continue; // a question is also safe here; only a different window would be wrong
    assert.deepEqual(window(turn, message), want, message);
  }
  const [, turn] = await converse(evening, ['watch the garage from 9', 'till 5 tomorrow']);
  assert.deepEqual(window(turn, 'from 9 — till 5 tomorrow'), ['2026-11-22T09:00', '2026-11-22T17:00']);
});

test('several whole days with no hours are asked about, never a silent week of every hour', async () => {
  for (const message of ['keep an eye on the driveway next week', 'watch the garage next week please', 'can you watch the backyard next weekend']) {
    const [turn] = await converse(morning, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.ok(turn.asked, `${message}: ${turn.reply}`);
    assert.match(turn.reply, /all day and night/, message);
  }
});

test('words that say every hour, a night, or a recurrence still act on the days said', async () => {
  for (const message of [
    'watch the driveway all next week',
    'watch the garage 24/7 next week',
    'keep an eye on the backyard next week round the clock',
    'watch the driveway every night next week',
  ]) {
    const [turn] = await converse(morning, [message]);
    assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
  }
  // one day, or from now until a day: not several whole days from a date
  const [untilSunday] = await converse(morning, ['watch the garage until sunday']);
  assert.equal(untilSunday.changes.length, 1, untilSunday.reply);
});

test('a sun time or a clock said first with "at", then a comma, is the watch\'s start; a mute then is asked about', async () => {
  for (const message of [
    'at sunset, watch the driveway till midnight',
    'at dusk, keep an eye on the garage until 11pm',
    'at 10pm, watch the backyard till 6',
  ]) {
    const [turn] = await converse(morning, [message]);
    assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
    const starts = Date.parse((turn.changes[0].args as { starts_at: string }).starts_at);
    assert.ok(starts > morning.now + 6 * 3_600_000, `${message}: starts at ${new Date(starts).toISOString()}`);
  }
  for (const message of ['at sunset, mute the garage motion', 'at 10pm, silence the nursery camera', 'at dusk, stop watching the driveway']) {
    const [turn] = await converse(morning, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.ok(turn.asked, `${message}: ${turn.reply}`);
  }
  // "at the moment", "at night": no start of a clock or the sun to move
  const [now] = await converse(morning, ['at the moment, watch the garage for an hour']);
  assert.equal(now.changes.length, 1, now.reply);
});

test("a small hour in a range beside a statement's own hour is asked about, never read as the night", async () => {
  for (const message of [
    'the cleaner comes at 2 tomorrow, watch the kitchen from 2 to 4',
    'the plumber is due at 3 tomorrow, keep an eye on the garage from 3 to 5',
    'my sister drops by at 1 tomorrow, watch the front porch from 1 to 3',
  ]) {
    const [turn] = await converse(morning, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.ok(turn.asked, `${message}: ${turn.reply}`);
  }
  // a range said with its half of the day still acts
  const [pm] = await converse(morning, ['watch the kitchen tomorrow from 2pm to 4pm']);
  assert.equal(pm.changes.length, 1, pm.reply);
});
