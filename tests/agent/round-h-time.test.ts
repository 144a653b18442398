/**
 * The time grammar's round H classes in the household agent (docs/decisions.md, "Round H: the time
 * grammar"): a watch named by the clock time it starts at, a bare-hour range whose am/pm is open
 * (asked, with both readings), and a whole number alone after "make it/that" in a follow-up,
 * counted in hours or read as a clock time by the watch it changes. Phrasings are our own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';

// lisbon: Saturday 2026-11-21 17:00 Europe/Lisbon (UTC+0); lisbon_watching: 19:10, porch and driveway
// sunset to sunrise, the garage 19:00 to 23:00
const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);
const changesOf = (turn: { changes: { tool: string; args: Record<string, unknown> }[] }) =>
  turn.changes.map((c) => [c.tool, c.tool === 'update_watch' ? c.args.ends_at : c.args.watch_id]);

test('a watch named by the clock time it starts at is that watch, am/pm said or not', async () => {
  for (const message of ["cancel the 7 o'clock one", 'stop the 7pm watch', 'no need for the 19:00 one any more']) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(changesOf(turn), [['stand_down_watch', 'wat_garage_evening']], `${message}: ${turn.reply}`);
  }
});

test('a clock time no watch starts at, or a watch set by the sun, is asked about', async () => {
  for (const message of ["cancel the 6 o'clock one", 'stop the 5pm watch']) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /Which watch do you mean/, message);
  }
});

test('a bare range whose night reading stops in the small hours is asked about, saying both readings', async () => {
  for (const message of ['watch the garage from 10 to 2', 'keep an eye on the driveway from 9 till 3', 'watch the porch from 8 till 6 tomorrow']) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /could be \d\d:00 to \d\d:00.*, or \d\d:00 to \d\d:00 overnight/, message);
  }
});

test('"make that two" after a watch for hours is two hours; after a clock window, "make the end 7" is 07:00', async () => {
  for (const follow of ['make that two', 'make it 2 then']) {
    const [first, turn] = await converse('lisbon', ['watch the garage for an hour', follow]);
    const start = Date.parse(first.changes[0].args.starts_at as string);
    assert.deepEqual(changesOf(turn), [['update_watch', new Date(start + 2 * 3_600_000).toISOString()]], `${follow}: ${turn.reply}`);
  }
  for (const follow of ['change only the end, make it 7', 'just the finish, make it 7']) {
    const [, turn] = await converse('lisbon', ['watch the garage from 10 tonight to 6', follow]);
    assert.deepEqual(changesOf(turn), [['update_watch', '2026-11-22T07:00:00.000Z']], `${follow}: ${turn.reply}`);
  }
});

test('a whole number after "make it" with nothing to say hours or which end is asked about', async () => {
  for (const [first, follow] of [
    ['watch the garage from 10 tonight to 6', 'make it 7'],
    ['watch the garage tonight', 'make that two'],
  ]) {
    const [, turn] = await converse('lisbon', [first, follow]);
    assert.deepEqual(turn.changes, [], `${follow}: ${turn.reply}`);
  }
});

test('"we are back on <day> at <time>" said before "while we are gone" is the end of the time away, not a homecoming now', async () => {
  for (const message of [
    "we head off on the 24th at 7am and we're back on the 27th around 9pm. watch the garage while we're gone",
    "I fly out on the 24th at 7am and I'm home on the 27th at 9pm, please watch the driveway while I'm away",
  ]) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(
      turn.changes.map((c) => [c.tool, c.args.starts_at, c.args.ends_at]),
      [['create_watch', '2026-11-24T07:00:00.000Z', '2026-11-27T21:00:00.000Z']],
      `${message}: ${turn.reply}`,
    );
  }
});
