import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ask, makeDetection, ny, questionContext, refused, QUESTION_SCENE } from './scene-fixtures.ts';
import { answerQuery } from '../../src/org/scenes/query/query-answerer.ts';
import { interpretQuery } from '../../src/org/scenes/query/query-interpreter.ts';
import type { DetectionRecord } from '../../src/org/detections/index.ts';

// Round R (docs/decisions.md, "Round R: scene questions"): a part of the day in a past-tense question,
// "were in X" over a span, politeness before a question and "parked" over a span, each with phrasings
// where the change must not fire. The fixtures' now is Tuesday 10 March 2026, 10:14 in New York.

/** The answer with the history loaded for every span the interpretation asks for. */
function answerWith(query: string, history: DetectionRecord[], location: string): string {
  const result = interpretQuery(query, questionContext({ location }));
  assert.ok(result.ok, `${query}: ${result.ok ? '' : result.reason}`);
  const interp = result.interpretation;
  const within = (s: { from: number; to: number }) => history.filter((d) => d.at >= s.from - 6 * 3_600_000 && d.at <= s.to);
  return answerQuery(interp, within(interp), QUESTION_SCENE, (interp.baseline ?? []).map(within)).answer;
}

const DAY = '2026-03-09';
const people = (pairs: Array<[string, number, string?]>) =>
  pairs.map(([t, n, day]) => makeDetection('person_count', ny(t, day ?? '2026-03-10'), { location: 'lobby', value: n }));
const cars = (pairs: Array<[string, number, string?]>) =>
  pairs.map(([t, n, day]) => makeDetection('vehicle', ny(t, day ?? '2026-03-10'), { location: 'car_park', count: n }));

test('a part of the day after "in/during/over the" in a past-tense question is the last one begun, said in the answer', () => {
  // at 10:14 the evening and the night have not begun today: the ones just past
  const night = ask('how many people came in over the night?');
  assert.deepEqual([night.from, night.to], [ny('21:00', DAY), ny('05:00')]);
  const stay = ask('how long was the person here in the night?');
  assert.equal(stay.aggregate, 'dwell');
  assert.equal(stay.from, ny('21:00', DAY));
  const evening = ask('was anyone in the lobby in the evening?');
  assert.deepEqual([evening.aggregate, evening.from, evening.to], ['presence', ny('17:00', DAY), ny('21:00', DAY)]);
  const arrived = ask('did anyone come in during the evening');
  assert.deepEqual([arrived.aggregate, arrived.from], ['arrivals', ny('17:00', DAY)]);
  // said in the answer
  const history = people([
    ['17:30', 2, DAY],
    ['18:10', 4, DAY],
    ['20:50', 0, DAY],
  ]);
  assert.match(answerWith('were there people here in the evening', history, 'lobby'), /yesterday evening/);
  assert.match(answerWith('how many people came in over the night', people([['22:00', 1, DAY]]), 'lobby'), /last night \(Mar 9 21:00 to 05:00\)/);
  // in the small hours the morning has not begun today: yesterday's morning
  const early = { now: ny('03:00') };
  const morning = ask('was anyone here in the morning', early);
  assert.deepEqual([morning.from, morning.to], [ny('05:00', DAY), ny('12:00', DAY)]);
  // the night in progress: the night so far
  const tonight = ask('was anyone here in the night', early);
  assert.deepEqual([tonight.from, tonight.to], [ny('21:00', DAY), ny('03:00')]);
  assert.match(answerQuery(tonight, [], QUESTION_SCENE).answer, /the night so far \(Mar 9 21:00 to 03:00\)/);
});

test('a part of the day in a present or future question, or with a time of its own, still asks or reads as before', () => {
  for (const q of ['is anyone here in the evening?', 'will anyone be here in the night', 'how many people come in during the evening']) {
    assert.match(refused(q), /in the future/, q);
  }
  // a part of today that has begun is today's, as before
  const morning = ask('how many people were here in the morning?', { now: ny('10:14') });
  assert.deepEqual([morning.from, morning.to], [ny('05:00'), ny('10:14')]);
  // another time beside it is left to the shared reader
  assert.ok(!interpretQuery('was anyone here in the night on monday', questionContext()).ok);
});

test('"how many were in X" over a span is the most at once, said as the peak; arrivals keep their verb', () => {
  const history = people([
    ['11:50', 4, DAY],
    ['12:10', 9, DAY],
    ['12:40', 12, DAY],
    ['13:20', 6, DAY],
    ['14:30', 3, DAY],
    ['08:00', 2],
    ['09:00', 5],
  ]);
  for (const q of [
    'how many people were in the lobby at lunch',
    'how many people were here over lunch yesterday',
    'how many were in the lobby between 12 and 2 yesterday',
  ]) {
    assert.equal(ask(q).aggregate, 'peak', q);
    assert.match(answerWith(q, history, 'lobby'), /^Peak of 12 people in the lobby at (?:Mar 9 )?12:40/, q);
  }
  assert.equal(ask('how many people were there this morning').aggregate, 'peak');
  assert.equal(ask('how many vans were in the car park yesterday', { location: 'car_park' }).aggregate, 'peak');
  // must not fire: an arrival verb, a sighting verb, a moment, an average, animals, the present tense
  assert.equal(ask('how many people came in at lunch').aggregate, 'arrivals');
  assert.equal(ask('how many people arrived yesterday').aggregate, 'arrivals');
  assert.equal(ask('how many people were seen yesterday').aggregate, 'arrivals');
  assert.equal(ask('how many people were here at 9').aggregate, 'current');
  assert.equal(ask('on average how many people were in the lobby between 9 and 10').aggregate, 'average');
  assert.equal(ask('how many dogs were in the yard since 8am?', { location: 'yard' }).aggregate, 'arrivals');
  assert.equal(ask('how many people are here').aggregate, 'current');
  assert.match(answerWith('how many people came in at lunch', history, 'lobby'), /^\d+ people arrived in the lobby/);
});

test('"parked" over a span is the vehicles there at once, said as the peak; now or a moment stays the count then', () => {
  const lot = { location: 'car_park' };
  const history = cars([
    ['07:00', 1],
    ['08:30', 7],
    ['09:40', 4],
  ]);
  for (const q of ['how many cars parked today', 'how many cars were parked here this morning', 'how many vans parked in the car park yesterday']) {
    assert.equal(ask(q, lot).aggregate, 'peak', q);
  }
  assert.match(answerWith('how many cars parked today', history, 'car_park'), /^Peak of 7 vehicles in the car park at 08:30, today/);
  // must not fire
  assert.equal(ask('how many cars are parked', lot).aggregate, 'current');
  assert.equal(ask('how many cars parked at 9', lot).aggregate, 'current');
  assert.equal(ask('were any cars parked here overnight', lot).aggregate, 'presence');
  assert.equal(ask('how many cars came in today', lot).aggregate, 'arrivals');
  refused('how many cars are parked here now today', lot);
});

test('a politeness before a whole question is filler; elsewhere, or before no question, it is still asked about', () => {
  for (const q of [
    'sorry to bother you, how many people are here',
    'excuse me, how many people are here?',
    'quick one: how many people are here',
    'hey there, how many people are here',
    'hi vigil, how many people are here',
    'Hi Vigil - sorry to trouble you, how many people are here?',
    'good morning vigil, how many people are here',
  ]) {
    assert.deepEqual([ask(q).metric, ask(q).aggregate], ['people', 'current'], q);
  }
  // must not fire: a politeness alone, after the question, before a non-question, or with a strange word after it
  for (const q of ['sorry to bother you', 'how many people are here, excuse me', 'excuse me people here now', 'hi vigil, flurbish how many people are here']) {
    refused(q);
  }
});
