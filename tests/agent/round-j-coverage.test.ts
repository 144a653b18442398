/**
 * Coverage of verbs and objects (docs/decisions.md, "Round J household: coverage of verbs and
 * objects"): a second action joined to a request that the agent cannot do, and a thing named as the
 * request's object that is no room, sensor or detection kind, hold the whole message back: it asks or
 * declines and changes nothing. Filler, reasons, conditions and statements beside the request do not.
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
const sensorsOf = (turn: { changes: { args: Record<string, unknown> }[] }) =>
  turn.changes.flatMap((c) => (c.args.sensor_ids as string[] | undefined) ?? (c.args.sensor_id ? [c.args.sensor_id as string] : []));

// lisbon: front porch camera, driveway camera, back door contact (kitchen), garage motion, backyard
// camera, living room camera, nursery camera

test('an action joined to a request that the agent cannot do is declined, saying what it can and cannot do, and nothing changes', async () => {
  for (const [message, said] of [
    ['watch the backyard tonight and call my sister if someone comes', 'call my sister'],
    ['keep an eye on the porch till 11 and order a taxi for 6', 'order a taxi'],
    ['mute the nursery camera and email the landlord', 'email the landlord'],
    ['watch the garage from 9 to 5 and then ring the plumber', 'ring the plumber'],
    ['watch the driveway tonight and message my husband when a car pulls in', 'message my husband'],
    ['stop watching the porch and phone my mum', 'phone my mum'],
    ['watch the porch tonight and pay the gardener', 'pay the gardener'],
  ]) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.equal(turn.asked, true, `${message}: ${turn.reply}`);
    assert.ok(turn.reply.includes(`can't "${said}"`), `${message}: ${turn.reply}`);
    assert.match(turn.reply, /I can (watch|mute|stand down)/, `${message}: ${turn.reply}`);
  }
});

test('a thing named as what to watch or mute that is no room, sensor or detection kind is asked about', async () => {
  for (const [message, said] of [
    ['keep an eye on the gizmo in the living room till 10', 'gizmo'],
    ['monitor the fridge in the kitchen tonight', 'fridge'],
    ['mute the nursery camera and the widget by the door', 'widget'],
    ['watch the kitchen and the fridge tonight', 'fridge'],
  ]) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.equal(turn.asked, true, `${message}: ${turn.reply}`);
    assert.ok(turn.reply.includes(`"${said}"`), `${message}: ${turn.reply}`);
  }
});

test('filler, reasons, conditions, statements and notices beside a request leave it an action', async () => {
  for (const message of [
    'watch the garage tonight please mate',
    'ok so just watch the porch till 11 cheers',
    'watch the driveway tonight, thanks a lot',
    'watch the backyard tonight, the kids are away',
    'mute the nursery camera, the baby is asleep',
    'can you please watch the garage tonight, we have guests staying',
    'watch the porch tonight, the parcel is coming tomorrow',
    'watch the garage tonight and the back door too',
    'watch the driveway tonight and have a good evening',
    'watch the garage tonight and enjoy your weekend',
    'watch the porch tonight and send me a notification if anyone comes',
    'watch my car in the driveway tonight',
    'keep watch over the garage tonight',
  ]) {
    const [turn] = await converse('lisbon', [message]);
    assert.equal(turn.asked, false, `${message}: ${turn.reply}`);
    assert.equal(turn.changes.length > 0, true, `${message}: ${turn.reply}`);
  }
});

test('a statement beside the request, with its own subject, is no second request', async () => {
  const [turn] = await converse('lisbon', [
    'we fly out on the 2nd at 6 in the morning and land back on the 5th at 8 in the evening, watch the garage while we are away',
  ]);
  assert.equal(turn.asked, false, turn.reply);
  assert.equal(turn.changes.length, 1, turn.reply);
});

test('a new camera named with "call it", or said with how it streams, is added, not declined or asked about', async () => {
  for (const message of ['add the camera at rtsp://10.0.0.7/stream1 and call it the shed camera', 'add the MJPEG camera in the shed at http://192.168.1.40/']) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(
      turn.changes.map((c) => c.tool),
      ['add_sensor'],
      `${message}: ${turn.reply}`,
    );
  }
});

// lisbon_watching: watches on the front porch and the driveway (tonight) and the garage (19:00 to 23:00)

test('an edit verb on a watch named as a noun edits it, never makes a new watch; said without what to change, it asks what', async () => {
  for (const message of [
    'shift the porch watch',
    'reschedule the driveway watch',
    'adjust the garage watch',
    'move the porch one',
    'tweak the driveway watch',
  ]) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.equal(turn.asked, true, `${message}: ${turn.reply}`);
    assert.match(turn.reply, /What should I change about the watch on the (front porch|driveway|garage)\?/, `${message}: ${turn.reply}`);
  }
});

test('moving a watch to one clock time, with no start or end said, asks which end moves', async () => {
  for (const message of ['move the driveway watch to 9pm', 'shift the porch one to 10']) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /start (at .+ )?or end at/, `${message}: ${turn.reply}`);
  }
});

test('an edit that says what changes is made on the watch named', async () => {
  for (const [message, watch, field] of [
    ['push the porch one to 11:30', 'wat_porch_tonight', 'ends_at'],
    ['move the driveway watch to start at 9pm', 'wat_driveway_tonight', 'starts_at'],
    ['move the garage watch to end at 11:30pm', 'wat_garage_evening', 'ends_at'],
  ]) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(
      turn.changes.map((c) => c.tool),
      ['update_watch'],
      `${message}: ${turn.reply}`,
    );
    assert.equal(turn.changes[0].args.watch_id, watch, `${message}: ${turn.reply}`);
    assert.ok(field in turn.changes[0].args, `${message}: ${JSON.stringify(turn.changes[0].args)}`);
  }
});

test('movement to look for is still read where nothing is moved', async () => {
  const [turn] = await converse('lisbon', ['let me know if anything moves in the garage tonight']);
  assert.deepEqual(
    turn.changes.map((c) => c.tool),
    ['create_watch'],
    turn.reply,
  );
  assert.deepEqual(turn.changes[0].args.conditions, ['motion'], turn.reply);
});

test('a stand-down with a day of its own, on a watch that runs beyond that day, asks instead of standing it all down', async () => {
  for (const message of ['stand down the garage watch on friday', 'cancel the driveway watch for tomorrow']) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.equal(turn.asked, true, `${message}: ${turn.reply}`);
  }
  // ("tonight" on tonight's watch is the whole of it)
  const [turn] = await converse('lisbon_watching', ['stop watching the porch tonight']);
  assert.deepEqual(
    turn.changes.map((c) => c.tool),
    ['stand_down_watch'],
    turn.reply,
  );
});

test('an exception that names nothing the reading resolved asks, never stands everything down', async () => {
  for (const message of [
    'stop all the watches other than the one I made yesterday',
    'stand down every watch apart from the one on the driveway',
    'cancel all of them except the one from this morning',
  ]) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.equal(turn.asked, true, `${message}: ${turn.reply}`);
  }
  for (const [message, kept] of [
    ['stop all the watches except the garage', 'wat_garage_evening'],
    ['stand down everything apart from the porch one', 'wat_porch_tonight'],
  ]) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.equal(turn.changes.length, 2, `${message}: ${turn.reply}`);
    assert.ok(!turn.changes.some((c) => c.args.watch_id === kept), `${message}: ${turn.reply}`);
  }
});

// lisbon with a front door of its own (a room with a camera and a contact) and a garden shed
const doors: HouseholdContext = {
  ...contexts.lisbon,
  rooms: [...contexts.lisbon.rooms, { name: 'front door' }, { name: 'garden shed' }],
  sensors: [
    ...contexts.lisbon.sensors,
    { id: 'sen_front_cam', name: 'front door camera', kind: 'camera', room: 'front door', muted: false },
    { id: 'sen_front_contact', name: 'front door contact', kind: 'contact', room: 'front door', muted: false },
    { id: 'sen_shed_motion', name: 'garden shed motion', kind: 'motion', room: 'garden shed', muted: false },
  ],
};

test('a bare word that heads the names of several rooms and sensors is asked about, naming them', async () => {
  for (const message of ['watch the door tonight', 'keep an eye on the door till 6am', 'mute the door']) {
    const [turn] = await converse(doors, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /Which door do you mean: front door, back door contact\?/, `${message}: ${turn.reply}`);
  }
});

test('a word that names one place, the place named in full, or the one the conversation just named, is acted on', async () => {
  for (const [message, sensor] of [
    ['watch the front door tonight', 'sen_front_cam'],
    ['watch the back door tonight', 'sen_back_door'],
  ]) {
    const [turn] = await converse(doors, [message]);
    assert.ok(sensorsOf(turn).includes(sensor), `${message}: ${turn.reply}`);
  }
  const [, after] = await converse(doors, ['is anyone at the front door?', 'watch the door tonight']);
  assert.deepEqual(sensorsOf(after), ['sen_front_cam', 'sen_front_contact'], after.reply);
});

test('a request the agent cannot do said before one it can also holds the whole message back, so no word of it shapes the action', async () => {
  for (const message of [
    'book an electrician for tomorrow and watch the garage tonight',
    'lock the back door and mute the nursery camera',
    'turn on the porch light and watch the porch till 11',
  ]) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /I can't do that/, `${message}: ${turn.reply}`);
    assert.match(turn.reply, /haven't changed anything/, `${message}: ${turn.reply}`);
  }
  // a question beside it is still answered, and a remark about a device is no request
  const [asked] = await converse('lisbon', ['lock the back door and is anyone in the backyard?']);
  assert.deepEqual(asked.changes, [], asked.reply);
  assert.match(asked.reply, /backyard/i, asked.reply);
  const [, remark] = await converse('lisbon', ['watch the garage tonight', "stop watching the garage, the new lock's fitted now"]);
  assert.ok(
    remark.changes.some((c) => c.tool === 'stand_down_watch'),
    remark.reply,
  );
});
