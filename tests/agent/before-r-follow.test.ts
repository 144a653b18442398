/**
 * Before round R, follow-ups (docs/decisions.md, "Before round R: follow-ups"): "same time" after a request that was
 * asked about or declined takes the time that request said; where the household is off to ("we're off to the footy")
 * is a reason, not an unknown word of the answer; and "only for people, not the cat" said after a watch was made
 * limits that watch to people. Each class with phrasings that must act, and phrasings where the change must not
 * fire. Homes and phrasings are our own, not the blind sets'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { heldoutHouseholds, sensor, type Turn } from './home-of-our-own.ts';

const { contexts, converse } = heldoutHouseholds('round-q-household-contexts.json');
const base = contexts.q_omaha_home;

/** A home of our own: a study left alone, a patio, a shed with a camera and a door, a carport. */
const home: HouseholdContext = {
  ...base,
  rooms: [{ name: 'study' }, { name: 'patio' }, { name: 'shed' }, { name: 'carport' }],
  sensors: [
    sensor('f_study_cam', 'study camera', 'camera', 'study'),
    sensor('f_patio_cam', 'patio camera', 'camera', 'patio'),
    sensor('f_shed_cam', 'shed camera', 'camera', 'shed'),
    sensor('f_shed_door', 'shed door', 'contact', 'shed'),
    sensor('f_carport_cam', 'carport camera', 'camera', 'carport'),
  ],
  boundaries: [{ room: 'study' }],
  watches: [],
};
const ids = (turn: Turn) => turn.changes.flatMap((c) => (Array.isArray(c.args.sensor_ids) ? (c.args.sensor_ids as string[]) : [])).sort();
const window = (turn: Turn) => turn.changes.map((c) => [c.args.starts_at, c.args.ends_at]);

test('"same time" after a request that was declined or asked about takes the time that request said', async () => {
  const [direct] = await converse(home, ['watch the patio tonight']);
  for (const follow of ['ok fair, just the patio then, same time', 'fine, the patio instead, same times', 'the patio then, same hours']) {
    const [declined, turn] = await converse(home, ['watch the study tonight', follow]);
    assert.deepEqual(declined.changes, [], declined.reply);
    assert.deepEqual(ids(turn), ['f_patio_cam'], `${follow}: ${turn.reply}`);
    assert.deepEqual(window(turn), window(direct), `${follow}: ${turn.reply}`);
  }
  const [, carport] = await converse(home, ['watch the study from 8pm to 11pm', 'and the carport, same time']);
  assert.deepEqual(ids(carport), ['f_carport_cam'], carport.reply);
  // (times said but not settled are asked again, of the new place; never "nothing to repeat")
  const [asked, again] = await converse(home, ['watch the shed from 10 to 2', 'and the carport too, same times']);
  assert.deepEqual([asked.changes, again.changes], [[], []], again.reply);
  assert.doesNotMatch(again.reply, /nothing to repeat/, again.reply);
  assert.match(again.reply, /carport/, again.reply);
});

test('"same time" after a request that said no time of its own still has nothing to repeat', async () => {
  for (const first of ['watch the shed', 'can you keep an eye on the shed']) {
    const [asked, turn] = await converse(home, [first, 'and the carport too, same time']);
    assert.deepEqual([asked.changes, turn.changes], [[], []], turn.reply);
  }
});

test('where the household is off to is a reason for leaving, not an unknown word of the answer', async () => {
  for (const answer of ["we're off to the footy, from 1pm until 6pm", 'heading to the bowls, 1pm to 6pm', "we're off to the footy from 1pm until 6pm"]) {
    const [asked, turn] = await converse(home, ['could you watch the shed for us', answer]);
    assert.deepEqual(asked.changes, [], asked.reply);
    assert.deepEqual(ids(turn), ['f_shed_cam', 'f_shed_door'], `${answer}: ${turn.reply}`);
  }
  const [alone] = await converse(home, ["watch the shed, we're off to the footy till 6pm"]);
  assert.deepEqual(ids(alone), ['f_shed_cam', 'f_shed_door'], alone.reply);
  // (an unknown word anywhere else is still asked about)
  for (const message of ['watch the shed until zorp', 'watch the shed from 1pm to 6pm for the footy', 'watch the shed from 1pm, zorp the carport']) {
    const [turn] = await converse(home, [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
  }
});

test('"only for people, not the cat" after a watch was made limits that watch to people', async () => {
  for (const follow of [
    'only for people, not the cat',
    'people only, not the dogs',
    'just people not the cat or the dog',
    'only care about people, not the birds',
  ]) {
    const [made, turn] = await converse(home, ['watch the patio tonight', follow]);
    assert.deepEqual(ids(made), ['f_patio_cam'], made.reply);
    assert.deepEqual(
      turn.changes.map((c) => [c.tool, c.args.conditions]),
      [['update_watch', ['person']]],
      `${follow}: ${turn.reply}`,
    );
  }
  // (the animal alone, or animals besides people, are no people filter)
  for (const follow of ['not the cat', 'people and the dog, not the cat', 'only the cat, not people']) {
    const [, turn] = await converse(home, ['watch the patio tonight', follow]);
    assert.ok(!turn.changes.some((c) => JSON.stringify(c.args.conditions) === '["person"]'), `${follow}: ${turn.reply}`);
  }
});
