/**
 * The agent knows which sensors are live: a question about a feed ("is the X working", "why is the X not showing
 * anything", "which cameras are offline") is answered from each sensor's status and last frame, in the home's zone,
 * and changes nothing; a watch that covers an offline sensor is made and its reply says which sensor sees nothing and
 * since when; a door's or a room's question is not a feed question (src/home/agent/feed-status.ts,
 * docs/decisions.md, "Before round R: feed status"). Own homes: Berlin, now Thu 2026-12-03 21:00 local.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { converseIn } from './converse-in.ts';

const berlin: HouseholdContext = {
  now: Date.parse('2026-12-03T20:00:00Z'),
  timeZone: 'Europe/Berlin',
  location: { lat: 52.52, lon: 13.405, city: 'Berlin' },
  rooms: [{ name: 'yard' }, { name: 'porch' }, { name: 'garage' }, { name: 'hallway' }, { name: 'nursery' }, { name: 'side gate' }],
  sensors: [
    { id: 'b_yard_cam', name: 'yard camera', kind: 'camera', room: 'yard', muted: false, status: 'offline', last_frame_at: '2026-12-03T17:25:00Z' },
    { id: 'b_porch_cam', name: 'porch camera', kind: 'camera', room: 'porch', muted: false },
    { id: 'b_garage_cam', name: 'garage camera', kind: 'camera', room: 'garage', muted: false, status: 'reconnecting', last_frame_at: '2026-12-03T19:50:00Z' },
    { id: 'b_garage_door', name: 'garage door', kind: 'contact', room: 'garage', muted: false, status: 'live' },
    { id: 'b_gate_latch', name: 'side gate latch', kind: 'contact', room: 'side gate', muted: false, status: 'offline', last_frame_at: '2026-12-02T22:10:00Z' },
    { id: 'b_hall_motion', name: 'hallway motion', kind: 'motion', room: 'hallway', muted: false, status: 'live' },
    { id: 'b_nursery_cam', name: 'nursery camera', kind: 'camera', room: 'nursery', muted: true, status: 'live', last_frame_at: '2026-12-03T19:59:58Z' },
  ],
  boundaries: [],
  watches: [],
  conversation: { turns: [] },
};

/** A home whose context carries no feed status at all (an older context): every sensor taken as live. */
const older: HouseholdContext = {
  ...berlin,
  sensors: [
    { id: 'o_shed_cam', name: 'shed camera', kind: 'camera', room: 'shed', muted: false },
    { id: 'o_front_cam', name: 'front camera', kind: 'camera', room: 'front', muted: false },
  ],
  rooms: [{ name: 'shed' }, { name: 'front' }],
};

const converse = converseIn({ berlin, older });
const FEED_ANSWER = /is live: |is offline:|is reconnecting:|has not connected yet|sees nothing until/;

async function ask(home: string, message: string) {
  const [turn] = await converse(home, [message]);
  assert.deepEqual(turn.changes, [], `${message} changed nothing`);
  assert.equal(turn.asked, false, `${message}: ${turn.reply}`);
  return turn.reply;
}

test('an offline camera asked about says offline, its last frame in the home zone and how long ago', async () => {
  for (const message of [
    'is the yard camera working',
    'is the yard cam down?',
    'hey, is the yard camera online right now?',
    'why is the yard camera not showing anything',
    'is the yard camera feed live',
    'is the yard camera still recording?',
    'is the yard working',
  ]) {
    const reply = await ask('berlin', message);
    assert.match(reply, /^The yard camera is offline: its last frame came at 18:25, 3 hours ago/, `${message}: ${reply}`);
  }
  const latch = await ask('berlin', 'is the side gate latch working');
  assert.match(latch, /^The side gate latch is offline: its last report came at Dec 2 23:10, 22 hours ago/, latch);
  const reconnecting = await ask('berlin', 'is the garage cam up?');
  assert.match(reconnecting, /^The garage camera is reconnecting: its last frame came at 20:50, 10 minutes ago/, reconnecting);
});

test('a live sensor asked about says live; a muted one says so too', async () => {
  for (const message of ['is the porch camera working', 'is the porch cam on?', 'is the porch camera ok', 'are the porch cameras recording']) {
    const reply = await ask('berlin', message);
    assert.match(reply, /^The porch camera is live: its feed is coming in now\.$/, `${message}: ${reply}`);
  }
  assert.match(await ask('berlin', 'is the nursery camera working?'), /^The nursery camera is live: .* It is muted/);
  assert.match(await ask('berlin', 'is the hallway motion sensor working'), /^The hallway motion is live: it is reporting now\.$/);
  assert.match(await ask('older', 'is the shed camera working'), /^The shed camera is live/);
});

test('questions over several sensors: which are offline, are all working', async () => {
  for (const message of ['which cameras are offline', 'are all my cameras working?', 'are any cameras down', 'is everything working']) {
    const reply = await ask('berlin', message);
    assert.match(reply, /The yard camera is offline: .*18:25/, `${message}: ${reply}`);
    assert.match(reply, /The garage camera is reconnecting: .*20:50/, `${message}: ${reply}`);
    assert.doesNotMatch(reply, /porch camera is offline/, `${message}: ${reply}`);
  }
  assert.match(await ask('berlin', 'which cameras are offline'), /The porch camera and the nursery camera are live\./);
  assert.match(await ask('older', 'are all my cameras working'), /^All 2 cameras are live/);
  assert.match(await ask('older', 'which cameras are offline?'), /none is offline/);
});

test('a door, a room or a light asked about is not a feed question', async () => {
  for (const message of [
    'is the garage door open',
    'is the garage door up?',
    'is the garage ok',
    'is the porch light on',
    'why is the garage door open',
    'is the yard ok',
  ]) {
    const [turn] = await converse('berlin', [message]);
    assert.deepEqual(turn.changes, [], message);
    assert.doesNotMatch(turn.reply, FEED_ANSWER, `${message}: ${turn.reply}`);
  }
});

test('a watch over an offline camera is made, and its reply says which camera sees nothing and since when', async () => {
  const [alone] = await converse('berlin', ['watch the yard tonight']);
  assert.equal(alone.changes.length, 1, alone.reply);
  assert.match(alone.reply, /The yard camera is offline: its last frame came at 18:25, 3 hours ago\. Until it is back, this watch sees nothing\./, alone.reply);
  const [both] = await converse('berlin', ['keep an eye on the yard and the porch until 7am']);
  assert.equal(both.changes.length, 1, both.reply);
  assert.deepEqual((both.changes[0].args.sensor_ids as string[]).sort(), ['b_porch_cam', 'b_yard_cam']);
  assert.match(both.reply, /The yard camera is offline: .*18:25.* Until it is back, that part of the watch sees nothing\./, both.reply);
  assert.doesNotMatch(both.reply, /porch camera is (?:offline|live)/, both.reply);
  const [live] = await converse('berlin', ['watch the porch tonight']);
  assert.equal(live.changes.length, 1, live.reply);
  assert.doesNotMatch(live.reply, FEED_ANSWER, live.reply);
});
