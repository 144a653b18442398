import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DetectionRecord } from '../../src/platform/kinds/index.ts';
import { answerQuery, interpretQuery, type Interpretation, type QueryContext, type SceneSnapshot } from '../../src/org/scenes/query/query.ts';
import { MIN, NOW, TZ, makeDetection, ny } from './scene-fixtures.ts';

/**
 * The coverage rule of the scene interpreter (docs/decisions.md, "Scene questions: coverage
 * before an answer"), first and last seen, dwell that agrees with the scene's count, and the
 * paraphrases people use ("clear of people", "no. of", "as of now").
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
function answer(query: string, history: DetectionRecord[], scene = SCENE, overrides: Partial<QueryContext> = {}): string {
  const interp = ask(query, overrides);
  return answerQuery(
    interp,
    history,
    scene,
    (interp.baseline ?? []).map(() => []),
  ).answer;
}
function refused(query: string, overrides: Partial<QueryContext> = {}): string {
  const result = interpretQuery(query, ctx(overrides));
  assert.equal(result.ok, false, `${query} was understood as ${result.ok ? result.interpretation.summary : ''}`);
  return result.ok ? '' : result.reason;
}

test('coverage: an unknown word planted in every slot of a question is refused, naming the word', () => {
  const questions = [
    'how many people were in the lobby since 9am',
    'when was the last car seen this morning',
    'is the lobby empty right now',
    'were there more than 5 people at any point in the last hour',
    'how long has that guy been hanging around',
    'when was the first car seen today',
  ];
  for (const q of questions) {
    const words = q.split(' ');
    for (let i = 0; i <= words.length; i++) {
      const planted = [...words.slice(0, i), 'flurbish', ...words.slice(i)].join(' ');
      const reason = refused(planted);
      assert.match(reason, /flurbish/, `${planted}: ${reason}`);
    }
  }
});

test('coverage: the refusal says what was understood and what was not', () => {
  const reason = refused('what was the peak of cars flurbish since 9am', { location: 'parking_lot' });
  assert.match(reason, /^I understood a question about the peak of vehicles in the parking lot since 09:00, but not "flurbish"/);
});

test('coverage: a time or comparison word left unread is never answered as another question', () => {
  // "more … than an hour ago" is not "how many an hour ago" (it is a comparison of two times,
  // below); without a first time it is refused
  assert.notEqual(ask('are there more people now than an hour ago').aggregate, 'current');
  // asked in the present tense the first time is now (docs/decisions.md, "Scene questions: the
  // second round"); in the past tense no first time is said, and it is still refused
  assert.equal(ask('are there more people than an hour ago').aggregate, 'compare');
  assert.match(refused('were there more people than an hour ago'), /but not "more", "than"/);
  assert.match(refused('how many people in the lobby since before 9'), /but not "since"/);
  assert.match(refused('how many people came in after lunch'), /"lunch", "after"/);
  assert.match(refused('how many people every hour today'), /"every"/);
  // what the read stage consumed is not left over
  assert.equal(ask('is it busier than before').aggregate, 'trend');
  assert.equal(ask('how many minutes has he been here').aggregate, 'dwell');
  assert.equal(ask('anyone been hanging around for a long time?').min_dwell_s, 300);
});

test('first seen: the earliest sighting in the range, and anyone already there said so', () => {
  const interp = ask('when was the first car seen this morning', { location: 'parking_lot' });
  assert.equal(interp.aggregate, 'first_seen');
  assert.equal(interp.metric, 'vehicles');
  const lot = { location: 'parking_lot' };
  assert.match(
    answer('first car this morning', [cars('04:00', 0), cars('06:12', 1, { track_id: 'v1' }), cars('06:40', 2, { track_id: 'v2' })], SCENE, lot),
    /^The first vehicle this morning \(05:00 to 10:14\) was seen in the parking lot at 06:12/,
  );
  // two cars parked overnight: the first car "this morning" was there before it began
  assert.match(
    answer('first car this morning', [cars('04:30', 2), cars('07:05', 3)], SCENE, lot),
    /^This morning \(05:00 to 10:14\), 2 vehicles were already in the parking lot when that began \(counted at 04:30\); the first to arrive after that came at 07:05\.$/,
  );
  assert.match(
    answer('when did the first person arrive today', [count('00:00', 0), person('08:02', { track_id: 'p1' }), person('08:30', { track_id: 'p2' })]),
    /at 08:02/,
  );
  assert.match(answer('first car this morning', [cars('04:00', 0)], SCENE, lot), /^No vehicle was seen in the parking lot this morning \(05:00 to 10:14\)\.$/);
  assert.match(refused('when did the first and last car leave'), /first and the last/);
});

test('dwell never contradicts the count: nobody there now is never "5 people are there now"', () => {
  const dock = { location: 'dock' };
  // five tracks seen a minute ago, then the count fell to zero: they have gone
  const left = [
    ...['a', 'b', 'c', 'd', 'e'].map((id) => person('10:13', { track_id: id, dwell_s: 600, location: 'dock' })),
    det('person_count', ny('10:13') + 30_000, { value: 0, location: 'dock' }),
  ];
  const said = answer('how long has the person at the dock been here', left, { ...SCENE, people: 0 }, dock);
  assert.doesNotMatch(said, /are there now|are in the dock now/);
  assert.match(said, /^No one is in the dock now, so no stay is going on\./);
  assert.match(
    answer('how long has the person at the dock been here', [det('person_count', ny('10:00'), { value: 0, location: 'dock' })], { ...SCENE, people: 0 }, dock),
    /^No one is in the dock now \(10:14\), so no stay is going on\.$/,
  );
  // two tracks there, the count says 2: the count is what is said
  const there = [count('10:00', 2), person('10:13', { track_id: 'a', dwell_s: 900 }), person('10:13', { track_id: 'b', dwell_s: 300 })];
  assert.match(
    answer('how long has the person here been here', there, { ...SCENE, people: 2 }),
    /has been there 15 minutes .* 2 people are in the lobby now\.$/,
  );
  // three recent tracks, but the count says 2: the count is said, not the tracks
  const three = [...there, person('10:13', { track_id: 'c', dwell_s: 60 }), count('10:13', 2)];
  assert.match(answer('how long has the person here been here', three, { ...SCENE, people: 2 }), / 2 people are in the lobby now\.$/);
});

test('dwell: single sightings with no reported dwell are not stays of 0 seconds', () => {
  const history = [
    count('09:00', 3),
    count('09:30', 4),
    person('09:10', { track_id: 'a' }),
    person('09:40', { track_id: 'b' }),
    person('10:10', { track_id: 'c' }),
  ];
  const said = answer('longest anyone stayed in the lobby since 9', history);
  assert.doesNotMatch(said, /0 seconds/);
  assert.match(said, /^The count shows people in the lobby since 09:00 \(up to 4 at once\), but no stay was tracked long enough to measure/);
  assert.match(
    answer('longest anyone stayed in the lobby since 9', [count('09:00', 3), person('09:10')]),
    /but no person was tracked, so I cannot say how long anyone stayed/,
  );
});

test('paraphrases: clear of, free of, no. of, as of now, than normal for this time of day', () => {
  assert.equal(ask('is the lobby clear of people').expect_empty, true);
  const free = ask('is the lot free of vehicles', { location: 'parking_lot' });
  assert.equal(free.metric, 'vehicles');
  assert.equal(free.expect_empty, true);
  assert.match(
    answer('is the lot free of vehicles', [cars('10:00', 3)], { ...SCENE, vehicles: 3 }, { location: 'parking_lot' }),
    /^No, 3 vehicles are in the parking lot/,
  );
  assert.equal(ask('no. of people now').aggregate, 'current');
  assert.equal(ask('how many people as of now').aggregate, 'current');
});

test('spoken clock times: "half seven", "ten to eight", "quarter past nine", "at seven"', () => {
  assert.equal(ask('how many people were here at ten to eight').to, ny('07:50'));
  assert.equal(ask('how many people at quarter past nine').to, ny('09:15'));
  assert.equal(ask('how many people were here at half seven').to, ny('07:30'));
  assert.equal(ask('was anyone here at seven').to, ny('07:00'));
  assert.equal(ask('how many people were here at seven thirty').to, ny('07:30'));
  // a range and a duration stay what they are
  assert.equal(ask('anyone here for half an hour').min_dwell_s, 1800);
  refused('how many people from ten to eight');
});

test('usual for this time of day, compare with usual, heavier traffic, car park words', () => {
  for (const q of ['is the lobby busier than normal for this time of day?', 'is it busy for this time of day', 'compare the number of people now with usual']) {
    assert.equal(ask(q).aggregate, 'vs_usual', q);
  }
  assert.equal(ask('is it busier than normal for this time of day?').direction, 'up');
  assert.equal(ask('is traffic heavier than usual').metric, 'vehicles');
  // "car" in a car park's name: "cars" is what is counted, "car park" the place
  const park = { location: 'staff_car_park' };
  assert.equal(ask('how many cars in the car park now', park).metric, 'vehicles');
  assert.equal(ask('what time did the first car arrive this morning?', park).metric, 'vehicles');
  assert.equal(ask('is the car park clear of people?', park).expect_empty, true);
});

test('animals: "what time was the cat seen" gives the latest sighting', () => {
  const yard = { location: 'back_yard' };
  const cat = (time: string, id: string) => det('animal', ny(time), { subtype: 'cat', track_id: id, location: 'back_yard' });
  assert.match(answer('when was the cat last seen?', [cat('03:40', 'c1')], SCENE, yard), /at 03:40/);
  assert.match(
    answer('what time was the cat seen', [cat('03:40', 'c1'), cat('01:10', 'c0')], SCENE, yard),
    /^The latest cat sighting in the back yard in the last day was at 03:40 \(2 cat sightings in all\)\.$/,
  );
});

test('compare two times: "compare this morning with yesterday morning", "more people now than an hour ago?"', () => {
  const interp = ask('compare this morning with yesterday morning');
  assert.equal(interp.aggregate, 'compare');
  assert.equal(interp.compare_with?.from, ny('05:00', '2026-03-09'));
  assert.deepEqual(interp.baseline, [{ from: ny('05:00', '2026-03-09'), to: ny('12:00', '2026-03-09') }]);
  const today = [count('05:00', 10), count('07:00', 20)];
  const yesterday = [count('05:00', 4, '2026-03-09'), count('09:00', 6, '2026-03-09')];
  const said = answerQuery(interp, today, SCENE, [yesterday]).answer;
  assert.match(
    said,
    /on average 16\.2 people, at most 20 at once \(at 07:00\).*yesterday morning.*on average 4\.9 people, at most 6 at once.*more people this morning/,
  );
  const now = ask('are there more people now than an hour ago?');
  assert.equal(now.aggregate, 'compare');
  assert.equal(now.from, NOW);
  assert.equal(now.compare_with?.from, NOW - 60 * MIN);
  assert.match(answerQuery(now, [count('10:00', 9)], SCENE, [[count('09:00', 3)]]).answer, /^Yes\. .*9 people.*3 people — more people now\.$/);
  // at a car park with neither named: both counts
  const lot = ask('compare this morning with yesterday', { location: 'staff_car_park' });
  assert.equal(lot.metric, 'activity');
  assert.match(
    answerQuery(lot, [count('05:00', 1), cars('06:00', 4)], SCENE, [[count('05:00', 2, '2026-03-09')]]).answer,
    /people.*I cannot compare: there are no vehicle counts/,
  );
});

test('a clock time without morning or evening, when both have passed, is answered for both', () => {
  const interp = ask('how many cars were there at 8:30 yesterday?', { location: 'parking_lot' });
  assert.ok(interp.other_reading);
  // a past day's bare hour is its daytime hour first (docs/decisions.md, "One spoken-clock reader"):
  // 08:30 yesterday, with 20:30 as the other reading
  const morning = [cars('08:00', 13)].map((d) => ({ ...d, at: d.at - 24 * 60 * MIN }));
  const evening = [{ ...cars('20:00', 1), at: ny('20:00', '2026-03-09') }];
  const said = answerQuery(interp, morning, SCENE, [evening]).answer;
  assert.match(said, /13 vehicles .*08:30.*; at .*20:30, the other time of day you may mean, there (was|were) 1 vehicle\.$/);
  // said with morning, or today with only one reading passed: one answer
  assert.equal(ask('how many people were here at 8:30 this morning').other_reading, undefined);
  assert.equal(ask('how many people were here at 9').other_reading, undefined);
});
