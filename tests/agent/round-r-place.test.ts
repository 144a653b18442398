/**
 * Round R places (docs/decisions.md, "Round R: places"): "it" after places named alone in the same sentence ("the
 * back door, lock it") is those places, and a window set by the sun asks for hours where the sun neither sets nor
 * rises. Each class with phrasings that must act, and phrasings where the change must not fire. Homes and phrasings
 * are our own, not the blind sets'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { heldoutHouseholds, sensor, tools } from './home-of-our-own.ts';

const { contexts, converse } = heldoutHouseholds('round-r-household-contexts.json');
const base = contexts.r_zagreb_shared;

/** A home of our own: a garage, a side gate, a study, a greenhouse, with a watch on the greenhouse. */
const home: HouseholdContext = {
  ...base,
  rooms: [{ name: 'garage' }, { name: 'side gate' }, { name: 'study' }, { name: 'greenhouse' }],
  sensors: [
    sensor('g_garage_cam', 'garage cam', 'camera', 'garage'),
    sensor('g_garage_door', 'garage door contact', 'contact', 'garage'),
    sensor('g_gate_cam', 'side gate camera', 'camera', 'side gate'),
    sensor('g_study_motion', 'study motion', 'motion', 'study'),
    sensor('g_green_cam', 'greenhouse camera', 'camera', 'greenhouse'),
  ],
  watches: [{ ...base.watches[0], id: 'wat_g_green', subject: 'greenhouse', sensor_ids: ['g_green_cam'] }],
};
const ids = (turn: { changes: { tool: string; args: Record<string, unknown> }[] }) =>
  turn.changes.flatMap((c) => (Array.isArray(c.args.sensor_ids) ? (c.args.sensor_ids as string[]) : [c.args.sensor_id as string])).sort();

test('"it" after a place named alone in the same sentence is that place, not the place of an earlier turn', async () => {
  for (const [first, message, tool, want] of [
    ['stop watching the greenhouse', 'and the side gate camera, mute it', 'mute_sensor', ['g_gate_cam']],
    ['mute the study motion', 'the garage cam - mute it please', 'mute_sensor', ['g_garage_cam']],
    ['stop watching the greenhouse', 'the study, watch it till 6am', 'create_watch', ['g_study_motion']],
    ['mute the side gate camera', 'oh and the greenhouse camera, mute it too', 'mute_sensor', ['g_green_cam']],
  ] as const) {
    const [, turn] = await converse(home, [first, message]);
    assert.deepEqual(tools(turn), [tool], `${message}: ${turn.reply}`);
    assert.deepEqual(ids(turn), [...want], `${message}: ${turn.reply}`);
  }
  // (with nothing named in the message, "it" still goes back to the earlier turn)
  const [, back] = await converse(home, ['watch the study till 6am', 'actually mute it']);
  assert.deepEqual(ids(back), ['g_study_motion'], back.reply);
  // (a question with "it" after the place asks about that place and changes nothing: no request is carried over to it)
  const [, asked] = await converse(home, ['mute the study motion', 'the side gate camera, is it muted?']);
  assert.deepEqual(asked.changes, [], asked.reply);
  assert.match(asked.reply, /side gate camera isn't muted/, asked.reply);
});

test('a window set by the sun asks for hours where the sun neither sets nor rises these days', async () => {
  const polar: HouseholdContext = { ...home, now: Date.parse('2026-06-20T20:00:00.000Z'), location: { lat: 78.22, lon: 15.65, city: 'Longyearbyen' } };
  for (const message of [
    'watch the garage tonight',
    'watch the study from sunset',
    'keep an eye on the side gate till sunrise',
    'watch the garage overnight',
  ]) {
    const [turn] = await converse(polar, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /no sunset or sunrise/, message);
  }
  // (explicit hours are acted on there, and the answer to the question makes the watch)
  const [hours] = await converse(polar, ['watch the garage from 10pm until 6am']);
  assert.deepEqual(tools(hours), ['create_watch'], hours.reply);
  const [, answered] = await converse(polar, ['watch the study tonight', 'from 11pm till 5am']);
  assert.deepEqual(ids(answered), ['g_study_motion'], answered.reply);
  // (where the sun sets, "tonight" runs sunset to sunrise as ever)
  const [south] = await converse({ ...polar, location: { lat: 45.8, lon: 15.98, city: 'Zagreb' } }, ['watch the garage tonight']);
  assert.deepEqual(tools(south), ['create_watch'], south.reply);
});

test('unmuting a word two sensors share unmutes the one of them that is muted', async () => {
  const two: HouseholdContext = {
    ...home,
    rooms: [...home.rooms, { name: 'back garden' }],
    sensors: [...home.sensors, { ...sensor('g_back_cam', 'back garden camera', 'camera', 'back garden'), muted: true }],
  };
  two.sensors = two.sensors.map((x) => (x.id === 'g_gate_cam' ? { ...x, name: 'side garden camera' } : x));
  for (const message of ['unmute garden cam', 'please unmute the garden camera', 'turn the garden camera back on']) {
    const [turn] = await converse(two, [message]);
    assert.deepEqual(ids(turn), ['g_back_cam'], `${message}: ${turn.reply}`);
  }
  // (muting is still asked: either could be meant; with both muted, unmuting is asked too)
  const [mute] = await converse(two, ['mute the garden cam']);
  assert.deepEqual(mute.changes, [], mute.reply);
  const both: HouseholdContext = { ...two, sensors: two.sensors.map((x) => (x.id === 'g_gate_cam' ? { ...x, muted: true } : x)) };
  const [asked] = await converse(both, ['unmute garden cam']);
  assert.deepEqual(asked.changes, [], asked.reply);
});
