import { TZDate } from '@date-fns/tz';

/**
 * Wall-clock arithmetic in a scene's IANA time zone. Questions speak in local time ("since 9am",
 * "this morning") while detections are stored as epoch ms, so every conversion goes through
 * @date-fns/tz rather than fixed offsets (a fixed offset is wrong on DST-change days).
 */

export interface WallClock {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** True when Intl knows the zone name (e.g. 'Europe/London'); guards against typos in config. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

export function toWallClock(ms: number, timeZone: string): WallClock {
  const d = new TZDate(ms, timeZone);
  return {
    year: d.getFullYear(),
    month: d.getMonth() + 1,
    day: d.getDate(),
    hour: d.getHours(),
    minute: d.getMinutes(),
    second: d.getSeconds(),
  };
}

export function fromWallClock(wall: WallClock, timeZone: string): number {
  return new TZDate(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, timeZone).getTime();
}

/** Local midnight of the day containing `ms`. */
export function startOfZonedDay(ms: number, timeZone: string): number {
  const wall = toWallClock(ms, timeZone);
  return fromWallClock({ ...wall, hour: 0, minute: 0, second: 0 }, timeZone);
}

/** The same wall-clock time `days` calendar days later (a day is not always 24 h). */
export function addZonedDays(ms: number, days: number, timeZone: string): number {
  const d = new TZDate(ms, timeZone);
  d.setDate(d.getDate() + days);
  return d.getTime();
}

/** Local wall-clock `hour:minute` on the day containing `dayMs`. */
export function atZonedTime(dayMs: number, hour: number, minute: number, timeZone: string): number {
  const wall = toWallClock(dayMs, timeZone);
  return fromWallClock({ ...wall, hour, minute, second: 0 }, timeZone);
}

function isSameZonedDay(a: number, b: number, timeZone: string): boolean {
  return startOfZonedDay(a, timeZone) === startOfZonedDay(b, timeZone);
}

/** "09:42" in the scene's zone (24-hour, as security logs read). */
export function formatClock(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
}

/** "09:42" when on the same local day as `referenceMs`, otherwise "Mar 9 09:42". */
export function formatMoment(ms: number, timeZone: string, referenceMs: number): string {
  if (isSameZonedDay(ms, referenceMs, timeZone)) return formatClock(ms, timeZone);
  const date = new Intl.DateTimeFormat('en-US', { timeZone, month: 'short', day: 'numeric' }).format(ms);
  return `${date} ${formatClock(ms, timeZone)}`;
}
