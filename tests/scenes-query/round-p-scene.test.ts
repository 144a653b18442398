import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ask, makeDetection, ny, questionContext, QUESTION_SCENE } from './scene-fixtures.ts';
import { answerQuery } from '../../src/org/scenes/query/query-answerer.ts';
import { interpretQuery } from '../../src/org/scenes/query/query-interpreter.ts';
import type { DetectionRecord } from '../../src/org/detections/index.ts';

// Round P (docs/decisions.md, "Round P: scene questions"): a trend over the window, at a scene
// counted less often than the window is long, is read from the last few counts and says from when.

/** The answer with the history loaded for every span the interpretation asks for, as scene.service.ts does. */
function answerWithHistory(query: string, history: DetectionRecord[], location: string): string {
  const result = interpretQuery(query, questionContext({ location }));
  assert.ok(result.ok, query);
  const interp = result.interpretation;
  const within = (s: { from: number; to: number }) => history.filter((d) => d.at >= s.from - 6 * 3_600_000 && d.at <= s.to);
  return answerQuery(interp, within(interp), QUESTION_SCENE, (interp.baseline ?? []).map(within)).answer;
}

const vehicles = (pairs: Array<[string, number]>) => pairs.map(([t, n]) => makeDetection('vehicle', ny(t), { location: 'car_park', count: n }));
const people = (pairs: Array<[string, number]>) => pairs.map(([t, n]) => makeDetection('person_count', ny(t), { value: n }));

const fillingSparsely = vehicles([
  ['06:00', 8],
  ['07:30', 15],
  ['08:45', 27],
  ['09:50', 38],
]);

test('a car park counted every hour or so: "filling up" is read from the last counts and says from when', () => {
  for (const q of ['is the car park filling up', 'is the car park getting fuller']) {
    const a = answerWithHistory(q, fillingSparsely, 'car_park');
    assert.match(a, /^Yes\b/, `${q}: ${a}`);
    assert.match(a, /since 07:30/, `${q}: ${a}`);
    assert.match(a, /too few counts to tell a trend, so this reads the last 3 counts/, `${q}: ${a}`);
  }
  const a = answerWithHistory('is the car park emptying out', fillingSparsely, 'car_park');
  assert.match(a, /^No\b/, a);
});

test('a lobby counted sparsely: people trends widen the same way', () => {
  const history = people([
    ['08:00', 2],
    ['09:00', 6],
    ['09:30', 11],
    ['09:50', 15],
  ]);
  const a = answerWithHistory('has the lobby been getting busier', history, 'lobby');
  assert.match(a, /^Yes\b.*since 09:00/, a);
});

test('it must not fire: counts enough in the window, a time of its own, or too little history', () => {
  const dense = people([
    ['10:00', 3],
    ['10:04', 5],
    ['10:08', 8],
    ['10:12', 10],
  ]);
  const a = answerWithHistory('has the lobby been getting busier', dense, 'lobby');
  assert.match(a, /^Yes\b/, a);
  assert.doesNotMatch(a, /reads the last/, a);
  // a time named: the question's own span, never widened
  assert.equal(ask('has the car park been filling up since 9am', { location: 'car_park' }).trend_wide, undefined);
  assert.equal(ask('how many cars are in the car park now', { location: 'car_park' }).trend_wide, undefined);
  // two counts in six hours: still too few
  const thin = vehicles([
    ['09:00', 10],
    ['09:50', 20],
  ]);
  assert.match(answerWithHistory('is the car park filling up', thin, 'car_park'), /too few/);
});
