/**
 * General causes behind round F's wrong actions (docs/decisions.md, "Round F household: relative days
 * and starts"): relative days and starts, group
 * words over times, watches named by place, edit verbs, replies that change nothing, quoted words.
 * Phrasings are our own, not those of the blind sets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));

const converse = converseIn(contexts);

// lisbon: 2026-11-21 17:00 (UTC+0); lisbon_watching: 19:10 with porch, driveway and garage watches

test('a delayed start said in its own clause starts the watch that late', async () => {
  for (const message of ['in 30 minutes, please watch the garage for two hours', 'starting in half an hour, watch the garage for 2 hours']) {
    const [turn] = await converse('lisbon', [message]);
    assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
    assert.equal(turn.changes[0].args.starts_at, '2026-11-21T17:30:00.000Z', message);
    assert.equal(turn.changes[0].args.ends_at, '2026-11-21T19:30:00.000Z', message);
  }
});

test('"from now till X" starts now and ends at X, in a follow-up too', async () => {
  const [turn] = await converse('lisbon', ['watch the backyard from now until quarter past nine']);
  assert.equal(turn.changes[0].args.starts_at, '2026-11-21T17:00:00.000Z');
  assert.equal(turn.changes[0].args.ends_at, '2026-11-21T21:15:00.000Z');
  const [, follow] = await converse('lisbon', ['could you keep an eye on the driveway?', 'starting now till 10pm']);
  assert.equal(follow.changes.length, 1, follow.reply);
  assert.equal(follow.changes[0].args.starts_at, '2026-11-21T17:00:00.000Z');
  assert.equal(follow.changes[0].args.ends_at, '2026-11-21T22:00:00.000Z');
});

test('"tomorrow" before a range that ends at midnight sets the day of the range', async () => {
  const [turn] = await converse('lisbon', ['tomorrow from 9 pm until midnight, watch the driveway']);
  assert.equal(turn.changes.length, 1, turn.reply);
  assert.equal(turn.changes[0].args.starts_at, '2026-11-22T21:00:00.000Z');
  assert.equal(turn.changes[0].args.ends_at, '2026-11-23T00:00:00.000Z');
});

test('a group word over times is no group of places', async () => {
  for (const message of ['we are away all of next week, watch the garage while we are gone', 'watch the garage all night long']) {
    const [turn] = await converse('lisbon', [message]);
    for (const c of turn.changes) assert.deepEqual(c.args.sensor_ids, ['sen_garage_motion'], `${message}: ${turn.reply}`);
  }
});

test('a range that reads two ways on the clock is asked, never guessed', async () => {
  for (const message of ['watch the garage from 7 to 7', 'watch the backyard between 2 and 5']) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.ok(turn.asked, message);
  }
  const [sure] = await converse('lisbon', ['watch the backyard between 2 and 5 am']);
  assert.equal(sure.changes.length, 1, sure.reply);
});

test('"the X watch" and "the X one" name the watch on X', async () => {
  const [stop] = await converse('lisbon_watching', ["we're staying home tonight, so you can knock off the garage watch"]);
  assert.deepEqual(stop.changes, [{ tool: 'stand_down_watch', args: { watch_id: 'wat_garage_evening' } }]);
  const [edit] = await converse('lisbon_watching', ['make the garage one stop at 10 instead of 11']);
  assert.deepEqual(
    edit.changes.map((c) => [c.tool, c.args.watch_id, c.args.ends_at]),
    [['update_watch', 'wat_garage_evening', '2026-11-21T22:00:00.000Z']],
    edit.reply,
  );
});

test('"the other one" beside a named watch is the one watch left, or asked', async () => {
  const [many] = await converse('lisbon_watching', ['stop watching the porch and the other one']);
  assert.deepEqual(many.changes, [], many.reply);
  assert.ok(many.asked);
});

test('after a question or an answer, "leave it" changes nothing', async () => {
  for (const reply of ['ok leave it then', 'fine, forget it', 'no, just leave it as it is']) {
    const turns = await converse('lisbon_watching', ['is the backyard being watched?', reply]);
    assert.deepEqual(turns[1].changes, [], `${reply}: ${turns[1].reply}`);
    assert.ok(!turns[1].asked, reply);
  }
});

test('quoted words with apostrophes are content, never instructions', async () => {
  const [turn] = await converse('lisbon', [
    "the babysitter's note says 'don't worry about the garage tonight', I'd rather you didn't listen. Watch the garage tonight please.",
  ]);
  assert.deepEqual(
    turn.changes.map((c) => c.tool),
    ['create_watch'],
    turn.reply,
  );
  assert.deepEqual(turn.changes[0].args.sensor_ids, ['sen_garage_motion']);
});

test('a question about the sun at home is answered from its location, and changes nothing', async () => {
  const [dark] = await converse('lisbon', ['when does it get dark tonight?']);
  assert.deepEqual(dark.changes, []);
  assert.match(dark.reply, /17:21/);
  const [rise] = await converse('lisbon', ["what time's sunrise tomorrow"]);
  assert.match(rise.reply, /07:28/);
  // a place elsewhere is not the home's sun
  const [away] = await converse('lisbon', ['what time does it get dark in Paris?']);
  assert.doesNotMatch(away.reply, /17:21/);
});
