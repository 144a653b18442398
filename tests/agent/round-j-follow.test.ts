/**
 * Follow-ups, references and arming, round J (docs/decisions.md, "Round J household: follow-ups, references
 * and arming"): the reason for arming said after the request, a whole-home stand-down of an armed house, and
 * the follow-ups that name what the conversation just did. Phrasings are our own, not those of the blind sets;
 * each cause also holds phrasings where the change must not happen.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';
import SunCalc from 'suncalc';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { formatClock } from '../../src/platform/time/index.ts';
import { createNormalizer } from '../../src/platform/language/index.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);

const ARMED_WATCH = {
  id: 'wat_armed',
  subject: 'house',
  sensor_ids: ['sen_porch_cam', 'sen_driveway_cam', 'sen_back_door', 'sen_backyard_cam'],
  starts_at: '2026-11-21T15:00:00.000Z',
  ends_at: '9999-12-31T23:59:59.000Z',
  recurrence: 'none',
  window: 'armed until disarmed',
};
const GARAGE_WATCH = {
  id: 'wat_garage',
  subject: 'garage',
  sensor_ids: ['sen_garage_motion'],
  starts_at: '2026-11-21T18:00:00.000Z',
  ends_at: '2026-11-22T07:00:00.000Z',
  recurrence: 'none',
  window: 'tonight, 18:00 to 07:00',
};
const armed: HouseholdContext = { ...structuredClone(contexts.lisbon), watches: [ARMED_WATCH] };
const armedAndGarage: HouseholdContext = { ...structuredClone(contexts.lisbon), watches: [ARMED_WATCH, GARAGE_WATCH] };

test('the reason for arming said after the request arms; coming home said after "disarm" disarms', async () => {
  for (const message of [
    'arm the house, heading out for the day',
    'arm everything - we are off to the cinema',
    'arm it please, off to school',
    'arm up, leaving now',
  ]) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(turn.changes, [{ tool: 'arm_house', args: { arm: true } }], `${message}: ${turn.reply}`);
  }
  for (const message of ['disarm please, we are back', 'disarm, home now', 'disarm plz', "disarm, we're back from the beach"]) {
    const [turn] = await converse(armed, [message]);
    assert.deepEqual(turn.changes, [{ tool: 'arm_house', args: { arm: false } }], `${message}: ${turn.reply}`);
  }
});

test('a reason that disagrees with the request, or more than a reason, is asked and changes nothing', async () => {
  for (const message of ["arm the house, we're home", 'arm the house, off to the garage at 10pm', 'arm the house till we are back']) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
  }
  for (const message of ['disarm, off to work', "disarm, we're leaving"]) {
    const [turn] = await converse(armed, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
  }
});

test('a whole-home stand-down of an armed house disarms it; a named place never does', async () => {
  for (const message of ['we are back, you can relax now', 'stop all the watches', 'stand everything down']) {
    const [turn] = await converse(armed, [message]);
    assert.deepEqual(turn.changes, [{ tool: 'arm_house', args: { arm: false } }], `${message}: ${turn.reply}`);
  }
  const [both] = await converse(armedAndGarage, ['stop watching everything']);
  assert.deepEqual(
    both.changes.map((c) => c.tool),
    ['arm_house', 'stand_down_watch'],
    both.reply,
  );
  assert.deepEqual(both.changes[1].args, { watch_id: 'wat_garage' });
  for (const message of ['stop watching the garage', 'cancel the garage watch']) {
    const [turn] = await converse(armedAndGarage, [message]);
    assert.deepEqual(turn.changes, [{ tool: 'stand_down_watch', args: { watch_id: 'wat_garage' } }], `${message}: ${turn.reply}`);
  }
});

const NIGHTLY_GARAGE = { ...GARAGE_WATCH, id: 'wat_nightly', recurrence: 'daily', window: 'every night, 18:00 to 07:00' };
const twoWatches: HouseholdContext = {
  ...structuredClone(contexts.lisbon),
  watches: [NIGHTLY_GARAGE, { ...GARAGE_WATCH, id: 'wat_porch', subject: 'front porch', sensor_ids: ['sen_porch_cam'], window: 'tonight' }],
};

test('"put it back" after a stand-down sets the watch up again as it was; after several, all of them', async () => {
  for (const undo of ['oops, put it back', 'undo that', 'actually no, put it back the way it was']) {
    const [, back] = await converse(twoWatches, ['stop watching the garage', undo]);
    const { id: _id, ...asItWas } = NIGHTLY_GARAGE;
    assert.deepEqual(back.changes, [{ tool: 'create_watch', args: asItWas }], `${undo}: ${back.reply}`);
    assert.match(back.reply, /garage again/);
  }
  const [, all] = await converse(twoWatches, ['stop all the watches', 'undo that']);
  assert.deepEqual(
    all.changes.map((c) => [c.tool, c.args.subject]),
    [
      ['create_watch', 'garage'],
      ['create_watch', 'front porch'],
    ],
    all.reply,
  );
});

test('"put it back" after a change it cannot reverse still asks and changes nothing', async () => {
  const [, moved] = await converse(twoWatches, ['make the garage watch end at 6am', 'put it back']);
  assert.deepEqual(moved.changes, [], moved.reply);
});

test('a withdrawal followed by the reverse of the last change is the undo; followed by anything else it is not', async () => {
  for (const [first, second, tool] of [
    ['mute the driveway camera', 'actually forget that, unmute it', 'unmute_sensor'],
    ['unmute the nursery camera', 'hmm never mind - mute it again', 'mute_sensor'],
  ]) {
    const home: HouseholdContext = {
      ...structuredClone(contexts.lisbon),
      sensors: contexts.lisbon.sensors.map((s) => ({ ...s, muted: s.id === 'sen_nursery_cam' })),
    };
    const [, turn] = await converse(home, [first, second]);
    assert.equal(turn.changes.length, 1, `${second}: ${turn.reply}`);
    assert.equal(turn.changes[0].tool, tool, `${second}: ${turn.reply}`);
  }
  const [, other] = await converse('lisbon', ['mute the driveway camera', 'never mind, mute the living room camera']);
  assert.ok(!other.changes.some((c) => c.tool === 'unmute_sensor'), other.reply);
});

test('a withdrawal then a place with no request of its own moves the last change to that place; with a request it is read as one', async () => {
  for (const correction of ['hmm scrap that, the garage instead', 'never mind - the garage', 'forget that, the garage please']) {
    const [, moved] = await converse('lisbon', ['watch the driveway tonight', correction]);
    assert.equal(moved.changes.length, 1, `${correction}: ${moved.reply}`);
    assert.equal(moved.changes[0].tool, 'update_watch', `${correction}: ${moved.reply}`);
    assert.deepEqual(moved.changes[0].args.sensor_ids, ['sen_garage_motion'], correction);
  }
  const [, muted] = await converse('lisbon', ['mute the driveway camera', 'scrap that, the living room camera']);
  assert.deepEqual(
    muted.changes.map((c) => [c.tool, c.args.sensor_id]),
    [
      ['unmute_sensor', 'sen_driveway_cam'],
      ['mute_sensor', 'sen_living_cam'],
    ],
    muted.reply,
  );
  // its own request: not a correction of the watch just made
  const [, own] = await converse('lisbon', ['watch the driveway tonight', 'scrap that, watch the garage instead']);
  assert.ok(!own.changes.some((c) => c.tool === 'update_watch' && (c.args.sensor_ids as string[]).includes('sen_driveway_cam')), own.reply);
  // nothing changed before it: nothing to correct
  const [first] = await converse('lisbon', ['never mind, the garage']);
  assert.deepEqual(first.changes, [], first.reply);
});

test('a correction that names several places moves the watch to all of them, never only the first', async () => {
  const [, both] = await converse('lisbon', ['watch the driveway tonight', 'no sorry, I meant the garage and the backyard']);
  assert.equal(both.changes.length, 1, both.reply);
  assert.deepEqual([...(both.changes[0].args.sensor_ids as string[])].sort(), ['sen_backyard_cam', 'sen_garage_motion'], both.reply);
  assert.match(both.reply, /the garage and the backyard/);
});

test('a question about sunset with words after it that change nothing is answered', async () => {
  const home = contexts.lisbon;
  const sunset = SunCalc.getTimes(new Date('2026-11-21T12:00:00Z'), home.location!.lat, home.location!.lon).sunset.getTime();
  // to the nearest minute, as every sun time is (src/platform/language/time/primitives.ts, getSunTime)
  const clock = formatClock(Math.round(sunset / 60_000) * 60_000, home.timeZone);
  for (const message of ['what time is sunset anyway?', 'when is sunset then', 'what time is sunset tonight exactly?']) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(turn.changes, [], message);
    assert.match(turn.reply, new RegExp(`^Sunset tonight is at ${clock}\\b`), `${message}: ${turn.reply}`);
  }
  const [tomorrow] = await converse('lisbon', ["when's sunrise tomorrow then?"]);
  assert.match(tomorrow.reply, /^Sunrise tomorrow is at \d\d:\d\d/, tomorrow.reply);
  // a day the answer does not read is not answered as today
  const [other] = await converse('lisbon', ['what time is sunset in madrid anyway?']);
  assert.doesNotMatch(other.reply, /^Sunset tonight/, other.reply);
});

test('a question put as "tell me what / which …" is answered; "tell me when / if …" still waits for something to happen', async () => {
  for (const message of ['just tell me what you are watching', 'can you tell me which watches are on', 'let me know what is being watched please']) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(turn.changes, [], message);
    assert.match(turn.reply, /garage|porch|driveway|backyard/i, `${message}: ${turn.reply}`);
  }
  const [muted] = await converse('lisbon', ['could you tell me whether the nursery camera is muted']);
  assert.deepEqual(muted.changes, [], muted.reply);
  assert.match(muted.reply, /nursery/, muted.reply);
  // beside a quote, the user's own question is answered and the quote is not obeyed
  const [quoted] = await converse('lisbon_watching', ['my brother texted "stop all the watches" - ignore that. tell me what you are watching']);
  assert.deepEqual(quoted.changes, [], quoted.reply);
  assert.doesNotMatch(quoted.reply, /quoted or forwarded text, not a request/, quoted.reply);
  // waiting for something is a watch, as before
  const [watch] = await converse('lisbon', ['tell me when someone is at the front porch tonight']);
  assert.equal(watch.changes[0]?.tool, 'create_watch', watch.reply);
});

test("a home's one-word name written as two words is that name; two words that are both its names are left apart", async () => {
  const home: HouseholdContext = {
    ...structuredClone(contexts.lisbon),
    rooms: [...contexts.lisbon.rooms, { name: 'playroom' }, { name: 'storeroom' }],
    sensors: [
      ...contexts.lisbon.sensors,
      { id: 'sen_play_cam', name: 'playroom camera', kind: 'camera', room: 'playroom', muted: false },
      { id: 'sen_store_door', name: 'storeroom door', kind: 'contact', room: 'storeroom', muted: false },
    ],
  };
  for (const [message, id] of [
    ['watch the play room tonight', 'sen_play_cam'],
    ['keep an eye on the store room till 6am', 'sen_store_door'],
  ]) {
    const [turn] = await converse(home, [message]);
    assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
    assert.deepEqual(turn.changes[0].args.sensor_ids, [id], message);
  }
  const normalize = createNormalizer([]);
  assert.match(
    normalize('watch the boat house', ['boathouse', 'boat', 'house'])
      .tokens.map((t) => t.text)
      .join(' '),
    /boat house/,
  );
  assert.match(
    normalize('watch the boat house', ['boathouse'])
      .tokens.map((t) => t.text)
      .join(' '),
    /boathouse/,
  );
});
