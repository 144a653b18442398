/**
 * Before round T, follow-ups (docs/decisions.md, "Before round T: follow-ups"): "both" as the answer to a "which X do
 * you mean" question, "the other one" as a correction of the last mute or watch, "what did you just do?", a
 * correction that names only a place of the watch just made, a follow-up that says its time only against the one
 * before ("a bit longer"), an am/pm answer said with words around it, "as well" never read as a compound's tail, and
 * "not the yard" right after the yard's watch was made. Each class with phrasings that must act, and phrasings where
 * the change must not fire. Homes and phrasings are our own, not the blind sets'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { heldoutHouseholds, sensor, toolTargets as tools } from './home-of-our-own.ts';

const { contexts, converse } = heldoutHouseholds('round-q-household-contexts.json');
// (08:20 on a Tuesday in Bilbao)
const base = contexts.q_bilbao_flat;

/** A home of our own: a gatehouse with two cameras, an orchard, a forge, a stairwell, a sauna. */
const home: HouseholdContext = {
  ...base,
  rooms: [{ name: 'gatehouse' }, { name: 'orchard' }, { name: 'forge' }, { name: 'stairwell' }, { name: 'sauna' }],
  sensors: [
    sensor('s_gate_north', 'gatehouse north camera', 'camera', 'gatehouse'),
    sensor('s_gate_south', 'gatehouse south camera', 'camera', 'gatehouse'),
    sensor('s_orchard_cam', 'orchard camera', 'camera', 'orchard'),
    sensor('s_forge_cam', 'forge camera', 'camera', 'forge'),
    sensor('s_forge_door', 'forge door', 'contact', 'forge'),
    sensor('s_stair_cam', 'stairwell camera', 'camera', 'stairwell'),
    sensor('s_sauna_motion', 'sauna motion sensor', 'motion', 'sauna'),
  ],
  boundaries: [],
  watches: [],
};

test('"both", "all of them" after "which X do you mean: A, B?" complete the request asked about with every option', async () => {
  for (const answer of ['both', 'both of them', 'both please', 'all of them', 'oh both']) {
    const [asked, turn] = await converse(home, ['mute the gatehouse camera', answer]);
    assert.deepEqual(asked.changes, [], asked.reply);
    assert.match(asked.reply, /Which gatehouse camera/, asked.reply);
    assert.deepEqual(tools(turn).sort(), ['mute_sensor s_gate_north', 'mute_sensor s_gate_south'], `${answer}: ${turn.reply}`);
  }
  const [, watched] = await converse(home, ['watch the gatehouse camera tonight', 'both']);
  assert.deepEqual(
    watched.changes.map((c) => c.args.sensor_ids),
    [['s_gate_north', 's_gate_south']],
    watched.reply,
  );
});

test('an answer with more than "both", or a count that does not fit the options, is no such answer', async () => {
  for (const answer of ['all three', 'both, and the orchard', 'both, no wait']) {
    const [, turn] = await converse(home, ['mute the gatehouse camera', answer]);
    assert.deepEqual(turn.changes, [], `${answer}: ${turn.reply}`);
  }
  // ("both" with nothing asked: no question to answer, nothing changes)
  const [alone] = await converse(home, ['both']);
  assert.deepEqual(alone.changes, [], alone.reply);
});

test('"not that one, the other one" after a mute or a watch of one of the options asked about moves it to the other', async () => {
  for (const correction of ['not that one, the other one', 'no, the other one', 'no I meant the other one', 'sorry, the other']) {
    const turns = await converse(home, ['mute the gatehouse camera', 'the north one', correction]);
    assert.deepEqual(tools(turns[2]), ['unmute_sensor s_gate_north', 'mute_sensor s_gate_south'], `${correction}: ${turns[2].reply}`);
  }
  const turns = await converse(home, ['watch the gatehouse camera tonight', 'the south one', 'no, the other one']);
  assert.deepEqual(
    turns[2].changes.map((c) => [c.tool, c.args.sensor_ids]),
    [['update_watch', ['s_gate_north']]],
    turns[2].reply,
  );
  // ("and the other one too": the other option as well, the first kept)
  const [, , too] = await converse(home, ['mute the gatehouse camera', 'the north one', 'and the other one too']);
  assert.deepEqual(tools(too), ['mute_sensor s_gate_south'], too.reply);
});

test('"the other one" with no other place weighed is asked, never guessed', async () => {
  const [, turn] = await converse(home, ['mute the gatehouse north camera', 'no, the other one']);
  assert.deepEqual(turn.changes, [], turn.reply);
  const [, , third] = await converse(home, ['mute the orchard camera', 'mute the forge camera', 'not that one, the other one']);
  assert.deepEqual(third.changes, [], third.reply);
});

test('"what did you just do?" says what the last turn changed, and changes nothing', async () => {
  for (const question of ['what did you just do?', 'hang on, what have you done?', 'so what did you change there', 'what exactly did you do']) {
    const [, turn] = await converse(home, ['mute the orchard camera', question]);
    assert.deepEqual(turn.changes, [], turn.reply);
    assert.match(turn.reply, /muted the orchard camera/, `${question}: ${turn.reply}`);
  }
  const [, none] = await converse(home, ['watch the forge from 9 to 5', 'what did you do?']);
  assert.deepEqual(none.changes, [], none.reply);
  assert.match(none.reply, /didn't change anything/, none.reply);
  const [first] = await converse(home, ['what did you just do?']);
  assert.match(first.reply, /haven't done anything/, first.reply);
  // (what a camera saw is a question about the home, not about the agent)
  const [, seen] = await converse(home, ['mute the orchard camera', 'what did you see in the forge']);
  assert.doesNotMatch(seen.reply, /muted the orchard/, seen.reply);
});

test('a correction naming only a place the watch just made covers with others is asked, never moved to it', async () => {
  for (const correction of ['actually skip the forge', 'actually remove the forge', 'actually no forge', 'actually nix the forge']) {
    const [, turn] = await converse(home, ['watch the orchard and the forge tonight', correction]);
    assert.deepEqual(turn.changes, [], `${correction}: ${turn.reply}`);
    assert.match(turn.reply, /already part of the watch/, turn.reply);
  }
  // (said so it reads: taken off, narrowed to, or moved to a new place)
  const [, drop] = await converse(home, ['watch the orchard and the forge tonight', 'actually drop the forge']);
  assert.deepEqual(
    drop.changes.map((c) => c.args.sensor_ids),
    [['s_orchard_cam']],
    drop.reply,
  );
  const [, only] = await converse(home, ['watch the orchard and the forge tonight', 'actually just the forge']);
  assert.deepEqual(
    only.changes.map((c) => c.args.sensor_ids),
    [['s_forge_cam', 's_forge_door']],
    only.reply,
  );
  const [, moved] = await converse(home, ['watch the orchard and the forge tonight', 'no sorry, I meant the sauna']);
  assert.deepEqual(
    moved.changes.map((c) => c.args.sensor_ids),
    [['s_sauna_motion']],
    moved.reply,
  );
});

test('"and the forge a bit longer": a time said only against the one before is asked, not copied', async () => {
  for (const follow of ['and the forge a bit longer', 'and the forge for longer', 'the forge too, but later']) {
    const [, turn] = await converse(home, ['watch the orchard until midnight', follow]);
    assert.deepEqual(turn.changes, [], `${follow}: ${turn.reply}`);
  }
  // (with no comparison the time is the one before, as always)
  const [, same] = await converse(home, ['watch the orchard until midnight', 'and the forge too']);
  assert.deepEqual(tools(same), ['create_watch forge'], same.reply);
});

test('an am/pm answer with words around it completes the request; one not read asks the question again', async () => {
  for (const answer of ['in the morning I mean', 'morning, sorry', 'nope, morning', 'early morning', 'the morning one I think']) {
    const [asked, turn] = await converse(home, ['watch the sauna tomorrow from 2 to 5', answer]);
    assert.deepEqual(asked.changes, [], asked.reply);
    assert.deepEqual(
      turn.changes.map((c) => c.args.window),
      ['Wed 12 May 02:00 to 05:00'],
      `${answer}: ${turn.reply}`,
    );
  }
  for (const answer of ['the wee small morning hours', 'tomorrow night I guess']) {
    const [asked, turn] = await converse(home, ['watch the sauna tomorrow from 2 to 5', answer]);
    assert.deepEqual(turn.changes, [], `${answer}: ${turn.reply}`);
    assert.equal(turn.reply, asked.reply, answer);
  }
  // ("morning" after an overnight question may name the end's half: asked again, never a window)
  const [, morning] = await converse(home, ['watch the sauna from 9 to 5', 'morning']);
  assert.deepEqual(morning.changes, [], morning.reply);
  assert.match(morning.reply, /^From 9 in the morning/, morning.reply);
  // (a new request in place of the answer is a new request)
  const [, other] = await converse(home, ['watch the sauna from 9 to 5', 'watch the orchard tonight']);
  assert.deepEqual(tools(other), ['create_watch orchard'], other.reply);
});

test('"as well" is "too", never the tail of a compound name ("stairwell")', async () => {
  const [, again] = await converse(home, ['watch the forge saturday night', 'and sunday night as well']);
  assert.deepEqual(
    again.changes.map((c) => c.args.sensor_ids),
    [['s_forge_cam', 's_forge_door']],
    again.reply,
  );
  const [both] = await converse(home, ['watch the sauna tonight and the orchard as well']);
  assert.deepEqual(
    both.changes.map((c) => c.args.sensor_ids),
    [['s_sauna_motion', 's_orchard_cam']],
    both.reply,
  );
  const [stair] = await converse(home, ['watch the stairwell tonight']);
  assert.deepEqual(tools(stair), ['create_watch stairwell'], stair.reply);
});

test('"actually not the orchard" right after the orchard watch was made stands it down; a watch made earlier is asked about', async () => {
  const turns = await converse(home, ['watch the forge tonight', 'and the orchard', 'actually not the orchard, the deer are back']);
  assert.deepEqual(tools(turns[2]), ['stand_down_watch wat_2'], turns[2].reply);
  const [, , later] = await converse(home, ['watch the orchard tonight', 'mute the sauna motion sensor', 'not the orchard']);
  assert.deepEqual(later.changes, [], later.reply);
  // (leaving out part of the watch just made still narrows it)
  const [, part] = await converse(home, ['watch the orchard and the forge tonight', 'but not the forge']);
  assert.deepEqual(
    part.changes.map((c) => c.args.sensor_ids),
    [['s_orchard_cam']],
    part.reply,
  );
});
