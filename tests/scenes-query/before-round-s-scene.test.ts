import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerWithHistory, ask, makeDetection, ny, refused } from './scene-fixtures.ts';
import type { DetectionRecord } from '../../src/org/detections/index.ts';

// Before round S (docs/decisions.md, "Before round S: scene questions"): a peak's time and its count
// asked together, a word that only stresses "empty" or "full", "ever empty" over a span, a spot named
// by any noun, the drop-off as a place, ways of coming in, "start arriving", and "are here today";
// each with phrasings where the change must not fire.

const answerWith = (query: string, history: DetectionRecord[], location = 'lobby'): string => answerWithHistory(query, history, location);

const people = (pairs: Array<[string, number]>) => pairs.map(([t, n]) => makeDetection('person_count', ny(t), { location: 'lobby', value: n }));
const morning = people([
  ['07:00', 0],
  ['08:00', 4],
  ['08:30', 9],
  ['09:00', 6],
  ['10:00', 3],
  ['10:14', 2],
]);

test('a peak (or lowest) with "and how busy", "and what was the count" is one question; a real second question still asks', () => {
  for (const q of [
    'when was it busiest today and how busy',
    'when was it busiest this morning and how busy was it',
    'when was the peak today and what was the count',
    'when was it most crowded today and how crowded',
  ]) {
    assert.equal(ask(q).aggregate, 'peak', q);
  }
  assert.match(answerWith('when was it busiest today and how busy', morning), /9 people .*08:30/);
  for (const q of [
    'when was it busiest today and how busy is it now',
    'when did the first person arrive and how busy was it',
    'when was it busiest and how many left after',
    'how many came in today and how busy was it',
  ]) {
    assert.match(refused(q), /more than one question/, q);
  }
});

test('"completely", "totally", "entirely" empty or full is empty or full; "almost", "mostly", "virtually", "fully occupied" still ask', () => {
  for (const q of ['was the lobby ever completely empty this morning', 'is it totally empty', 'was it entirely empty at 9']) {
    assert.equal(ask(q).expect_empty, true, q);
  }
  assert.equal(ask('is the lobby completely full').metric, 'crowd_density');
  assert.equal(ask('was it absolutely packed at noon').metric, 'crowd_density');
  for (const q of ['was it almost empty at 9', 'was it mostly empty at 9', 'was the lobby virtually empty this morning', 'is it fully occupied']) {
    refused(q);
  }
});

test('"ever empty" over a span is yes at a reading of none, not "empty all along"; empty of what is asked where both are counted', () => {
  assert.match(
    answerWith('was the lobby ever completely empty this morning', morning),
    /^Yes, the lobby was empty at some point .*no one was counted at 07:00/,
  );
  assert.match(answerWith('was the lobby empty at any point this morning', morning), /^Yes/);
  assert.match(answerWith('was the lobby ever empty since 8', morning), /^No, the lobby was never empty since 08:00: the fewest people counted at once was 2/);
  // without "ever" the question keeps its reading (empty the whole span)
  assert.match(answerWith('was the lobby empty this morning', morning), /^No, people were in the lobby/);
  assert.match(refused('was the car park ever empty this morning', { location: 'car_park' }), /Ever empty of people, or of vehicles/);
  assert.equal(ask('was the car park ever empty of cars this morning', { location: 'car_park' }).ever_empty, true);
});

test('a spot named by any noun points at one person and is answered for the scene; of many people or of a car it still asks', () => {
  for (const q of [
    'how long has that person by the benches been hanging around?',
    'how long has the guy near the vending machines been here',
    'how long has the man at the bench been there',
  ]) {
    const interp = ask(q);
    assert.deepEqual([interp.aggregate, typeof interp.landmark], ['dwell', 'string'], q);
  }
  // "the end of the quay" stays a part of the place, not a spot
  assert.match(ask('how long has the person at the end of the quay been hanging around', { location: 'ferry_quay' }).sub_area ?? '', /end of the/);
  for (const q of [
    'how many people are by the benches',
    'how long have the people by the benches been here',
    'is that car by the benches still there',
    'how long has that person by the benches and bins been here',
  ]) {
    refused(q);
  }
});

test('the drop-off or pick-up as a place (a part word after it, or now with nothing past) is answered for the whole scene and says so', () => {
  for (const q of [
    'how many vehicles are at the drop-off right now',
    'how many cars are in the pick-up zone',
    'how many cars were at the drop-off zone at 8',
  ]) {
    assert.match(ask(q, { location: 'car_park' }).sub_area ?? '', /^(drop-off|pick-up)/, q);
  }
  const cars = [makeDetection('vehicle', ny('10:10'), { location: 'car_park', count: 3 })];
  assert.match(answerWith('how many vehicles are at the drop-off right now', cars, 'car_park'), /3 vehicles.*does not count the drop-off apart/);
  // a yes/no about the part alone, or the drop-off as a time of day, still asks
  assert.match(refused('anyone at the drop-off now?'), /does not count the drop-off apart/);
  for (const q of ['how many cars were at the drop-off this morning', 'peak count at the drop-off today', 'how many cars were there at drop-off today']) {
    assert.match(refused(q, { location: 'car_park' }), /time of day named by what happens then/, q);
  }
});

test('ways of coming in (wander in, pop in, stroll in, roll in, swing by, turn up, showing up) are arrivals; "drop in" stays a fall', () => {
  for (const q of [
    'did anyone pop in this morning',
    'how many people popped in today',
    'how many people wandered in this morning',
    'did anyone stroll in today',
    'anyone swing by today',
    'did anybody turn up today',
    'is anyone turning up',
    'how many people are coming in',
  ]) {
    assert.equal(ask(q).aggregate, 'arrivals', q);
  }
  assert.equal(ask('how many cars rolled in since 8', { location: 'car_park' }).aggregate, 'arrivals');
  assert.deepEqual([ask('any cats wander in today?').metric, ask('any cats wander in today?').yes_no], ['animals', true]);
  assert.equal(ask('any drop in people today').aggregate, 'trend');
  assert.equal(ask('did the count drop in the evening').aggregate, 'trend');
  refused('were people wandering around at 9');
});

test('"when did people start arriving" is the first arrival; "start" elsewhere still asks', () => {
  for (const q of [
    'what time did people start arriving today',
    'when did cars start coming in this morning',
    'when did people begin to arrive',
    'when did people start trickling in today',
    'at what time did visitors start turning up',
  ]) {
    assert.equal(ask(q, q.includes('cars') ? { location: 'car_park' } : {}).aggregate, 'first_seen', q);
  }
  assert.match(answerWith('what time did people start arriving today', morning), /08:00/);
  for (const q of ['how many people started arriving after 9', 'when did it start getting busy', 'when did people start leaving']) refused(q);
});

test('"how many people are here today" gives the arrivals as what was counted and the latest count with its time', () => {
  const said = answerWith('how many people are here today', morning);
  assert.match(said, /^\d+ people arrived in the lobby today\. That counts people coming in over that time .*; the latest count, at 10:14, was 2\.$/);
  assert.doesNotMatch(said, /\bnow\b/);
  assert.equal(ask('how many people are in today').present_too, true);
  // asked with an arrival verb, in the past, or of now: as before
  assert.equal(ask('how many people came in today').present_too, undefined);
  assert.equal(ask('how many people were here today').present_too, undefined);
  assert.equal(ask('how many people are here').aggregate, 'current');
});
