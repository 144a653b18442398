import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ask, refused } from './scene-fixtures.ts';
import { isPatronWord } from '../../src/platform/language/index.ts';

// Round O (docs/decisions.md, "Round O: scene questions"): the people a place serves, named by its
// trade, are the people the cameras count; phrasings of our own, with ones where it must not fire.

test('the people a place serves, from WordNet, are people', () => {
  for (const w of ['patients', 'patient', 'passengers', 'shoppers', 'diners', 'outpatients']) assert.ok(isPatronWord(w), w);
  // staff a place employs, other people, and things are not
  // students may be only some of a library's readers: a kind of people that is asked
  for (const w of ['nurses', 'doctors', 'clerk', 'gate', 'door', 'truck', 'migrants', 'students', 'pupils', 'tourists'])
    assert.equal(isPatronWord(w), false, w);
});

test('"how many patients / passengers / pupils" counts the people at the scene', () => {
  const cases: Array<[string, string]> = [
    ['how many patients are waiting now?', 'waiting_area'],
    ['any patients in the waiting area right now', 'waiting_area'],
    ['when did the first patient arrive today?', 'waiting_area'],
    ['how many passengers on the platform now', 'platform'],
    ['how many diners came in this morning', 'dining_room'],
    ['were there shoppers here today', 'shop_floor'],
  ];
  for (const [q, location] of cases) assert.equal(ask(q, { location }).metric, 'people', q);
});

test('"patient" said as an adjective, and roles a place employs, are not read as the people served', () => {
  for (const q of [
    'how long was the patient guy waiting today',
    'were people patient today',
    'were they patient this morning',
    'how many nurses are waiting now?',
    'how many doctors came in today',
  ]) {
    assert.ok(refused(q, { location: 'waiting_area' }).length > 0, q);
  }
});

test('"the guy by the gate": a spot inside the scene is answered for the scene, and the answer says so', () => {
  const yard = { location: 'depot_yard' };
  for (const q of [
    'how long has the guy by the gate been hanging about, in minutes',
    'how long has that man near the door been here',
    'how long has the woman at the door been loitering',
  ]) {
    const interp = ask(q, yard);
    assert.equal(interp.metric, 'people', q);
    assert.ok(interp.landmark, q);
  }
  // many people at a place, or a place named on its own, may be another scene: still asked
  for (const q of ['how many people by the gate now', 'anyone at the gate now', 'how many people in the office now']) {
    assert.match(refused(q, yard), /Query that location's scene instead/, q);
  }
});
