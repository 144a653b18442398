import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ask, makeDetection, ny, questionContext, refused, QUESTION_SCENE } from './scene-fixtures.ts';
import { answerQuery } from '../../src/org/scenes/query/query-answerer.ts';
import { interpretQuery } from '../../src/org/scenes/query/query-interpreter.ts';
import type { DetectionRecord } from '../../src/org/detections/index.ts';

// Before round Q (docs/decisions.md, "Before round Q: scene questions"): scene questions people
// plainly ask, each class with phrasings of its own and phrasings where the change must not fire.

/** The answer with the history loaded for every span the interpretation asks for, as scene.service.ts does. */
function answerWith(query: string, history: DetectionRecord[], location: string): { answer: string; ask?: string } {
  const result = interpretQuery(query, questionContext({ location }));
  assert.ok(result.ok, `${query}: ${result.ok ? '' : result.reason}`);
  const interp = result.interpretation;
  const within = (s: { from: number; to: number }) => history.filter((d) => d.at >= s.from - 6 * 3_600_000 && d.at <= s.to);
  const a = answerQuery(interp, within(interp), QUESTION_SCENE, (interp.baseline ?? []).map(within));
  return { answer: a.answer, ...(a.ask ? { ask: a.ask } : {}) };
}

const people = (pairs: Array<[string, number]>, location = 'lobby') => pairs.map(([t, n]) => makeDetection('person_count', ny(t), { location, value: n }));
const vehicles = (pairs: Array<[string, number]>, location: string) => pairs.map(([t, n]) => makeDetection('vehicle', ny(t), { location, count: n }));

test('a count going past a number, said with "go past", "went past", "get past" and what is counted', () => {
  for (const q of ['did the lobby ever go past 30 people today', 'has it gone past 30 visitors today', 'did it get past 30 people at any point this morning']) {
    const i = ask(q);
    assert.equal(i.aggregate, 'threshold', q);
    assert.deepEqual([i.threshold?.op, i.threshold?.value], ['>', 30], q);
  }
  assert.equal(ask('did the car park go past 40 cars today', { location: 'car_park' }).metric, 'vehicles');
  // "half past 9", "the past 5 minutes", a clock after "past", nothing counted named: not a count crossing a number
  assert.notEqual(ask('how many people were in the lobby at half past 9').aggregate, 'threshold');
  assert.notEqual(ask('how many people came in over the past 5 minutes').aggregate, 'threshold');
  for (const q of ['did anyone come in after it went past 9am', 'has it gone past 30 today']) {
    const r = interpretQuery(q, questionContext());
    assert.ok(!r.ok || r.interpretation.aggregate !== 'threshold', q);
  }
});

test('a peak said as "at its worst" or "the worst it got"', () => {
  for (const q of [
    'when was the morning rush at its worst',
    'when was the crowd at its worst this morning',
    'what was the worst it got this morning',
    'when was the lobby at its worst today',
  ]) {
    const i = ask(q);
    assert.equal(i.aggregate, 'peak', q);
    assert.equal(i.metric, 'people', q);
  }
  // "worst" said of anything else is not read as a peak
  refused('what is the worst thing that happened today');
});

test('"fullest" and "emptiest" where cars park are of the cars', () => {
  const at = { location: 'car_park' };
  for (const q of [
    'when was the car park fullest since yesterday evening',
    'when was the car park at its fullest today',
    'when was it fullest of cars today',
  ]) {
    const i = ask(q, at);
    assert.deepEqual([i.metric, i.aggregate], ['vehicles', 'peak'], q);
  }
  assert.deepEqual(
    [ask('when was the car park emptiest today', at).metric, ask('when was the car park emptiest today', at).aggregate],
    ['vehicles', 'minimum'],
  );
  const history = vehicles(
    [
      ['07:00', 12],
      ['08:30', 41],
      ['09:50', 30],
    ],
    'car_park',
  );
  assert.match(answerWith('when was the car park fullest this morning', history, 'car_park').answer, /41 vehicles.*08:30/);
  // people named, or a lobby: the crowd as before; "is the car park full?" still asks people or vehicles
  assert.equal(ask('when was the car park fullest with people today', at).metric, 'crowd_density');
  assert.equal(ask('when was the lobby fullest today').metric, 'crowd_density');
  assert.match(refused('is the car park full', at), /People or vehicles/);
});

test('a part of the scene named ("the boarding lane", "the ticket desk") is answered for the whole scene and says so', () => {
  const at = { location: 'ferry_terminal' };
  const lane = ask('how many cars are in the boarding lane now', at);
  assert.deepEqual([lane.metric, lane.sub_area], ['vehicles', 'boarding lane']);
  assert.equal(ask('how many people are at the ticket desk', at).sub_area, 'ticket desk');
  assert.equal(ask('what was the most people in the security queue this morning', at).sub_area, 'security queue');
  const a = answerWith('how many people are at the ticket desk now', people([['10:10', 12]], 'ferry_terminal'), 'ferry_terminal').answer;
  assert.match(a, /12 people/);
  assert.match(a, /whole ferry terminal: the camera does not count the ticket desk apart/);
  // a yes/no about the part alone cannot be told from the whole: asked back
  assert.match(refused('any cars in the boarding lane?', at), /does not count the boarding lane apart/);
  // another kind of place, or a place with no part word, stays another scene
  assert.match(refused('how many people are in the kitchen area', at), /cannot answer about "kitchen"/);
  assert.match(refused('how many people are in the library now', at), /cannot answer about "library"/);
  // the scene's own words, or a part it already reads, need no note
  assert.equal(ask('how many people are in the terminal area', at).sub_area, undefined);
  assert.equal(ask('how many people are in the waiting area', at).sub_area, undefined);
});

test('a stray dog is a dog: answered for every dog, the answer says strays are not told apart; a fox is still refused', () => {
  const at = { location: 'depot_yard' };
  const dogs = [makeDetection('animal', ny('06:10'), { location: 'depot_yard', subtype: 'dog', track_id: 'd1' })];
  for (const q of ['when did the first stray dog show up today', 'when was a feral cat last seen', 'how many street dogs came through today']) {
    assert.ok(ask(q, at).animal_modifier, q);
  }
  const first = answerWith('when did the first stray dog show up today', dogs, 'depot_yard');
  assert.match(first.answer, /06:10/);
  assert.match(first.answer, /cannot tell a stray dog from any other dog/);
  // "any stray dogs?" with dogs seen: only a "no" carries over to the strays, so a "yes" is asked back
  assert.match(answerWith('any stray dogs in the yard today?', dogs, 'depot_yard').ask ?? '', /cannot say whether it was a stray one/);
  assert.match(answerWith('any stray cats in the yard today?', dogs, 'depot_yard').answer, /^No\b/);
  for (const q of ['any foxes?', 'was there a stray fox today', 'any strays today', 'how many stray people were here']) refused(q, at);
});

test('which of two times, asked with "or": compared, never a yes or a no', () => {
  const history = people([
    ['09:00', 4],
    ['10:00', 18],
  ]);
  for (const q of ['were there more people at 9am or 10am', 'more people at 9 or at 10 this morning', 'was it busier at 9am or at 10am']) {
    const i = ask(q);
    assert.equal(i.aggregate, 'compare', q);
    assert.equal(i.direction, undefined, q);
    assert.doesNotMatch(answerWith(q, history, 'lobby').answer, /^(Yes|No)\b/, q);
  }
  // two times with no comparative word, or "or more": not this
  assert.match(refused('how many people at 9am or 10am'), /more than one time/);
  assert.equal(ask('were there 5 or more people at 9am').aggregate, 'threshold');
});
