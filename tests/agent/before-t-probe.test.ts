/**
 * Before round T, probe leaks (docs/decisions.md, "Before round T: probe leaks"): by class, a part of the message
 * nobody understood, said after a question beside a request, inside a reason, after an arming or inside a new
 * sensor's name, leaves the request undone and asks. Each class with phrasings where the change must not fire.
 * Phrasings are our own, not the probe's or the blind sets'.
 */
import { test } from 'node:test';
import { assertActs, assertAsks } from './lisbon-home.ts';

test('a question beside a request: a verb the agent cannot do joined on, or a request put to it after a break, holds the request back', async () => {
  await assertAsks([
    'watch the garage tonight, oh and is the porch camera on and book me a cab',
    'watch the garage tonight. also is the porch camera on and phone the landlord',
    'watch the garage tonight - is the porch camera working and sweep the yard',
    'watch the garage tonight, is the porch camera on, could you water the plants?',
    'watch the garage tonight, and the foxes, can you chase them off?',
    'watch the garage tonight, can you feed the dog',
  ]);
  // (a question alone, a question asking the agent to tell the user, and "can you" with nothing after it still act)
  await assertActs([
    ['watch the garage tonight, oh and is the porch camera on?', ['create_watch']],
    ['watch the garage tonight, and is the porch camera on, can you tell me?', ['create_watch']],
    ['watch the garage tonight, can you', ['create_watch']],
  ]);
});

test('a question beside a request, then a place of the home said with how it is: asked about, as right after the request', async () => {
  await assertAsks([
    'watch the garage tonight - and is the porch camera on, the kitchen window was left open',
    'watch the garage tonight, is the porch camera on, the nursery keeps creaking',
  ]);
  await assertActs([['watch the garage tonight - and is the porch camera on, the kids were out there earlier', ['create_watch']]]);
});

test('a reason with a comma inside it, then another place of the home: asked about', async () => {
  await assertAsks([
    "can you mute the living room camera? we've got friends over, the kitchen keeps creaking",
    "watch the garage tonight? I'm a bit jumpy, the nursery has been making noises",
  ]);
  await assertActs([["can you mute the living room camera? we've got friends over, it's a birthday", ['mute_sensor']]]);
});

test('a reason joined by "and" to telling someone else is a request the agent cannot do', async () => {
  await assertAsks(["watch the garage tonight, I'm a bit on edge and tell my neighbour", "watch the garage tonight, we're out and warn the babysitter"]);
  await assertActs([["watch the garage tonight, I'm a bit on edge", ['create_watch']]]);
});

test('a number after arming or disarming is a word like any other: asked about, never dropped', async () => {
  await assertAsks(['arm the house 12', 'arm everything 5', 'arm 90']);
  await assertActs([
    ['arm the house', ['arm_house']],
    ['arm the whole house please', ['arm_house']],
  ]);
});

test("a time or a question inside a new sensor's name: the sensor is not added", async () => {
  await assertAsks(['add rtsp://10.0.0.9/live as the shed camera until we get back', 'add rtsp://10.0.0.9/live as the shed camera after the storm']);
  await assertActs([
    ['add rtsp://10.0.0.9/live as the shed camera', ['add_sensor']],
    ['add rtsp://10.0.0.9/live as the morning room camera', ['add_sensor']],
    ['add rtsp://10.0.0.9/live as the night cam', ['add_sensor']],
  ]);
});
