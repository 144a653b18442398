import { getZoneOffset, isValidTimeZone } from '../../platform/time/index.ts';

/**
 * Weekly time windows in a time zone (alert-rule schedules, business hours). Checked on the
 * detection hot path, so beyond lib/zoned-time's cached zone offset it is integer arithmetic.
 */
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface Schedule {
  /** days the window starts on; all days when absent */
  days?: Weekday[];
  /** "HH:MM" local, inclusive */
  start: string;
  /** "HH:MM" local, exclusive; earlier than start = overnight (22:00–06:00 ends the next morning) */
  end: string;
  /** IANA zone; absent = the location's scene time zone */
  time_zone?: string;
}

export interface CompiledSchedule {
  /** bit d set = window may start on weekday d (0 = Sunday) */
  dayMask: number;
  startMin: number;
  endMin: number;
  timeZone: string | null;
}

const DAY_MS = 86_400_000;

/** Local weekday (0 = Sunday) and minute of day at an instant. */
export function localWallTime(ms: number, timeZone: string): { weekday: number; minuteOfDay: number } {
  const wall = ms + getZoneOffset(ms, timeZone);
  const dayIndex = Math.floor(wall / DAY_MS);
  // 1970-01-01 was a Thursday (4)
  const weekday = (((dayIndex + 4) % 7) + 7) % 7;
  const minuteOfDay = Math.floor((wall - dayIndex * DAY_MS) / 60_000);
  return { weekday, minuteOfDay };
}

/** "HH:MM" → minutes since midnight, or null (24:00 is allowed as an end of day). */
export function parseTimeOfDay(s: string): number | null {
  const m = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(s);
  if (!m) return null;
  const min = Number(m[1]) * 60 + Number(m[2]);
  return min > 1440 ? null : min;
}

/** Returns a problem description for the first invalid field, or null. */
export function findScheduleProblem(s: Schedule): { param: string; message: string } | null {
  if (parseTimeOfDay(s.start) === null || s.start === '24:00') return { param: 'start', message: 'must be HH:MM (00:00–23:59)' };
  if (parseTimeOfDay(s.end) === null) return { param: 'end', message: 'must be HH:MM (00:00–24:00)' };
  if (s.time_zone !== undefined && !isValidTimeZone(s.time_zone)) {
    return { param: 'time_zone', message: `"${s.time_zone}" is not an IANA time zone (e.g. Europe/Lisbon)` };
  }
  return null;
}

export function compileSchedule(s: Schedule): CompiledSchedule {
  const days = s.days && s.days.length ? s.days : WEEKDAYS;
  let dayMask = 0;
  for (const d of days) dayMask |= 1 << WEEKDAYS.indexOf(d);
  return { dayMask, startMin: parseTimeOfDay(s.start) ?? 0, endMin: parseTimeOfDay(s.end) ?? 1440, timeZone: s.time_zone ?? null };
}

/**
 * Whether an instant falls in the window. An overnight window (end ≤ start, e.g. 22:00–06:00)
 * belongs to the day it starts on: Friday 22:00–06:00 covers Saturday 03:00 but not Friday 03:00.
 * start == end means the whole day.
 */
export function isWithinSchedule(s: CompiledSchedule, ms: number, fallbackTimeZone: string): boolean {
  const { weekday, minuteOfDay } = localWallTime(ms, s.timeZone ?? fallbackTimeZone);
  const on = (d: number) => (s.dayMask & (1 << d)) !== 0;
  if (s.startMin === s.endMin) return on(weekday);
  if (s.startMin < s.endMin) return on(weekday) && minuteOfDay >= s.startMin && minuteOfDay < s.endMin;
  if (minuteOfDay >= s.startMin) return on(weekday);
  return minuteOfDay < s.endMin && on((weekday + 6) % 7);
}
