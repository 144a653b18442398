/**
 * Round Q, verbs (docs/decisions.md, "Round Q: verbs"): arming read inside a compound like any other request,
 * unmuting said other ways ("can come back on", "listen to … again"), and the decline of a part beside one the
 * agent can do asked as a question. The phrasings beside them that must keep their old reading are checked too.
 * Phrasings are our own, not the set's; the households are round Q's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'round-q-household-contexts.json'));
const converse = converseIn(contexts);
const cottage = contexts.q_launceston_cottage;
// the cottage with its woodshed camera muted
const muted = { ...cottage, sensors: cottage.sensors.map((s) => (s.id === 'q_lt_woodshed_cam' ? { ...s, muted: true } : s)) };

// q_omaha_home: a watch on the garage, the house not armed; q_ljubljana_armed: the house armed
test('arming joined to another request by "and" or "then" is done with it, in the order said', async () => {
  for (const [message, tools] of [
    ['cancel the garage watch and arm the house', ['stand_down_watch', 'arm_house']],
    ['stand down the garage watch, then arm the house', ['stand_down_watch', 'arm_house']],
    ['please arm the house and then stop watching the garage', ['arm_house', 'stand_down_watch']],
  ] as const) {
    const [turn] = await converse('q_omaha_home', [message]);
    assert.deepEqual(
      turn.changes.map((c) => c.tool),
      tools,
      `${message}: ${turn.reply}`,
    );
    assert.equal(turn.changes.find((c) => c.tool === 'arm_house')?.args.arm, true, `${message}: ${turn.reply}`);
  }
  const [disarm] = await converse('q_ljubljana_armed', ['disarm and then watch the garage from 2pm until 5pm']);
  assert.deepEqual(
    disarm.changes.map((c) => [c.tool, c.args.arm]),
    [
      ['arm_house', false],
      ['create_watch', undefined],
    ],
    disarm.reply,
  );
});

test('arming beside a part that needs an answer, or beside no request, changes nothing', async () => {
  for (const message of ['arm the house and watch the garage', 'arm the house and the garage', 'arm the house and order a pizza']) {
    const [turn] = await converse('q_omaha_home', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
  }
  // ("from 2 to 5" said at 13:05 is the afternoon since "Before round S: times" in docs/decisions.md; "from 10 to 2" is still asked)
  const [ampm] = await converse('q_ljubljana_armed', ['disarm and watch the garage from 10 to 2']);
  assert.deepEqual(ampm.changes, [], ampm.reply);
  assert.match(ampm.reply, /disarm the house/, ampm.reply);
  // "going to bed, arm everything": one request, as before
  const [one] = await converse('q_omaha_home', ['off to bed now, arm everything']);
  assert.deepEqual(
    one.changes.map((c) => c.tool),
    ['arm_house'],
    one.reply,
  );
});

test('a camera allowed back on, or listened to again, is unmuted', async () => {
  for (const message of [
    'the woodshed camera can come back on',
    'ok the woodshed camera comes back on now',
    'you can listen to the woodshed camera again',
    'bring the woodshed camera back please',
  ]) {
    const [turn] = await converse(muted, [message]);
    assert.deepEqual(
      turn.changes.map((c) => [c.tool, c.args.sensor_id]),
      [['unmute_sensor', 'q_lt_woodshed_cam']],
      `${message}: ${turn.reply}`,
    );
  }
  for (const message of ["we'll come back on sunday", 'I might listen to the radio again']) {
    const [turn] = await converse(muted, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
  }
});

test('a part the agent cannot do, said on what the watch sees, is asked about, and nothing changes', async () => {
  for (const message of [
    'watch the woodshed tonight and phone my neighbour if anyone turns up',
    'please watch the laundry till 11 and ring my daughter when something happens',
  ]) {
    const [turn] = await converse('q_launceston_cottage', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /haven't changed anything/, `${message}: ${turn.reply}`);
    assert.ok(turn.reply.trim().endsWith('?'), `${message}: ${turn.reply}`);
  }
});

test('a part the agent cannot do, said on its own, is still declined as before', async () => {
  for (const message of ['order some chook feed and mute the woodshed camera', 'book a plumber for tomorrow and watch the laundry tonight']) {
    const [turn] = await converse('q_launceston_cottage', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /ask me again without that part/, `${message}: ${turn.reply}`);
  }
});

test('"round" after a word of loitering is "around": the watch is for loitering', async () => {
  for (const message of [
    'watch the carport from 10pm till 2am, let me know if anyone is lurking round it',
    'keep an eye on the lounge tonight, tell me if someone is hanging round it',
  ]) {
    const [turn] = await converse('q_rotorua_shared', [message]);
    assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
    assert.deepEqual(turn.changes[0].args.conditions, ['loitering'], `${message}: ${turn.reply}`);
  }
  // "round" said of anything else is still not read
  const [clock] = await converse('q_rotorua_shared', ['watch the lounge round the clock']);
  assert.deepEqual(clock.changes, [], clock.reply);
});

test('"the camera" after a clause that named a place is that place\'s one camera', async () => {
  for (const message of ['stop watching the woodshed for now but do not switch the camera off', 'stop the woodshed watch, but do not turn the camera off']) {
    const [turn] = await converse(
      { ...cottage, watches: [{ ...cottage.watches[0], id: 'wat_woodshed', subject: 'woodshed', sensor_ids: ['q_lt_woodshed_cam'] }] },
      [message],
    );
    assert.deepEqual(
      turn.changes.map((c) => [c.tool, c.args.watch_id]),
      [['stand_down_watch', 'wat_woodshed']],
      `${message}: ${turn.reply}`,
    );
  }
  // with no camera there ("the laundry" has a door only), or no place before, it is asked which
  for (const message of ["stop watching the laundry but don't turn the camera off", 'mute the camera']) {
    const [turn] = await converse('q_launceston_cottage', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
  }
});

test('a mute said not to be done beside a stand-down of the same place: the watch is stood down, nothing muted', async () => {
  for (const message of [
    "don't switch off the back alley camera, just stand it down",
    'please do not mute the alley camera, only stop watching it',
    "stop watching the back alley but don't silence it",
  ]) {
    const [turn] = await converse('q_albuquerque_shop', [message]);
    assert.deepEqual(
      turn.changes.map((c) => [c.tool, c.args.watch_id]),
      [['stand_down_watch', 'wat_abq_alley']],
      `${message}: ${turn.reply}`,
    );
  }
  // the stand-down of another place, or the negated mute alone, is asked as before
  for (const message of ["don't mute the alley camera, just stop the watch on the till", "don't mute the alley camera"]) {
    const [turn] = await converse('q_albuquerque_shop', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
  }
});
