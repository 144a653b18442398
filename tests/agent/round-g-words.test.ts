/**
 * Words (docs/decisions.md, "Round G: words"): typos of verbs, places and time words in one
 * message, said back in the reply; real words never corrected; acknowledgements after an action;
 * questions about the schedule; "is it ok?" after a statement naming a place; places the home
 * does not have, run together or with "house" as their head; past answers that name their period.
 * Phrasings are our own, not those of the blind sets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';
import type { HouseholdContext } from '../../src/home/agent/context.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));

const converse = converseIn(contexts);

// lisbon: 2026-11-21 17:00 (UTC+0), sunset 17:21; lisbon_watching: 19:10 with porch, driveway and garage watches

test('typos of the verb, the place and the time in one message are English, read and said back', async () => {
  for (const [message, sensor, typo, word] of [
    ['whatch the drivewya tonihgt', 'sen_driveway_cam', 'drivewya', 'driveway'],
    ['mointor the bakcyard tonite', 'sen_backyard_cam', 'bakcyard', 'backyard'],
    ['kepe an eye on the nurseyr tonihgt', 'sen_nursery_cam', 'nurseyr', 'nursery'],
  ]) {
    const [turn] = await converse('lisbon', [message]);
    assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
    assert.deepEqual(turn.changes[0].args.sensor_ids, [sensor], message);
    assert.equal(turn.plan.language, undefined, message);
    assert.ok(turn.reply.includes(`"${typo}" as "${word}"`), `${message}: ${turn.reply}`);
  }
});

test('a stand-down with a misspelt verb and place stands down the watch on that place', async () => {
  for (const message of ['stpo watching the garaeg', 'stnad down the garaeg watch', 'canel the garage wacth']) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(turn.changes, [{ tool: 'stand_down_watch', args: { watch_id: 'wat_garage_evening' } }], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /I read "/, message);
  }
});

test('a message spelt right says no correction', async () => {
  const [turn] = await converse('lisbon', ['watch the driveway tonight']);
  assert.equal(turn.changes.length, 1);
  assert.doesNotMatch(turn.reply, /I read/);
});

test('a real word near a sensor name is never read as the sensor', async () => {
  // "motor", "motorbike" and "emotion" are words, not the garage motion sensor
  for (const message of ["the motor's running in the garage, watch the driveway tonight", 'watch the motorbike tonight']) {
    const [turn] = await converse('lisbon', [message]);
    for (const c of turn.changes) assert.ok(!(c.args.sensor_ids as string[]).includes('sen_garage_motion'), `${message}: ${turn.reply}`);
  }
});

test('an acknowledgement after an action is chit-chat: a friendly reply, no change, no question', async () => {
  for (const ack of ['perfect, thanks', 'lovely, cheers!', 'brilliant ta', 'sounds good, thank you', 'great!', 'got it']) {
    const [, turn] = await converse('lisbon', ['watch the garage tonight', ack]);
    assert.deepEqual(turn.changes, [], ack);
    assert.equal(turn.asked, false, `${ack}: ${turn.reply}`);
    assert.ok(turn.reply.length > 0 && !/What would you like me to do/.test(turn.reply), `${ack}: ${turn.reply}`);
  }
});

test('"great" with nothing done before is not taken for thanks, and a request after an acknowledgement is read', async () => {
  const [bare] = await converse('lisbon', ['great']);
  assert.deepEqual(bare.changes, []);
  assert.doesNotMatch(bare.reply, /welcome|Glad/);
  const [, next] = await converse('lisbon', ['watch the garage tonight', 'perfect, now stop watching the garage']);
  assert.equal(next.changes[0]?.tool, 'stand_down_watch', next.reply);
});

test('the schedule, the plan and what is lined up are the watches', async () => {
  for (const message of [
    "what's on the schedule tonight?",
    'what have you got planned for this evening?',
    "what's lined up for tonight?",
    'anything scheduled tonight?',
  ]) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(turn.changes, [], message);
    assert.deepEqual(
      turn.plan.calls.map((c) => c.tool),
      ['list_watches'],
      `${message}: ${turn.reply}`,
    );
  }
});

test('"is it ok?" after a statement that names a place asks about that place', async () => {
  for (const [message, room] of [
    ["the van's parked on the drive, is it ok?", 'driveway'],
    ['my bike is in the garage. is it safe?', 'garage'],
    ['the car is on the driveway, is it alright?', 'driveway'],
  ]) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(turn.changes, [], message);
    assert.equal(turn.asked, false, `${message}: ${turn.reply}`);
    assert.deepEqual(
      turn.plan.calls.map((c) => [c.tool, c.args.room]),
      [['describe_scene', room]],
      message,
    );
  }
});

test('a place the home lacks, run together or with "house" as its head, is asked about by name', async () => {
  const base = contexts.lisbon;
  const withPool: HouseholdContext = {
    ...base,
    rooms: [...base.rooms, { name: 'pool' }],
    sensors: [...base.sensors, { id: 'sen_pool_gate', name: 'pool gate contact', kind: 'contact', room: 'pool', muted: false }],
  };
  for (const [message, place] of [
    ['watch for people in the treehouse tonight', 'treehouse'],
    ['keep an eye on the poolhouse tonight', 'poolhouse'],
    ['watch the pool house tonight', 'pool house'],
    ['watch for motion in the bikeshed and the driveway tonight', 'bikeshed'],
    ['watch the garage and the greenhouse tonight', 'greenhouse'],
    ['keep an eye on the attic and the front porch till 6am', 'attic'],
  ]) {
    const [turn] = await converse(withPool, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.ok(turn.asked, message);
    assert.ok(turn.reply.includes(place), `${message}: ${turn.reply}`);
  }
  const [pool] = await converse(withPool, ['watch the pool tonight']);
  assert.deepEqual(pool.changes[0]?.args.sensor_ids, ['sen_pool_gate'], pool.reply);
});

test('a past part of a day starts where that part starts, and the answer names the place and the period', async () => {
  for (const message of ['did anything happen on the driveway yesterday evening?', 'anything going on in the backyard yesterday morning?']) {
    const [turn] = await converse('lisbon', [message]);
    const call = turn.plan.calls.find((c) => c.tool === 'list_events');
    assert.ok(call, `${message}: ${turn.reply}`);
    assert.ok(Date.parse(call.args.since as string) > Date.parse('2026-11-20T00:00:00Z'), `${message}: since ${String(call.args.since)}`);
    assert.ok(Date.parse(call.args.until as string) <= Date.parse('2026-11-21T00:00:00Z'), `${message}: until ${String(call.args.until)}`);
    assert.match(turn.reply, /driveway|backyard/, message);
    assert.match(turn.reply, /Nov 20/, message);
  }
});
