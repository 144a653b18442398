/**
 * Before round S, follow-ups (docs/decisions.md, "Before round S: follow-ups"): a plural reference to the watches
 * just made ("stop both"), an answer that only picks a half of the day after an am/pm question ("the night one"), a
 * clock said alone after the start-only question ("6"), a place said alone as the correction of a mute or a boundary
 * ("no, the shed"), and a bare hour that replaces a said time keeping its half of the day ("the shed too but from
 * 10"). Each class with phrasings that must act, and phrasings where the change must not fire. Homes and phrasings
 * are our own, not the blind sets'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { heldoutHouseholds, sensor, toolTargets as tools, type Turn } from './home-of-our-own.ts';

const { contexts, converse } = heldoutHouseholds('round-q-household-contexts.json');
// (08:20 on a Tuesday in Bilbao)
const base = contexts.q_bilbao_flat;

/** A home of our own: a loft, a cellar with a camera and a door, a pergola, a boathouse, a studio. */
const home: HouseholdContext = {
  ...base,
  rooms: [{ name: 'loft' }, { name: 'cellar' }, { name: 'pergola' }, { name: 'boathouse' }, { name: 'studio' }],
  sensors: [
    sensor('s_loft_cam', 'loft camera', 'camera', 'loft'),
    sensor('s_cellar_cam', 'cellar camera', 'camera', 'cellar'),
    sensor('s_cellar_door', 'cellar door', 'contact', 'cellar'),
    sensor('s_pergola_cam', 'pergola camera', 'camera', 'pergola'),
    sensor('s_boat_cam', 'boathouse camera', 'camera', 'boathouse'),
    sensor('s_studio_motion', 'studio motion sensor', 'motion', 'studio'),
  ],
  boundaries: [],
  watches: [],
};
const windows = (turn: Turn) => turn.changes.map((c) => c.args.window);

test('"stop both", "stop them" after two watches were made stand both down', async () => {
  for (const stop of ['stop both', 'stop them', 'cancel both of them', 'ok stop them both', 'call off both please']) {
    const turns = await converse(home, ['watch the loft from 9pm to 5am', 'and the pergola, same times', stop]);
    assert.deepEqual(tools(turns[2]).sort(), ['stand_down_watch wat_1', 'stand_down_watch wat_2'], `${stop}: ${turns[2].reply}`);
  }
  // (one watch of two rooms: "both" is its two rooms)
  const [, both] = await converse(home, ['watch the loft and the pergola from 9pm to 5am', 'stop both']);
  assert.deepEqual(tools(both), ['stand_down_watch wat_1'], both.reply);
});

test('a plural reference that fits no watches made is asked, or read as before', async () => {
  // ("both" after one watch of one room: asked, nothing changed)
  const [, asked] = await converse(home, ['watch the loft from 9pm to 5am', 'stop both']);
  assert.deepEqual(asked.changes, [], asked.reply);
  assert.match(asked.reply, /Which watches/, asked.reply);
  // ("them" after one watch: that watch, as before; "that one" is the last one only)
  const [, them] = await converse(home, ['watch the loft from 9pm to 5am', 'stop them']);
  assert.deepEqual(tools(them), ['stand_down_watch wat_1'], them.reply);
  const turns = await converse(home, ['watch the loft from 9pm to 5am', 'and the pergola, same times', 'stop that one']);
  assert.deepEqual(tools(turns[2]), ['stand_down_watch wat_2'], turns[2].reply);
  // (nothing watched: nothing to stand down)
  const [none] = await converse(home, ['stop both']);
  assert.deepEqual(none.changes, [], none.reply);
});

test('an answer that only picks a half of the day completes the request the am/pm question was about', async () => {
  for (const [answer, window] of [
    ['the night one', '21:00 to 05:00'],
    ['pm', '21:00 to 05:00'],
    ['in the evening please', '21:00 to 05:00'],
    ['the first one', '09:00 to 17:00'],
    ['daytime', '09:00 to 17:00'],
  ]) {
    const [asked, turn] = await converse(home, ['watch the cellar from 9 to 5', answer]);
    assert.deepEqual(asked.changes, [], asked.reply);
    assert.deepEqual(windows(turn), [window], `${answer}: ${turn.reply}`);
  }
  for (const [answer, window] of [
    ['pm please', '22:00 to 23:00'],
    ['am', '10:00 to 11:00'],
  ]) {
    // (both readings lie ahead at 08:20; "from 3 to 6" is plain since "Before round S: times": its small hours are over)
    const [asked, turn] = await converse(home, ['watch the boathouse from 10 to 11', answer]);
    assert.deepEqual(asked.changes, [], asked.reply);
    assert.deepEqual(windows(turn), [window], `${answer}: ${turn.reply}`);
  }
});

test('a half of the day that fits no am/pm question changes nothing', async () => {
  // ("morning" after "from 9 to 5": both readings hold a morning, so it is asked again)
  const [, morning] = await converse(home, ['watch the cellar from 9 to 5', 'morning']);
  assert.deepEqual(morning.changes, [], morning.reply);
  // ("the morning" after "from 7 to 9" said at 08:20: never read as a new window until sunrise)
  const [, late] = await converse(home, ['watch the cellar from 7 to 9', 'the morning']);
  assert.ok(!late.changes.some((c) => c.args.window === '19:00 to sunrise'), late.reply);
  // (after a question of another slot, or after a watch was made, "pm" alone is no answer)
  for (const first of ['watch the cellar', 'watch the cellar from 9pm to 5am', 'mute the loft camera']) {
    const [, turn] = await converse(home, [first, 'pm']);
    assert.deepEqual(turn.changes, [], `${first}: ${turn.reply}`);
  }
});

test('a clock said alone after the start-only question is the end', async () => {
  for (const [answer, window] of [
    ['6', '22:00 to 06:00'],
    ['5:30', '22:00 to 05:30'],
    ['6am please', '22:00 to 06:00'],
  ]) {
    const [asked, turn] = await converse(home, ['watch the studio from 10 pm', answer]);
    assert.deepEqual(asked.changes, [], asked.reply);
    assert.deepEqual(windows(turn), [window], `${answer}: ${turn.reply}`);
  }
  // (after a watch was made, or another question, a clock alone changes nothing)
  for (const first of ['watch the studio from 10pm to 6am', 'watch the cellar from 9 to 5', 'watch the studio']) {
    const [, turn] = await converse(home, [first, '6']);
    assert.deepEqual(turn.changes, [], `${first}: ${turn.reply}`);
  }
});

test('a place said alone after "no" or "sorry" corrects a mute or a boundary just made', async () => {
  const [, boundary] = await converse(home, ['leave the loft alone', 'no, the studio']);
  assert.deepEqual(tools(boundary), ['clear_boundary loft', 'set_boundary studio'], boundary.reply);
  const [, mute] = await converse(home, ['mute the loft camera', 'sorry, the pergola camera']);
  assert.deepEqual(tools(mute), ['unmute_sensor s_loft_cam', 'mute_sensor s_pergola_cam'], mute.reply);
  // ("too", a statement, or the same place: no correction of the first)
  const [, too] = await converse(home, ['leave the loft alone', 'no, the studio too']);
  assert.ok(!too.changes.some((c) => c.tool === 'clear_boundary'), too.reply);
  const [, fine] = await converse(home, ['leave the loft alone', 'no, the loft is fine']);
  assert.ok(!fine.changes.some((c) => c.tool === 'set_boundary'), fine.reply);
  const [, same] = await converse(home, ['mute the loft camera', 'no, the loft camera']);
  assert.deepEqual(same.changes, [], same.reply);
});

test("a bare hour that replaces a said time keeps that time's half of the day", async () => {
  const [, start] = await converse(home, ['watch the loft from 8pm to 6am', 'the cellar too but from 10']);
  assert.deepEqual(windows(start), ['22:00 to 06:00'], start.reply);
  const [, end] = await converse(home, ['watch the loft from 8pm to 6am', 'and the cellar, but till 4']);
  assert.deepEqual(windows(end), ['20:00 to 04:00'], end.reply);
  // (a daytime window keeps the daytime)
  const [, day] = await converse(home, ['watch the loft from 9am to 5pm', 'the cellar too, but from 10']);
  assert.deepEqual(windows(day), ['10:00 to 17:00'], day.reply);
  const [, dayEnd] = await converse(home, ['watch the loft from 9am to 5pm', 'the cellar too, but till 3']);
  assert.deepEqual(windows(dayEnd), ['09:00 to 15:00'], dayEnd.reply);
});

test('a watch the same message stands down is not changed first', async () => {
  for (const message of [
    'actually the grandkids are staying in there. stop that and leave the loft alone from now on',
    'oh the kids are having a sleepover in there, cancel it',
  ]) {
    const [, turn] = await converse(home, ['watch the loft tonight', message]);
    assert.ok(!turn.changes.some((c) => c.tool === 'update_watch'), `${message}: ${turn.reply}`);
  }
  // (a change alone is still made)
  const [, change] = await converse(home, ['watch the loft tonight', 'make it till 7am']);
  assert.deepEqual(tools(change), ['update_watch wat_1'], change.reply);
});

test('"put it back on" right after a mute unmutes, with a reason said after it', async () => {
  for (const back of ['actually put it back on', "put it back on, she's not coming till friday", 'put it back on, the plumber has gone']) {
    const [, turn] = await converse(home, ['mute the studio motion sensor', back]);
    assert.deepEqual(tools(turn), ['unmute_sensor s_studio_motion'], `${back}: ${turn.reply}`);
  }
  // (after a boundary or a stand-down it is no unmute)
  for (const first of [['leave the studio alone'], ['watch the loft tonight', 'stop it']]) {
    const turns = await converse(home, [...first, 'put it back on']);
    assert.ok(!turns.at(-1)!.changes.some((c) => c.tool === 'unmute_sensor'), turns.at(-1)!.reply);
  }
});

test('"until what time?" right after a watch was made says when it ends', async () => {
  for (const question of ['thanks. until what time?', 'till when?', 'ok until when does it run?']) {
    const [, turn] = await converse(home, ['watch the pergola from 8pm to 6am', question]);
    assert.deepEqual(turn.changes, [], turn.reply);
    assert.match(turn.reply, /06:00/, `${question}: ${turn.reply}`);
  }
  // (after a mute, or said first, it is left to the general reader: no change, no watch's end)
  for (const first of [['mute the loft camera'], []]) {
    const turns = await converse(home, [...first, 'until what time?']);
    assert.deepEqual(turns.at(-1)!.changes, [], turns.at(-1)!.reply);
  }
});
