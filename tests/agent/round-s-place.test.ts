/**
 * Round S places and mixed requests (docs/decisions.md, "Round S: places"): sensors named with hours after a
 * boundary are a new watch; "keep watching X" beside a change makes no watch; a request joined to device control is
 * asked about, changing nothing. Each class with phrasings that must act, and phrasings where the change must not
 * fire. Homes and phrasings are our own, not the blind sets'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { heldoutHouseholds, sensor, tools } from './home-of-our-own.ts';

const { contexts, converse } = heldoutHouseholds('round-s-household-contexts.json');
const base = contexts.s_seville_flat;

/** A home of our own: a carport, a study, a workshop, a nursery, with a nightly watch on the workshop door. */
const home: HouseholdContext = {
  ...base,
  rooms: [{ name: 'carport' }, { name: 'study' }, { name: 'workshop' }, { name: 'nursery' }],
  sensors: [
    sensor('h_carport_cam', 'carport camera', 'camera', 'carport'),
    sensor('h_study_motion', 'study motion', 'motion', 'study'),
    sensor('h_shop_cam', 'workshop camera', 'camera', 'workshop'),
    sensor('h_shop_door', 'workshop door contact', 'contact', 'workshop'),
    sensor('h_nursery_cam', 'nursery camera', 'camera', 'nursery'),
  ],
  watches: [
    {
      id: 'wat_h_shop',
      subject: 'workshop door contact',
      sensor_ids: ['h_shop_door'],
      starts_at: '2026-06-12T20:00:00.000Z',
      ends_at: '2026-06-13T04:00:00.000Z',
      recurrence: 'daily',
      window: 'every night, 22:00 to 06:00',
    },
  ],
};
const ids = (turn: { changes: { tool: string; args: Record<string, unknown> }[] }) =>
  turn.changes.flatMap((c) => (Array.isArray(c.args.sensor_ids) ? (c.args.sensor_ids as string[]) : [c.args.sensor_id as string])).sort();

test('a sensor named with hours after a boundary is a new watch of it, not another boundary', async () => {
  for (const [second, want] of [
    ['cheers. and the carport camera from 11pm to 5am', ['h_carport_cam']],
    ['also workshop camera 9pm till 4am', ['h_shop_cam']],
    ['the study motion for 3 hours as well', ['h_study_motion']],
  ] as const) {
    const [, turn] = await converse(home, ['leave the nursery alone please', second]);
    assert.deepEqual(tools(turn), ['create_watch'], `${second}: ${turn.reply}`);
    assert.deepEqual(ids(turn), [...want], `${second}: ${turn.reply}`);
  }
  // (a room named with hours after a boundary may be a timed boundary: still asked, nothing changed)
  const [, room] = await converse(home, ['leave the nursery alone please', 'also the study 9pm to 4am']);
  assert.deepEqual(room.changes, [], room.reply);
  // (after a mute, a sensor with hours is still read as a timed mute and asked about)
  const [, muted] = await converse(home, ['mute the nursery camera', 'also carport camera 11pm to 5am']);
  assert.deepEqual(muted.changes, [], muted.reply);
});

test('"keep watching X" beside a change keeps what runs and makes no watch', async () => {
  for (const message of [
    'mute the carport camera but keep watching the workshop door',
    'mute the nursery camera, but keep watching the workshop',
    'unmute the study motion but keep an eye on the carport',
  ]) {
    const [turn] = await converse(home, [message]);
    assert.ok(
      turn.changes.every((c) => c.tool === 'mute_sensor' || c.tool === 'unmute_sensor'),
      `${message}: ${turn.reply}`,
    );
    assert.doesNotMatch(turn.reply, /When should I watch/, `${message}: ${turn.reply}`);
  }
  const [kept] = await converse(home, ['mute the carport camera but keep watching the workshop door']);
  assert.deepEqual(tools(kept), ['mute_sensor'], kept.reply);
  assert.match(kept.reply, /still watching the workshop door/, kept.reply);
  // (with hours of its own, keeping watching is a request for a watch, as before)
  const [timed] = await converse(home, ['mute the nursery camera but keep watching the carport till midnight']);
  assert.ok(tools(timed).includes('create_watch'), timed.reply);
  // (said alone, without a change beside it, it still asks when)
  const [alone] = await converse(home, ['keep watching the carport']);
  assert.deepEqual(alone.changes, [], alone.reply);
});

test('a request joined to device control is asked about, changing nothing', async () => {
  for (const [message, doable] of [
    ['mute the study motion and lock the workshop door at 9', 'mute the study motion'],
    ['unmute the nursery cam and turn the lights off', 'unmute the nursery camera'],
    ['watch the carport tonight and switch the heater on', 'watch the carport'],
    ['close the blinds and stop watching the workshop', 'stand down'],
  ] as const) {
    const [turn] = await converse(home, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, new RegExp(`shall I just ${doable}`), `${message}: ${turn.reply}`);
    assert.ok(turn.reply.trim().endsWith('?'), `${message}: ${turn.reply}`);
  }
  // (an errand beside a request is still declined as before, not asked about)
  const [errand] = await converse(home, ['order some paint and mute the study motion']);
  assert.deepEqual(errand.changes, [], errand.reply);
  assert.match(errand.reply, /ask me again without that part/, errand.reply);
  // (a door named as a place is no device control: "watch the workshop and the door" is a watch)
  const [door] = await converse(home, ['mute the nursery camera and the carport camera']);
  assert.deepEqual(tools(door), ['mute_sensor', 'mute_sensor'], door.reply);
});

test('watching a place whose sensors are all muted asks whether to unmute and watch, and the answer does both', async () => {
  const muted: HouseholdContext = { ...home, sensors: home.sensors.map((s) => (s.id === 'h_nursery_cam' ? { ...s, muted: true } : s)) };
  for (const message of ['watch the nursery tonight', 'keep an eye on the nursery camera till 6am']) {
    const [turn] = await converse(muted, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /muted.*Shall I unmute it and watch/, `${message}: ${turn.reply}`);
  }
  const [, yes] = await converse(muted, ['watch the nursery tonight', 'yes, unmute it and watch it']);
  assert.deepEqual(tools(yes), ['unmute_sensor', 'create_watch'], yes.reply);
  const [, no] = await converse(muted, ['watch the nursery tonight', 'no, leave it']);
  assert.deepEqual(no.changes, [], no.reply);
  // (beside a place that can be watched, that place is watched and the muted one declined, as before)
  const [both] = await converse(muted, ['watch the nursery and the carport tonight']);
  assert.deepEqual(ids(both), ['h_carport_cam'], both.reply);
  // (a place left alone is still declined, never offered)
  const [left] = await converse({ ...muted, boundaries: [{ room: 'study' }] }, ['watch the study tonight']);
  assert.deepEqual(left.changes, [], left.reply);
  assert.doesNotMatch(left.reply, /Shall I unmute/, left.reply);
});
