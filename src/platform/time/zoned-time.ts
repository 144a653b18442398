/**
 * Wall-clock time in IANA time zones: the one place that turns epoch ms into what a clock in a
 * zone shows and back. Households, scenes, schedules and the sandbox all speak local time
 * ("until 6am", "since 9", "business hours", "a lobby is busy at 09:00") while instants are
 * stored as epoch ms, and a fixed offset is wrong on DST-change days.
 *
 * Zone offsets come from the platform's tz database through Intl's "longOffset" names. We read
 * them ourselves rather than through @date-fns/tz's tzOffset because that one flips the sign of
 * offsets between -01:00 and 00:00 that carry seconds (Dublin before 1916, Monrovia before 1972),
 * and the sandbox generates such far-past days.
 */

export interface LocalDate {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
}

export interface WallClock extends LocalDate {
  hour: number;
  minute: number;
  /** 0 when absent */
  second?: number;
}

/** What a clock in the zone shows at an instant. */
export interface ZonedWallClock extends WallClock {
  second: number;
  /** 0 = Sunday */
  weekday: number;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const QUARTER_HOUR_MS = 15 * MINUTE_MS;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** True when the platform knows the IANA zone name (e.g. 'Europe/London'); guards against typos. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** Offset (ms) of the zone from UTC at an instant, straight from Intl. Throws RangeError for an unknown zone. */
function readOffset(ms: number, timeZone: string): number {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormatters.set(timeZone, formatter);
  }
  // "3/29/2026, GMT+02:00"; plain "GMT" for a zero offset; historical offsets carry seconds
  const text = formatter.format(ms);
  const m = /([+-])(\d\d):(\d\d)(?::(\d\d))?$/.exec(text.slice(text.lastIndexOf('GMT') + 3));
  if (!m) return 0;
  const offset = (Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0)) * 1000;
  return m[1] === '-' ? -offset : offset;
}

interface ZoneOffsets {
  lastBucket: number;
  lastOffset: number;
  byBucket: Map<number, number>;
}

const zoneOffsets = new Map<string, ZoneOffsets>();

/**
 * Milliseconds to add to an instant to get the zone's wall clock (as if it were UTC). Intl costs
 * microseconds and schedules and the sandbox ask on every detection, so the offset is cached per
 * zone and quarter hour (every modern offset change falls on a quarter-hour boundary); a quarter
 * hour whose two ends disagree (a historical local-mean-time change) is read exactly instead.
 */
export function getZoneOffset(ms: number, timeZone: string): number {
  const bucket = Math.floor(ms / QUARTER_HOUR_MS);
  let zone = zoneOffsets.get(timeZone);
  if (zone?.lastBucket === bucket) return zone.lastOffset;
  let offset = zone?.byBucket.get(bucket);
  if (offset === undefined) {
    const start = bucket * QUARTER_HOUR_MS;
    const atStart = readOffset(start, timeZone);
    if (readOffset(start + QUARTER_HOUR_MS - 1, timeZone) !== atStart) return readOffset(ms, timeZone);
    offset = atStart;
    if (!zone) {
      zone = { lastBucket: NaN, lastOffset: 0, byBucket: new Map() };
      zoneOffsets.set(timeZone, zone);
    }
    if (zone.byBucket.size >= 4096) zone.byBucket.clear();
    zone.byBucket.set(bucket, offset);
  }
  zone!.lastBucket = bucket;
  zone!.lastOffset = offset;
  return offset;
}

/** Whole minutes east of UTC at an instant (chrono-node and "+01:00" labels take fixed offsets). */
export function getOffsetMinutes(ms: number, timeZone: string): number {
  return Math.round(getZoneOffset(ms, timeZone) / MINUTE_MS);
}

/** The zone's wall clock at an instant as ms since 1970-01-01T00:00 wall time. */
export function toWallMs(ms: number, timeZone: string): number {
  return ms + getZoneOffset(ms, timeZone);
}

/**
 * The instant at which the zone's clock shows `wallMs` (ms since 1970-01-01T00:00 wall time;
 * fractions and hours past 24 are fine). Resolved like Temporal's 'compatible' disambiguation and
 * java.time: a wall time skipped by a clock jump is moved forward by the length of the jump
 * (02:30 on a spring-forward night that skips 02:00-03:00 is 03:30), and one that occurs twice
 * is its first occurrence (the earlier instant, still on summer time).
 */
export function fromWallMs(wallMs: number, timeZone: string): number {
  // the instant lies within ±14 h of the wall time, so the offsets a day either side bracket it
  const before = getZoneOffset(wallMs - DAY_MS, timeZone);
  const after = getZoneOffset(wallMs + DAY_MS, timeZone);
  if (before === after && getZoneOffset(wallMs - before, timeZone) === before) return wallMs - before;
  const candidates = new Set([before, after, getZoneOffset(wallMs - before, timeZone), getZoneOffset(wallMs - after, timeZone)]);
  let earliest = Infinity;
  for (const offset of candidates) {
    const instant = wallMs - offset;
    if (getZoneOffset(instant, timeZone) === offset && instant < earliest) earliest = instant;
  }
  // in a gap no offset fits: keep the one in force before the jump, which lands after the gap
  return earliest === Infinity ? wallMs - before : earliest;
}

/** 00:00 wall time of a calendar date as ms; valid for every year, unlike Date.UTC (0-99 → 19xx). */
export function getWallMsOfDate(date: LocalDate): number {
  const d = new Date(0);
  d.setUTCFullYear(date.year, date.month - 1, date.day);
  return d.getTime();
}

function getWallMs(wc: WallClock): number {
  return getWallMsOfDate(wc) + wc.hour * HOUR_MS + wc.minute * MINUTE_MS + (wc.second ?? 0) * 1000;
}

/** The calendar date of a wall-time ms. */
export function getDateOfWallMs(wallMs: number): LocalDate {
  const d = new Date(wallMs);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** What the zone's clock shows at an instant (seconds truncated, weekday included). */
export function toWallClock(ms: number, timeZone: string): ZonedWallClock {
  const d = new Date(toWallMs(ms, timeZone));
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: d.getUTCDay(),
  };
}

/** The zone's calendar date at an instant. */
export function toLocalDate(ms: number, timeZone: string): LocalDate {
  return getDateOfWallMs(toWallMs(ms, timeZone));
}

/**
 * The instant at which the zone's clock shows a wall-clock time (out-of-range fields roll over
 * like Date.UTC's). Skipped and repeated times resolve as in fromWallMs.
 */
export function fromWallClock(wc: WallClock, timeZone: string): number {
  return fromWallMs(getWallMs(wc), timeZone);
}

/**
 * Adds whole calendar days to a date (month and year roll-over included); other fields such as
 * hour and minute are kept. Not for a ZonedWallClock, whose weekday would go stale.
 */
export function addDays<T extends LocalDate & { weekday?: undefined }>(date: T, days: number): T {
  return { ...date, ...getDateOfWallMs(getWallMsOfDate(date) + days * DAY_MS) };
}

/** Whole calendar days from one date to another (negative when `to` is earlier). */
export function countDaysBetween(from: LocalDate, to: LocalDate): number {
  return Math.round((getWallMsOfDate(to) - getWallMsOfDate(from)) / DAY_MS);
}

/** Day of week (0 = Sunday) of a calendar date. */
export function getWeekday(date: LocalDate): number {
  return new Date(getWallMsOfDate(date)).getUTCDay();
}

/** Saturday or Sunday. */
export function isWeekend(date: LocalDate): boolean {
  const weekday = getWeekday(date);
  return weekday === 0 || weekday === 6;
}

/** Local midnight of the day containing `ms` (01:00 where a clock jump skips midnight). */
export function startOfZonedDay(ms: number, timeZone: string): number {
  return fromWallClock({ ...toLocalDate(ms, timeZone), hour: 0, minute: 0 }, timeZone);
}

/** The same wall-clock time `days` calendar days later (a day is not always 24 h). */
export function addZonedDays(ms: number, days: number, timeZone: string): number {
  const wallMs = toWallMs(ms, timeZone);
  return fromWallMs(wallMs + days * DAY_MS, timeZone);
}

/** Local wall-clock `hour:minute` on the day containing `dayMs`. */
export function atZonedTime(dayMs: number, hour: number, minute: number, timeZone: string): number {
  return fromWallClock({ ...toLocalDate(dayMs, timeZone), hour, minute }, timeZone);
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** "2026-11-21": a calendar date as a stable key. */
export function formatDateKey(date: LocalDate): string {
  return `${date.year}-${pad2(date.month)}-${pad2(date.day)}`;
}

/** "09:42" of an instant in the zone (24-hour, as security logs read). */
export function formatClock(ms: number, timeZone: string): string {
  const wc = toWallClock(ms, timeZone);
  return `${pad2(wc.hour)}:${pad2(wc.minute)}`;
}

/** "2026-03-29T07:27": the local wall clock of an instant, minute precision. */
export function formatLocal(ms: number, timeZone: string): string {
  const wc = toWallClock(ms, timeZone);
  return `${wc.year}-${pad2(wc.month)}-${pad2(wc.day)}T${pad2(wc.hour)}:${pad2(wc.minute)}`;
}

/** "09:42" when on the same local day as `referenceMs`, otherwise "Mar 9 09:42". */
export function formatMoment(ms: number, timeZone: string, referenceMs: number): string {
  const wc = toWallClock(ms, timeZone);
  const clock = `${pad2(wc.hour)}:${pad2(wc.minute)}`;
  const ref = toLocalDate(referenceMs, timeZone);
  if (wc.year === ref.year && wc.month === ref.month && wc.day === ref.day) return clock;
  return `${MONTHS[wc.month - 1]} ${wc.day} ${clock}`;
}
