/**
 * The time grammar's round I classes in the household agent (docs/decisions.md, "Round I: the time
 * grammar"): durations counted in words, vague counts asked about, "from ten to midnight" (a range or
 * one clock time) asked about, and open am/pm ranges said with minutes asked about. Phrasings are our own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';

// lisbon: Saturday 2026-11-21 17:00 Europe/Lisbon (UTC+0)
const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);
const one = async (message: string) => (await converse(contexts.lisbon, [message]))[0];

test('a duration counted in words is the whole amount', async () => {
  for (const [message, minutes] of [
    ['watch the garage for ninety minutes', 90],
    ['keep an eye on the driveway for forty-five minutes', 45],
    ['watch the porch for a hundred and twenty minutes', 120],
    ['watch the backyard for twenty five mins', 25],
  ] as const) {
    const turn = await one(message);
    assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
    const { starts_at, ends_at } = turn.changes[0].args as { starts_at: string; ends_at: string };
    assert.equal(Date.parse(ends_at) - Date.parse(starts_at), minutes * 60_000, message);
  }
});

test('a few, several or some nights or hours: nothing changes, the agent asks how many', async () => {
  for (const message of [
    'keep an eye on the garage for a few nights',
    'watch the driveway for the next several nights',
    'watch the porch for some hours',
    'can you watch the backyard for a few more hours',
  ]) {
    const turn = await one(message);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /How many (nights|hours) do you mean/, message);
  }
  const couple = await one('watch the garage for a couple of nights');
  assert.equal(couple.changes.length, 2, couple.reply);
});

test('"from ten to midnight" and its like are asked about; "at ten to midnight" is 23:50', async () => {
  for (const message of ['watch the garage from ten to midnight', 'keep an eye on the porch from five to midnight', 'watch the driveway from ten to seven']) {
    const turn = await one(message);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /could be the clock time/, message);
  }
  const at = await one('watch the garage at ten to midnight until 6');
  assert.deepEqual(
    at.changes.map((c) => [c.args.starts_at, c.args.ends_at]),
    [['2026-11-21T23:50:00.000Z', '2026-11-22T06:00:00.000Z']],
    at.reply,
  );
});

test('an open am/pm range said with minutes and a day after it is asked about, with both readings', async () => {
  for (const message of ['watch the back door from quarter to ten until half six tomorrow', 'watch the garage from 9:30 till 5:30 tomorrow']) {
    const turn = await one(message);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /could be \d\d:\d\d to \d\d:\d\d tomorrow, or \d\d:\d\d to \d\d:\d\d overnight/, message);
  }
});

const talk = (messages: string[]) => converse(contexts.lisbon, messages);
const windowOf = (turn: { changes: { args: Record<string, unknown> }[] }) => turn.changes.map((c) => [c.args.starts_at, c.args.ends_at]);

test('"no wait, half ten" after a watch is made corrects its time and keeps the rest; "no wait" alone still holds back', async () => {
  for (const [follow, starts, ends] of [
    ['no wait, half ten', '2026-11-21T22:30:00.000Z', '2026-11-22T06:00:00.000Z'],
    ['hang on, from 11', '2026-11-21T23:00:00.000Z', '2026-11-22T06:00:00.000Z'],
    ['no wait, till 7', '2026-11-21T22:00:00.000Z', '2026-11-22T07:00:00.000Z'],
  ]) {
    const [, turn] = await talk(['watch the garage from 10 tonight till 6', follow]);
    assert.equal(turn.changes.length, 1, `${follow}: ${turn.reply}`);
    assert.equal(turn.changes[0].tool, 'update_watch', follow);
    const args = turn.changes[0].args as { starts_at?: string; ends_at?: string };
    assert.equal(args.starts_at ?? '2026-11-21T22:00:00.000Z', starts, follow);
    assert.equal(args.ends_at ?? '2026-11-22T06:00:00.000Z', ends, follow);
  }
  for (const follow of ['no wait', "hold on, I'm not sure"]) {
    const [, turn] = await talk(['watch the garage from 10 tonight till 6', follow]);
    assert.deepEqual(turn.changes, [], `${follow}: ${turn.reply}`);
  }
});

test('a time corrected while the agent asks about the place stays with the request', async () => {
  for (const [correction, answer, starts, ends] of [
    ['no wait, half ten', 'the driveway one', '2026-11-21T22:30:00.000Z', '2026-11-22T06:00:00.000Z'],
    ['sorry, till 7', 'the backyard camera', '2026-11-21T22:00:00.000Z', '2026-11-22T07:00:00.000Z'],
  ]) {
    const [asked, again, done] = await talk(['watch the camera from 10 tonight till 6', correction, answer]);
    assert.deepEqual([asked.changes, again.changes], [[], []], `${correction}: ${again.reply}`);
    assert.deepEqual(windowOf(done), [[starts, ends]], `${correction} / ${answer}: ${done.reply}`);
  }
});
