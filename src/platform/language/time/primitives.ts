/**
 * The shared time primitives of the understanding layer: clock times, day parts,
 * sunset/sunrise/dusk/dawn, weekday and date resolution, all in a home's or a site's IANA zone.
 * Both readers build on these: the watch-window reader (future windows, the household agent) and
 * the past-range reader (questions about what already happened, scene queries). Exported
 * signatures are kept stable: other modules are written against them.
 */
import SunCalc from 'suncalc';
import { addDays, fromWallClock, getWeekday, toLocalDate, toWallClock, type LocalDate } from '../../time/index.ts';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** Where and when a phrase is read: the instant "now", the zone, and (for the sun) the place. */
export interface TimeContext {
  /** Epoch milliseconds. */
  now: number;
  /** IANA zone, e.g. "Europe/Lisbon". */
  timeZone: string;
  location: { lat: number; lon: number } | null;
}

// ------------------------------------------------------------------ clock times

export interface ClockTime {
  hour: number;
  minute: number;
  /** am/pm said, or a 24-hour clock (13:00), noon or midnight: the hour is what it says. */
  meridiemCertain: boolean;
}

const CLOCK = /^(\d{1,2})(?::|\.|h)?(\d{2})?\s*(am|pm|a\.m\.|p\.m\.|a|p)?$/;
const NAMED_CLOCK: Record<string, ClockTime> = {
  noon: { hour: 12, minute: 0, meridiemCertain: true },
  midday: { hour: 12, minute: 0, meridiemCertain: true },
  midnight: { hour: 0, minute: 0, meridiemCertain: true },
};

/** "6", "6am", "6:30pm", "18:30", "noon", "midnight" → a clock time; undefined when it is none. */
export function parseClockTime(text: string): ClockTime | undefined {
  const t = text.trim().toLowerCase();
  if (t in NAMED_CLOCK) return { ...NAMED_CLOCK[t] };
  const m = CLOCK.exec(t);
  if (!m) return undefined;
  let hour = Number(m[1]);
  const minute = Number(m[2] ?? 0);
  if (hour > 24 || minute > 59) return undefined;
  const meridiem = m[3]?.[0];
  if (meridiem && (hour === 0 || hour > 12)) return undefined;
  if (meridiem === 'p' && hour < 12) hour += 12;
  if (meridiem === 'a' && hour === 12) hour = 0;
  // a leading zero ("03:20", "0700") is the 24-hour form: the hour is what it says, never moved to
  // the afternoon (docs/decisions.md, "Scene questions: round F — the shared time reader")
  const leadingZero = m[1].length === 2 && m[1].startsWith('0');
  return { hour: hour % 24, minute, meridiemCertain: Boolean(meridiem) || hour === 0 || hour > 12 || leadingZero };
}

/**
 * The 24-hour hour of a clock time whose am/pm was not said, as people mean it for a watch:
 * `night` — "till 6" in a night window is 06:00, "from 10" is 22:00; `day` — business-like
 * hours (7–11 morning, 12–6 afternoon/evening).
 */
export function chooseHour(time: ClockTime, hint: 'day' | 'night'): number {
  if (time.meridiemCertain || time.hour === 0) return time.hour;
  if (hint === 'night') return time.hour === 12 ? 0 : time.hour >= 5 ? time.hour + 12 : time.hour;
  return time.hour >= 7 && time.hour <= 11 ? time.hour : time.hour === 12 ? 12 : time.hour + 12;
}

// ------------------------------------------------------------------ day parts

export type DayPart = 'morning' | 'afternoon' | 'evening' | 'night';

/**
 * Local hours of the parts of a day: [start, end) and the hour a request "until friday evening"
 * means. Night runs past midnight (end 29 = 05:00 the next day).
 */
export const DAY_PARTS: Record<DayPart, { start: number; end: number; typical: number }> = {
  morning: { start: 5, end: 12, typical: 8 },
  afternoon: { start: 12, end: 17, typical: 14 },
  evening: { start: 17, end: 21, typical: 18 },
  night: { start: 21, end: 29, typical: 22 },
};

export function isDayPart(word: string): word is DayPart {
  return word === 'morning' || word === 'afternoon' || word === 'evening' || word === 'night';
}

/** The instants a day part spans on a local date (night: that evening to the next morning). */
export function getDayPartRange(part: DayPart, day: LocalDate, timeZone: string): { from: number; to: number } {
  const p = DAY_PARTS[part];
  return {
    from: fromWallClock({ ...day, hour: p.start, minute: 0 }, timeZone),
    to: fromWallClock({ ...day, hour: p.end, minute: 0 }, timeZone),
  };
}

// ------------------------------------------------------------------ sun

export type SunEvent = 'sunset' | 'sunrise' | 'dusk' | 'dawn';

/** Words for sun events ("sundown", "first light"); "dark" is sunset. */
export const SUN_WORDS: Record<string, SunEvent> = {
  sunset: 'sunset',
  sundown: 'sunset',
  nightfall: 'dusk',
  dusk: 'dusk',
  sunrise: 'sunrise',
  sunup: 'sunrise',
  dawn: 'dawn',
  daybreak: 'dawn',
  dark: 'sunset',
};

/** Fallback local hours when the place is unknown. */
const SUN_FALLBACK_HOUR: Record<SunEvent, number> = { sunset: 18, dusk: 18, sunrise: 7, dawn: 7 };

/** The sun event on a local day, to the nearest minute as almanacs give it (a fixed hour when the place is unknown). */
export function getSunTime(event: SunEvent, day: LocalDate, ctx: TimeContext): number {
  if (!ctx.location) return fromWallClock({ ...day, hour: SUN_FALLBACK_HOUR[event], minute: 0 }, ctx.timeZone);
  const noon = fromWallClock({ ...day, hour: 12, minute: 0 }, ctx.timeZone);
  const times = SunCalc.getTimes(new Date(noon), ctx.location.lat, ctx.location.lon) as unknown as Record<string, Date>;
  const t = times[event].getTime();
  // polar day or night: suncalc gives NaN; keep the fixed hour rather than an invalid instant
  if (Number.isNaN(t)) return fromWallClock({ ...day, hour: SUN_FALLBACK_HOUR[event], minute: 0 }, ctx.timeZone);
  return Math.round(t / MINUTE_MS) * MINUTE_MS;
}

/** First instant of the sun event after `after` (that local day or a later one). */
export function getNextSunTime(event: SunEvent, after: number, ctx: TimeContext): number {
  const day = toLocalDate(after, ctx.timeZone);
  for (let d = 0; d < 3; d++) {
    const t = getSunTime(event, addDays(day, d), ctx);
    if (t > after) return t;
  }
  return after + DAY_MS;
}

/** Last instant of the sun event at or before `before`. */
export function getPreviousSunTime(event: SunEvent, before: number, ctx: TimeContext): number {
  const day = toLocalDate(before, ctx.timeZone);
  for (let d = 0; d > -3; d--) {
    const t = getSunTime(event, addDays(day, d), ctx);
    if (t <= before) return t;
  }
  return before - DAY_MS;
}

/**
 * The hour until which "tonight", said after midnight, is the night in progress: someone still up
 * at 00:30 or 01:15 means the rest of this night; from 02:00 on, "tonight" is the coming evening
 * (see docs/decisions.md, "Round J household: time").
 */
export const NIGHT_IN_PROGRESS_UNTIL_HOUR = 2;

/**
 * True between midnight and 02:00 (NIGHT_IN_PROGRESS_UNTIL_HOUR), before sunrise: "tonight" then means
 * the night in progress, which started at the previous sunset and ends at this morning's sunrise.
 */
export function isNightInProgress(ctx: TimeContext): boolean {
  return isBeforeSunrise(ctx) && toWallClock(ctx.now, ctx.timeZone).hour < NIGHT_IN_PROGRESS_UNTIL_HOUR;
}

/** True between midnight and this morning's sunrise: what is left of last night is still dark. */
export function isBeforeSunrise(ctx: TimeContext): boolean {
  const wc = toWallClock(ctx.now, ctx.timeZone);
  if (wc.hour >= 12) return false;
  return ctx.now < getSunTime('sunrise', toLocalDate(ctx.now, ctx.timeZone), ctx);
}

// ------------------------------------------------------------------ days and dates

export const WEEKDAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const WEEKDAY_ABBREVIATIONS: Record<string, number> = {
  sun: 0,
  mon: 1,
  tue: 2,
  tues: 2,
  wed: 3,
  weds: 3,
  thu: 4,
  thur: 4,
  thurs: 4,
  fri: 5,
  sat: 6,
};

/** "friday", "fri", "fridays" → 5 (0 = Sunday); undefined when the word names no weekday. */
export function parseWeekday(word: string): number | undefined {
  const w = word.toLowerCase().replace(/s$/, '');
  const full = WEEKDAY_NAMES.indexOf(w);
  if (full >= 0) return full;
  return WEEKDAY_ABBREVIATIONS[w] ?? WEEKDAY_ABBREVIATIONS[word.toLowerCase()];
}

/** The next date with that weekday after `from` (today counts when `includeToday`). */
export function nextWeekday(weekday: number, from: LocalDate, includeToday = false): LocalDate {
  const diff = (weekday - getWeekday(from) + 7) % 7;
  return addDays(from, diff === 0 && !includeToday ? 7 : diff);
}

/** The last date with that weekday before `from` (today counts when `includeToday`). */
export function previousWeekday(weekday: number, from: LocalDate, includeToday = false): LocalDate {
  const diff = (getWeekday(from) - weekday + 7) % 7;
  return addDays(from, diff === 0 && !includeToday ? -7 : -diff);
}

/** "30th", "1st", "2nd", "23rd", "30" → the day of the month; undefined otherwise. */
export function parseDayOfMonth(word: string): number | undefined {
  const m = /^(\d{1,2})(st|nd|rd|th)?$/.exec(word.toLowerCase());
  if (!m) return undefined;
  const day = Number(m[1]);
  return day >= 1 && day <= 31 ? day : undefined;
}

/**
 * A day of the month without a month ("until the 30th", "back on the 2nd") as the date people
 * mean: the next such day (`future`, today included) or the last one (`past`, today included).
 * Months without that day are skipped ("the 31st" in November is December 31).
 */
export function resolveDayOfMonth(day: number, ctx: Pick<TimeContext, 'now' | 'timeZone'>, direction: 'future' | 'past'): LocalDate {
  const today = toLocalDate(ctx.now, ctx.timeZone);
  const step = direction === 'future' ? 1 : -1;
  for (let k = 0; k < 14; k++) {
    const monthIndex = today.month - 1 + step * k;
    const year = today.year + Math.floor(monthIndex / 12);
    const month = (((monthIndex % 12) + 12) % 12) + 1;
    const candidate = { year, month, day };
    const valid = toLocalDate(fromWallClock({ ...candidate, hour: 12, minute: 0 }, 'UTC'), 'UTC').day === day;
    if (!valid) continue;
    const beforeToday = year < today.year || (year === today.year && (month < today.month || (month === today.month && day < today.day)));
    const afterToday = year > today.year || (year === today.year && (month > today.month || (month === today.month && day > today.day)));
    if (direction === 'future' && !beforeToday) return candidate;
    if (direction === 'past' && !afterToday) return candidate;
  }
  return today;
}

/** Local midnight `offsetDays` from today. */
export function getDayStart(ctx: Pick<TimeContext, 'now' | 'timeZone'>, offsetDays: number): number {
  return fromWallClock({ ...addDays(toLocalDate(ctx.now, ctx.timeZone), offsetDays), hour: 0, minute: 0 }, ctx.timeZone);
}

/** "Mon 30 Nov": a date as a reply names it. */
export function formatDay(date: LocalDate): string {
  const names = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${names[getWeekday(date)]} ${date.day} ${months[date.month - 1]}`;
}
