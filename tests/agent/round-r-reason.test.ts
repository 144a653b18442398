/**
 * Round R, reasons, corrections and arming (docs/decisions.md, "Round R: reasons, corrections and arming"): a reason
 * beside the request that names a person by a place's word ("the pool guy is coming"), one person said bare ("cleaner
 * is coming"), a group of workers ("the shearing crew is here all week"), people counted ("we both are at work"), or a
 * time of its own beside a stand-down ("…, we're moving the bikes through there every evening now"), is no part of the
 * request; a correction may open with a sound of hesitation ("hmm no, just the camera"); "is it off now?" right after
 * arming or disarming asks about the house; a place with an accent ("off to Zürich") is a place said as the reason
 * for arming. The phrasings beside them that must keep their old reading are checked too. Phrasings are our own,
 * not the set's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';
import type { HouseholdContext } from '../../src/home/agent/context.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);

// lisbon (Europe/Lisbon, UTC in November) with a pool and a front door of two sensors, and two watches to stand down.
const lisbon = contexts.lisbon;
const home: HouseholdContext = {
  ...lisbon,
  rooms: [...lisbon.rooms, { name: 'pool' }, { name: 'front door' }],
  sensors: [
    ...lisbon.sensors,
    { id: 'sen_pool_cam', name: 'pool camera', kind: 'camera', room: 'pool', muted: false },
    { id: 'sen_door_cam', name: 'front door camera', kind: 'camera', room: 'front door', muted: false },
    { id: 'sen_door_contact', name: 'front door contact', kind: 'contact', room: 'front door', muted: false },
  ],
  watches: [
    {
      id: 'wat_garage_nightly',
      subject: 'garage',
      sensor_ids: ['sen_garage_motion'],
      starts_at: '2026-11-21T22:00:00.000Z',
      ends_at: '2026-11-22T06:00:00.000Z',
      recurrence: 'daily',
      window: 'every night, 22:00 to 06:00',
    },
    {
      id: 'wat_backyard',
      subject: 'backyard',
      sensor_ids: ['sen_backyard_cam'],
      starts_at: '2026-11-21T17:00:00.000Z',
      ends_at: '2026-11-22T07:00:00.000Z',
      recurrence: 'none',
      window: 'until 07:00',
    },
  ],
};

type Change = { tool: string; args: Record<string, unknown> };

async function expectChanges(messages: string[], expected: Change[]) {
  const last = (await converse(home, messages)).at(-1)!;
  const got = last.changes.map((c) => ({
    tool: c.tool,
    args: Object.fromEntries(Object.keys(expected.find((e) => e.tool === c.tool)?.args ?? {}).map((k) => [k, c.args[k]])),
  }));
  assert.deepEqual(got, expected, `${messages.join(' / ')}: ${last.reply}`);
  return last;
}

async function expectAsked(messages: string[], says?: RegExp) {
  const last = (await converse(home, messages)).at(-1)!;
  assert.equal(last.changes.length, 0, `${messages.join(' / ')}: ${last.reply}`);
  if (says) assert.match(last.reply, says, messages.join(' / '));
  return last;
}

const watch = (sensor_ids: string[]) => ({ tool: 'create_watch', args: { sensor_ids } });
const standDown = (watch_id: string) => ({ tool: 'stand_down_watch', args: { watch_id } });

test('a person named by a place word ("the pool guy") in a reason is no place to watch', async () => {
  await expectChanges(['watch the driveway for the next hour, the pool guy is coming'], [watch(['sen_driveway_cam'])]);
  await expectChanges(['keep an eye on the front porch till 6pm, the pool man is here'], [watch(['sen_porch_cam'])]);
  // must not fire: a place of the home said as the reason's own subject, or after the person, is still asked about
  await expectAsked(['watch the driveway tonight, the pool keeps making noises'], /pool/);
  await expectAsked(['watch the driveway tonight, the pool guy is coming and the nursery needs a look'], /nursery/);
});

test('one person said bare, and people counted ("we both"), make a reason', async () => {
  await expectChanges(['watch the front porch tomorrow 9 am to 5 pm, cleaner is coming and we both are at work'], [watch(['sen_porch_cam'])]);
  await expectChanges(['watch the driveway tomorrow from 8 am to 4 pm, nanny is coming'], [watch(['sen_driveway_cam'])]);
  // must not fire: a place of the home in what the person does is still read with the request, not dropped
  const [turn] = await converse(home, ['watch the driveway tonight, cleaner is in the nursery']);
  assert.ok(/nursery/.test(turn.reply), turn.reply);
  // must not fire: a number left in the reason is still asked about
  await expectAsked(['watch the driveway tonight, we both are out 2'], /"2"/);
});

test('a time inside a reason beside a stand-down is the reason’s, not a window', async () => {
  await expectChanges(['call off the garage watch, we’re moving the bikes through there every evening now'], [standDown('wat_garage_nightly')]);
  await expectChanges(['stop all the watches, the building crew is here all week'], [standDown('wat_garage_nightly'), standDown('wat_backyard')]);
  await expectChanges(['stop all the watches, painting crew is here all week'], [standDown('wat_garage_nightly'), standDown('wat_backyard')]);
  await expectChanges(['cancel the backyard watch, the gardener is coming tomorrow'], [standDown('wat_backyard')]);
  // must not fire: beside a watch, the reason's time sets no window and the watch's time is asked for
  await expectAsked(['watch the garage, the building crew is here all week'], /When should I watch the garage/);
});

test('a correction may open with a sound of hesitation', async () => {
  await expectChanges(['watch the front door till 10 tomorrow', 'hmm no, just the camera'], [{ tool: 'update_watch', args: { sensor_ids: ['sen_door_cam'] } }]);
  await expectChanges(
    ['watch the front door till 10 tomorrow', 'um no, only the contact'],
    [{ tool: 'update_watch', args: { sensor_ids: ['sen_door_contact'] } }],
  );
  await expectChanges(['stand down the garage', 'hmm no, put it back'], [{ tool: 'create_watch', args: { sensor_ids: ['sen_garage_motion'] } }]);
  // must not fire: a hesitation and "no" with nothing to change changes nothing
  await expectAsked(['watch the front door till 10 tomorrow', 'hmm no']);
});

test('"is it off now?" right after arming or disarming is about the house', async () => {
  await expectAsked(['arm the house', 'disarm', 'is it off now?'], /isn't armed/);
  await expectAsked(['arm the house', 'is it on now?'], /the house is armed/);
  // must not fire: after a watch "it" is not the house, and said first it is asked about
  const after = await expectAsked(['watch the garage tonight', 'is it off now?']);
  assert.doesNotMatch(after.reply, /armed/);
  const first = await expectAsked(['is it off now?']);
  assert.doesNotMatch(first.reply, /armed/);
});

test('a place with an accent said as the reason for arming', async () => {
  await expectChanges(['arm the house, we’re off to Zürich for the weekend'], [{ tool: 'arm_house', args: { arm: true } }]);
  await expectChanges(['arm the house, we’re heading to Málaga'], [{ tool: 'arm_house', args: { arm: true } }]);
  // must not fire: a request of its own after the reason still holds the arming back
  await expectAsked(['arm the house, we’re off to Málaga and watch the pool']);
});
