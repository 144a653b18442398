/**
 * Round T arming (docs/decisions.md, "Round T: arming"): a reason beside a plain arm request, before or after it and
 * of any length, is read to its end and changes nothing; "for the night" on arming is done and the reply says arming
 * has no end; "disarm … but keep watching X" does both, in order. Each class with phrasings that must act, and
 * phrasings where the change must not fire. Homes and phrasings are our own, not the blind sets'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { ARMED_WINDOW } from '../../src/home/agent/tools/arm-house.ts';
import { heldoutHouseholds, sensor, tools } from './home-of-our-own.ts';

const { contexts, converse } = heldoutHouseholds('round-s-household-contexts.json');
const base = contexts.s_seville_flat;

/** A home of our own: a boathouse, a porch and a pantry, nothing watched. */
const home: HouseholdContext = {
  ...base,
  rooms: [{ name: 'boathouse' }, { name: 'porch' }, { name: 'pantry' }],
  sensors: [
    sensor('b_boat_cam', 'boathouse camera', 'camera', 'boathouse'),
    sensor('b_porch_door', 'porch door contact', 'contact', 'porch'),
    sensor('b_pantry_motion', 'pantry motion', 'motion', 'pantry'),
  ],
  watches: [],
};
/** The same home, armed. */
const armedHome: HouseholdContext = {
  ...home,
  watches: [
    {
      id: 'wat_b_armed',
      subject: 'house',
      sensor_ids: ['b_boat_cam', 'b_porch_door'],
      starts_at: '2026-06-12T08:00:00.000Z',
      ends_at: '9999-12-31T23:59:59.000Z',
      recurrence: 'none',
      window: ARMED_WINDOW,
    },
  ],
};

async function assertArms(messages: string[]): Promise<void> {
  for (const message of messages) {
    const [turn] = await converse(home, [message]);
    assert.deepEqual(tools(turn), ['arm_house'], `${message}: ${turn.reply}`);
    assert.equal(turn.changes[0].args.arm, true, message);
  }
}

async function assertNoChange(context: HouseholdContext, messages: string[]): Promise<void> {
  for (const message of messages) {
    const [turn] = await converse(context, [message]);
    assert.deepEqual(tools(turn), [], `${message}: ${turn.reply}`);
  }
}

test('a reason before a plain arm request is read to its end, however long, and the house is armed', async () => {
  await assertArms([
    "we're driving up to the Blue Mountains for my aunt's birthday, arm the house",
    'heading out on the river for the afternoon, arm everything please',
    'we are off to Marrakech for a week, arm the lot',
    "I'm going to Lisbon for the conference, lock it all down",
    'off to the Festival of Lights, arm the whole lot',
  ]);
});

test('a reason after a plain arm request is read to its end, however long, and the house is armed', async () => {
  await assertArms([
    "arm the house, we're off to the Museum of Modern Art",
    'arm everything, heading to the county fair with the kids',
    'arm the place - off to my sister in Leeds',
    "lock the place down, we're going to the Isle of Skye",
  ]);
});

test('arming "for the night" or "for the evening" is done, and the reply says arming has no end', async () => {
  for (const message of ['arm the house for the night', 'lock it all down for the evening', 'arm everything tonight please', 'arm the place overnight']) {
    const [turn] = await converse(home, [message]);
    assert.deepEqual(tools(turn), ['arm_house'], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /until you disarm/, message);
  }
});

test('a time that changes what arming means, or a disarm for a time, is still asked, changing nothing', async () => {
  await assertNoChange(home, ['arm the house for an hour', 'arm the house from 10 tonight', 'arm everything at 11pm']);
  await assertNoChange(armedHome, ['disarm the house for the night', 'disarm everything for an hour']);
});

test("what must not arm: one sensor, a negation, a question, a request inside the reason, someone else's words", async () => {
  await assertNoChange(home, [
    'arm the boathouse camera',
    "don't arm anything",
    'do not arm the house',
    'is the house armed?',
    'arm the house, off to watch the boathouse',
    'my neighbour texted me "arm everything" - what does that mean?',
  ]);
});

test('"disarm … but keep watching X tonight": the disarm and the watch, both done, in order', async () => {
  for (const message of ['disarm the house but keep watching the boathouse tonight', 'disarm everything but watch the porch door tonight']) {
    const [turn] = await converse(armedHome, [message]);
    assert.deepEqual(tools(turn), ['arm_house', 'create_watch'], `${message}: ${turn.reply}`);
    assert.equal(turn.changes[0].args.arm, false, message);
  }
});

test('"but" joins only a watch to arming: anything else beside it is read as before, never done in part', async () => {
  for (const message of ['arm the house but not the boathouse', 'arm the house but leave the porch alone', 'disarm but mute the pantry motion']) {
    const [turn] = await converse(home, [message]);
    assert.ok(!tools(turn).includes('arm_house'), `${message}: ${turn.reply}`);
  }
});
