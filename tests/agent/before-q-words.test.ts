/**
 * Before round Q, words (docs/decisions.md, "Before round Q: words"): requests people plainly say, read
 * by class — arming with a name, a place the user is at or a trip beside it; standing a watch down said
 * other ways; a guard who is a person. Each class with phrasings that must act, and phrasings where the
 * change must not fire. Phrasings are our own, not the blind sets'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'round-p-household-contexts.json'));
const converse = converseIn(contexts);
const changes = (turn: { changes: { tool: string; args: Record<string, unknown> }[] }) => turn.changes.map((c) => `${c.tool} ${JSON.stringify(c.args)}`);

test('a disarm with who is speaking or where they are beside it disarms', async () => {
  // p_tucson is armed
  for (const message of [
    "disarm, it's me",
    'disarm it please, this is Dana',
    "disarm the house - it's only me, Sam",
    "disarm it, I'm at the side door with the shopping",
    "ok disarm, we're pulling in",
    'disarm it, Marco here',
  ]) {
    const [turn] = await converse('p_tucson', [message]);
    assert.deepEqual(changes(turn), ['arm_house {"arm":false}'], `${message}: ${turn.reply}`);
  }
});

test('an aside never swallows a request of its own, and leaving said with a disarm is still asked', async () => {
  for (const message of [
    "disarm it, I'm at the gate and watch the garage",
    "disarm it, we're going to the lake for the weekend",
    'disarm the garage, this is Dana',
  ]) {
    const [turn] = await converse('p_tucson', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
  }
});

test('arming with a trip, a misspelt house or the reason after it arms', async () => {
  // p_quebec is not armed
  for (const message of [
    'arm teh house',
    'arm hte home please',
    "arm the house, we're going to Ottawa for the weekend",
    "lock it all down, we're off on a trip",
    "arm it, I'm going to the airport",
    'lock the place down, heading off to the cottage',
  ]) {
    const [turn] = await converse('p_quebec', [message]);
    assert.deepEqual(changes(turn), ['arm_house {"arm":true}'], `${message}: ${turn.reply}`);
  }
  for (const message of ['arm the shed, going to the cottage', 'arm teh garage']) {
    const [turn] = await converse('p_quebec', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
  }
});

test('switching the alarm with a reason after it is asked about as arming, never refused as a device or done', async () => {
  for (const message of ['set the alarm, heading out to the shops', 'turn the alarm on, we are off to work', 'set the alarm, going to bed']) {
    const [turn] = await converse('p_quebec', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /arm the house/, message);
  }
  const [asked, yes] = await converse('p_quebec', ["put the alarm on, we're heading to the game", 'yes']);
  assert.deepEqual(asked.changes, []);
  assert.deepEqual(changes(yes), ['arm_house {"arm":true}']);
});

test('a watch stood down said other ways: "can go", "clear", "wipe"; a guard who is a person is no request', async () => {
  // p_kochi: a terrace watch every night and a main gate watch today
  for (const [message, ids] of [
    ['the terrace watch can go', ['wat_kc_terrace']],
    ["the gate watch can go now, the guard's back", ['wat_kc_gate']],
    ['clear the gate watch', ['wat_kc_gate']],
    ['clear every watch', ['wat_kc_terrace', 'wat_kc_gate']],
    ['wipe all the watches', ['wat_kc_terrace', 'wat_kc_gate']],
    ['stop the gate watch, our guard is here now', ['wat_kc_gate']],
  ] as const) {
    const [turn] = await converse('p_kochi', [message]);
    assert.deepEqual(
      turn.changes.map((c) => c.args.watch_id),
      ids,
      `${message}: ${turn.reply}`,
    );
  }
  for (const message of ['the gate watch can go ahead tonight', 'guard the terrace tonight', 'clear the terrace tonight']) {
    const [turn] = await converse('p_kochi', [message]);
    assert.ok(!turn.changes.some((c) => c.tool === 'stand_down_watch'), `${message}: ${turn.reply}`);
  }
});

test('a reason in the past after the request is no window and no place; a place of the home in it is asked about', async () => {
  // p_tucson: pool camera, garage door contact; no fence, no bins
  for (const message of [
    'watch the pool tonight, there were coyotes by the fence last week',
    'watch the pool tonight, we saw a man near the bins yesterday',
    'keep an eye on the pool tonight, it was broken into last year',
  ]) {
    const [turn] = await converse('p_tucson', [message]);
    assert.deepEqual(
      turn.changes.map((c) => `${c.tool} ${JSON.stringify(c.args.sensor_ids)} ${String(c.args.window)}`),
      ['create_watch ["tc_pool_cam"] sunset to sunrise'],
      `${message}: ${turn.reply}`,
    );
  }
  for (const message of [
    'watch the pool tonight, there were coyotes by the garage last week',
    'watch the pool tonight, there was a prowler two nights ago',
    'watch the pool tonight, and the garage from 9 like last week',
  ]) {
    const [turn] = await converse('p_tucson', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
  }
});

test("a doubled letter written once beside a word of the same name is that name ('the store rom'); alone or not doubled it is asked", async () => {
  // p_kochi: store room motion, kitchen door contact
  for (const [message, sensor] of [
    ['mute teh store rom', 'kc_store_motion'],
    ['mute the store rom motion', 'kc_store_motion'],
    ['mute the kitchen dor', 'kc_kitchen_door'],
  ] as const) {
    const [turn] = await converse('p_kochi', [message]);
    assert.deepEqual(
      turn.changes.map((c) => c.args.sensor_id),
      [sensor],
      `${message}: ${turn.reply}`,
    );
  }
  // (p_tucson: hallway motion, pool camera)
  for (const [context, message] of [
    ['p_kochi', 'mute the rom'],
    ['p_tucson', 'watch the pol tonight'],
    ['p_tucson', 'mute the hallway motor'],
  ] as const) {
    const [turn] = await converse(context, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
  }
});

test('questions said other ways: "all quiet on …?", "what is it covering?", "what did I just ask you?"', async () => {
  // p_inverness: driveway camera, bothy camera
  for (const message of ['all quiet out on the drive?', 'is it quiet on the driveway?', 'everything calm in the bothy?']) {
    const [turn] = await converse('p_inverness', [message]);
    assert.deepEqual(turn.changes, [], message);
    assert.match(turn.reply, /driveway|bothy/, `${message}: ${turn.reply}`);
    assert.doesNotMatch(turn.reply, /not sure|camera is on \(not muted\)/, `${message}: ${turn.reply}`);
  }
  // "all quiet" said as a statement beside a stand-down still stands down
  const [quiet] = await converse('p_inverness', ['all quiet, you can stop watching the back garden']);
  assert.deepEqual(
    quiet.changes.map((c) => c.tool),
    ['stand_down_watch'],
    quiet.reply,
  );
  // p_tucson is armed: what the armed watch covers, by name
  const [, covering] = await converse('p_tucson', ['is the house armed?', 'what is it covering?']);
  assert.match(covering.reply, /front gate contact.*pool camera/, covering.reply);
  const [, what] = await converse('p_kochi', ['mute the store room motion', 'hang on, what did I ask you to do?']);
  assert.deepEqual(what.changes, []);
  assert.match(what.reply, /mute the store room motion/, what.reply);
  const [first] = await converse('p_kochi', ['what did I just say?']);
  assert.match(first.reply, /haven't asked/, first.reply);
  // a question about a watch to come is no recall question
  const [watching] = await converse('p_kochi', ['what did I ask you to watch tonight?']);
  assert.doesNotMatch(watching.reply, /You asked me/, watching.reply);
});

test('"not the birds" beside a watch limited to people is what the filter leaves out; without the filter it is asked', async () => {
  // p_napier: front deck camera
  const [turn] = await converse('p_napier', ['keep an eye on the deck for people from 2pm till 4pm, just people not the birds']);
  assert.deepEqual(
    turn.changes.map((c) => c.args.conditions),
    [['person']],
    turn.reply,
  );
  for (const message of ['watch the deck from 2pm till 4pm, not the birds', 'watch the deck for people from 2pm till 4pm, not the shed']) {
    const [other] = await converse('p_napier', [message]);
    assert.ok(!other.changes.length || !JSON.stringify(other.changes).includes('bird'), `${message}: ${other.reply}`);
  }
  const [birds] = await converse('p_napier', ['watch the deck from 2pm till 4pm, not the birds']);
  assert.deepEqual(birds.changes, [], birds.reply);
});
