import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerWithHistory, makeDetection, ny, questionContext, TZ, NOW } from './scene-fixtures.ts';
import { interpretQuery } from '../../src/org/scenes/query/query-interpreter.ts';
import { lastSightingLead } from '../../src/org/scenes/scene.service.ts';
import type { DetectionRecord } from '../../src/org/detections/index.ts';

// Round S (docs/decisions.md, "Round S: scene questions"): vehicles over a span from readings too far
// apart to show arrivals, a trend over a window that holds too few real readings, and the last
// sighting on an offline camera; each with phrasings where the change must not fire.

const answerWith = (query: string, history: DetectionRecord[], location = 'car_park'): string => answerWithHistory(query, history, location);

const vehicles = (pairs: Array<[string, number]>, track = false) =>
  pairs.map(([t, n], i) => makeDetection('vehicle', ny(t), { location: 'car_park', count: n, ...(track ? { track_id: `v${i}` } : {}) }));
const people = (pairs: Array<[string, number]>) => pairs.map(([t, n]) => makeDetection('person_count', ny(t), { location: 'lobby', value: n }));

test('vehicles over a span from readings far apart: what the readings show, the most at once with its time, never "no vehicles arrived"', () => {
  const single = vehicles([['06:35', 2]]);
  for (const q of ['how many vehicles were seen between 6 and 7?', 'how many cars came through between 6 and 7', 'how many vehicles between 6 and 7am']) {
    const a = answerWith(q, single);
    assert.match(a, /^2 vehicles were seen in the car park between 06:00 and 07:00, the most at once, at 06:35; .*too far apart/, q);
    assert.doesNotMatch(a, /No vehicles arrived/, q);
  }
  const hours = vehicles([
    ['07:20', 6],
    ['08:40', 9],
  ]);
  assert.match(answerWith('how many vehicles between 8:30 and 9?', hours), /^9 vehicles were seen .* at 08:40/);
  // "arrived" with readings 80 minutes apart: the rise of 3 is not the arrivals either
  assert.doesNotMatch(answerWith('how many cars arrived between 8:30 and 9', hours), /^3 vehicles arrived/);
  const hourAgo = vehicles([
    ['07:10', 3],
    ['09:35', 2],
  ]);
  assert.match(answerWith('how many vehicles came through in the last hour?', hourAgo), /^2 vehicles were seen .* at 09:35/);
  assert.match(answerWith('did any cars come in between 6 and 7', single), /^Yes, 2 vehicles were seen/);
  assert.match(answerWith('how many vehicles were seen between 6 and 7?', vehicles([['06:35', 0]])), /^No vehicles were seen/);
});

test('arrivals stay where the data carries them: dense readings, tracks, a rate, and people', () => {
  const dense = vehicles([
    ['08:00', 0],
    ['08:10', 1],
    ['08:20', 3],
    ['08:30', 2],
    ['08:40', 4],
    ['08:50', 4],
  ]);
  assert.match(answerWith('how many cars arrived between 8 and 9', dense), /^5 vehicles arrived/);
  assert.match(answerWith('how many vehicles came in between 8 and 9', dense), /^5 vehicles arrived/);
  const tracked = vehicles(
    [
      ['06:35', 1],
      ['06:50', 1],
    ],
    true,
  );
  assert.match(answerWith('how many vehicles arrived between 6 and 7', tracked), /^2 vehicles arrived/);
  assert.doesNotMatch(answerWith('how many cars per hour between 6 and 8', vehicles([['06:35', 2]])), /were seen/);
  const lobby = people([['06:35', 2]]);
  assert.doesNotMatch(answerWith('how many people arrived between 6 and 7', lobby, 'lobby'), /were seen/);
});

test('a trend compares real readings: a window holding fewer than two reads the last counts; enough readings keep the window', () => {
  const halfHourly = people([
    ['09:00', 27],
    ['09:30', 33],
    ['10:00', 41],
  ]);
  for (const q of ['is the lobby filling up again?', 'is it getting busier', 'is the lobby filling up?']) {
    const a = answerWith(q, halfHourly, 'lobby');
    assert.doesNotMatch(a, /held about steady/, q);
    assert.doesNotMatch(a, /at 09:59/, q);
  }
  const fiveMinutely = people([
    ['09:55', 10],
    ['10:00', 12],
    ['10:05', 15],
    ['10:10', 18],
  ]);
  assert.match(answerWith('is the lobby filling up?', fiveMinutely, 'lobby'), /^Yes, the number of people in the lobby has been rising in the last 15 minutes/);
  const flat = people([
    ['10:00', 12],
    ['10:05', 12],
    ['10:10', 12],
  ]);
  assert.match(answerWith('is the lobby filling up?', flat, 'lobby'), /^No, .*held about steady/);
});

test('the last sighting on an offline camera gives the detection time, not the last frame; other questions get no lead', () => {
  const result = interpretQuery('when was the last vehicle seen at the gate', questionContext({ location: 'gate' }));
  assert.ok(result.ok);
  const interp = result.interpretation;
  const cited = vehicles([
    ['08:40', 9],
    ['09:40', 4],
  ]);
  assert.equal(interp.aggregate, 'last_seen');
  assert.match(lastSightingLead(interp, cited, 'the gate', TZ, NOW), /^The last vehicle was seen in the gate at 09:40 \(34 minutes ago\)\. $/);
  assert.equal(lastSightingLead(interp, vehicles([['09:40', 0]]), 'the gate', TZ, NOW), '');
  const now = interpretQuery('how many vehicles at the gate now', questionContext({ location: 'gate' }));
  assert.ok(now.ok);
  assert.equal(lastSightingLead(now.interpretation, cited, 'the gate', TZ, NOW), '');
});
