import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DetectionRecord, DetectionType } from '../../src/platform/kinds/index.ts';
import { answerQuery, interpretQuery, type Interpretation, type QueryContext, type SceneSnapshot } from '../../src/org/scenes/query/query.ts';
import { MIN, NOW, TZ, makeDetection, ny } from './scene-fixtures.ts';

function det(type: DetectionType, time: string, fields: Partial<DetectionRecord> = {}): DetectionRecord {
  return makeDetection(type, ny(time), fields);
}

const count = (time: string, value: number) => det('person_count', time, { value });
const vehicles = (time: string, n: number) => det('vehicle', time, { count: n, location: 'parking_lot' });
const person = (time: string, fields: Partial<DetectionRecord> = {}) => det('person', time, fields);

const SCENE: SceneSnapshot = { people: 3, vehicles: 0, capacity: 40, active_anomalies: 0 };

function ask(query: string, overrides: Partial<QueryContext> = {}): Interpretation {
  const result = interpretQuery(query, { now: NOW, windowMs: 15 * MIN, timeZone: TZ, location: 'lobby', ...overrides });
  assert.ok(result.ok, `${query}: ${result.ok ? '' : result.reason}`);
  return result.interpretation;
}

/** 08:50 is the lookback reading the service loads for a range starting at 09:00. */
const LOBBY_COUNTS = [count('08:50', 2), count('09:10', 5), count('09:30', 9), count('09:42', 14), count('09:50', 6), count('10:05', 3)];

test('peak: the highest reading in range, its local time, and density at the peak', () => {
  const result = answerQuery(ask('busiest it got since 9am?'), LOBBY_COUNTS, SCENE);
  assert.equal(result.answer, 'Peak of 14 people in the lobby at 09:42, since 09:00.');
  assert.deepEqual(
    result.detections.map((d) => d.value),
    [14],
  );
  assert.equal(result.crowd_density, 0.35); // 14 of 40
  assert.equal(result.anomaly_flag, false);
});

test('peak: a reading from before the range still counts while it was in force', () => {
  const history = [count('08:50', 20), count('09:10', 5), count('09:30', 9)];
  const result = answerQuery(ask('peak people since 9am'), history, SCENE);
  assert.equal(result.answer, 'Peak of 20 people in the lobby at 09:00, since 09:00.');
  assert.equal(result.crowd_density, 0.5);
});

test('average is time-weighted, including the reading in force when the range began', () => {
  // 09:00-10:14: 2x10 + 5x20 + 9x12 + 14x8 + 6x15 + 3x9 = 457 person-minutes over 74 minutes = 6.18
  // (the plain mean of the readings would be 6.5)
  const result = answerQuery(ask('what was the average number of people since 9am'), LOBBY_COUNTS, SCENE);
  assert.equal(result.answer, 'On average 6.2 people were in the lobby since 09:00 (time-weighted).');
  assert.equal(result.crowd_density, 0.15); // 6.18 / 40
  assert.equal(result.detections.length, 6);
  assert.ok(
    result.detections.every((d, i, all) => i === 0 || all[i - 1].at >= d.at),
    'newest first',
  );
});

test('current: the latest reading at or before the moment asked about', () => {
  const now = answerQuery(ask('how many ppl r in the lobby rn'), LOBBY_COUNTS, SCENE);
  assert.equal(now.answer, 'There are 3 people in the lobby now (10:14).');
  assert.equal(now.crowd_density, 0.08); // 3/40 = 0.075
  assert.deepEqual(
    now.detections.map((d) => d.id),
    [LOBBY_COUNTS[5].id],
  );

  const earlier = answerQuery(ask('how many people were here at 9:45'), LOBBY_COUNTS, SCENE);
  assert.equal(earlier.answer, 'There were 14 people in the lobby at 09:45.');
  assert.equal(earlier.crowd_density, 0.35);
});

test('current: with no readings at all, "now" falls back to the live scene state', () => {
  const result = answerQuery(ask('how many people are here'), [], { ...SCENE, people: 7 });
  assert.equal(result.answer, 'There are 7 people in the lobby now (10:14).');
  assert.equal(result.crowd_density, 0.18);
  const past = answerQuery(ask('how many people were here at 9:45'), [], SCENE);
  assert.match(past.answer, /no readings/);
});

test('arrivals: distinct tracked people in range, each counted once', () => {
  const history = [
    ...LOBBY_COUNTS,
    person('08:55', { track_id: 't0' }), // before the range
    person('09:05', { track_id: 't1' }),
    person('09:06', { track_id: 't1' }), // same person again
    person('09:20', { track_id: 't2' }),
    person('09:45', { track_id: 't3', subtype: 'unrecognized' }),
    person('09:55'), // untracked sighting
  ];
  // the tracks alone (no count in the history that says more came): each tracked person once
  const tracksOnly = history.filter((d) => d.type === 'person');
  const result = answerQuery(ask('how many people came in since 9am'), tracksOnly, SCENE);
  assert.equal(result.answer, '4 people arrived in the lobby since 09:00.');
  assert.equal(result.detections.length, 4);
  assert.deepEqual(
    result.detections.map((d) => d.track_id ?? null),
    [null, 't3', 't2', 't1'],
  );
  assert.equal(result.detections[3].at, ny('09:05'), 'the first sighting stands for the arrival');
  assert.equal(result.anomaly_flag, true, 'an unrecognized person arrived in range');
  // with LOBBY_COUNTS, which rose from 2 to 14 since 09:00, "4 arrived" would contradict the count
  // (docs/decisions.md, "Scene questions: round F"): the count's rises are the figure, said so
  assert.equal(
    answerQuery(ask('how many people came in since 9am'), history, SCENE).answer,
    '12 people arrived in the lobby since 09:00 (from the rises of the person count; 4 of them were tracked).',
  );
});

test('arrivals: a bare vehicle counter implies arrivals by its rises', () => {
  const history = [vehicles('08:00', 1), vehicles('09:10', 3), vehicles('09:20', 2), vehicles('09:40', 4)];
  const interp = ask('how many cars came in since 9am', { location: 'parking_lot' });
  const result = answerQuery(interp, history, SCENE);
  assert.equal(result.answer, '4 vehicles arrived in the parking lot since 09:00.');
  const none = answerQuery(ask('how many cars came in since 9:30', { location: 'parking_lot' }), [vehicles('09:00', 2)], SCENE);
  assert.equal(none.answer, 'No vehicles arrived in the parking lot since 09:30.');
});

test('presence now: yes with the count, or no', () => {
  const yes = answerQuery(ask('is anyone in the lobby?'), LOBBY_COUNTS, SCENE);
  assert.equal(yes.answer, 'Yes, 3 people are in the lobby now (10:14).');
  const empty = answerQuery(ask('is anyone in the lobby?'), [...LOBBY_COUNTS, count('10:10', 0)], SCENE);
  assert.equal(empty.answer, 'No, no one is in the lobby now (10:14).');
  assert.equal(empty.crowd_density, 0);
});

test('presence over a range: vehicles seen or not', () => {
  const lot = { location: 'parking_lot' };
  const seen = answerQuery(ask('were any vehicles in the lot?', lot), [vehicles('09:50', 0), vehicles('10:02', 2), vehicles('10:06', 0)], SCENE);
  assert.equal(seen.answer, 'Yes, vehicles were in the parking lot in the last 15 minutes, up to 2 at once, last seen at 10:02.');
  assert.equal(seen.detections.length, 1);

  const empty = answerQuery(ask('were any vehicles in the lot?', lot), [vehicles('09:50', 0), vehicles('10:06', 0)], SCENE);
  assert.equal(empty.answer, 'No, no vehicles were in the parking lot in the last 15 minutes.');
  assert.deepEqual(empty.detections, []);

  // A lookback reading still fresh when the window opened at 09:59 (live sources repeat counts
  // every minute) counts; one from 09:50 that was never repeated is no sighting in the window
  // ("any cars in the last 10 minutes?" is not answered yes from an old reading).
  const carried = answerQuery(ask('were any vehicles in the lot?', lot), [vehicles('09:58', 3)], SCENE);
  assert.match(carried.answer, /^Yes, vehicles were in the parking lot in the last 15 minutes, up to 3 at once/);
  const stale = answerQuery(ask('were any vehicles in the lot?', lot), [vehicles('09:50', 3)], SCENE);
  assert.equal(stale.answer, 'No, no vehicles were seen in the parking lot in the last 15 minutes; the last reading, at 09:50, showed 3 vehicles.');
});

const ANOMALY_HISTORY = [
  ...LOBBY_COUNTS,
  person('09:45', { track_id: 't3', subtype: 'unrecognized' }),
  person('09:54', { track_id: 't5', dwell_s: 200 }),
  person('09:58', { track_id: 't5', dwell_s: 420 }),
  person('10:01', { track_id: 't6', dwell_s: 100 }),
];

test('anomalies: unrecognized people and loitering, one entry per tracked person', () => {
  const result = answerQuery(ask('anything unusual since 9?'), ANOMALY_HISTORY, SCENE);
  assert.equal(
    result.answer,
    'Yes, 2 anomalies in the lobby since 09:00: 1 unrecognized person and 1 person loitering (longest 7 minutes), the latest at 09:58.',
  );
  assert.equal(result.anomaly_flag, true);
  assert.deepEqual(
    result.detections.map((d) => d.track_id),
    ['t5', 't3'],
  );
});

test('anomalies: asking for one kind filters to it', () => {
  const unrecognized = answerQuery(ask('any unrecognized people since 9?'), ANOMALY_HISTORY, SCENE);
  assert.equal(unrecognized.answer, 'Yes, 1 unrecognized person was seen in the lobby since 09:00, the latest at 09:45.');
  assert.deepEqual(
    unrecognized.detections.map((d) => d.track_id),
    ['t3'],
  );

  const loitering = answerQuery(ask('has anyone been loitering since 9?'), ANOMALY_HISTORY, SCENE);
  assert.equal(loitering.answer, 'Yes, 1 person loitered in the lobby for 5 minutes or more since 09:00 (longest 7 minutes, latest at 09:58).');
  assert.deepEqual(
    loitering.detections.map((d) => d.dwell_s),
    [420],
  );
});

test('anomalies: nothing unusual, and the flag follows the live scene only for questions about now', () => {
  const quiet = answerQuery(ask('anything unusual?'), LOBBY_COUNTS, SCENE);
  assert.equal(quiet.answer, 'No, nothing unusual in the lobby in the last 15 minutes: no unrecognized people and no one loitering.');
  assert.equal(quiet.anomaly_flag, false);
  assert.deepEqual(quiet.detections, []);

  const live = { ...SCENE, active_anomalies: 1 };
  assert.equal(answerQuery(ask('how many people are here'), LOBBY_COUNTS, live).anomaly_flag, true);
  assert.equal(answerQuery(ask('how many people were here at 9:45'), LOBBY_COUNTS, live).anomaly_flag, false);

  // An anomalous person in range raises the flag whatever the question was about.
  assert.equal(answerQuery(ask('peak people since 9am'), ANOMALY_HISTORY, SCENE).anomaly_flag, true);
  assert.equal(answerQuery(ask('peak people since 9:50'), ANOMALY_HISTORY, SCENE).anomaly_flag, true);
  assert.equal(answerQuery(ask('peak people since 10'), ANOMALY_HISTORY, SCENE).anomaly_flag, false);
});

test('crowd density: now and at the peak, as a fraction of capacity', () => {
  const now = answerQuery(ask('how crowded is it'), LOBBY_COUNTS, SCENE);
  assert.equal(now.answer, 'The lobby has 3 people now (10:14), 8% of its capacity of 40.');
  assert.equal(now.crowd_density, 0.08);

  const peak = answerQuery(ask('how packed was it since 9am'), LOBBY_COUNTS, SCENE);
  assert.equal(peak.answer, 'The lobby was most crowded at 09:42 with 14 people, 35% of its capacity of 40, since 09:00.');
  assert.equal(peak.crowd_density, 0.35);

  const over = answerQuery(ask('how crowded is it'), [count('10:00', 50)], SCENE);
  assert.equal(over.crowd_density, 1.25, 'over capacity is reported, not clipped');

  const unknownCapacity = answerQuery(ask('how crowded is it'), LOBBY_COUNTS, { ...SCENE, capacity: 0 });
  assert.equal(unknownCapacity.crowd_density, 0);
  assert.match(unknownCapacity.answer, /capacity is not set/);
});

test('supporting detections are newest first and capped at 50', () => {
  const many = Array.from({ length: 80 }, (_, i) => det('person', '09:00', { at: ny('09:00') + i * 30_000, track_id: `t${i}`, subtype: 'unrecognized' }));
  const result = answerQuery(ask('any unrecognized people since 9am'), many, SCENE);
  assert.equal(result.detections.length, 50);
  assert.equal(result.detections[0].track_id, 't79');
  assert.ok(result.detections.every((d, i, all) => i === 0 || all[i - 1].at > d.at));
  assert.match(result.answer, /^Yes, 80 unrecognized people were seen/);
});

test('times in answers are written in the scene time zone', () => {
  const londonNow = Date.parse('2026-03-10T15:00:00Z');
  const history = [
    det('person_count', '00:00', { at: Date.parse('2026-03-10T09:30:00Z'), value: 8 }),
    det('person_count', '00:00', { at: Date.parse('2026-03-10T10:00:00Z'), value: 2 }),
  ];
  const interp = ask('peak ppl since 9am', { now: londonNow, timeZone: 'Europe/London' });
  assert.equal(answerQuery(interp, history, SCENE).answer, 'Peak of 8 people in the lobby at 09:30, since 09:00.');
});
