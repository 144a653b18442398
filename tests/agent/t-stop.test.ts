/**
 * Round T, stand-downs and scope (docs/decisions.md, "Round T: stand-downs and scope"): a homecoming said beside a
 * stand-down that names its watch ("we are all home now, drop the driveway one") is its reason, not a stand-down of
 * everything; a sensor kind said to be useless, broken or no good is left out of the place watched; an "or" between two
 * places of a request is a choice, asked; "no wait, I meant the driveway" corrects the place of the watch just made;
 * "stop telling me about" a sensor mutes it.
 * The phrasings beside them that must keep their old reading are checked too. Phrasings are our own, not the sets'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);
const home = contexts.lisbon;
const watching = contexts.lisbon_watching;
// the backyard with a motion sensor beside its camera: a place with two kinds to narrow
const twoKinds: HouseholdContext = {
  ...home,
  sensors: [...home.sensors, { id: 'sen_backyard_motion', name: 'backyard motion', kind: 'motion', room: 'backyard', muted: false }],
};

type Change = { tool: string; args: Record<string, unknown> };

async function expectChanges(context: HouseholdContext, messages: string[], expected: Change[]) {
  const turns = await converse(context, messages);
  const turn = turns.at(-1)!;
  const got = turn.changes.map((c) => ({
    tool: c.tool,
    args: Object.fromEntries(Object.keys(expected.find((e) => e.tool === c.tool)?.args ?? {}).map((k) => [k, c.args[k]])),
  }));
  assert.deepEqual(got, expected, `${messages.at(-1)}: ${turn.reply}`);
}

async function expectAsked(context: HouseholdContext, messages: string[], says?: RegExp) {
  const turns = await converse(context, messages);
  const turn = turns.at(-1)!;
  assert.equal(turn.changes.length, 0, `${messages.at(-1)}: ${turn.reply}`);
  if (says) assert.match(turn.reply, says, messages.at(-1));
}

const watch = (sensor_ids: string[]) => ({ tool: 'create_watch', args: { sensor_ids } });
const standDown = (watch_id: string) => ({ tool: 'stand_down_watch', args: { watch_id } });

test('a homecoming beside a stand-down that names its watch is its reason, not a stand-down of every watch', async () => {
  await expectChanges(watching, ['we are all home now you can drop the driveway one'], [standDown('wat_driveway_tonight')]);
  await expectChanges(watching, ["we're all back home so stop the garage watch"], [standDown('wat_garage_evening')]);
  await expectChanges(watching, ['we are all home now, you can stop watching the front porch'], [standDown('wat_porch_tonight')]);
  // must not fire: a homecoming with nothing named still stands every watch down
  const all = [standDown('wat_porch_tonight'), standDown('wat_driveway_tonight'), standDown('wat_garage_evening')];
  await expectChanges(watching, ['we are all home now you can relax'], all);
  await expectChanges(watching, ["we're home, you can relax"], all);
});

test('a sensor kind said to be useless, broken or no good is left out of the place watched', async () => {
  await expectChanges(twoKinds, ['watch the backyard tonight, only the camera, the motion one is useless'], [watch(['sen_backyard_cam'])]);
  await expectChanges(twoKinds, ['watch the backyard tonight, the motion sensor is broken'], [watch(['sen_backyard_cam'])]);
  await expectChanges(twoKinds, ['keep an eye on the backyard tonight, only the camera, the motion sensor is faulty'], [watch(['sen_backyard_cam'])]);
  // (a dismissal with a negation in it, or said as a sentence of its own about the camera: asked, never a sensor watched)
  await expectAsked(twoKinds, ['keep an eye on the backyard tonight, the motion one is no good']);
  await expectAsked(twoKinds, ['keep an eye on the backyard tonight, the camera is broken']);
  // must not fire: a kind named alone narrows to it, and a place named alone is every sensor in it
  await expectChanges(twoKinds, ['watch the backyard tonight, only the camera'], [watch(['sen_backyard_cam'])]);
  await expectChanges(twoKinds, ['watch the backyard tonight'], [watch(['sen_backyard_cam', 'sen_backyard_motion'])]);
});

test('an "or" between two places of a request is a choice, asked', async () => {
  await expectAsked(home, ['watch the garage or the driveway tonight'], /garage or the driveway/);
  await expectAsked(home, ['watch either the front porch or the backyard tonight']);
  await expectAsked(home, ['keep an eye on the nursery or living room till 7am']);
  await expectAsked(watching, ['stop watching the garage or the driveway']);
  // must not fire: an "or" inside a reason, or between things that are no places, changes nothing of the request
  await expectChanges(home, ['watch the driveway tonight, the kids go out trick or treating'], [watch(['sen_driveway_cam'])]);
  await expectChanges(home, ['watch the driveway tonight, the car or the van might get nicked'], [watch(['sen_driveway_cam'])]);
  await expectChanges(home, ['watch the garage and the driveway tonight'], [watch(['sen_garage_motion', 'sen_driveway_cam'])]);
  // (inside a condition, "or" is either place: "tell me if anyone is in the driveway or the backyard tonight" watches both)
  await expectChanges(home, ['tell me if anyone is in the driveway or the backyard tonight'], [watch(['sen_driveway_cam', 'sen_backyard_cam'])]);
});

test('"no wait, I meant the driveway" corrects the place of the watch just made', async () => {
  const made = 'watch the garage from 8 tonight till 6';
  const moved = (sensor_ids: string[]) => [{ tool: 'update_watch', args: { watch_id: 'wat_1', sensor_ids } }];
  await expectChanges(home, [made, 'no wait, I meant the driveway'], moved(['sen_driveway_cam']));
  await expectChanges(home, [made, 'wait, I mean the backyard'], moved(['sen_backyard_cam']));
  await expectChanges(home, [made, 'hang on, I meant the driveway'], moved(['sen_driveway_cam']));
  // must not fire: a hold with no place meant, or unsure of it, is still a hold
  await expectAsked(home, [made, 'no wait'], /take your time/);
  await expectAsked(home, [made, 'wait, I meant the driveway, not sure'], /take your time/);
});

test('"stop telling me about" a sensor mutes it, as the sets read it', async () => {
  const mute = (sensor_id: string) => [{ tool: 'mute_sensor', args: { sensor_id } }];
  await expectChanges(home, ['the garage motion keeps going off because of the cat, stop telling me about it'], mute('sen_garage_motion'));
  await expectChanges(home, ['stop telling me about the nursery camera'], mute('sen_nursery_cam'));
  // must not fire: stopping a watch is still a stand-down, also beside a complaint about it
  await expectChanges(watching, ['stop watching the driveway, it keeps pinging me'], [standDown('wat_driveway_tonight')]);
});
