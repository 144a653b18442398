/**
 * Round N household: scope (docs/decisions.md, "Round N: scope"). A sensor named inside the room it is
 * in ("the side door of the workshop") is that sensor alone; a watch named by its place ("the shed one")
 * is that place's own watch, not the armed house's too; a joined "let the dog out" is nothing the agent
 * can do, so the whole message is declined. Phrasings are our own, not those of the blind sets, with
 * those where the change must not fire beside them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);
const tools = (turn: { changes: { tool: string }[] }) => turn.changes.map((c) => c.tool);

const ARMED = {
  id: 'wat_armed',
  subject: 'house',
  sensor_ids: ['shop_cam', 'shop_door', 'shop_motion', 'porch_cam', 'shed_cam'],
  starts_at: '2026-11-21T08:00:00.000Z',
  ends_at: '9999-12-31T23:59:59.000Z',
  recurrence: 'none' as const,
  window: 'armed until disarmed',
};
const SHED = {
  id: 'wat_shed',
  subject: 'shed',
  sensor_ids: ['shed_cam'],
  starts_at: '2026-11-21T20:00:00.000Z',
  ends_at: '2026-11-22T07:00:00.000Z',
  recurrence: 'daily' as const,
  window: 'every night, 20:00 to 07:00',
};

/** A small home whose workshop has a camera, a door contact and a motion sensor. */
function makeHome(watches: HouseholdContext['watches']): HouseholdContext {
  return {
    ...contexts.lisbon_night,
    rooms: [{ name: 'workshop' }, { name: 'porch' }, { name: 'shed' }],
    sensors: [
      { id: 'shop_cam', name: 'workshop camera', kind: 'camera', room: 'workshop', muted: false },
      { id: 'shop_door', name: 'workshop side door', kind: 'contact', room: 'workshop', muted: false },
      { id: 'shop_motion', name: 'workshop motion', kind: 'motion', room: 'workshop', muted: false },
      { id: 'porch_cam', name: 'porch camera', kind: 'camera', room: 'porch', muted: false },
      { id: 'shed_cam', name: 'shed camera', kind: 'camera', room: 'shed', muted: false },
    ],
    boundaries: [],
    watches,
  } as HouseholdContext;
}

const home = makeHome([]);

async function watchedSensors(message: string, ctx = home): Promise<unknown> {
  const [turn] = await converse(ctx, [message]);
  assert.deepEqual(tools(turn), ['create_watch'], `${message}: ${turn.reply}`);
  return turn.changes[0].args.sensor_ids;
}

test('a sensor named inside the room it is in is that sensor alone', async () => {
  for (const message of [
    'watch the side door of the workshop tonight',
    'watch just the side door on the workshop till 7am',
    'keep an eye on the side door in the workshop tonight',
    'watch only the workshop side door in the workshop tonight, not the camera',
  ]) {
    assert.deepEqual(await watchedSensors(message), ['shop_door'], message);
  }
});

test('a room named beside a sensor, not as where it is, is still watched whole', async () => {
  const both = (await watchedSensors('watch the side door and the workshop tonight')) as string[];
  assert.deepEqual([...both].sort(), ['shop_cam', 'shop_door', 'shop_motion'], 'side door and workshop');
  const other = (await watchedSensors('watch the porch camera and the shed tonight')) as string[];
  assert.deepEqual([...other].sort(), ['porch_cam', 'shed_cam'], 'porch camera and shed');
});

test("a watch named by its place is that place's own watch, not the armed house's too", async () => {
  const ctx = makeHome([ARMED, SHED]);
  for (const message of ['drop the shed one', 'cancel the shed watch', 'stop the shed one']) {
    const [turn] = await converse(ctx, [message]);
    assert.deepEqual(turn.changes, [{ tool: 'stand_down_watch', args: { watch_id: 'wat_shed' } }], `${message}: ${turn.reply}`);
  }
});

test('a place said without "one" or "watch" still leaves it out of the armed watch as before', async () => {
  const ctx = makeHome([ARMED, SHED]);
  const [turn] = await converse(ctx, ['stop watching the shed']);
  assert.deepEqual(tools(turn).sort(), ['stand_down_watch', 'update_watch'], turn.reply);
});

test('a joined "let the dog out" is nothing the agent can do: the whole message is declined', async () => {
  for (const message of [
    'watch the porch tonight and let the dog out at 10',
    'watch the shed till 7am and let the cat in at 11',
    'watch the porch tonight and let the neighbours know',
  ]) {
    const [turn] = await converse(home, [message]);
    assert.deepEqual(tools(turn), [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /can't "let/, message);
  }
});

test('"let me know" and "let it run" are still the agent\'s own', async () => {
  const [turn] = await converse(home, ['watch the porch tonight and let it run till 8']);
  assert.deepEqual(tools(turn), ['create_watch'], turn.reply);
  const [asked] = await converse(home, ['let me know if anyone is on the porch tonight']);
  assert.doesNotMatch(asked.reply, /can't "let/, asked.reply);
});

test('a watch said to stop with no new time is stood down now', async () => {
  const ctx = makeHome([SHED]);
  for (const message of ['the shed watch can stop now', 'the shed one can stop, the lock is fixed', 'the shed watch should end now']) {
    const [turn] = await converse(ctx, [message]);
    assert.deepEqual(turn.changes, [{ tool: 'stand_down_watch', args: { watch_id: 'wat_shed' } }], `${message}: ${turn.reply}`);
  }
  const [later] = await converse(ctx, ['the shed watch can end at 5am']);
  assert.deepEqual(tools(later), ['update_watch'], later.reply);
  const [kept] = await converse(ctx, ["the shed watch can't stop"]);
  assert.deepEqual(tools(kept), [], kept.reply);
});

test('"get rid of" a watch said by name stands it down; of anything else it is no stand-down', async () => {
  const ctx = makeHome([ARMED, SHED]);
  for (const message of ['get rid of the shed watch altogether, we sold the bikes', 'get rid of the shed one']) {
    const [turn] = await converse(ctx, [message]);
    assert.deepEqual(turn.changes, [{ tool: 'stand_down_watch', args: { watch_id: 'wat_shed' } }], `${message}: ${turn.reply}`);
  }
  const [other] = await converse(ctx, ['get rid of the spiders in the shed']);
  assert.deepEqual(tools(other), [], other.reply);
});

test('"don\'t bother with X tonight" while X\'s one-off watch runs tonight stands that watch down', async () => {
  const tonight = { ...SHED, recurrence: 'none' as const, window: '20:00 to 07:00' };
  const ctx = makeHome([tonight]);
  const [turn] = await converse(ctx, ["don't bother with the shed tonight, I've locked it"]);
  assert.deepEqual(turn.changes, [{ tool: 'stand_down_watch', args: { watch_id: 'wat_shed' } }], turn.reply);
  // with no time, or with a watch that repeats every night, it is still asked
  for (const [c, message] of [
    [ctx, "don't bother with the shed"],
    [makeHome([SHED]), "don't bother with the shed tonight"],
  ] as const) {
    const [asked] = await converse(c, [message]);
    assert.deepEqual(tools(asked), [], `${message}: ${asked.reply}`);
  }
});

test('a camera kept from recording or filming is muted; a recording itself is still nothing the agent controls', async () => {
  for (const message of ['stop the porch camera from recording anything, we have visitors', 'stop the shed camera from filming']) {
    const [turn] = await converse(home, [message]);
    assert.deepEqual(tools(turn), ['mute_sensor'], `${message}: ${turn.reply}`);
  }
  const [turn] = await converse(home, ['stop the recording']);
  assert.deepEqual(tools(turn), [], turn.reply);
});

test('a tag after the request ("na", "innit", "eh") is no part of the place', async () => {
  for (const message of ['mute the porch camera na, the moths keep setting it off', 'mute the porch cam innit', 'mute the porch camera, eh']) {
    const [turn] = await converse(home, [message]);
    assert.deepEqual(turn.changes, [{ tool: 'mute_sensor', args: { sensor_id: 'porch_cam' } }], `${message}: ${turn.reply}`);
  }
});

test('"everything outside" spelt out at once by a list of places is those places', async () => {
  for (const message of ['watch everything outside tonight - porch, shed', 'watch everything outside tonight: the porch and the shed']) {
    const ids = (await watchedSensors(message)) as string[];
    assert.deepEqual([...ids].sort(), ['porch_cam', 'shed_cam'], message);
  }
  // one place, or a list with more than places in it, is still asked about
  for (const message of ['watch everything outside tonight - porch', 'watch everything outside tonight, especially the porch and the shed']) {
    const [turn] = await converse(home, [message]);
    assert.deepEqual(tools(turn), [], `${message}: ${turn.reply}`);
  }
});

test('a kind left out ("not the camera") takes that kind out of the room, and is no negation of the request', async () => {
  for (const message of ['watch the workshop tonight, not the camera', 'the workshop tonight, not the camera']) {
    const ids = (await watchedSensors(message)) as string[];
    assert.deepEqual([...ids].sort(), ['shop_door', 'shop_motion'], message);
  }
  assert.deepEqual(await watchedSensors('just the workshop side door tonight, not the camera'), ['shop_door']);
  // a kind said without "not" still narrows the room to it
  assert.deepEqual(await watchedSensors('watch the cameras in the workshop tonight'), ['shop_cam']);
});
