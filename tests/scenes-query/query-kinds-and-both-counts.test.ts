import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DetectionRecord } from '../../src/platform/kinds/index.ts';
import { answerQuery, interpretQuery, type Interpretation, type QueryContext, type SceneSnapshot } from '../../src/org/scenes/query/query.ts';
import { MIN, NOW, TZ, makeDetection, ny } from './scene-fixtures.ts';

/**
 * Scene questions, the second round (docs/decisions.md, "Scene questions: the second round"):
 * kinds the cameras cannot tell apart, questions about both counts at a car park, "and when",
 * lunchtime, "than it is now", the stays of unrecognized people, and the coverage rule with an
 * unknown word in each slot of a question.
 */

const det = makeDetection;
const count = (time: string, value: number, day?: string, location = 'lobby') => det('person_count', ny(time, day), { value, location });
const cars = (time: string, n: number, day?: string) => det('vehicle', ny(time, day), { count: n, location: 'parking_lot' });
const person = (time: string, fields: Partial<DetectionRecord> = {}) => det('person', ny(time), fields);
const SCENE: SceneSnapshot = { people: 7, vehicles: 0, capacity: 40, active_anomalies: 0 };
const LOT = { location: 'parking_lot' };

function ctx(overrides: Partial<QueryContext> = {}): QueryContext {
  return { now: NOW, windowMs: 60 * MIN, timeZone: TZ, location: 'lobby', ...overrides };
}
function ask(query: string, overrides: Partial<QueryContext> = {}): Interpretation {
  const result = interpretQuery(query, ctx(overrides));
  assert.ok(result.ok, `${query}: refused (${result.ok ? '' : result.reason})`);
  return result.interpretation;
}
/** The answer, with each baseline span's history cut from the same detections, as the service loads it. */
function answer(query: string, history: DetectionRecord[], scene = SCENE, overrides: Partial<QueryContext> = {}): string {
  const interp = ask(query, overrides);
  const baseline = (interp.baseline ?? []).map((span) => history.filter((d) => d.at <= span.to));
  const own = history.filter((d) => d.at <= interp.to);
  return answerQuery(interp, own, scene, baseline).answer;
}
function refused(query: string, overrides: Partial<QueryContext> = {}): string {
  const result = interpretQuery(query, ctx(overrides));
  assert.equal(result.ok, false, `${query} was understood as ${result.ok ? result.interpretation.summary : ''}`);
  return result.ok ? '' : result.reason;
}

test('kinds of people the cameras do not tell apart are refused; a person pointed at is a person', () => {
  for (const q of [
    'how many kids are in the lobby?',
    'any children here today?',
    'how many women came in since 9',
    'were there teenagers hanging around?',
    'how many adults now',
  ]) {
    assert.match(refused(q), /cannot tell .* apart from other people/, q);
  }
  for (const q of ['how long has that bloke been hanging round?', 'is that guy still here?', 'how many customers now', 'how many guys are in the lobby now?']) {
    assert.equal(ask(q).metric === 'people' || ask(q).metric === 'anomalies', true, q);
  }
});

test('a count of trucks is every vehicle, said so; a yes/no about trucks and scooters are refused; bicycles are a kind of their own', () => {
  const interp = ask('how many trucks are in the lot at the moment?', LOT);
  assert.equal(interp.metric, 'vehicles');
  assert.deepEqual(interp.vehicle_kinds, ['trucks']);
  const said = answer('how many trucks are in the lot at the moment?', [cars('10:00', 2)], { ...SCENE, vehicles: 2 }, LOT);
  assert.match(
    said,
    /^There are 2 vehicles in the parking lot now \(10:14\)\. The cameras count vehicles of every kind together and cannot tell "trucks" from other vehicles/,
  );
  // "any trucks?" is the same count, never a yes (since round J, docs/decisions.md, "Round J: scene questions")
  assert.match(
    answer('any trucks in the lot?', [cars('10:00', 2)], { ...SCENE, vehicles: 2 }, LOT),
    /^There are 2 vehicles in the parking lot now \(10:14\)\. The cameras count vehicles of every kind together and cannot tell "trucks" from other vehicles/,
  );
  // "when was the last van seen?": the last vehicle of any kind bounds it, and the answer says so
  // (docs/decisions.md, "Scene questions: round C"); a yes/no about a kind stays refused
  assert.match(
    answer('when was the last van seen?', [cars('09:30', 1), cars('09:40', 0)], { ...SCENE, vehicles: 0 }, LOT),
    /^The last vehicle was seen in the parking lot at 09:30 .*cannot tell "van" from other vehicles, so that is the last vehicle of any kind: the last "van" came then or earlier\.$/,
  );
  assert.match(refused('how many scooters are in the lot?', LOT), /do not report "scooters"/);
  // the detector reports bicycles (the table of detection kinds), so they are counted, never refused
  assert.equal(ask('how many bicycles are in the lot?', LOT).metric, 'objects');
  // a kind that is not a vehicle word on its own is never counted as people
  refused('how many ambulances came in today?', LOT);
});

test('"… and when?" rides along only with an answer that says when', () => {
  const peak = ask('what was the peak number of people today and when?');
  assert.equal(peak.aggregate, 'peak');
  assert.match(
    answer('what was the peak number of people today and when?', [count('08:00', 3), count('09:30', 9), count('10:00', 4)]),
    /Peak of 9 people in the lobby at 09:30/,
  );
  assert.equal(ask('when was the first car seen today and at what time?', LOT).aggregate, 'first_seen');
  assert.match(refused('how many people came in today and when?'), /more than one question/);
  assert.match(refused('is it crowded and when was the last car seen?'), /more than one question/);
});

test('lunchtime is 12:00 to 14:00; "since lunch" is not guessed', () => {
  // asked at 10:14, today's lunchtime has not happened yet
  assert.match(refused('how many people came in at lunchtime today'), /in the future/);
  const yesterday = ask('how many people came in at lunchtime yesterday');
  assert.equal(yesterday.from, ny('12:00', '2026-03-09'));
  assert.equal(yesterday.to, ny('14:00', '2026-03-09'));
  assert.equal(ask('how long did that unrecognised guy hang about over lunch yesterday?').from, ny('12:00', '2026-03-09'));
  assert.match(refused('how many people came in since lunch'), /"lunch"/);
});

test('"was it busier at noon than it is now?": two times compared, now the second', () => {
  const later = { now: ny('14:00') };
  const interp = ask('was it busier at noon than it is now?', later);
  assert.equal(interp.aggregate, 'compare');
  assert.equal(interp.from, ny('12:00'));
  assert.equal(interp.compare_with?.from, ny('14:00'));
  const history = [count('11:00', 15), count('12:00', 18), count('13:00', 12)];
  assert.match(answer('was it busier at noon than it is now?', history, { ...SCENE, people: 12 }, later), /^Yes\. /);
  assert.match(answer('was it quieter at noon than it is now?', history, { ...SCENE, people: 12 }, later), /^No\. /);
  // in the present tense with no first time, the first is now; "this time yesterday" is a moment
  const sameTime = ask('is it busier than this time yesterday?', later);
  assert.equal(sameTime.aggregate, 'compare');
  assert.equal(sameTime.from, ny('14:00'));
  assert.equal(sameTime.compare_with?.from, ny('14:00', '2026-03-09'));
  assert.equal(sameTime.compare_with?.to, ny('14:00', '2026-03-09'));
  assert.match(refused('was it busier than yesterday?', later), /but not "than"/);
  // "than usual" is still a comparison with earlier days, not with now
  assert.equal(ask('are there more people than usual right now?').aggregate, 'vs_usual');
});

test('both counts at a car park: emptying out and busier than normal answer yes or no only when the counts agree', () => {
  // vehicles falling, people steady at zero: emptying out
  const emptying = [count('09:00', 0, undefined, 'parking_lot'), cars('09:10', 36), cars('09:40', 22), cars('10:00', 11), cars('10:10', 6)];
  assert.match(answer('has the car park been emptying out over the last hour?', emptying, { ...SCENE, people: 0, vehicles: 6 }, LOT), /^Yes, /);
  assert.match(answer('has the car park been filling up over the last hour?', emptying, { ...SCENE, people: 0, vehicles: 6 }, LOT), /^No, /);
  // vehicles falling while people rise: neither yes nor no
  const mixed = [
    count('09:10', 0, undefined, 'parking_lot'),
    count('09:40', 4, undefined, 'parking_lot'),
    count('10:10', 9, undefined, 'parking_lot'),
    cars('09:10', 36),
    cars('09:40', 22),
    cars('10:10', 6),
  ];
  assert.match(answer('has the car park been emptying out over the last hour?', mixed, { ...SCENE, people: 9, vehicles: 6 }, LOT), /^Partly: /);
  // busier than normal for this time of day: both counts against the same time on earlier days
  const interp = ask('is it busier than normal for this time of day?', LOT);
  assert.equal(interp.metric, 'activity');
  assert.equal(interp.aggregate, 'vs_usual');
  const days = ['2026-03-07', '2026-03-08', '2026-03-09'];
  const usual = [
    ...days.map((d) => count('09:30', 2, d, 'parking_lot')),
    ...days.map((d) => cars('09:30', 1, d)),
    count('10:00', 8, undefined, 'parking_lot'),
    cars('10:00', 5),
  ];
  assert.match(
    answer('is it busier than normal for this time of day?', usual, { ...SCENE, people: 8, vehicles: 5 }, LOT),
    /^Yes, 8 people are in the parking lot now .*; and 5 vehicles are in the parking lot now/,
  );
  assert.match(answer('is it quieter than normal for this time of day?', usual, { ...SCENE, people: 8, vehicles: 5 }, LOT), /^No, /);
  // "is the parking lot full?" names no count and no comparison: still asked
  assert.match(refused('is the parking lot full?', LOT), /People or vehicles\?/);
});

test('how long an unrecognized person stayed: only the unrecognized tracks', () => {
  const history = [
    count('12:00', 2),
    person('12:40', { track_id: 'known', dwell_s: 3000, subtype: 'recognized' }),
    person('13:40', { track_id: 'stranger', dwell_s: 1500, subtype: 'unrecognized' }),
  ];
  const said = answer(
    'how long did that unrecognised guy hang about at lunchtime yesterday?',
    history.map((d) => ({ ...d, at: d.at - 24 * 60 * MIN })),
  );
  assert.match(said, /the longest 25 minutes/);
  assert.doesNotMatch(said, /50 minutes/);
});

test('"customers in the store" at a shop floor: the store is the shop', () => {
  const interp = ask('how many customers in the store atm', { location: 'shop_floor' });
  assert.equal(interp.metric, 'people');
  assert.equal(interp.aggregate, 'current');
  assert.match(refused('how many customers in the warehouse atm', { location: 'shop_floor' }), /cannot answer about "warehouse"/);
});

test('coverage: an unknown word in the time, object, place and comparison slots is refused, never answered', () => {
  // each template has one slot; every filler is a word the reading cannot place there
  const templates: Array<[slot: string, template: string, location?: string]> = [
    ['time', 'how many people were here since {}'],
    ['time', 'how many people were here at {} yesterday'],
    ['time', 'when was the first car seen {} morning', 'parking_lot'],
    ['time', 'has the crowd been growing over the last {}'],
    ['count', 'how many {} are in the lobby now'],
    ['count', 'what was the peak number of {} today'],
    ['count', 'how long has that {} been hanging around'],
    ['count', 'no. of {} as of now'],
    ['place', 'is anyone in the {} right now'],
    ['place', 'how many cars were in the {} this morning', 'parking_lot'],
    ['comparison', 'were there more than {} people in the last hour'],
    ['comparison', 'is it busier than {} for this time of day'],
    ['comparison', 'was it busier at noon than {}'],
    ['comparison', 'compare this morning with {}'],
  ];
  const fillers = ['flurbish', 'umbrella', 'zebras', 'gigawatts', 'seventeenish'];
  for (const [slot, template, location] of templates) {
    for (const filler of fillers) {
      const q = template.replace('{}', filler);
      const result = interpretQuery(q, ctx(location ? { location } : {}));
      assert.equal(result.ok, false, `${slot} slot: "${q}" was answered as ${result.ok ? result.interpretation.summary : ''}`);
    }
  }
});

test('"the average stay", "length of stay", "longest visit": how long people stayed, not how many', () => {
  for (const q of ['what was the average stay today', 'average length of stay since 9', 'longest visit today?', 'how long was the average stay']) {
    assert.equal(ask(q).aggregate, 'dwell', q);
  }
  // the average number of people is still a count
  assert.equal(ask('what was the average number of people today').aggregate, 'average');
});
