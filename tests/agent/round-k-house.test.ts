/**
 * Round K household (docs/decisions.md, "Round K household"): a joined request the agent cannot do
 * said as a question or with a verb that is also one of its nouns ("…and can you also do the boiler",
 * "…and also feed the dog"); a time said with a mute or a boundary, which have none; and a statement's
 * day beside a watch that says only its end. Each holds the whole message back and changes nothing;
 * the phrasings beside them that must still act are checked too. Phrasings are our own, not those of
 * the blind sets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);
const tools = (turn: { changes: { tool: string }[] }) => turn.changes.map((c) => c.tool);

// lisbon: front porch camera, driveway camera, back door contact (kitchen), garage motion, backyard
// camera, living room camera, nursery camera

test('a joined request the agent cannot do, put as a question or with a verb that is also its noun, is declined', async () => {
  for (const [message, said] of [
    ['leave the nursery alone and could you also do the boiler', 'do the boiler'],
    ['watch the garage tonight and can you do the bins at 7', 'do the bins'],
    ['mute the nursery camera and would you please do the washing', 'do the washing'],
    ['watch the backyard tonight and also feed the dog at 6', 'feed the dog'],
    ['watch the porch till 11 and then record the match', 'record the match'],
  ]) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.ok(turn.reply.includes(`can't "${said}`), `${message}: ${turn.reply}`);
  }
});

test('a second request the agent can do, or "do the same", still acts', async () => {
  for (const [message, want] of [
    ['watch the garage tonight and can you also watch the driveway', ['create_watch', 'create_watch']],
    ['watch the garage tonight and also the driveway', ['create_watch']],
    ['mute the nursery camera and also the living room one', ['mute_sensor', 'mute_sensor']],
    ['show me the driveway feed', []],
  ] as const) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(tools(turn), want, `${message}: ${turn.reply}`);
  }
});

test('a mute, unmute or boundary with a time of its own changes nothing and says it lasts until lifted', async () => {
  for (const message of [
    'mute the nursery camera till the morning',
    'silence the garage motion for 3 hours',
    'mute the living room camera until 9pm',
    'leave the nursery alone until Sunday',
    'mute the backyard camera tomorrow',
  ]) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /lasts until you (unmute|lift|mute|set)/, `${message}: ${turn.reply}`);
  }
});

test('a mute said for now, for a while, or with a reason that has its own time still mutes', async () => {
  for (const message of [
    'mute the nursery camera for now',
    'mute the garage motion for a bit',
    'mute the living room camera, we have friends staying for the week',
    'mute the backyard camera while the kids play',
    'please mute the nursery camera, the nanny arrives at 5',
    'mute the nursery camera',
  ]) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(tools(turn), ['mute_sensor'], `${message}: ${turn.reply}`);
  }
});

test('a statement whose day would set the start of a watch that says only its end is asked about', async () => {
  for (const message of [
    'we are off to Porto for a few days from tomorrow, please watch the garage until Sunday night',
    'I fly out on Friday. watch the driveway till Monday',
  ]) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.equal(turn.asked, true, `${message}: ${turn.reply}`);
    assert.match(turn.reply, /when to start/, `${message}: ${turn.reply}`);
  }
  // (a window of its own, or none, takes the statement's day as before)
  for (const message of ['we leave tomorrow. watch the garage from 8am till 6pm']) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(tools(turn), ['create_watch'], `${message}: ${turn.reply}`);
  }
  // a window without am or pm still asks which, as "watch the kitchen tomorrow from 2 to 4" does
  // (this acted before, on 02:00 to 04:00: a plumber's visit read as the night)
  const [plumber] = await converse('lisbon', ['the plumber comes at 2 tomorrow, watch the kitchen from 2 to 4']);
  assert.deepEqual(plumber.changes, [], plumber.reply);
  assert.match(plumber.reply, /am or pm/, plumber.reply);
});

test('dialect and clipped day-part words read as the part of the day they stand for', async () => {
  for (const message of ['watch the garage tomorrow arvo from 2 to 5', 'watch the driveway from 9 tomorrow mornin till 11']) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(tools(turn), ['create_watch'], `${message}: ${turn.reply}`);
  }
  const [arvo] = await converse('lisbon', ['watch the garage tomorrow arvo from 2 to 5']);
  const [afternoon] = await converse('lisbon', ['watch the garage tomorrow afternoon from 2 to 5']);
  assert.deepEqual(arvo.changes, afternoon.changes);
});

test('a hesitation followed only by a new end ("oh wait, till 6 only") corrects the watch just made', async () => {
  for (const correction of ['oh wait, till 6 only', 'hang on, just until 5']) {
    const [, turn] = await converse('lisbon', ['watch the backyard tonight', correction]);
    assert.deepEqual(tools(turn), ['update_watch'], `${correction}: ${turn.reply}`);
  }
  const [, held] = await converse('lisbon', ['watch the backyard tonight', 'oh wait, not sure']);
  assert.deepEqual(held.changes, []);
});

test('a reason that agrees with arming arms; a stand-down beside a statement in the negative stands down', async () => {
  for (const message of ['arm the house, we are heading to bed', "we're going to bed, arm the house", 'arm the house, turning in now']) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(tools(turn), ['arm_house'], `${message}: ${turn.reply}`);
  }
  const [disarm] = await converse('lisbon', ['disarm, we are heading to bed']);
  assert.deepEqual(disarm.changes, []);
  for (const message of ["stop the garage watch, we're not going out this evening after all", "cancel the driveway watch, we won't be away till Sunday now"]) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(tools(turn), ['stand_down_watch'], `${message}: ${turn.reply}`);
  }
});

test('"just the camera" after a watch on a place with one camera narrows the watch to it; with two it still asks', async () => {
  const [, one] = await converse('lisbon', ['watch the kitchen and the garage tonight', 'only the contact']);
  assert.deepEqual(tools(one), ['update_watch'], one.reply);
  assert.equal((one.changes[0].args.sensor_ids as string[]).length, 1, one.reply);
  assert.match(one.reply, /covers the back door contact/);
  const [, two] = await converse('lisbon', ['watch the driveway and the backyard tonight', 'just the camera']);
  assert.deepEqual(two.changes, [], two.reply);
});
