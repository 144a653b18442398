/**
 * The shared time module's watch-window reader: the window a watch request means,
 * in the home's zone. Times are checked as the wall clock a person in Lisbon would read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNormalizer } from '../../src/platform/language/normalize.ts';
import { extractTimeSpec, resolveWatchWindow } from '../../src/platform/language/time/watch-window.ts';
import { formatLocal } from '../../src/platform/time/zoned-time.ts';
import {
  chooseHour,
  getDayPartRange,
  getSunTime,
  isNightInProgress,
  nextWeekday,
  parseClockTime,
  parseDayOfMonth,
  parseWeekday,
  previousWeekday,
  resolveDayOfMonth,
} from '../../src/platform/language/time/primitives.ts';

const normalize = createNormalizer([]);
const LISBON = { timeZone: 'Europe/Lisbon', location: { lat: 38.7223, lon: -9.1393 } };
const SATURDAY_5PM = Date.parse('2026-11-21T17:00:00Z');
const NIGHT_0034 = Date.parse('2026-11-22T00:34:00Z');

function windowOf(message: string, now = SATURDAY_5PM) {
  const ctx = { ...LISBON, now };
  const { tokens } = normalize(message, []);
  const w = resolveWatchWindow(extractTimeSpec(tokens, 0, tokens.length, ctx), ctx);
  return {
    from: formatLocal(w.startsAt, ctx.timeZone),
    to: formatLocal(w.endsAt, ctx.timeZone),
    recurrence: w.recurrence,
    defaulted: w.defaulted,
    window: w.window,
  };
}

test('"tonight" asked at 00:34 is the night in progress: from now to this morning', () => {
  const w = windowOf('keep an eye on the back door tonight', NIGHT_0034);
  assert.equal(w.from, '2026-11-22T00:34');
  assert.equal(w.to, '2026-11-22T07:28');
});

test('"tonight" asked in the afternoon starts at sunset', () => {
  const w = windowOf('watch the garage tonight', Date.parse('2026-11-21T15:00:00Z'));
  assert.equal(w.from, '2026-11-21T17:21');
  assert.match(w.to, /^2026-11-22T07:2\d$/);
});

test('explicit clock times beat sunset and sunrise: "between 11pm and 6am" ends at 06:00', () => {
  const w = windowOf('watch the garage between 11pm and 6am');
  assert.deepEqual([w.from, w.to], ['2026-11-21T23:00', '2026-11-22T06:00']);
});

test('"till friday evening" ends on Friday at 18:00', () => {
  const w = windowOf('watch the porch till friday evening');
  assert.deepEqual([w.from, w.to, w.defaulted], ['2026-11-21T17:00', '2026-11-27T18:00', false]);
});

test('"until the 30th" and "back on the 30th" run through the end of the 30th', () => {
  assert.equal(windowOf('watch the garage until the 30th').to, '2026-12-01T00:00');
  assert.equal(windowOf("watch the garden while we're on holiday, back on the 30th").to, '2026-12-01T00:00');
});

test('"this weekend" is Saturday and Sunday', () => {
  const w = windowOf('watch the driveway this weekend', Date.parse('2026-11-19T10:00:00Z'));
  assert.deepEqual([w.from, w.to], ['2026-11-21T00:00', '2026-11-23T00:00']);
});

test('"around 4" is half an hour either side of 16:00', () => {
  const w = windowOf('watch the garage around 4', Date.parse('2026-11-21T10:00:00Z'));
  assert.deepEqual([w.from, w.to], ['2026-11-21T15:30', '2026-11-21T16:30']);
});

test('"every weekday night" repeats on weekdays from sunset to sunrise, first on Monday', () => {
  const w = windowOf('watch the back door every weekday night');
  assert.equal(w.recurrence, 'weekdays');
  assert.equal(w.from, '2026-11-23T17:20');
  assert.equal(w.to, '2026-11-24T07:30');
});

test('no end at all is the 24 h default, flagged so the reply states it', () => {
  const w = windowOf('watch the garage');
  assert.equal(w.defaulted, true);
  assert.equal(w.to, '2026-11-22T17:00');
  assert.equal(w.window, 'the next 24 hours');
});

test('"yesterday" is a past time, which no watch can cover', () => {
  const ctx = { ...LISBON, now: SATURDAY_5PM };
  const { tokens } = normalize('watch the garage yesterday', []);
  assert.equal(extractTimeSpec(tokens, 0, tokens.length, ctx).past, true);
  const { tokens: t2 } = normalize('watch the garage today', []);
  assert.equal(extractTimeSpec(t2, 0, t2.length, ctx).past, false);
});

test('primitives: clock times, hours without am/pm, weekdays, days of the month, sun', () => {
  assert.deepEqual(parseClockTime('6:30pm'), { hour: 18, minute: 30, meridiemCertain: true });
  assert.deepEqual(parseClockTime('midnight'), { hour: 0, minute: 0, meridiemCertain: true });
  assert.equal(parseClockTime('13pm'), undefined);
  assert.equal(chooseHour({ hour: 10, minute: 0, meridiemCertain: false }, 'night'), 22);
  assert.equal(chooseHour({ hour: 4, minute: 0, meridiemCertain: false }, 'day'), 16);
  assert.equal(parseWeekday('Fri'), 5);
  assert.equal(parseWeekday('fridays'), 5);
  assert.deepEqual(nextWeekday(5, { year: 2026, month: 11, day: 21 }), { year: 2026, month: 11, day: 27 });
  assert.deepEqual(previousWeekday(5, { year: 2026, month: 11, day: 21 }), { year: 2026, month: 11, day: 20 });
  const evening = getDayPartRange('evening', { year: 2026, month: 11, day: 21 }, 'Europe/Lisbon');
  assert.deepEqual([formatLocal(evening.from, 'Europe/Lisbon'), formatLocal(evening.to, 'Europe/Lisbon')], ['2026-11-21T17:00', '2026-11-21T21:00']);
  assert.equal(parseDayOfMonth('30th'), 30);
  const scope = { now: SATURDAY_5PM, timeZone: 'Europe/Lisbon' };
  assert.deepEqual(resolveDayOfMonth(30, scope, 'future'), { year: 2026, month: 11, day: 30 });
  assert.deepEqual(resolveDayOfMonth(30, scope, 'past'), { year: 2026, month: 10, day: 30 });
  assert.deepEqual(resolveDayOfMonth(31, scope, 'future'), { year: 2026, month: 12, day: 31 });
  assert.equal(formatLocal(getSunTime('sunset', { year: 2026, month: 11, day: 21 }, { ...LISBON, now: SATURDAY_5PM }), 'Europe/Lisbon'), '2026-11-21T17:21');
  assert.equal(isNightInProgress({ ...LISBON, now: NIGHT_0034 }), true);
  assert.equal(isNightInProgress({ ...LISBON, now: SATURDAY_5PM }), false);
});
