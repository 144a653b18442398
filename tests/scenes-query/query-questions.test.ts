import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DetectionRecord } from '../../src/platform/kinds/index.ts';
import { answerQuery, interpretQuery, type Interpretation, type QueryContext, type SceneSnapshot } from '../../src/org/scenes/query/query.ts';
import { MIN, NOW, TZ, makeDetection, ny } from './scene-fixtures.ts';

/**
 * The scene questions people ask: crowding and fullness against capacity,
 * empty, trend, last seen, thresholds, loitering and dwell, strangers at night, comparison with
 * usual, vehicles; and refusals where a question is ambiguous. Each answer must say yes or no
 * the right way round.
 */

const det = makeDetection;
const count = (time: string, value: number, day?: string) => det('person_count', ny(time, day), { value });
const cars = (time: string, n: number, fields: Partial<DetectionRecord> = {}) => det('vehicle', ny(time), { count: n, location: 'parking_lot', ...fields });
const person = (time: string, fields: Partial<DetectionRecord> = {}) => det('person', ny(time), fields);

const SCENE: SceneSnapshot = { people: 7, vehicles: 0, capacity: 40, active_anomalies: 0 };

function ctx(overrides: Partial<QueryContext> = {}): QueryContext {
  return { now: NOW, windowMs: 60 * MIN, timeZone: TZ, location: 'lobby', ...overrides };
}

function ask(query: string, overrides: Partial<QueryContext> = {}): Interpretation {
  const result = interpretQuery(query, ctx(overrides));
  assert.ok(result.ok, `${query}: refused (${result.ok ? '' : result.reason})`);
  return result.interpretation;
}

function answer(query: string, history: DetectionRecord[], scene = SCENE, overrides: Partial<QueryContext> = {}, baseline?: DetectionRecord[][]): string {
  const interp = ask(query, overrides);
  return answerQuery(interp, history, scene, baseline ?? (interp.baseline ?? []).map(() => [])).answer;
}

function refused(query: string, overrides: Partial<QueryContext> = {}): string {
  const result = interpretQuery(query, ctx(overrides));
  assert.equal(result.ok, false, `${query} was understood as ${result.ok ? result.interpretation.summary : ''}`);
  return result.ok ? '' : result.reason;
}

/** 7 people now; a peak of 14 at 09:42; never fewer than 3 in the last hour. */
const LOBBY = [count('09:00', 2), count('09:10', 5), count('09:30', 9), count('09:42', 14), count('09:50', 6), count('10:05', 3), count('10:12', 7)];

test('"is the lobby empty": no when people are there, yes when nobody is (the yes/no is not inverted)', () => {
  const interp = ask('is the lobby empty');
  assert.equal(interp.aggregate, 'presence');
  assert.equal(interp.expect_empty, true);
  assert.equal(answer('is the lobby empty', LOBBY), 'No, 7 people are in the lobby now (10:14).');
  assert.equal(
    answer('is the lobby empty', [...LOBBY, count('10:13', 0)], { ...SCENE, people: 0 }),
    'Yes, the lobby is empty now (10:14): no one is in the lobby now (10:14).',
  );
  // the other way round still reads as before
  assert.match(answer('is anyone in the lobby?', LOBBY), /^Yes, 7 people are in the lobby now/);
  assert.match(answer('is anyone in the lobby?', [...LOBBY, count('10:13', 0)]), /^No, no one is in the lobby now/);
  // over a range: empty means nobody at all
  assert.match(answer('was the lobby empty between 9 and 10', LOBBY), /^No, people were in the lobby/);
  assert.match(answer('was the lobby empty between 9 and 10', [count('08:00', 0), count('09:30', 0)]), /^Yes, the lobby was empty/);
});

test('"is the lobby crowded" and "how full is the lobby?" against capacity', () => {
  const crowded = ask('is the lobby crowded');
  assert.equal(crowded.metric, 'crowd_density');
  assert.equal(crowded.level, 'crowded');
  assert.match(
    answer('is the lobby crowded', LOBBY),
    /^No, the lobby has 7 people now \(10:14\), 18% of its capacity of 40\. Crowded means 75% of capacity or more\.$/,
  );
  assert.match(answer('is the lobby crowded', [count('10:10', 35)]), /^Yes, the lobby has 35 people now/);
  assert.match(answer('is the lobby crowded', LOBBY, { ...SCENE, capacity: 0 }), /^I cannot say whether the lobby is crowded: its capacity is not set\./);
  assert.equal(answer('how full is the lobby?', LOBBY), 'The lobby has 7 people now (10:14), 18% of its capacity of 40.');
  assert.match(answer('is it full', [count('10:10', 40)]), /^Yes, /);
  assert.match(answer('is it quiet', LOBBY), /^Yes, .*Quiet means 25% of capacity or less/);
  // "busy" asks less than "crowded"
  assert.match(
    answer('is it busy', [count('10:10', 24)]),
    /^Yes, the lobby has 24 people now \(10:14\), 60% of its capacity of 40\. Busy means 50% of capacity or more\.$/,
  );
  assert.match(answer('is it crowded', [count('10:10', 24)]), /^No, .*Crowded means 75% of capacity or more\.$/);
  assert.match(answer('was it crowded this morning', LOBBY), /^No, the lobby was most crowded at 09:42 with 14 people, 35% of its capacity of 40/);
  assert.match(answer('is the lobby over capacity', [count('10:10', 41)]), /^Yes, 41 people are in the lobby now/);
  assert.match(answer('is the lobby over capacity', LOBBY), /^No, 7 people are in the lobby now \(10:14\), not more than its capacity of 40\.$/);
});

test('trend: "has the crowd been growing?", "is it getting busier", "foot traffic"', () => {
  const rising = [count('09:00', 1), count('09:20', 2), count('09:40', 6), count('10:00', 9), count('10:10', 12)];
  const falling = [count('09:00', 12), count('09:20', 10), count('09:40', 6), count('10:00', 2)];
  for (const q of ['has the crowd been growing?', 'is it getting busier', 'has foot traffic picked up?', 'are more and more people coming in']) {
    const interp = ask(q);
    assert.equal(interp.aggregate, 'trend', q);
    assert.equal(interp.direction, 'up', q);
    assert.match(answer(q, rising), /^Yes, the number of people in the lobby has been rising in the last hour, from 1 person at 09:14 to 12 at 10:10/, q);
    assert.match(answer(q, falling), /^No, the number of people in the lobby has been falling/, q);
  }
  assert.match(answer('is it quieting down', falling), /^Yes, .* has been falling/);
  assert.match(answer('is it quieting down', rising), /^No, .* has been rising/);
  assert.match(
    answer('how is the crowd trending since 9', [count('09:00', 5), count('09:30', 5), count('10:00', 5)]),
    /^The number of people in the lobby has held about steady since 09:00/,
  );
  // readings covering only the end of the range tell no trend
  assert.match(
    answer('did foot traffic drop since 3pm', [count('10:00', 4), count('10:10', 2)]),
    /^I have too few person counts for the lobby since Mar 9 15:00 to tell a trend\.$/,
  );
  const foot = ask("how's foot traffic today");
  assert.equal(foot.metric, 'people');
  assert.equal(foot.aggregate, 'arrivals');
});

test('last seen: "when was the last car seen?", "when did someone last come in"', () => {
  const lot = { location: 'parking_lot' };
  const interp = ask('when was the last car seen?', lot);
  assert.equal(interp.metric, 'vehicles');
  assert.equal(interp.aggregate, 'last_seen');
  assert.equal(interp.to, NOW);
  assert.equal(interp.from, NOW - 30 * 24 * 60 * MIN, 'looks back 30 days, not only the window');
  const history = [cars('08:00', 0), cars('09:20', 2, { track_id: 'v1' }), cars('09:40', 0)];
  assert.equal(
    answer('when was the last car seen?', history, { ...SCENE, vehicles: 0 }, lot),
    'The last vehicle was seen in the parking lot at 09:20 (54 minutes ago); the count went back to zero at 09:40.',
  );
  assert.equal(
    answer('when was the last car seen?', [...history, cars('10:10', 1)], { ...SCENE, vehicles: 1 }, lot),
    '1 vehicle is in the parking lot now (10:10), so the latest sighting is current.',
  );
  assert.equal(answer('when was the last car seen?', [], { ...SCENE, vehicles: 0 }, lot), 'No vehicle has been seen in the parking lot in the last 30 days.');

  const arrival = ask('when did someone last come in');
  assert.equal(arrival.aggregate, 'last_arrival');
  const people = [...LOBBY, person('09:05', { track_id: 't1' }), person('10:01', { track_id: 't6' }), person('10:11', { track_id: 't6' })];
  assert.equal(answer('when did someone last come in', people), 'The latest person arrived in the lobby at 10:01 (13 minutes ago).');
  // with only a counter, the latest rise is the latest arrival
  assert.equal(answer('when did someone last come in', LOBBY), 'The latest person arrived in the lobby at 10:12 (2 minutes ago).');
  // "when was it last empty": the latest zero reading, and what ended it
  assert.equal(ask('when was the lobby last empty').expect_empty, true);
  assert.equal(
    answer('when was the lobby last empty', [count('08:00', 0), count('08:30', 3), count('09:00', 0), count('09:20', 4)]),
    'The lobby was last empty of people at 09:00 (74 minutes ago), until 09:20.',
  );
  assert.equal(answer('when was the last time the lobby was empty', LOBBY), 'No reading in the last 30 days shows the lobby empty of people.');
  assert.equal(answer('when was the lobby last empty', [count('10:00', 0)], { ...SCENE, people: 0 }), 'The lobby is empty now (10:00).');
  assert.match(
    answer('when was the last stranger seen', [person('09:45', { track_id: 't3', subtype: 'unrecognized' })]),
    /^The last unrecognized person was seen in the lobby at 09:45/,
  );
});

test('thresholds: "more than 5 people at any point in the last hour?", "fewer than 3"', () => {
  const more = ask('were there more than 5 people at any point in the last hour?');
  assert.equal(more.aggregate, 'threshold');
  assert.deepEqual(more.threshold, { op: '>', value: 5, basis: 'peak' });
  assert.equal(more.from, NOW - 60 * MIN);
  assert.equal(
    answer('were there more than 5 people at any point in the last hour?', LOBBY),
    'Yes, the most at once in the last hour was 14 (at 09:42), more than 5.',
  );
  assert.equal(
    answer('were there more than 20 people at any point in the last hour?', LOBBY),
    'No, the most at once in the last hour was 14 (at 09:42), not more than 20.',
  );
  const fewer = ask('were there fewer than 3 people at any point in the last hour?');
  assert.deepEqual(fewer.threshold, { op: '<', value: 3, basis: 'minimum' });
  assert.equal(
    answer('were there fewer than 3 people at any point in the last hour?', LOBBY),
    'No, the fewest at once in the last hour was 3 (at 10:05), not fewer than 3.',
  );
  assert.match(answer('were there ever fewer than four people since 9am', LOBBY), /^Yes, the fewest at once since 09:00 was 2 \(at 09:00\)/);
  assert.equal(answer('are there more than 5 people', LOBBY), 'Yes, 7 people are in the lobby now (10:14), more than 5.');
  assert.equal(answer('are there at least 10 people here right now?', LOBBY), 'No, 7 people are in the lobby now (10:14), not at least 10.');
  assert.match(answer('did a car arrive in the last hour', [cars('09:50', 1, { track_id: 'v9' })]), /^Yes, 1 vehicle arrived in the lobby in the last hour\.$/);
  assert.match(answer('did anyone come in since 10:13', LOBBY), /^No, no people arrived in the lobby since 10:13\.$/);
  assert.match(
    answer('did more than 2 people come in since 9', [
      person('09:05', { track_id: 'a' }),
      person('09:25', { track_id: 'b' }),
      person('09:35', { track_id: 'c' }),
    ]),
    /^Yes, 3 people arrived in the lobby since 09:00, more than 2\.$/,
  );
  // with LOBBY's count rising well past 3 since 09:00, "3 arrived" would contradict it (docs/decisions.md, "Scene questions: round F")
  assert.match(
    answer('did more than 2 people come in since 9', [
      ...LOBBY,
      person('09:05', { track_id: 'a' }),
      person('09:25', { track_id: 'b' }),
      person('09:35', { track_id: 'c' }),
    ]),
    /^Yes, 16 people arrived in the lobby since 09:00 \(from the rises of the person count; 3 of them were tracked\), more than 2\.$/,
  );
  assert.match(
    answer('10+ cars in the lot at any point today?', [cars('09:00', 12)], SCENE, { location: 'parking_lot' }),
    /^Yes, the most at once today was 12/,
  );
  // a number compared with something that is not a count is not guessed at
  refused('how many people were there more than 5 times');
  refused('when were there more than 5 people');
});

test('loitering and dwell: "someone hanging around the entrance?", "how long has that guy been hanging around"', () => {
  const entrance = { location: 'entrance' };
  const loiter = ask('someone hanging around the entrance?', entrance);
  assert.equal(loiter.metric, 'anomalies');
  assert.equal(loiter.min_dwell_s, 300);
  const stay = [
    person('09:54', { track_id: 't5', dwell_s: 200, location: 'entrance' }),
    person('10:13', { track_id: 't5', dwell_s: 1340, location: 'entrance' }),
    person('10:01', { track_id: 't6', dwell_s: 100, location: 'entrance' }),
  ];
  assert.match(
    answer('someone hanging around the entrance?', stay, SCENE, entrance),
    /^Yes, 1 person loitered in the entrance for 5 minutes or more in the last hour \(longest 22 minutes, latest at 10:13\)\.$/,
  );
  assert.match(answer('someone hanging around the entrance?', [], SCENE, entrance), /^No, no one loitered in the entrance/);

  const dwell = ask('how long has that guy been hanging around', entrance);
  assert.equal(dwell.aggregate, 'dwell', 'the stay, not arrivals');
  assert.equal(
    answer('how long has that guy been hanging around', stay, SCENE, entrance),
    'The person who has been in the entrance longest has been there 22 minutes (since 09:50, last seen at 10:13).',
  );
  assert.match(
    answer('how long has that guy been hanging around', [person('09:30', { track_id: 'x', dwell_s: 120, location: 'entrance' })], SCENE, entrance),
    /^No tracked person is in the entrance now\. 1 tracked person stayed in the entrance in the last hour: on average 2 minutes, the longest 2 minutes/,
  );
  assert.match(answer('how long did people stay this morning', stay, SCENE, entrance), /^2 tracked people stayed in the entrance this morning/);
  // habitual or averaged stays are about the range, not whoever is there now
  for (const q of ['how long do people usually stay', 'whats the average dwell time today', 'how much time did people spend here today']) {
    assert.equal(ask(q, entrance).ongoing, false, q);
    assert.match(answer(q, stay, SCENE, entrance), /^2 tracked people stayed in the entrance/, q);
  }
  assert.equal(ask('how long has he been here', entrance).ongoing, true);
  assert.equal(ask('anyone been here over an hour?', entrance).min_dwell_s, 3600);
  assert.equal(ask('anyone here for more than half an hour', entrance).min_dwell_s, 1800);
  const longer = ask('anyone here longer than 10 minutes?', entrance);
  assert.equal(longer.min_dwell_s, 600);
  refused('how long was the lobby empty');
});

test('strangers and suspicious activity, and "tonight" asked after midnight is the night in progress', () => {
  const suspicious = ask('any suspicious activity?');
  assert.equal(suspicious.metric, 'anomalies');
  assert.equal(suspicious.aggregate, 'list');
  const at0145 = Date.parse('2026-03-10T01:45:00-04:00');
  const tonight = ask('did we get any strangers tonight', { now: at0145 });
  assert.equal(tonight.subtype, 'unrecognized');
  assert.equal(tonight.from, ny('18:00', '2026-03-09'));
  assert.equal(tonight.to, at0145);
  const history = [person('00:30', { track_id: 'u1', subtype: 'unrecognized' })].map((d) => ({ ...d, at: Date.parse('2026-03-10T00:30:00-04:00') }));
  assert.equal(
    answerQuery(tonight, history, SCENE).answer,
    'Yes, 1 unrecognized person was seen in the lobby tonight (Mar 9 18:00 to 01:45), the latest at 00:30.',
  );
  // asked in the evening, "tonight" is this evening so far; in the morning it has not begun
  assert.equal(ask('any strangers tonight', { now: ny('20:00') }).from, ny('18:00'));
  assert.match(refused('any strangers tonight', { now: ny('10:14') }), /future/);
  // "overnight" is the night part of the day (21:00 to 05:00), not the evening before it
  // (docs/decisions.md, "Scene questions: round C"); "last night" keeps the evening
  const overnight = ask('anything happen overnight');
  assert.equal(overnight.from, ny('21:00', '2026-03-09'));
  assert.equal(overnight.to, ny('05:00'));
  assert.equal(ask('anything happen last night').from, ny('18:00', '2026-03-09'));
});

test('compared with usual: now against the same time of day on the previous 7 days', () => {
  const interp = ask('are there more people than usual right now?');
  assert.equal(interp.aggregate, 'vs_usual');
  assert.equal(interp.direction, 'up');
  assert.equal(interp.baseline?.length, 7);
  assert.deepEqual(interp.baseline?.[0], { from: ny('09:44', '2026-03-09'), to: ny('10:44', '2026-03-09') });
  // three earlier days with readings at this time: 2, 3 and 4 people → usual 3
  const baseline = [[count('09:00', 2, '2026-03-09')], [count('09:00', 3, '2026-03-08')], [count('09:00', 4, '2026-03-07')], [], [], [], []];
  assert.equal(
    answer('are there more people than usual right now?', LOBBY, SCENE, {}, baseline),
    'Yes, 7 people are in the lobby now (10:14), more than usual: usual at this time of day is 3 (the time-weighted average over the 3 earlier days with readings of the last 7).',
  );
  assert.match(answer('is it quieter than normal', LOBBY, SCENE, {}, baseline), /^No, 7 people are in the lobby now \(10:14\), more than usual/);
  assert.match(
    answer(
      'are there fewer cars than usual?',
      [cars('10:00', 3)],
      SCENE,
      { location: 'parking_lot' },
      baseline.map(() => []),
    ),
    /^I cannot say what is usual: there are no readings/,
  );
  assert.match(answer('was it busier than usual this morning', LOBBY, SCENE, {}, baseline), /^Yes, on average [\d.]+ people were in the lobby this morning/);
});

test('what happened: an overview over the range, "while I was out this afternoon"', () => {
  const at1645 = ny('16:45');
  const interp = ask('what happened while I was out this afternoon', { now: at1645 });
  assert.equal(interp.metric, 'activity');
  assert.equal(interp.aggregate, 'summary');
  assert.equal(interp.from, ny('12:00'));
  assert.equal(interp.to, at1645);
  const history = [
    count('12:00', 0),
    count('13:00', 3),
    count('13:30', 1),
    person('13:00', { track_id: 'a' }),
    person('13:01', { track_id: 'b', subtype: 'unrecognized' }),
  ];
  assert.equal(
    answerQuery(interp, history, SCENE).answer,
    // 3 at once from 0: at least 3 arrived, though 2 were tracked (was "2 people arrived", which the count contradicts; docs/decisions.md, "Scene questions: round F")
    'This afternoon (12:00 to 16:45) in the lobby: 3 people arrived, at most 3 at once (at 13:00); 1 anomaly: 1 unrecognized person, the latest at 13:01.',
  );
  assert.match(answerQuery(interp, [], SCENE).answer, /^I have no readings for the lobby this afternoon/);
  // without a time, "while I was out" is not guessed at
  assert.match(refused('what happened while I was out', { now: at1645 }), /I do not know when "while i was out" was/);
  assert.match(refused('did anyone come by since I left'), /since i left/);
  assert.equal(ask('any strangers while we were away last night').from, ny('18:00', '2026-03-09'));
});

test('sun phrases: "since sunset", "after dark" use the sunset of the scene\'s zone', () => {
  const since = ask('anyone here since sunset');
  // New York, 9 March 2026: sunset a little before 19:00 EDT
  assert.ok(since.from > ny('18:45', '2026-03-09') && since.from < ny('19:15', '2026-03-09'), new Date(since.from).toISOString());
  assert.equal(since.to, NOW);
  assert.match(since.range_label, /^since sunset \(Mar 9 1[89]:\d\d\)$/);
  const tokyo = ask('any cars after dark', { timeZone: 'Asia/Tokyo', now: Date.parse('2026-03-10T23:00:00+09:00') });
  const tokyoSunset = new Date(tokyo.from).toLocaleTimeString('en-GB', { timeZone: 'Asia/Tokyo', hour12: false });
  assert.match(tokyoSunset, /^17:[345]\d/, tokyoSunset);
  assert.match(refused('anyone since sunset yesterday'), /more than one time/);
});

test('day labels: weekdays named, a weekend is Saturday and Sunday', () => {
  // "were in the lobby on monday" asks how many were there, the peak since round R (round-r-scene.test.ts)
  const monday = ask('how many people arrived in the lobby on monday');
  assert.equal(monday.range_label, 'on Monday');
  assert.equal(answerQuery(monday, [], SCENE).answer, 'No people arrived in the lobby on Monday.');
  const weekend = ask('how busy was it last weekend');
  assert.equal(weekend.from, Date.parse('2026-03-07T00:00:00-05:00'));
  assert.equal(weekend.to, Date.parse('2026-03-09T00:00:00-04:00'));
});

test('time phrases: "yesterday afternoon", "around 4"', () => {
  const y = ask('any people yesterday afternoon');
  assert.equal(y.from, ny('12:00', '2026-03-09'));
  assert.equal(y.to, ny('17:00', '2026-03-09'));
  const at1645 = ny('16:45');
  const point = ask('how many people were here around 4', { now: at1645 });
  assert.equal(point.aggregate, 'current');
  assert.equal(point.to, ny('16:00'));
  const presence = ask('was anyone here around 4', { now: at1645 });
  assert.equal(presence.aggregate, 'presence');
  assert.deepEqual([presence.from, presence.to], [ny('15:30'), ny('16:30')]);
  const span = ask('how many people came in around 4', { now: at1645 });
  assert.equal(span.aggregate, 'arrivals');
  assert.equal(span.from, ny('15:30'));
  assert.equal(span.to, ny('16:30'));
});

test('vehicles: presence, arrivals and peak in the lot', () => {
  const lot = { location: 'parking_lot' };
  const history = [cars('09:00', 0), cars('09:20', 2, { track_id: 'v1' }), cars('09:30', 3, { track_id: 'v2' }), cars('09:40', 0)];
  assert.match(
    answer('any cars in the lot in the last hour?', history, SCENE, lot),
    /^Yes, vehicles were in the parking lot in the last hour, up to 3 at once/,
  );
  // the count went 0 → 2 → 3 with 2 tracks: 3 arrived (was 2, which "up to 3 at once" contradicts; docs/decisions.md, "Scene questions: round F")
  assert.match(
    answer('how many vehicles came in since 9', history, SCENE, lot),
    /^3 vehicles arrived in the parking lot since 09:00 \(from the rises of the vehicle count; 2 of them were tracked\)/,
  );
  // "empty" at a car park with nothing named: empty of people and of vehicles
  assert.equal(ask('is the lot empty', lot).metric, 'activity');
  assert.equal(
    answer('is the lot empty', [...history, count('09:45', 1)], { ...SCENE, vehicles: 0, people: 1 }, lot),
    'No, 1 person is in the parking lot now (10:14).',
  );
  assert.equal(
    answer('is the lot empty', [...history, count('09:45', 0)], { ...SCENE, vehicles: 0, people: 0 }, lot),
    'Yes, the parking lot is empty now (10:14): no people and no vehicles.',
  );
  assert.match(answer('was the lot empty last night', [], SCENE, lot), /^I have no readings for the parking lot last night/);
  // "full" could be either: asked
  assert.match(refused('is the lot full', lot), /People or vehicles/);
  // "getting quieter" there: both counts, yes or no only when they agree
  const quieter = ask('has it been getting quieter since 9', lot);
  assert.equal(quieter.metric, 'activity');
  assert.match(
    answer(
      'has it been getting quieter since 9',
      [count('09:00', 6), count('09:30', 4), count('10:00', 1), cars('09:00', 5), cars('09:30', 3), cars('10:00', 1)],
      SCENE,
      lot,
    ),
    /^Yes, the number of people in the parking lot has been falling since 09:00.*; and the number of vehicles in the parking lot has been falling/,
  );
  assert.doesNotMatch(
    answer(
      'has it been getting quieter since 9',
      [count('09:00', 1), count('09:30', 4), count('10:00', 6), cars('09:00', 5), cars('09:30', 3), cars('10:00', 1)],
      SCENE,
      lot,
    ),
    /^(Yes|No)\b/,
  );
  assert.match(answer('is anyone in the lot', [count('10:00', 0)], { ...SCENE, people: 0 }, lot), /^No, no one is in the parking lot now/);
  assert.match(answer('any cars in the lot right now', history, { ...SCENE, vehicles: 0 }, lot), /^No, no vehicles are in the parking lot now/);
});

test('leaving: "how many people left", "has anyone left", "when did the last car leave"', () => {
  // counter only: departures are the falls (14 → 6 → 3 since 09:30)
  assert.equal(answer('how many people left since 9:30', LOBBY), '11 people left the lobby since 09:30.');
  assert.equal(answer('has anyone left since 9:30', LOBBY), 'Yes, 11 people left the lobby since 09:30.');
  assert.equal(answer('has anyone left since 10:06', [count('10:00', 3), count('10:12', 7)]), 'No, no people left the lobby since 10:06.');
  assert.equal(answer('when did the last person leave', LOBBY), 'The latest person left the lobby at 10:05 (9 minutes ago).');
  // tracked people: one who is still there has not left
  const tracked = [person('09:20', { track_id: 'a' }), person('09:40', { track_id: 'a' }), person('10:13', { track_id: 'b' })];
  assert.equal(answer('how many people left in the last hour', tracked), '1 person left the lobby in the last hour.');
  const lot = { location: 'parking_lot' };
  assert.match(
    answer('when did the last car leave', [cars('09:00', 2), cars('09:30', 1), cars('09:50', 0)], SCENE, lot),
    /^The latest vehicle left the parking lot at 09:50/,
  );
  // "is anyone left" can mean still there or gone: asked, not guessed
  assert.match(refused('is anyone left in the lobby'), /still there, or who has left/);
  assert.match(refused('was it busier yesterday'), /than when/);
  assert.match(refused('is it busier now'), /than when/);
  assert.equal(ask('is it busier than before').direction, 'up');
});

test('a share of capacity is compared as a share, not as a head count', () => {
  const interp = ask('is it over 50%');
  assert.deepEqual(interp.threshold, { op: '>', value: 50, share: true, basis: 'current' });
  assert.equal(answer('is it over 50%', LOBBY), 'No, 7 people are in the lobby now (10:14), not more than 50% of its capacity of 40 (20 people).');
  assert.match(answer('is the lobby more than 10 percent full', LOBBY), /^Yes, 7 people are in the lobby now/);
  assert.match(answer('is it over 50%', LOBBY, { ...SCENE, capacity: 0 }), /capacity of the lobby is not set/);
});

test('"all quiet?", "everything ok?" ask about anything unusual; "status" is an overview of now', () => {
  for (const q of ['all quiet?', 'everything ok in the lobby?', 'all clear?']) assert.equal(ask(q).metric, 'anomalies', q);
  assert.match(answer('all quiet?', LOBBY), /^No, nothing unusual in the lobby in the last hour/);
  const status = ask('status update?');
  assert.equal(status.aggregate, 'summary');
  assert.equal(answer('status update?', LOBBY), 'The lobby has 7 people now (10:14); nothing unusual.');
});

test('places: a door is the entrance; another qualified place is another scene', () => {
  const entrance = { location: 'front_entrance' };
  assert.equal(ask('is someone at the door', entrance).aggregate, 'presence');
  assert.match(refused('anyone at the back entrance', entrance), /front entrance.*"back entrance"/);
  assert.equal(ask('anyone at the front entrance', entrance).aggregate, 'presence');
  assert.match(refused('anyone at the door'), /lobby.*"door"/);
});

test('"getting busy" is a change, "crowd level?" a level, "the longest stay" the longest of the range', () => {
  assert.equal(ask('is the lobby getting busy?').aggregate, 'trend');
  assert.equal(ask('is it getting quiet').direction, 'down');
  const level = ask('crowd level?');
  assert.equal(level.metric, 'crowd_density');
  assert.equal(level.level, undefined);
  const stays = [
    person('09:00', { track_id: 'a', dwell_s: 10 }),
    person('09:40', { track_id: 'a', dwell_s: 2410 }),
    person('10:13', { track_id: 'b', dwell_s: 60 }),
  ];
  assert.match(
    answer("what's the longest anyone has stayed today", stays),
    /^2 tracked people stayed in the lobby today: on average \d+ minutes, the longest 40 minutes \(until 09:40\)\.$/,
  );
});

test('typos: swapped letters and one-letter slips towards the words that matter, never from a real word', () => {
  const cases: Array<[string, string]> = [
    ['is the loby crowded', 'current'],
    ['were there mroe than 5 people', 'threshold'],
    ['when was the lsat car seen', 'last_seen'],
    ['is it geting busier', 'trend'],
    ['hwo many ppl', 'current'],
    ['is the lobby emtpy', 'presence'],
    ['anyting unusual', 'list'],
    ['any strangrs today', 'list'],
    ['how bussy is it', 'current'],
  ];
  for (const [q, aggregate] of cases) assert.equal(ask(q).aggregate, aggregate, q);
  assert.deepEqual(ask('are there at least 10 people here right now?').threshold, { op: '>=', value: 10, basis: 'current' });
  refused('where is everyone'); // not "were"
  // not "cars": a question about cats (it was refused as animals now, which are answered from the
  // latest reading since docs/decisions.md, "Before round L: scene questions")
  assert.equal(ask('any cats in the lobby').metric, 'animals');
});

test('the quietest moment, and "usually" with no span named is the same time on earlier days', () => {
  assert.equal(answer('fewest people since 9', LOBBY), 'The fewest people in the lobby since 09:00 was 2, at 09:00.');
  assert.equal(answer('when was it quietest today', LOBBY), 'The lobby was least crowded at 09:00 with 2 people, 5% of its capacity of 40, today.');
  const usual = ask('how many people are usually here');
  assert.equal(usual.aggregate, 'vs_usual');
  assert.equal(usual.direction, undefined);
  const baseline = [[count('09:00', 7, '2026-03-09')], [], [], [], [], [], []];
  assert.equal(
    answer('how many people are usually here', LOBBY, SCENE, {}, baseline),
    '7 people are in the lobby now (10:14), about the usual number: usual at this time of day is 7 (the time-weighted average on the 1 earlier day with readings of the last 7).',
  );
  // with a span named, "typical" stays the average over that span
  assert.equal(ask('typical number of people in the last 2 hours').aggregate, 'average');
});

test('a vault at night: intrusions, "all night", "after hours"', () => {
  const vault = { location: 'vault' };
  assert.equal(ask('was there an intrusion last night', vault).subtype, 'unrecognized');
  assert.equal(ask('any break-ins last night', vault).subtype, 'unrecognized');
  const allNight = ask('has the vault been empty all night', vault);
  assert.equal(allNight.expect_empty, true);
  assert.equal(allNight.from, ny('21:00', '2026-03-09'));
  assert.equal(allNight.to, ny('05:00'));
  assert.match(
    answerQuery(allNight, [count('17:00', 0, '2026-03-09'), count('23:00', 0, '2026-03-09')], SCENE).answer,
    /^Yes, the vault was empty overnight \(Mar 9 21:00 to 05:00\): no one was seen\.$/,
  );
  assert.match(refused('anyone in the vault after hours?', vault), /opening hours/);
});

test('"the peak" alone is the people count at a lobby, asked about at a car park; British spellings; "down there"', () => {
  assert.equal(answer("what's the peak in the last hour", LOBBY), 'Peak of 14 people in the lobby at 09:42, in the last hour.');
  assert.match(refused('what was the peak today', { location: 'parking_garage' }), /people or of vehicles/);
  assert.equal(ask("when did you last see someone you didn't recognise?").subtype, 'unrecognized');
  assert.equal(ask('any unrecognised people in the last 10 minutes?').subtype, 'unrecognized');
  assert.equal(ask('is it crowded down there').level, 'crowded');
  assert.equal(ask('how long has that person been down there?').aggregate, 'dwell');
});

test('spoken clock times and times inside last night', () => {
  assert.equal(ask('how many people were here at half past 7').to, ny('07:30'));
  assert.equal(ask('anyone here at quarter to 9').to, ny('08:45'));
  assert.equal(ask('any cars from 9 to 10').from, ny('09:00'), '"9 to 10" stays a range');
  const at0145 = Date.parse('2026-03-11T01:45:00-04:00');
  assert.equal(ask('how many people were here at 11:30 last night', { now: at0145 }).to, Date.parse('2026-03-10T23:30:00-04:00'));
  assert.equal(ask('anyone here at 1am last night', { now: at0145 }).to, Date.parse('2026-03-11T01:00:00-04:00'));
});

test('"occupancy" over a span is the count of occupants; now, the share with the count', () => {
  assert.equal(ask('average occupancy between 9 and 10').metric, 'people');
  assert.equal(ask('peak occupancy today').metric, 'people');
  assert.equal(ask("what's the occupancy").metric, 'crowd_density');
  assert.equal(ask('average crowd density today').metric, 'crowd_density');
});

test('ambiguous or unanswerable questions are refused, never guessed', () => {
  // "how many in the lobby" is a count of people now (a count with nothing named; docs/decisions.md,
  // "Scene questions: round C"); where cars park it is still asked which
  assert.equal(ask('how many in the lobby').metric, 'people');
  assert.match(refused('how many in the garage', { location: 'parking_garage' }), /People or vehicles/);
  for (const q of [
    'is the lobby crowded and empty',
    'has the crowd been growing or shrinking',
    'are there more people than usual and more than 5',
    'any suspicious cars',
    'were there more than 5 strangers',
    'is the lobby busier than the lot',
    'how long will people stay',
    // negative questions: a yes or a no would read either way round
    "isn't anyone here?",
    'no cars today?',
    'is the lobby not empty',
    'nobody here?',
    // two questions, or a follow-up to a question this surface does not keep
    'how many people came in today and when was the last one',
    'how many people are here and is it crowded',
    'how many people? any cars?',
    'same for cars',
    'and yesterday?',
    'how many people came in and out',
  ]) {
    refused(q);
  }
});
