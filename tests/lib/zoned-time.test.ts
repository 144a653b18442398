import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addDays,
  addZonedDays,
  countDaysBetween,
  formatClock,
  formatLocal,
  formatMoment,
  fromWallClock,
  getOffsetMinutes,
  getZoneOffset,
  isValidTimeZone,
  isWeekend,
  startOfZonedDay,
  toWallClock,
} from '../../src/platform/time/zoned-time.ts';

const iso = (ms: number) => new Date(ms).toISOString();

test('instants and wall clocks convert both ways around a DST change', () => {
  // Lisbon moves from UTC+0 to UTC+1 at 01:00 UTC on 2026-03-29
  const after = fromWallClock({ year: 2026, month: 3, day: 29, hour: 7, minute: 27 }, 'Europe/Lisbon');
  assert.equal(iso(after), '2026-03-29T06:27:00.000Z');
  assert.deepEqual(toWallClock(after + 5_000, 'Europe/Lisbon'), { year: 2026, month: 3, day: 29, hour: 7, minute: 27, second: 5, weekday: 0 });
  assert.equal(formatLocal(after, 'Europe/Lisbon'), '2026-03-29T07:27');
  assert.equal(formatClock(Date.parse('2026-07-04T13:05:59Z'), 'America/New_York'), '09:05');
  assert.equal(getOffsetMinutes(after, 'Asia/Kolkata'), 330);
});

test('a wall time skipped by spring-forward moves forward by the jump, in zones east and west of UTC', () => {
  assert.equal(iso(fromWallClock({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, 'Europe/Berlin')), '2026-03-29T01:30:00.000Z'); // 03:30 CEST
  assert.equal(iso(fromWallClock({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, 'America/New_York')), '2026-03-08T07:30:00.000Z'); // 03:30 EDT
});

test('a wall time repeated by fall-back is its first occurrence, in zones east and west of UTC', () => {
  assert.equal(iso(fromWallClock({ year: 2026, month: 10, day: 25, hour: 2, minute: 30 }, 'Europe/Berlin')), '2026-10-25T00:30:00.000Z'); // CEST
  assert.equal(iso(fromWallClock({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, 'America/New_York')), '2026-11-01T05:30:00.000Z'); // EDT
  assert.equal(iso(fromWallClock({ year: 2026, month: 4, day: 5, hour: 1, minute: 45 }, 'Australia/Lord_Howe')), '2026-04-04T14:45:00.000Z'); // +11:00
});

test('historical offsets with seconds keep their sign, also inside a quarter hour that changes offset', () => {
  // Dublin Mean Time was UTC-00:25:21 until 1916
  assert.equal(getZoneOffset(Date.parse('1900-06-01T12:00:00Z'), 'Europe/Dublin'), -(25 * 60 + 21) * 1000);
  assert.equal(formatClock(Date.parse('1900-06-01T12:00:00Z'), 'Europe/Dublin'), '11:34');
  // Berlin left local mean time (+00:53:28) for CET at 1893-03-31T23:06:32Z, mid quarter hour
  assert.equal(getZoneOffset(Date.parse('1893-03-31T23:06:31Z'), 'Europe/Berlin'), (53 * 60 + 28) * 1000);
  assert.equal(getZoneOffset(Date.parse('1893-03-31T23:06:32Z'), 'Europe/Berlin'), 3600 * 1000);
});

test('calendar arithmetic rolls over months and years and works for years before 100', () => {
  assert.deepEqual(addDays({ year: 2026, month: 12, day: 31, hour: 6, minute: 0 }, 1), { year: 2027, month: 1, day: 1, hour: 6, minute: 0 });
  assert.deepEqual(addDays({ year: 50, month: 3, day: 1 }, -1), { year: 50, month: 2, day: 28 });
  assert.equal(countDaysBetween({ year: 2026, month: 2, day: 27 }, { year: 2026, month: 3, day: 2 }), 3);
  assert.equal(isWeekend({ year: 2026, month: 3, day: 28 }), true);
  assert.equal(isWeekend({ year: 2026, month: 3, day: 30 }), false);
});

test('local days follow DST: the spring-forward day is 23 hours and days keep their wall time', () => {
  const noon = Date.parse('2026-03-08T12:00:00-04:00');
  const start = startOfZonedDay(noon, 'America/New_York');
  assert.equal(iso(start), '2026-03-08T05:00:00.000Z');
  assert.equal(addZonedDays(start, 1, 'America/New_York') - start, 23 * 3_600_000);
  assert.equal(iso(addZonedDays(Date.parse('2026-03-07T09:15:30.250-05:00'), 1, 'America/New_York')), '2026-03-08T13:15:30.250Z');
  assert.equal(formatMoment(noon, 'America/New_York', noon + 3_600_000), '12:00');
  assert.equal(formatMoment(noon, 'America/New_York', noon + 86_400_000), 'Mar 8 12:00');
});

test('time zone names are checked against the platform tz database', () => {
  assert.equal(isValidTimeZone('Europe/Lisbon'), true);
  assert.equal(isValidTimeZone('Europe/Lisbn'), false);
  assert.throws(() => toWallClock(0, 'Mars/Olympus'), RangeError);
});
