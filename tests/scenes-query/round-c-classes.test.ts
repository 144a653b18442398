import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DetectionRecord } from '../../src/platform/kinds/index.ts';
import { answerQuery, interpretQuery, type Interpretation, type QueryContext, type SceneSnapshot } from '../../src/org/scenes/query/query.ts';
import { answerWhoQuestion, readPeopleQuestion } from '../../src/org/scenes/query/people-questions.ts';
import { MIN, NOW, TZ, makeDetection, ny } from './scene-fixtures.ts';

/**
 * The classes of round C's first run, each with questions and scenes of our own (not the set's):
 * a first sighting or a present count read from a count too old to hold, comparisons with no
 * stated measure, "overnight" reaching into the evening, "who" picking one person by order, and
 * the questions that were refused but can be answered truthfully (a count with nothing named, a
 * clock time whose half of the day is said after the day, how long someone seen at a moment
 * stayed, the last of a kind of vehicle). See docs/decisions.md, "Scene questions: round C".
 * NOW is Tuesday 10 March 2026, 10:14 in New York.
 */

const det = makeDetection;
const YESTERDAY = '2026-03-09';
const count = (time: string, value: number, day?: string) => det('person_count', ny(time, day), { value });
const cars = (time: string, n: number, day?: string, fields: Partial<DetectionRecord> = {}) =>
  det('vehicle', ny(time, day), { count: n, location: 'parking_lot', ...fields });
const person = (time: string, fields: Partial<DetectionRecord> = {}, day?: string) => det('person', ny(time, day), fields);
const SCENE: SceneSnapshot = { people: 0, vehicles: 0, capacity: 40, active_anomalies: 0 };
const LOT = { location: 'parking_lot' };

function ctx(overrides: Partial<QueryContext> = {}): QueryContext {
  return { now: NOW, windowMs: 15 * MIN, timeZone: TZ, location: 'lobby', ...overrides };
}
function ask(query: string, overrides: Partial<QueryContext> = {}): Interpretation {
  const result = interpretQuery(query, ctx(overrides));
  assert.ok(result.ok, `${query}: refused (${result.ok ? '' : result.reason})`);
  return result.interpretation;
}
/** The answer from the history the service would load: what is at or before the end of each span. */
function answer(query: string, history: DetectionRecord[], overrides: Partial<QueryContext> = {}, scene = SCENE): string {
  const interp = ask(query, overrides);
  const own = history.filter((d) => d.at <= interp.to);
  const baseline = (interp.baseline ?? []).map((span) => history.filter((d) => d.at <= span.to));
  return answerQuery(interp, own, scene, baseline).answer;
}
function refused(query: string, overrides: Partial<QueryContext> = {}): string {
  const result = interpretQuery(query, ctx(overrides));
  assert.equal(result.ok, false, `${query} was understood as ${result.ok ? result.interpretation.summary : ''}`);
  return result.ok ? '' : result.reason;
}

test('first seen: a count from yesterday is not "already there" this morning; the first sighting inside the range is', () => {
  // three cars counted at 16:00 yesterday, nothing overnight, then this morning's arrivals
  const lot = [cars('16:00', 3, YESTERDAY), cars('07:40', 1), cars('08:30', 2)];
  const first = answer('when was the first car seen this morning', lot, LOT);
  assert.match(
    first,
    /^The first vehicle this morning \(05:00 to 10:14\) was seen in the parking lot at 07:40 .*the last count before that, at Mar 9 16:00, showed 3 vehicles, too long before to tell what was there when it began\.$/,
    first,
  );
  // people: counted at 02:00 yesterday, then 08:15 today
  const lobby = [count('02:00', 4, YESTERDAY), count('08:15', 2), count('09:00', 5)];
  assert.match(
    answer('when did the first person turn up today', lobby),
    /^The first person today was seen in the lobby at 08:15 .*the last count before that, at Mar 9 02:00, showed 4 people/,
  );
  // counted at 19:00 yesterday, five hours before today began: said with its time, and the
  // first reading of the day is given, not only the first rise
  const evening = [count('19:00', 4, YESTERDAY), count('08:15', 2), count('09:00', 5)];
  assert.equal(
    answer('when did the first person turn up today', evening),
    'Today, 4 people were already in the lobby when that began (counted at Mar 9 19:00); the first count inside it, at 08:15, showed 2 people; the first to arrive after that came at 09:00.',
  );
  // a count from just before the range still holds: those people were already there
  const early = [count('04:58', 2), count('06:10', 3)];
  assert.match(
    answer('when was the first person seen this morning', early),
    /2 people were already in the lobby when that began \(counted at 04:58\); the first to arrive after that came at 06:10/,
  );
});

test('a count too old to hold is never stated as now: "free of vehicles", "how many cars now", "is anyone here"', () => {
  const lot = [cars('12:00', 1, YESTERDAY), count('09:00', 0)];
  // the scene engine still holds the old count; the answer does not repeat it as the present
  const scene = { ...SCENE, vehicles: 1 };
  assert.equal(
    answer('is the parking lot free of vehicles?', lot, LOT, scene),
    'Yes, no vehicles have been seen in the parking lot since Mar 9 12:00 (22 hours ago), when 1 vehicle was counted.',
  );
  const now = answer('how many cars are in the lot right now?', lot, LOT, scene);
  assert.match(
    now,
    /^No vehicles have been seen in the parking lot since Mar 9 12:00 \(22 hours ago\), when 1 vehicle was counted; now \(10:14\) there is no newer count\.$/,
    now,
  );
  assert.doesNotMatch(now, /There (is|are) 1 vehicle/);
  const lobby = [count('18:30', 3, YESTERDAY)];
  assert.match(
    answer('is anyone in the lobby?', lobby, {}, { ...SCENE, people: 3 }),
    /^No, no people have been seen in the lobby since Mar 9 18:30 \(16 hours ago\), when 3 people were counted\.$/,
  );
  // a count from three hours ago still holds (sparse sources send on change)
  assert.equal(
    answer('how many cars are in the lot right now?', [cars('07:10', 2)], LOT, { ...SCENE, vehicles: 2 }),
    'There are 2 vehicles in the parking lot now (10:14).',
  );
});

test('comparisons say their measure: the peak decides when the averages are about the same; opposite measures give no yes or no', () => {
  const mornings = [
    count('06:00', 0, YESTERDAY),
    count('07:00', 3, YESTERDAY),
    count('08:00', 5, YESTERDAY),
    count('09:00', 4, YESTERDAY),
    count('10:00', 3, YESTERDAY),
    count('06:00', 0),
    count('07:00', 2),
    count('08:00', 10),
    count('08:20', 3),
    count('09:00', 4),
    count('10:00', 3),
  ];
  const busier = answer('was it busier this morning than yesterday morning?', mornings);
  assert.match(
    busier,
    /^Yes\. .*more people this morning \(05:00 to 10:14\) by the most at once \(at most 10 at once against 5; on average .* about the same\)\.$/,
    busier,
  );
  // asked the other way round, the same figures say no
  assert.match(answer('was it quieter this morning than yesterday morning?', mornings), /^No\. /);
  // a higher average with a lower peak: neither clearly, said so
  const mixed = [count('06:00', 2, YESTERDAY), count('08:00', 12, YESTERDAY), count('08:10', 1, YESTERDAY), count('06:00', 6), count('09:00', 7)];
  assert.match(
    answer('was it busier this morning than yesterday morning?', mixed),
    /^Partly: .*neither clearly more nor fewer \(on average .* against .*, but at most 7 at once against 12\)/,
  );
  // a moment against a moment: counts are exact, so one more is more
  const moments = [count('09:00', 10), count('10:10', 11)];
  assert.match(answer('are there more people now than at 9?', moments), /^Yes\. /);
});

test('"overnight" is the night, not the evening before it; "last night" keeps the evening', () => {
  // the lobby closed at 18:40 with people still there at 18:00, and nobody since
  const closing = [count('18:00', 3, YESTERDAY), count('18:40', 0, YESTERDAY), count('00:00', 0), count('03:00', 0), count('06:00', 0)];
  assert.match(answer('anyone in the lobby overnight?', closing), /^No, no one was in the lobby overnight \(Mar 9 21:00 to 05:00\)/);
  assert.match(answer('has the lobby been empty all night?', closing), /^Yes, the lobby was empty overnight/);
  assert.match(answer('was anyone in the lobby last night?', closing), /^Yes, people were in the lobby last night/);
  // someone at 2am is overnight
  const intruder = [...closing, count('02:00', 1), count('02:20', 0)];
  assert.match(answer('anyone in the lobby overnight?', intruder), /^Yes, people were in the lobby overnight .*last seen at 02:00/);
  // a time inside the night is still read by the shared reader
  assert.equal(ask('how many people at 2am overnight').to, ny('02:00'));
});

test('"who" picking one person by order is refused with what can be asked; "who was here" with only counts is not "nobody"', () => {
  for (const q of [
    'who was the last person to leave last night',
    'who came in first this morning?',
    'who was the first one here today',
    'Who left last yesterday?',
  ]) {
    const about = readPeopleQuestion(q, []);
    assert.equal(about?.kind, 'cannot', q);
    if (about?.kind === 'cannot') assert.match(about.reason, /not who a person is unless face recognition names them/, q);
  }
  assert.equal(readPeopleQuestion('who was here last night', [])?.kind, 'who');
  const interp = ask('was anyone here last night?');
  const said = answerWhoQuestion(interp, [], [count('18:00', 2, YESTERDAY), count('18:30', 0, YESTERDAY)], false).answer;
  assert.match(said, /^The count shows people in the lobby last night .*up to 2 people at once.*none of them was tracked, so I cannot say who\.$/, said);
});

test('refused before, answered now: a count with nothing named, a clock time with its day part after the day, how long someone seen at a moment stayed', () => {
  // a count with nothing named is of people; where cars park it asks which
  assert.equal(ask('how many were there at 9?').metric, 'people');
  assert.equal(ask('lobby numbers rn').metric, 'people');
  assert.match(refused('how many were there at 9?', LOT), /^People or vehicles\?/);
  // "at half two yesterday afternoon" is one time: 14:30 yesterday, and no other reading is offered
  const half = ask('how many people at half two yesterday afternoon');
  assert.equal(half.to, ny('14:30', YESTERDAY));
  assert.equal(half.other_reading, undefined);
  assert.equal(ask('how many people were here at 7 yesterday evening').to, ny('19:00', YESTERDAY));
  assert.equal(ask('how many people at 9 on monday morning').to, ny('09:00', YESTERDAY));
  // how long the person seen at 9 stayed: the stays around that moment
  const stays = [person('09:05', { track_id: 'a', dwell_s: 420 }), person('09:50', { track_id: 'b', dwell_s: 60 })];
  const dwell = answer('how long was the person at 9am in the lobby for', stays);
  assert.match(dwell, /^1 tracked person stayed in the lobby around 09:00: .*the longest 7 minutes/, dwell);
  assert.match(answer('how long did the guy at 9:45 stay?', stays), /the longest 1 minute/);
});

test('the last of a kind of vehicle: the last vehicle bounds it and the answer says so; a sighting later than the last rise is said', () => {
  const lot = [cars('08:00', 1), cars('08:20', 2), cars('08:40', 1), cars('09:30', 1)];
  const truck = answer('when did the last truck come in?', lot, LOT, { ...SCENE, vehicles: 1 });
  assert.match(
    truck,
    /^The latest vehicle sighting in the parking lot was at 09:30 .*; the count last rose, the latest arrival it shows for certain, at 08:20 .*cannot tell "truck" from other vehicles, so that is the last vehicle of any kind: the last "truck" came then or earlier\.$/,
    truck,
  );
  // "any trucks today?": every vehicle that came, said so, never a yes (since round J, docs/decisions.md, "Round J: scene questions")
  const any = ask('any trucks today?', LOT);
  assert.deepEqual([any.aggregate, any.yes_no, any.vehicle_kinds], ['arrivals', false, ['trucks']]);
  assert.match(refused('how long has the van been here?', LOT), /cannot tell "van" apart/);
});

test('a count too old to hold is not stated as now by a threshold, a crowd level or a comparison with usual either', () => {
  const stale = [count('18:30', 12, YESTERDAY)];
  const scene = { ...SCENE, people: 12 };
  for (const q of ['more than 5 people right now?', 'how crowded is it?', 'is the lobby crowded?', 'are there more people than usual right now?']) {
    const said = answer(q, stale, {}, scene);
    assert.match(said, /(^|, )[Nn]o people have been seen in the lobby since Mar 9 18:30 \(16 hours ago\), when 12 people were counted/, `${q} → ${said}`);
    assert.doesNotMatch(said, /\b(are|is) in the lobby now\b|has \d+ people/, `${q} → ${said}`);
  }
});
