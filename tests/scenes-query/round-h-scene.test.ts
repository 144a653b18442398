import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerQuery, interpretQuery, type QueryContext, type SceneSnapshot } from '../../src/org/scenes/query/query.ts';
import { MIN, NOW, TZ, makeDetection, ny } from './scene-fixtures.ts';

/**
 * Round H: a stay named by its arrival ("the person who came in at 9:20") is that one track's stay,
 * or a question back when none or several arrived then (docs/decisions.md, "Round H: scene questions").
 */

const LOBBY: QueryContext = { now: NOW, windowMs: 60 * MIN, timeZone: TZ, location: 'lobby' };
const SCENE: SceneSnapshot = { people: 2, vehicles: 0, capacity: 40, active_anomalies: 0 };
const count = (time: string, n: number) => makeDetection('person_count', ny(time), { value: n, location: 'lobby' });
const seen = (time: string, track: string, dwellMin: number) =>
  makeDetection('person', ny(time), { track_id: track, dwell_s: dwellMin * 60, location: 'lobby' });

// a: 8:30 to 9:10 (gone); b: arrived 9:20, still here at 10:14 (54 min); c: arrived 9:50, still here
const HISTORY = [
  count('08:30', 1),
  seen('08:30', 'a', 0),
  seen('09:10', 'a', 40),
  count('09:10', 0),
  count('09:20', 1),
  seen('09:20', 'b', 0),
  seen('09:40', 'b', 20),
  count('09:50', 2),
  seen('09:50', 'c', 0),
  seen('10:14', 'b', 54),
  seen('10:14', 'c', 24),
  count('10:14', 2),
];

function say(q: string, history = HISTORY) {
  const result = interpretQuery(q, LOBBY);
  assert.ok(result.ok, `${q}: ${result.ok ? '' : result.reason}`);
  assert.equal(result.interpretation.aggregate, 'dwell', q);
  return answerQuery(result.interpretation, history, SCENE);
}

test('a stay named by its arrival time is that track’s stay so far, never an average of the stays around then', () => {
  for (const q of [
    'how long has the person who came in at 9:20 been here?',
    'how long has the guy who arrived at 9:20 been in the lobby?',
    'how long has the person that walked in at 9:18 been here?',
    'the woman who got here at 9:22, how long has she been here?',
  ]) {
    const a = say(q);
    assert.equal(a.ask, undefined, `${q}: ${a.ask}`);
    assert.match(a.answer, /arrived at 09:20 has been in the lobby 54 minutes so far/, `${q}: ${a.answer}`);
    assert.doesNotMatch(a.answer, /average|longest/, q);
  }
});

test('an arrival whose stay is over says how long it lasted and that it ended', () => {
  const a = say('how long was the person who came in at 8:30 here?');
  assert.match(a.answer, /arrived at 08:30 stayed in the lobby 40 minutes \(until 09:10\)/, a.answer);
});

test('no arrival or several at the time said is asked back, with the arrivals near then', () => {
  const none = say('how long has the person who came in at 9:35 been here?');
  assert.match(none.ask ?? '', /No tracked person arrived .* at about 09:35.*09:20/, none.ask);
  const twin = [...HISTORY, seen('09:21', 'd', 0), seen('10:14', 'd', 53)];
  const two = say('how long has the person who came in at 9:20 been here?', twin);
  assert.match(two.ask ?? '', /2 tracked people arrived/, two.ask);
});

test('"as of" or "as at" a clock time is that moment; "as of now" is now', () => {
  const lot: QueryContext = { ...LOBBY, location: 'parking_lot' };
  const cars = [
    makeDetection('vehicle', ny('09:00'), { count: 2, location: 'parking_lot' }),
    makeDetection('vehicle', ny('09:40'), { count: 5, location: 'parking_lot' }),
  ];
  for (const q of ['number of cars as of 9:30', 'how many vehicles as at 9:30?', 'cars in the lot as of 9.30am']) {
    const result = interpretQuery(q, lot);
    assert.ok(result.ok, `${q}: ${result.ok ? '' : result.reason}`);
    assert.equal(result.interpretation.from, result.interpretation.to, q);
    assert.equal(result.interpretation.to, ny('09:30'), q);
    assert.match(answerQuery(result.interpretation, cars, { ...SCENE, vehicles: 5 }).answer, /\b2\b/, q);
  }
  const now = interpretQuery('how many people as of now?', LOBBY);
  assert.ok(now.ok && now.interpretation.to === NOW, now.ok ? '' : now.reason);
});
