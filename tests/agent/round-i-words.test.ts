/**
 * Words (docs/decisions.md, "Round I: words"): slips of a home's name words beside its other name
 * words, read when one sensor fits and asked when several do; names whose head is a category word
 * ("pool area") not offered for any room-like word; plural references ("both of them", "all of
 * them") as the set the conversation named. Phrasings are our own, not those of the blind sets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';
import type { HouseholdContext } from '../../src/home/agent/context.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const lisbon = contexts.lisbon;

const converse = converseIn(contexts);

// lisbon: front porch camera, driveway camera, back door contact (kitchen), garage motion, backyard
// camera, living room camera, nursery camera; this home adds a side gate, a shed and a bar
const home: HouseholdContext = {
  ...lisbon,
  rooms: [...lisbon.rooms, { name: 'side passage' }, { name: 'shed' }, { name: 'bar' }],
  sensors: [
    ...lisbon.sensors,
    { id: 'sen_side_gate', name: 'side gate contact', kind: 'contact', room: 'side passage', muted: false },
    { id: 'sen_shed_door', name: 'shed door contact', kind: 'contact', room: 'shed', muted: false },
    { id: 'sen_shed_cam', name: 'shed camera', kind: 'camera', room: 'shed', muted: false },
    { id: 'sen_bar_cam', name: 'bar camera', kind: 'camera', room: 'bar', muted: false },
  ],
};

const sensorsOf = (turn: { changes: { args: Record<string, unknown> }[] }) =>
  turn.changes.flatMap((c) => (c.args.sensor_ids as string[] | undefined) ?? (c.args.sensor_id ? [c.args.sensor_id as string] : []));

test("a slip of a name word beside the home's other name words is read when exactly one sensor fits, and said back", async () => {
  for (const [message, sensor, slip] of [
    ['watch the shed dor tonight', 'sen_shed_door', '"dor" as "door"'],
    ['keep an eye on the side gaet contact till 11', 'sen_side_gate', '"gaet" as "gate"'],
    ['mute the shed camra', 'sen_shed_cam', 'camera'],
    ['watch the frnt porch camera till 6am', 'sen_porch_cam', '"frnt" as "front"'],
    ['mute the nursry camera', 'sen_nursery_cam', 'nursery'],
  ]) {
    const [turn] = await converse(home, [message]);
    assert.deepEqual(sensorsOf(turn), [sensor], `${message}: ${turn.reply}`);
    assert.ok(turn.reply.includes(slip), `${message}: ${turn.reply}`);
  }
});

test('a slip that fits several sensors, or stands alone, is asked about and changes nothing', async () => {
  // "bak" is one slip from "back" and from "bar": beside only a kind word or another slip, it is asked
  for (const message of ['watch the dor tonight', 'watch the bak camera tonight', 'watch the bak dor till 6am']) {
    const [turn] = await converse(home, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.equal(turn.asked, true, `${message}: ${turn.reply}`);
  }
});

test('a real English word beside a name is never read as a name word one slip away', async () => {
  // "side gale" is not the side gate; "bat camera" is not the bar camera
  for (const message of ['watch the side gale contact tonight', 'mute the bat camera']) {
    const [turn] = await converse(home, [message]);
    assert.ok(!sensorsOf(turn).includes('sen_side_gate') && !sensorsOf(turn).includes('sen_bar_cam'), `${message}: ${turn.reply}`);
  }
});

test('a name whose head is a category word is not offered for every room-like word', async () => {
  const rooms: HouseholdContext = {
    ...lisbon,
    rooms: [{ name: 'lounge room' }, { name: 'pool area' }, { name: 'games room' }, { name: 'play area' }],
    sensors: [
      { id: 's_lounge', name: 'lounge camera', kind: 'camera', room: 'lounge room', muted: false },
      { id: 's_pool', name: 'pool camera', kind: 'camera', room: 'pool area', muted: false },
      { id: 's_games', name: 'games room motion sensor', kind: 'motion', room: 'games room', muted: false },
      { id: 's_play', name: 'play area camera', kind: 'camera', room: 'play area', muted: false },
    ],
  };
  for (const [message, sensor] of [
    ['watch the lounge tonight', 's_lounge'],
    ['keep an eye on the sitting room till 11', 's_lounge'],
    ['watch the pool until midnight', 's_pool'],
    ['keep an eye on the games room tonight', 's_games'],
  ]) {
    const [turn] = await converse(rooms, [message]);
    assert.deepEqual(sensorsOf(turn), [sensor], `${message}: ${turn.reply}`);
    assert.doesNotMatch(turn.reply, /Which .* do you mean/, message);
  }
});

test('"both of them", "the two of them", "all of them" are the places the conversation last named', async () => {
  for (const [messages, sensors] of [
    [
      ['is the back door shut?', 'and the shed door?', 'watch both of them tonight'],
      ['sen_back_door', 'sen_shed_door'],
    ],
    [
      ['anything on the driveway?', 'what about the garage?', 'keep an eye on the two of them till 7am'],
      ['sen_driveway_cam', 'sen_garage_motion'],
    ],
    [
      ['is the nursery quiet?', 'and the living room?', 'mute them both'],
      ['sen_nursery_cam', 'sen_living_cam'],
    ],
    [
      ['watch the garage and the driveway tonight', 'mute all of them'],
      ['sen_garage_motion', 'sen_driveway_cam'],
    ],
  ] as const) {
    const turns = await converse(home, [...messages]);
    const last = turns.at(-1)!;
    assert.deepEqual(new Set(sensorsOf(last)), new Set(sensors), `${messages.join(' / ')}: ${last.reply}`);
  }
});

test('"both of them" when the conversation named one place, or three, is asked about', async () => {
  for (const messages of [
    ['is the garage ok?', 'watch both of them tonight'],
    ['is anyone in the garage, the shed or the bar?', 'watch both of them tonight'],
  ]) {
    const turns = await converse(home, messages);
    const last = turns.at(-1)!;
    assert.deepEqual(last.changes, [], `${messages.join(' / ')}: ${last.reply}`);
    assert.equal(last.asked, true, `${messages.join(' / ')}: ${last.reply}`);
  }
});
