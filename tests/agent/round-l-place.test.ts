/**
 * Round L household: places and words (docs/decisions.md, "Round L household: places and words").
 * A room named with a function word ("under the house", "top of the stairs", "out the back") is read
 * only as its whole phrase and never breaks the home's other names; a number inside a room's name
 * ("the 5th bedroom", "the two-car garage") is part of the name, not a date or a count. Phrasings are
 * our own, not those of the blind sets, with those where the change must not fire beside them.
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
const subjects = (turn: { changes: { tool: string; args?: Record<string, unknown> }[] }) => turn.changes.map((c) => c.args?.sensor_ids ?? c.args?.sensor_id);

/** A home whose rooms are named the way people say them: with function words and numbers. */
function home(rooms: string[]): HouseholdContext {
  const base = contexts.lisbon_night;
  const id = (name: string) => `t_${name.replace(/\W+/g, '_')}`;
  return {
    ...base,
    rooms: [{ name: 'garage' }, { name: 'kitchen' }, ...rooms.map((name) => ({ name }))],
    sensors: [
      { id: 'garage_cam', name: 'garage camera', kind: 'camera', room: 'garage', muted: false },
      { id: 'kitchen_motion', name: 'kitchen motion', kind: 'motion', room: 'kitchen', muted: false },
      ...rooms.map((name) => ({ id: id(name), name: `${name} camera`, kind: 'camera' as const, room: name, muted: false })),
    ],
    boundaries: [],
    watches: [],
  } as HouseholdContext;
}

const phrased = home(['under the house', 'top of the stairs', 'out the back', 'back of the shed']);

test('a room named with a function word leaves every other place of the home readable', async () => {
  for (const [message, id] of [
    ['watch the garage tonight', 'garage_cam'],
    ['keep an eye on the kitchen till 6am', 'kitchen_motion'],
    ['mute the garage camera', 'garage_cam'],
  ]) {
    const [turn] = await converse(phrased, [message]);
    assert.deepEqual(subjects(turn).flat(), [id], `${message}: ${turn.reply}`);
  }
});

test('a room named with a function word is read by its whole phrase', async () => {
  for (const [message, id] of [
    ['watch under the house tonight', 't_under_the_house'],
    ['can you watch the top of the stairs until 7am', 't_top_of_the_stairs'],
    ['keep an eye out the back tonight', 't_out_the_back'],
    ['watch the back of the shed for 2 hours', 't_back_of_the_shed'],
    ['mute the camera at the top of the stairs', 't_top_of_the_stairs'],
  ]) {
    const [turn] = await converse(phrased, [message]);
    assert.deepEqual(subjects(turn).flat(), [id], `${message}: ${turn.reply}`);
    assert.doesNotMatch(turn.reply, /\bthe (under|out) the\b/i, turn.reply);
  }
});

test('"the house" stays the whole home beside a room "under the house"', async () => {
  const [watch] = await converse(phrased, ['watch the house tonight']);
  assert.equal(watch.changes[0]?.args?.subject, 'whole home', watch.reply);
  const [arm] = await converse(phrased, ['arm the house']);
  assert.deepEqual(tools(arm), ['arm_house'], arm.reply);
});

test('a bare word shared by several phrase names is asked, and a place the home lacks is named without "the"', async () => {
  const [back] = await converse(phrased, ['watch the back tonight']);
  assert.deepEqual(back.changes, [], back.reply);
  const [attic] = await converse(phrased, ['watch the loft tonight']);
  assert.deepEqual(attic.changes, [], attic.reply);
  assert.doesNotMatch(attic.reply, /\bno the\b/i, attic.reply);
});

const numbered = home(['5th bedroom', 'two-car garage', 'first-floor landing', 'three-season porch']);

test('a number inside a room name is part of the name, not a date or a count', async () => {
  for (const [message, id] of [
    ['watch the 5th bedroom tonight', 't_5th_bedroom'],
    ['watch the two-car garage for two hours', 't_two_car_garage'],
    ['watch the first floor landing till 6am', 't_first_floor_landing'],
    ['watch the three-season porch tonight', 't_three_season_porch'],
  ]) {
    const [turn] = await converse(numbered, [message]);
    assert.deepEqual(subjects(turn).flat(), [id], `${message}: ${turn.reply}`);
  }
});

test('a number that is not part of a name said in full is still a time', async () => {
  const [hours] = await converse(numbered, ['watch the garage for 3 hours']);
  assert.deepEqual(subjects(hours).flat(), ['garage_cam'], hours.reply);
  const [date] = await converse(numbered, ['watch the 5th bedroom on the 5th from 9pm to 11pm']);
  assert.equal(tools(date).length, 1, date.reply);
  assert.match(String(date.changes[0].args?.starts_at), /-05T/, date.reply);
  // "the 5th" alone names no room: a date with no hours is still asked
  const [bare] = await converse(numbered, ['watch the garage on the 5th']);
  assert.deepEqual(bare.changes, [], bare.reply);
});

test('a slip of a command verb no dictionary has is read as the verb, and says so', async () => {
  for (const [messages, want] of [
    [['arm the house', 'dissarm'], 'arm_house'],
    [['arm the house', 'ok disamr now please'], 'arm_house'],
    [['unmtue the nursery camera'], undefined],
    [['watcj the garage tonight'], 'create_watch'],
    [['moniter the driveway till 6am'], 'create_watch'],
  ] as const) {
    const turns = await converse('lisbon_night', [...messages]);
    const last = turns.at(-1)!;
    if (want) assert.deepEqual(tools(last), [want], `${messages.join(' / ')}: ${last.reply}`);
    assert.doesNotMatch(last.reply, /only understand English/, last.reply);
    if (want === 'arm_house') assert.match(last.reply, /I read "\w+" as "disarm"/, last.reply);
  }
});

test('a real English word or a slip two verbs share is never rewritten into a command verb', async () => {
  for (const message of ['dismay', 'arm the house, dismal weather', 'watts in the garage']) {
    const [turn] = await converse('lisbon_night', [message]);
    assert.ok(!tools(turn).includes('arm_house') || message.startsWith('arm'), `${message}: ${turn.reply}`);
    assert.doesNotMatch(turn.reply, /as "(disarm|watch)"/, `${message}: ${turn.reply}`);
  }
});

test('a question about the alarm in so many words is answered from the armed watch', async () => {
  for (const question of [
    'is the alarm on?',
    'is the alarm still set',
    'have you armed the house?',
    'did you set the alarm?',
    'so is the house alarm active',
  ]) {
    const [, armed] = await converse('lisbon_night', ['arm the house', question]);
    assert.deepEqual(armed.changes, [], armed.reply);
    assert.match(armed.reply, /^Yes, the house is armed/, `${question}: ${armed.reply}`);
    const [unarmed] = await converse('lisbon_night', [question]);
    assert.deepEqual(unarmed.changes, [], unarmed.reply);
    assert.match(unarmed.reply, /^No, the house isn't armed/, `${question}: ${unarmed.reply}`);
  }
  const [, off] = await converse('lisbon_night', ['arm the house', 'is the alarm off?']);
  assert.match(off.reply, /^No, the house is armed/, off.reply);
});

test('an alarm question about something else is not read as the armed state', async () => {
  for (const question of ['is the smoke alarm on?', 'is my alarm set for 7?', 'is the alarm going off?']) {
    const [turn] = await converse('lisbon_night', [question]);
    assert.deepEqual(turn.changes, [], turn.reply);
    assert.doesNotMatch(turn.reply, /house (is|isn't) armed/, `${question}: ${turn.reply}`);
  }
});

test('a reason after a comma with something else as its subject does not block a request fully understood', async () => {
  for (const [message, id] of [
    ['mute the garage motion for now, the possums keep tripping it', 'sen_garage_motion'],
    ['mute the backyard camera, the wind keeps setting it off', 'sen_backyard_cam'],
    ['mute the garage motion, the cat sets it off every night', 'sen_garage_motion'],
  ]) {
    const [turn] = await converse('lisbon_night', [message]);
    assert.deepEqual(subjects(turn).flat(), [id], `${message}: ${turn.reply}`);
  }
});

test('a clause after a comma that names a place or a sensor, or words no lexicon has, is not taken as a reason', async () => {
  const [also] = await converse('lisbon_night', ['mute the nursery camera, the driveway one too']);
  assert.deepEqual(subjects(also).flat().sort(), ['sen_driveway_cam', 'sen_nursery_cam'], also.reply);
  const [unknown] = await converse('lisbon_night', ['mute the garage motion, the blorps keep tripping it']);
  assert.deepEqual(unknown.changes, [], unknown.reply);
  // the request itself not understood: the reason does not make it so
  const [vague] = await converse('lisbon_night', ['mute the zorbly thing, the possums keep tripping it']);
  assert.deepEqual(vague.changes, [], vague.reply);
});

const stoodDown = (turn: { changes: { tool: string; args?: Record<string, unknown> }[] }) =>
  turn.changes
    .filter((c) => c.tool === 'stand_down_watch')
    .map((c) => c.args?.watch_id)
    .sort();

test('"bin", "ditch" and "kill" a watch said by name stand it down', async () => {
  for (const [message, id] of [
    ['bin the garage watch', 'wat_garage_evening'],
    ['ditch the driveway one', 'wat_driveway_tonight'],
    ['kill the porch one', 'wat_porch_tonight'],
  ]) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(stoodDown(turn), [id], `${message}: ${turn.reply}`);
    assert.ok(!tools(turn).includes('create_watch'), turn.reply);
  }
});

test('places kept before "the rest" or "all the others" are left out of the stand-down', async () => {
  for (const message of ['leave the garage one, bin the rest', 'keep the garage one, stop all the others', 'just keep the garage one, ditch the others']) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(stoodDown(turn), ['wat_driveway_tonight', 'wat_porch_tonight'], `${message}: ${turn.reply}`);
  }
  // "the rest" with nothing kept says nothing of what it is the rest of: asked
  const [rest] = await converse('lisbon_watching', ['bin the rest']);
  assert.deepEqual(rest.changes, [], rest.reply);
});
