import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DetectionRecord } from '../../src/platform/kinds/index.ts';
import { answerQuery, interpretQuery, type Interpretation, type QueryContext, type SceneSnapshot } from '../../src/org/scenes/query/query.ts';
import { MIN, NOW, TZ, makeDetection, ny } from './scene-fixtures.ts';

/**
 * Round K's scene causes (docs/decisions.md, "Round K: scene questions"), in phrasings of our own:
 * a count of a kind that is none says 0; a peak over the window says today's too when it is
 * higher; a comparison that names the peak (or the average) is decided by that figure; "busiest"
 * where cars park says the vehicles' peak beside the people's; "rm" is a room; "the last truck
 * to leave" is the last vehicle of any kind to leave, said so. Each with phrasings where the change must not fire.
 */

const det = makeDetection;
const count = (time: string, value: number, day?: string) => det('person_count', ny(time, day), { value });
const bikes = (time: string, n: number) => det('bicycle', ny(time), { count: n });
const cars = (time: string, n: number) => det('vehicle', ny(time), { count: n, location: 'parking_lot' });
const SCENE: SceneSnapshot = { people: 0, vehicles: 0, capacity: 40, active_anomalies: 0 };
const LOT = { location: 'parking_lot' };
const YESTERDAY = '2026-03-09';

function ctx(overrides: Partial<QueryContext> = {}): QueryContext {
  return { now: NOW, windowMs: 15 * MIN, timeZone: TZ, location: 'lobby', ...overrides };
}
function ask(query: string, overrides: Partial<QueryContext> = {}): Interpretation {
  const result = interpretQuery(query, ctx(overrides));
  assert.ok(result.ok, `${query}: refused (${result.ok ? '' : result.reason})`);
  return result.interpretation;
}
/** The answer, with each baseline span's history cut from the same detections, as the service loads it. */
function answer(query: string, history: DetectionRecord[], overrides: Partial<QueryContext> = {}): string {
  const interp = ask(query, overrides);
  const baseline = (interp.baseline ?? []).map((span) => history.filter((d) => d.at <= span.to));
  return answerQuery(
    interp,
    history.filter((d) => d.at <= interp.to),
    SCENE,
    baseline,
  ).answer;
}
function refused(query: string, overrides: Partial<QueryContext> = {}): string {
  const result = interpretQuery(query, ctx(overrides));
  assert.equal(result.ok, false, `${query} was understood as ${result.ok ? result.interpretation.summary : ''}`);
  return result.ok ? '' : result.reason;
}

test('a count of a counted kind that is none says 0, as a number; a count above none is unchanged', () => {
  const history = [bikes('08:00', 3), bikes('10:00', 0)];
  assert.match(answer('how many bicycles are outside right now?', history), /^There are 0 bicycles in the lobby now \(10:14\)\.$/);
  assert.match(answer('how many bikes were there at 9:30?', history), /^There were 3 bicycles in the lobby at 09:30\.$/);
  assert.match(answer('how many bikes were there at 7:30?', [bikes('07:00', 0), bikes('08:00', 3)]), /^There were 0 bicycles in the lobby at 07:30\.$/);
});

test('a peak with no time of its own is over the window, and says today’s so far when that was higher', () => {
  const history = [bikes('08:30', 6), bikes('09:30', 2), bikes('10:05', 1)];
  const most = ask('the most bikes at once?');
  assert.equal(most.aggregate, 'peak');
  assert.deepEqual(most.day_peak, { from: ny('00:00'), to: NOW });
  // the count now stays the count now, and a peak at a moment is the count then
  assert.equal(ask('how many bikes now?').aggregate, 'current');
  assert.equal(ask('most bikes at 9:30?').aggregate, 'current');
  assert.match(refused('most bikes and people at once?'), /one at a time/);
  assert.match(
    answer('the most bikes at once?', history),
    /in the last 15 minutes was 2, at 09:59\. Today so far the most at once was 6 bicycles, at 08:30\.$/,
  );
  const people = [count('07:00', 0), count('09:00', 22), count('09:40', 5), count('10:05', 6)];
  assert.match(
    answer('what was the peak headcount?', people),
    /^Peak of 6 people in the lobby at 10:05, in the last 15 minutes\. Today so far the most at once was 22 people, at 09:00\.$/,
  );
  assert.match(
    answer('max cars at once?', [cars('08:00', 9), cars('09:00', 2), cars('10:10', 3)], LOT),
    /Today so far the most at once was 9 vehicles, at 08:00\.$/,
  );
});

test('a peak with a time of its own, one no higher than the window’s, or a window reaching back past midnight says no more', () => {
  const people = [count('07:00', 0), count('09:00', 22), count('10:00', 5)];
  assert.equal(ask('what was the peak headcount since 9:30?').day_peak, undefined);
  assert.doesNotMatch(answer('what was the peak headcount since 9:30?', people), /Today so far/);
  assert.doesNotMatch(answer('what was the peak headcount?', [count('07:00', 0), count('10:05', 8)]), /Today so far/);
  assert.equal(ask('what was the peak headcount?', { windowMs: 12 * 60 * MIN }).day_peak, undefined);
  // not a peak: the window alone, as before
  assert.equal(ask('what was the average headcount?').day_peak, undefined);
  assert.doesNotMatch(answer('what was the average headcount?', people), /Today so far/);
});

test('a comparison that names the peak (or the average) is decided by that figure; one that names neither still needs both to agree', () => {
  // yesterday: a sharp peak of 40; today: a lower peak (30) but more people on average
  const history = [
    count('08:00', 0, YESTERDAY),
    count('08:30', 40, YESTERDAY),
    count('08:45', 2, YESTERDAY),
    count('08:00', 0),
    count('08:30', 30),
    count('09:00', 28),
    count('10:00', 25),
  ];
  const named = ask("was yesterday's peak higher than today's?");
  assert.equal(named.compare_by, 'peak');
  assert.match(answer("was yesterday's peak higher than today's?", history), /^Yes\. .* by the most at once \(at most 40 at once against 30; /);
  assert.match(answer("was today's peak higher than yesterday's?", history), /^No\. /);
  assert.match(answer("was yesterday's average higher than today's?", history), /^No\. .* on average \(/);
  // neither figure named: the two disagree, and the answer says partly, as before
  assert.equal(ask('were there more people yesterday than today?').compare_by, undefined);
  assert.match(answer('were there more people yesterday than today?', history), /^Partly: /);
});

test('"busiest" where cars park is the people peak with the vehicles\' said beside it; elsewhere, or with a count named, the one count', () => {
  const lot = [cars('06:00', 2), cars('08:40', 30), cars('09:30', 12), det('person_count', ny('07:00'), { value: 1, location: 'parking_lot' })];
  const busiest = ask('what was the busiest time this morning?', LOT);
  assert.equal(busiest.metric, 'people');
  assert.equal(busiest.vehicle_peak_too, true);
  assert.match(
    answer('what was the busiest time this morning?', lot, LOT),
    /^Peak of 1 person in the parking lot at 07:00, this morning \(05:00 to 10:14\)\. Of vehicles, the most at once were 30, at 08:40\.$/,
  );
  assert.equal(ask('when was the parking lot busiest today', LOT).vehicle_peak_too, true);
  // a count named: that count alone
  assert.equal(ask('when were there the most cars today?', LOT).metric, 'vehicles');
  assert.equal(ask('how many people at the busiest time today?', LOT).vehicle_peak_too, undefined);
  assert.doesNotMatch(answer('how many people at the busiest time today?', lot, LOT), /Of vehicles/);
  // not where cars park
  assert.equal(ask('what was the busiest time this morning?').vehicle_peak_too, undefined);
  assert.equal(ask('what was the busiest time this morning?', { location: 'loading_dock' }).vehicle_peak_too, undefined);
});

test('"rm" is a room in a place’s name; another room is still not this scene', () => {
  const clinic = { location: 'waiting_room' };
  assert.equal(ask('no. of ppl in the waiting rm', clinic).metric, 'people');
  assert.equal(ask('how many people were in the waiting rm at 9?', clinic).aggregate, 'current');
  assert.match(refused('how many people in the store rm?', clinic), /"store"/);
});

test('"when did the last truck leave?" is the last vehicle of any kind to leave, said so; a yes/no about a truck leaving stays refused', () => {
  const history = [cars('09:00', 2), cars('09:40', 1), cars('10:00', 0)];
  const interp = ask('when did the last truck leave?', LOT);
  assert.equal(interp.aggregate, 'last_departure');
  assert.deepEqual(interp.vehicle_kinds, ['truck']);
  assert.match(
    answer('when did the last truck leave?', history, LOT),
    /at 10:00 .*cannot tell "truck" from other vehicles, so that is the last vehicle of any kind to leave: the last "truck" left then or earlier\.$/,
  );
  assert.doesNotMatch(answer('when did the last car leave?', history, LOT), /cannot tell/);
  assert.match(refused('did a truck leave?', LOT), /cannot tell "truck" apart/);
});
