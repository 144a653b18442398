/**
 * Round Q places (docs/decisions.md, "Round Q: places"): closing thanks and "same thing" after a second place,
 * a sensor the home calls by the words said, a room named in another language called by its camera's name, a
 * part of a room's name shared by several of its sensors when muting, and "it" with nothing named before it.
 * Each class with phrasings that must act, and phrasings where the change must not fire. Homes and phrasings
 * are our own, not the blind sets'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { heldoutHouseholds, sensor } from './home-of-our-own.ts';

const { contexts, converse } = heldoutHouseholds('round-q-household-contexts.json');
const base = contexts.q_omaha_home;

/** A home of our own: a porch with the porch camera and the front door contact, a veranda, a patio, a doma, a yard gate. */
const home: HouseholdContext = {
  ...base,
  rooms: [{ name: 'front porch' }, { name: 'veranda' }, { name: 'patio' }, { name: 'doma' }, { name: 'side yard' }, { name: 'shed' }],
  sensors: [
    sensor('h_porch_cam', 'porch camera', 'camera', 'front porch'),
    sensor('h_front_door', 'front door contact', 'contact', 'front porch'),
    sensor('h_veranda_cam', 'veranda camera', 'camera', 'veranda'),
    sensor('h_patio_cam', 'patio camera', 'camera', 'patio'),
    sensor('h_doma_cam', 'hallway camera', 'camera', 'doma'),
    sensor('h_doma_motion', 'shoe rack motion', 'motion', 'doma'),
    sensor('h_yard_cam', 'side yard gate camera', 'camera', 'side yard'),
    sensor('h_yard_latch', 'side yard gate latch', 'contact', 'side yard'),
    sensor('h_shed_cam', 'shed camera', 'camera', 'shed'),
    sensor('h_shed_door', 'shed door', 'contact', 'shed'),
  ],
  watches: [{ ...base.watches[0], id: 'wat_h_shed', subject: 'shed', sensor_ids: ['h_shed_cam', 'h_shed_door'] }],
};
const ids = (turn: { changes: { tool: string; args: Record<string, unknown> }[] }) =>
  turn.changes.flatMap((c) => (Array.isArray(c.args.sensor_ids) ? (c.args.sensor_ids as string[]) : [c.args.sensor_id as string])).sort();

test('closing thanks and "same thing" after a second place keep that place in the request', async () => {
  for (const message of [
    'um watch the patio tonight and uh the shed too same thing thanks',
    'er watch the patio tonight and like the shed too thanks so much',
    'watch the patio till 6 and y know the shed as well thank you',
  ]) {
    const [turn] = await converse(home, [message]);
    assert.deepEqual(ids(turn), ['h_patio_cam', 'h_shed_cam', 'h_shed_door'], `${message}: ${turn.reply}`);
  }
  // (thanks alone is still thanks; a request with thanks acts on its one place)
  const [thanks] = await converse(home, ['thanks']);
  assert.deepEqual(thanks.changes, [], thanks.reply);
  const [one] = await converse(home, ['mute the patio camera thanks']);
  assert.deepEqual(ids(one), ['h_patio_cam'], one.reply);
});

test("the words of a sensor's own name name that sensor rather than a lookalike by meaning to ask about", async () => {
  for (const message of ['watch the porch tonight', 'um watch the porch for 2 hours']) {
    const [turn] = await converse(home, [message]);
    assert.deepEqual(ids(turn), ['h_porch_cam'], `${message}: ${turn.reply}`);
  }
  // (the room's whole name is the room: every sensor in it; a word in several of its sensors' names is the room too)
  const [room] = await converse(home, ['watch the front porch tonight']);
  assert.deepEqual(ids(room), ['h_front_door', 'h_porch_cam'], room.reply);
  const [shed] = await converse(home, ['watch the shed tonight']);
  assert.deepEqual(ids(shed), ['h_shed_cam', 'h_shed_door'], shed.reply);
});

test("a room named in another language is called by its camera's English name; an English room keeps the camera alone", async () => {
  for (const message of ['watch the hallway tonight', 'like watch the hallway from 10pm til 6am']) {
    const [turn] = await converse(home, [message]);
    assert.deepEqual(ids(turn), ['h_doma_cam', 'h_doma_motion'], `${message}: ${turn.reply}`);
  }
  // (the camera named with its kind word is the camera; a contact's name is the contact)
  const [cam] = await converse(home, ['watch the hallway camera tonight']);
  assert.deepEqual(ids(cam), ['h_doma_cam'], cam.reply);
  const [door] = await converse(home, ['watch the front door tonight']);
  assert.deepEqual(ids(door), ['h_front_door'], door.reply);
});

test("muting part of a room's name that several of its sensors share is asked; the whole name or one sensor acts", async () => {
  for (const message of ['mute the gate', 'uh mute the yard gate please']) {
    const [turn] = await converse(home, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /side yard gate camera/, message);
  }
  const [latch] = await converse(home, ['mute the gate latch']);
  assert.deepEqual(ids(latch), ['h_yard_latch'], latch.reply);
  const [shed] = await converse(home, ['mute the shed']);
  assert.deepEqual(ids(shed), ['h_shed_cam', 'h_shed_door'], shed.reply);
});

test('"it"/"that" with nothing named in the conversation asks, even with one watch; named first, it acts', async () => {
  for (const message of ['stop it', 'cancel that', 'um turn this off']) {
    const [turn] = await converse(home, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
  }
  const [, stop] = await converse(home, ['is the shed being watched?', 'ok stop it']);
  assert.deepEqual(
    stop.changes.map((c) => c.tool),
    ['stand_down_watch'],
    stop.reply,
  );
  const [watch] = await converse(home, ['stop the watch']);
  assert.deepEqual(
    watch.changes.map((c) => c.tool),
    ['stand_down_watch'],
    watch.reply,
  );
});

test('"just X, not the whole Y" with X inside Y takes X only; a place inside the one watched is still left out', async () => {
  for (const message of ['watch just the gate latch tonight, not the whole side yard', 'um watch the gate latch tonight and not the whole side yard']) {
    const [turn] = await converse(home, [message]);
    assert.deepEqual(ids(turn), ['h_yard_latch'], `${message}: ${turn.reply}`);
  }
  const [out] = await converse(home, ['watch the side yard tonight but not the gate latch']);
  assert.deepEqual(ids(out), ['h_yard_cam'], out.reply);
  const [back] = await converse(home, ['watch the patio and the shed tonight but not the shed']);
  assert.deepEqual(back.changes, [], back.reply);
});
