import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ask, makeDetection, ny, questionContext, refused, QUESTION_SCENE } from './scene-fixtures.ts';
import { answerQuery } from '../../src/org/scenes/query/query-answerer.ts';
import { interpretQuery } from '../../src/org/scenes/query/query-interpreter.ts';
import type { DetectionRecord } from '../../src/org/detections/index.ts';

// Before round R (docs/decisions.md, "Before round R: scene questions"): acts no camera sees, activity
// words on what the scene counts, arrivals at a clock moment and false starts, each with phrasings
// where the change must not fire.

/** The answer (or the question back) with the history loaded for every span the interpretation asks for. */
function answerWith(query: string, history: DetectionRecord[], location: string): { answer: string; ask?: string } {
  const result = interpretQuery(query, questionContext({ location }));
  assert.ok(result.ok, `${query}: ${result.ok ? '' : result.reason}`);
  const interp = result.interpretation;
  const within = (s: { from: number; to: number }) => history.filter((d) => d.at >= s.from - 6 * 3_600_000 && d.at <= s.to);
  const a = answerQuery(interp, within(interp), QUESTION_SCENE, (interp.baseline ?? []).map(within));
  return { answer: a.answer, ...(a.ask ? { ask: a.ask } : {}) };
}

const cars = (pairs: Array<[string, number]>) => pairs.map(([t, n]) => makeDetection('vehicle', ny(t), { location: 'car_park', count: n }));
const people = (pairs: Array<[string, number]>) => pairs.map(([t, n]) => makeDetection('person_count', ny(t), { location: 'lobby', value: n }));

test('acts no camera sees (clocking in, signing for, delivering, ringing the bell, complaining, eating) are asked back', () => {
  for (const q of [
    'how many staff clocked in this morning',
    'how many people clocked out yesterday',
    'how many people signed for a parcel today',
    'how many parcels were delivered this morning',
    'did anyone ring the doorbell today',
    'how many visitors rang the bell since 9',
    'how many customers complained today',
    'how many people ate lunch here today',
  ]) {
    assert.match(refused(q), /not what they do there/, q);
  }
  // what a camera does see stays answered
  assert.equal(ask('how many people came in today').aggregate, 'arrivals');
  assert.equal(ask('how many people arrived since 9').aggregate, 'arrivals');
  assert.equal(ask('how many people left today').aggregate, 'departures');
  assert.equal(ask('how many cars drove in today', { location: 'car_park' }).metric, 'vehicles');
  assert.equal(ask('how many delivery vans came in today', { location: 'car_park' }).aggregate, 'arrivals');
  // "ring" or "eat" not as an act: no refusal of this kind
  for (const q of ['how many people were in the ring road lobby', 'how many people are near the eating area']) {
    const r = interpretQuery(q, questionContext());
    assert.ok(r.ok || !/not what they do there/.test(r.reason), q);
  }
});

test('idling and milling about at a clock time are the count there then; speeding or fighting stay asked', () => {
  const idling = ask('how many cars were idling at 9:30', { location: 'car_park' });
  assert.deepEqual([idling.metric, idling.aggregate], ['vehicles', 'current']);
  for (const q of ['how many people were milling about at 9:40', 'how many people were milling around at 8am']) {
    assert.deepEqual([ask(q).metric, ask(q).aggregate], ['people', 'current'], q);
  }
  refused('how many cars were speeding at 9:30', { location: 'car_park' });
  refused('how many people were fighting at 9:40');
});

test('arrivals at a clock moment: the rise within that minute, said with the readings, or asked back', () => {
  // a reading the minute before: the rise is in that minute
  const live = cars([
    ['09:00', 2],
    ['09:49', 2],
    ['09:50', 5],
  ]);
  const quick = answerWith('how many cars pulled in at ten to ten', live, 'car_park');
  assert.equal(quick.ask, undefined);
  assert.match(quick.answer, /^3 vehicles arrived in the car park at 09:50: the vehicle count went from 2 to 5 in that minute\./);
  // the reading before is long ago: the rise is said with it, not placed in the minute
  const sparse = answerWith(
    'how many vans pulled in at 9:50',
    cars([
      ['07:10', 1],
      ['09:50', 3],
    ]),
    'car_park',
  );
  assert.match(sparse.answer, /went from 1 to 3 at 09:50: 2 vehicles arrived since the reading before, at 07:10, so not necessarily in that minute/);
  assert.match(
    answerWith(
      'how many people came in at 9:50',
      people([
        ['09:49', 4],
        ['09:50', 6],
      ]),
      'lobby',
    ).answer,
    /^2 people arrived in the lobby at 09:50/,
  );
  // no rise in that minute: asked back for a span, never "none"
  const flat = answerWith('how many cars pulled in at 9:30', live, 'car_park');
  assert.equal(flat.answer, '');
  assert.match(flat.ask ?? '', /is a moment, and a count of arrivals needs a span/);
  // the same minute in the other half of the day saw a rise too: which one is asked
  const twice = cars([
    ['01:19', 0],
    ['01:20', 2],
    ['09:00', 0],
    ['09:59', 0],
    ['10:00', 1],
  ]);
  const both = answerWith('how many cars pulled in at 1:20', twice, 'car_park');
  assert.equal(both.ask, undefined, 'at 10:14 only 01:20 has passed');
  assert.match(both.answer, /^2 vehicles arrived/);
  // "around 9:50" stays a span either side; a moment asked for the count present is not arrivals
  assert.notEqual(
    ask('how many cars pulled in around 9:50', { location: 'car_park' }).to - ask('how many cars pulled in around 9:50', { location: 'car_park' }).from,
    59_999,
  );
  assert.equal(ask('how many cars were here at 9:50', { location: 'car_park' }).aggregate, 'current');
});

test('arrivals at a clock time both halves of the day have passed: asked which when both saw a rise', () => {
  const history = cars([
    ['00:49', 0],
    ['00:50', 1],
    ['12:49', 1],
    ['12:50', 3],
  ]);
  const result = interpretQuery('how many cars pulled in at 12:50', questionContext({ location: 'car_park', now: ny('14:00') }));
  assert.ok(result.ok);
  const interp = result.interpretation;
  const within = (s: { from: number; to: number }) => history.filter((d) => d.at >= s.from - 6 * 3_600_000 && d.at <= s.to);
  const a = answerQuery(interp, within(interp), QUESTION_SCENE, (interp.baseline ?? []).map(within));
  assert.match(a.ask ?? '', /rose both at 12:50 and at .*00:50/);
});

test('a question started again after "pardon", "never mind" or "actually" drops what came before; a part corrected does not', () => {
  for (const q of [
    'combien... pardon, how many people are here now',
    'how many cars came in, never mind, how many people came in today',
    'wie viele... actually, how many people came in today',
  ]) {
    assert.equal(ask(q).metric, 'people', q);
  }
  assert.equal(ask('how many people actually came in today').aggregate, 'arrivals');
  refused('how many people were here at 3, actually at 4');
  refused('never mind');
});
