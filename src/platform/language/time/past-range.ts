import { createRequire } from 'node:module';
import * as chrono from 'chrono-node';
import { DAY_PARTS as SHARED_DAY_PARTS, SUN_WORDS, getPreviousSunTime, type SunEvent, type TimeContext } from './primitives.ts';
import { describeDuration } from './query-window.ts';
import { daytimeHour, rewriteSpokenClocks } from './spoken-clock.ts';
import {
  addZonedDays,
  atZonedTime,
  formatMoment,
  fromWallClock,
  getOffsetMinutes,
  getWeekday,
  startOfZonedDay,
  toLocalDate,
  toWallClock,
  type WallClock,
} from '../../time/index.ts';

/**
 * The past-range reader of the shared time module: finds the one time phrase in a question about
 * what already happened ("in the last 10 minutes", "since 9", "this morning", "between 2 and 3pm",
 * "at 9:30", "around 4", "yesterday afternoon", "tonight") with chrono-node and turns it into
 * epoch-ms bounds in the caller's time zone. Everything about what a phrase *means* for a question
 * about the past lives here: a bare "since 9" is the latest 9 o'clock that has passed, "this
 * morning" is 05:00-12:00, "tonight" asked between midnight and morning is the night in progress,
 * "around 4" is 15:30-16:30 when a span is needed. Used by the scene-query interpreter
 * (Surface B); moved here from scenes/query/time-phrase.ts so there is one time module.
 */

export interface TimeScope {
  now: number;
  timeZone: string;
}

export type TimePhrase =
  | { kind: 'none' }
  /** a span; `label` names it for an answer ("since 09:00", "in the last hour") */
  | { kind: 'range'; from: number; to: number; phrase: string; label: string }
  /**
   * one moment ("at 9:30", "10 minutes ago"); `around` is the half hour either side when the
   * phrase was approximate ("around 4", "about 9:30"), for questions that need a span
   */
  | { kind: 'point'; at: number; phrase: string; label: string; around?: { from: number; to: number; label: string } }
  | { kind: 'future'; phrase: string }
  | { kind: 'several'; phrases: string[] };

export interface TimePhraseScan {
  phrase: TimePhrase;
  /** the question with the phrase (and its preposition) blanked out, for intent matching */
  remainder: string;
}

/** Words that say how a clock time bounds the range: "since 9" is open-ended, "at 9" a moment. */
const OPEN_START_PREPOSITIONS = new Set(['since', 'after', 'from']);
const CLOSED_END_PREPOSITIONS = new Set(['before', 'until', 'till', 'til']);
/** "around 4", "about 9:30": a moment people mean loosely, read as the half hour either side. */
const APPROXIMATE_PREPOSITIONS = new Set(['around', 'about', 'roughly']);
const APPROXIMATE_MS = 30 * 60_000;
const PREPOSITIONS = new Set([
  ...OPEN_START_PREPOSITIONS,
  ...CLOSED_END_PREPOSITIONS,
  'at',
  'around',
  'about',
  'in',
  'during',
  'over',
  'for',
  'within',
  'on',
  'by',
]);

/** Day parts as local hours [start, end) from the shared primitives; night runs past midnight. */
const DAY_PARTS: Record<string, [number, number]> = Object.fromEntries(Object.entries(SHARED_DAY_PARTS).map(([part, { start, end }]) => [part, [start, end]]));
/** "last night" / "tonight": the evening and night together, as people mean it. */
const NIGHT_SPAN: [number, number] = [18, 30];

/**
 * chrono reads "since 9am" but not a bare hour ("any cars since 9?", "at 5"); this parser adds
 * that, only right after a time preposition so "5 people" is never taken for 5 o'clock.
 * The preposition is part of the match because chrono drops results that are only a number.
 */
const bareHourParser: chrono.Parser = {
  pattern: () =>
    /\b(?:since|after|from|before|until|till|at|around|about)\s+(\d{1,2})(?:ish)?(?![\d:]|\s*(?:am|pm|o'?clock|h|hrs?|hours?|m|mins?|minutes?|s|secs?|seconds?|days?|weeks?|people|persons?|vehicles?|cars?)\b)/i,
  extract: (_context, match) => {
    const hour = Number(match[1]);
    if (hour > 23) return null;
    // 13-23 and 0 can only be read one way; 1-12 stay ambiguous and resolveClockTime picks.
    return hour > 12 || hour === 0 ? { hour, minute: 0, meridiem: hour >= 12 ? chrono.Meridiem.PM : chrono.Meridiem.AM } : { hour, minute: 0 };
  },
};

/** "overnight": the night just past, or the one in progress; read like "last night". */
const overnightParser: chrono.Parser = {
  pattern: () => /\bovernight\b/i,
  extract: (context) => context.createParsingComponents({}).addTag('casualReference/overnight'),
};

/**
 * "in the night", "during the night": the night itself, never chrono's evening; read as "last night" by day and as
 * "tonight" from the evening on (docs/decisions.md, "Before round S: times").
 */
const theNightParser: chrono.Parser = {
  pattern: () => /\b(?:in|during|through|thru|over)\s+the\s+night\b/i,
  extract: (context) => context.createParsingComponents({}).addTag('casualReference/theNight'),
};

/** "in the small hours", "the wee hours", "the early hours": the latest 00:00 to 05:00. */
const smallHoursParser: chrono.Parser = {
  pattern: () => /\bthe\s+(?:small|wee|early)\s+hours(?:\s+of\s+(?:the\s+)?morning)?\b(?!\s+of\b)/i,
  extract: (context) => context.createParsingComponents({}).addTag('casualReference/smallHours'),
};

const parser = chrono.casual.clone();
parser.parsers.push(bareHourParser, overnightParser, theNightParser, smallHoursParser);

/**
 * chrono reads "from 2 to 3pm" but not "between 2 and 3pm"; rewrite the words in place,
 * padded to the same length, so match indices still point into the caller's text.
 */
function rewriteBetweenAnd(text: string): string {
  return (
    text
      .replace(/\bbetween(\s+\S+(?:\s+(?:am|pm))?\s+)and\b/g, (_m, middle: string) => `from   ${middle}to `)
      // a range bound said as "midnight" or "noon" is a clock time with its half of the day
      // ("between 10 and midnight", "from noon to 3"), same length so indices hold
      .replace(
        /\b(from|to|till|until)(\s+)(midnight|noon)\b/g,
        (_m, word: string, space: string, bound: string) => `${word}${space}${(bound === 'midnight' ? '12am' : '12pm').padEnd(bound.length, ' ')}`,
      )
  );
}

function findPreposition(text: string, result: chrono.ParsedResult): { word: string | null; start: number } {
  const ownFirst = result.text.split(/\s+/)[0].toLowerCase();
  if (PREPOSITIONS.has(ownFirst)) return { word: ownFirst, start: result.index };
  const before = text.slice(0, result.index);
  const m = /(\S+)\s+((?:the|these|this)\s+)?$/.exec(before);
  if (m && PREPOSITIONS.has(m[1])) return { word: m[1], start: before.length - m[0].length };
  return { word: null, start: result.index };
}

function rangeLabel(from: number, to: number, scope: TimeScope): string {
  if (to === scope.now) return `since ${formatMoment(from, scope.timeZone, scope.now)}`;
  return `between ${formatMoment(from, scope.timeZone, scope.now)} and ${formatMoment(to, scope.timeZone, scope.now)}`;
}

function hasTag(result: chrono.ParsedResult, tag: string): boolean {
  return result.tags().has(tag);
}

/** morning/afternoon/evening/night from chrono's casual-reference tags ("yesterday morning"). */
function dayPartOf(result: chrono.ParsedResult): string | null {
  for (const part of Object.keys(DAY_PARTS)) if (hasTag(result, `casualReference/${part}`)) return part;
  return null;
}

/** Casual words that fix am/pm themselves: "9 this morning", "noon", "midnight". */
function fixesMeridiem(result: chrono.ParsedResult): boolean {
  return dayPartOf(result) !== null || hasTag(result, 'casualReference/noon') || hasTag(result, 'casualReference/midnight');
}

/** chrono's fields are wall-clock values in the reference zone (known or implied from now). */
function wallClockOf(components: chrono.ParsedComponents): WallClock {
  return {
    year: components.get('year') ?? 0,
    month: components.get('month') ?? 1,
    day: components.get('day') ?? 1,
    hour: components.get('hour') ?? 0,
    minute: components.get('minute') ?? 0,
    second: components.get('second') ?? 0,
  };
}

function fromWallClockOf(components: chrono.ParsedComponents, timeZone: string): number {
  return fromWallClock(wallClockOf(components), timeZone);
}

/**
 * The clock times as written in a matched phrase, left to right ("from 02:00 to 4pm" → "02:00",
 * "4pm"): a leading zero or a 24-hour hour ("03:20", "00:30", "15:20") says the half of the day as
 * surely as am/pm does, so such a time is never moved to the afternoon or evening
 * (docs/decisions.md, "Scene questions: round F — the shared time reader").
 */
const WRITTEN_CLOCK = /(?<![\d:.])(\d{1,2})(?::(\d{2}))?(?![\d:])\s*(am|pm)?/g;
function writtenClocks(text: string): Array<{ hour: number; fixed: boolean }> {
  const clocks: Array<{ hour: number; fixed: boolean }> = [];
  for (const m of text.toLowerCase().matchAll(WRITTEN_CLOCK)) {
    const hour = Number(m[1]);
    const fixed = m[3] !== undefined || (m[2] !== undefined && m[1].length === 2 && m[1].startsWith('0')) || hour === 0 || hour > 12;
    clocks.push({ hour, fixed });
  }
  return clocks;
}

/**
 * The instant of a parsed clock time. chrono computes in a fixed offset; we rebuild the instant
 * from its wall-clock fields in the IANA zone. A bare 1-12 hour ("since 9") is the latest such
 * time that has passed, and a time of day without a date is today's, or yesterday's if today's
 * is still ahead (people say "since 9pm" in the morning meaning last night). `hours`, when given,
 * are the only readings of the hour to consider.
 */
function resolveClockTime(components: chrono.ParsedComponents, meridiemKnown: boolean, scope: TimeScope, hoursGiven?: number[]): number {
  const wall = wallClockOf(components);
  const dateKnown = components.isCertain('day') || components.isCertain('weekday');
  // a named past day's bare hour ("at 9 yesterday", "3 on monday") is its daytime hour, never
  // the evening one by default (docs/decisions.md, "One spoken-clock reader")
  const pastDay =
    dateKnown && startOfZonedDay(fromWallClock({ ...wall, hour: 12, minute: 0 }, scope.timeZone), scope.timeZone) < startOfZonedDay(scope.now, scope.timeZone);
  const hours = hoursGiven ?? (meridiemKnown ? [wall.hour] : pastDay ? [daytimeHour(wall.hour % 12 || 12)] : [wall.hour % 12, (wall.hour % 12) + 12]);
  const candidates: number[] = [];
  for (const hour of hours) {
    const t = fromWallClock({ ...wall, hour }, scope.timeZone);
    candidates.push(t);
    if (!dateKnown) candidates.push(addZonedDays(t, -1, scope.timeZone));
  }
  const past = candidates.filter((t) => t <= scope.now);
  if (past.length > 0) return Math.max(...past);
  return Math.min(...candidates); // all ahead of now: the caller reports a future phrase
}

/**
 * The start hour of a range whose own half of the day was not said ("between 10 and midnight",
 * "from 10 to 2pm"): when the end's is known, the reading that makes the shorter span up to that
 * end (22:00 to midnight, 10:00 to 14:00), as people name a range by its nearer bound.
 */
function startHourBefore(startHour12: number, endHour: number, endMinute: number, startMinute: number): number {
  const end = endHour * 60 + endMinute;
  const spans = [startHour12, startHour12 + 12].map((h) => ({ h, span: (end - (h * 60 + startMinute) + 24 * 60) % (24 * 60) || 24 * 60 }));
  return spans.sort((a, b) => a.span - b.span)[0].h;
}

/** The end of a range: the first time at the end's clock reading after `from` (within a day). */
function rangeEnd(from: number, end: chrono.ParsedComponents, endHours: number[], timeZone: string): number {
  const day = startOfZonedDay(from, timeZone);
  const minute = end.get('minute') ?? 0;
  const candidates = endHours.flatMap((h) => [0, 1].map((d) => atZonedTime(addZonedDays(day, d, timeZone), h, minute, timeZone))).filter((t) => t > from);
  return Math.min(...candidates);
}

/** A relative time: "last 10 minutes", "10 minutes ago". */
function resolveRelative(
  result: chrono.ParsedResult,
  scope: TimeScope,
  prep: { word: string | null; start: number },
  phrase: string,
  lower: string,
): TimePhrase | undefined {
  const { now, timeZone } = scope;
  const future: TimePhrase = { kind: 'future', phrase };
  const start = result.start;
  // "last 10 minutes", "past hour", "10 minutes ago", "in 10 minutes", "last 3 days"
  if (hasTag(result, 'result/relativeDate')) {
    const at = start.date().getTime();
    if (at > now) return future;
    if (/\bago\b/.test(lower) && !OPEN_START_PREPOSITIONS.has(prep.word ?? '')) {
      if (result.tags().has('result/relativeDateAndTime')) {
        return { kind: 'point', at, phrase, label: `at ${formatMoment(at, timeZone, now)}` };
      }
      const dayStart = startOfZonedDay(at, timeZone);
      const dayEnd = Math.min(addZonedDays(dayStart, 1, timeZone), now);
      return { kind: 'range', from: dayStart, to: dayEnd, phrase, label: rangeLabel(dayStart, dayEnd, scope) };
    }
    return { kind: 'range', from: at, to: now, phrase, label: `in the last ${describeDuration(now - at)}` };
  }
  return undefined;
}

/** A range of clock times: "between 2 and 3pm", "from 9 to 10 yesterday". */
function resolveClockRange(result: chrono.ParsedResult, scope: TimeScope, phrase: string, lower: string): TimePhrase | undefined {
  const { now, timeZone } = scope;
  const future: TimePhrase = { kind: 'future', phrase };
  const start = result.start;
  // "between 2 and 3pm", "from 9 to 10 yesterday", "between 10 and midnight", "between 8 and 10 last night"
  if (result.end) {
    const written = writtenClocks(result.text);
    const startWritten = written[0];
    const endWritten = written.length > 1 ? written[written.length - 1] : undefined;
    const dayPartKnown = fixesMeridiem(result);
    const startKnown = start.isCertain('meridiem') || startWritten?.fixed === true || dayPartKnown;
    const endKnown = result.end.isCertain('meridiem') || endWritten?.fixed === true || dayPartKnown;
    const startHour = startWritten?.fixed && !start.isCertain('meridiem') ? startWritten.hour : (start.get('hour') ?? 0);
    const endHour = endWritten?.fixed && !result.end.isCertain('meridiem') ? endWritten.hour : (result.end.get('hour') ?? 0);
    const night = /\b(?:last night|overnight)\b/.test(lower) ? -1 : /\btonight\b/.test(lower) ? 0 : null;
    let from: number;
    if (night !== null && !startKnown) {
      // "between 8 and 10 last night": the reading of the start inside that night (18:00 to 06:00)
      const inNight = toWallClock(now, timeZone).hour < NIGHT_SPAN[1] - 24;
      const base = night === -1 || inNight ? addZonedDays(startOfZonedDay(now, timeZone), -1, timeZone) : startOfZonedDay(now, timeZone);
      const nightFrom = atZonedTime(base, NIGHT_SPAN[0], 0, timeZone);
      const nightTo = atZonedTime(addZonedDays(base, 1, timeZone), NIGHT_SPAN[1] - 24, 0, timeZone);
      const minute = start.get('minute') ?? 0;
      const candidates = [startHour % 12, (startHour % 12) + 12]
        .flatMap((h) => [atZonedTime(base, h, minute, timeZone), atZonedTime(addZonedDays(base, 1, timeZone), h, minute, timeZone)])
        .filter((t) => t >= nightFrom && t < nightTo);
      if (candidates.length === 0) return { kind: 'several', phrases: [phraseOnly(phrase)] };
      from = Math.min(...candidates);
    } else if (startKnown) {
      from = resolveClockTime(start, true, scope, [startHour]);
    } else if (endKnown) {
      from = resolveClockTime(start, true, scope, [startHourBefore(startHour % 12, endHour, result.end.get('minute') ?? 0, start.get('minute') ?? 0)]);
    } else {
      from = resolveClockTime(start, false, scope);
    }
    const endHours = endKnown ? [endHour] : [endHour % 12, (endHour % 12) + 12];
    let to = rangeEnd(from, result.end, endHours, timeZone);
    if (from > now) return future;
    to = Math.min(to, now);
    return { kind: 'range', from, to, phrase, label: rangeLabel(from, to, scope) };
  }
  return undefined;
}

/** A clock time: "since 9am", "at 9:30", "before noon". */
function resolveClockPoint(
  result: chrono.ParsedResult,
  scope: TimeScope,
  prep: { word: string | null; start: number },
  phrase: string,
  lower: string,
): TimePhrase | undefined {
  const { now, timeZone } = scope;
  const future: TimePhrase = { kind: 'future', phrase };
  const start = result.start;
  // a clock time: "since 9am", "at 9:30", "9 this morning", "before noon"
  if (start.isCertain('hour')) {
    const written = writtenClocks(result.text)[0];
    const meridiemKnown = start.isCertain('meridiem') || fixesMeridiem(result) || written?.fixed === true;
    let at =
      written?.fixed && !start.isCertain('meridiem') ? resolveClockTime(start, true, scope, [written.hour]) : resolveClockTime(start, meridiemKnown, scope);
    // "at 11:30 last night", "2am last night": the time inside that night (18:00 to 06:00)
    const night = /\b(?:last night|overnight)\b/.test(lower) ? -1 : /\btonight\b/.test(lower) ? 0 : null;
    if (night !== null) {
      const inNight = toWallClock(now, timeZone).hour < NIGHT_SPAN[1] - 24;
      const base = night === -1 || inNight ? addZonedDays(startOfZonedDay(now, timeZone), -1, timeZone) : startOfZonedDay(now, timeZone);
      const nightFrom = atZonedTime(base, NIGHT_SPAN[0], 0, timeZone);
      const nightTo = atZonedTime(addZonedDays(base, 1, timeZone), NIGHT_SPAN[1] - 24, 0, timeZone);
      const hour = start.get('hour') ?? 0;
      const minute = start.get('minute') ?? 0;
      const hours = meridiemKnown ? [hour] : [hour % 12, (hour % 12) + 12];
      const candidates = hours
        .flatMap((h) => [atZonedTime(base, h, minute, timeZone), atZonedTime(addZonedDays(base, 1, timeZone), h, minute, timeZone)])
        .filter((t) => t >= nightFrom && t < nightTo);
      if (candidates.length === 0) return { kind: 'several', phrases: [phraseOnly(phrase)] };
      at = Math.min(...candidates);
    }
    if (at > now) return future;
    if (OPEN_START_PREPOSITIONS.has(prep.word ?? '')) {
      return { kind: 'range', from: at, to: now, phrase, label: `since ${formatMoment(at, timeZone, now)}` };
    }
    if (CLOSED_END_PREPOSITIONS.has(prep.word ?? '')) {
      const from = startOfZonedDay(at, timeZone);
      return { kind: 'range', from, to: at, phrase, label: rangeLabel(from, at, scope) };
    }
    if (APPROXIMATE_PREPOSITIONS.has(prep.word ?? '')) {
      const from = at - APPROXIMATE_MS;
      const to = Math.min(at + APPROXIMATE_MS, now);
      const around = {
        from,
        to,
        label: `around ${formatMoment(at, timeZone, now)} (${formatMoment(from, timeZone, now)} to ${formatMoment(to, timeZone, now)})`,
      };
      return { kind: 'point', at, phrase, label: `at ${formatMoment(at, timeZone, now)}`, around };
    }
    return { kind: 'point', at, phrase, label: `at ${formatMoment(at, timeZone, now)}` };
  }
  return undefined;
}

/** "in the small hours": today's 00:00 to 05:00, up to now (docs/decisions.md, "Before round S: times"). */
function resolveSmallHours({ now, timeZone }: TimeScope, phrase: string): TimePhrase {
  const from = startOfZonedDay(now, timeZone);
  const to = Math.min(atZonedTime(from, 5, 0, timeZone), now);
  return { kind: 'range', from, to, phrase, label: `${phraseOnly(phrase)} (${formatMoment(from, timeZone, now)} to ${formatMoment(to, timeZone, now)})` };
}

/** A day or a part of one: "last night", "this morning", "yesterday", "this week". */
function resolveDay(result: chrono.ParsedResult, scope: TimeScope, prep: { word: string | null; start: number }, phrase: string, lower: string): TimePhrase {
  const { now, timeZone } = scope;
  const future: TimePhrase = { kind: 'future', phrase };
  const start = result.start;
  let day = startOfZonedDay(fromWallClockOf(start, timeZone), timeZone);
  // A bare weekday ("on friday") in a question about history is the latest one, not the coming one.
  if (day > now && start.isCertain('weekday') && !start.isCertain('day') && !/\b(this|next)\b/.test(lower)) {
    day = addZonedDays(day, -7, timeZone);
  }
  const since = OPEN_START_PREPOSITIONS.has(prep.word ?? '');

  // "last night", "tonight": evening through night
  const dayPart = dayPartOf(result);
  if (hasTag(result, 'casualReference/smallHours')) return resolveSmallHours(scope, phrase);
  const theNight = hasTag(result, 'casualReference/theNight') ? (toWallClock(now, timeZone).hour >= NIGHT_SPAN[0] ? 0 : -1) : null;
  const nightSpan = /\b(?:last night|overnight)\b/.test(lower) ? -1 : /\btonight\b/.test(lower) ? 0 : theNight;
  if (nightSpan !== null || dayPart !== null) {
    const [h0, h1] = nightSpan !== null ? NIGHT_SPAN : DAY_PARTS[dayPart!];
    // "tonight" asked between midnight and the night's end is the night in progress, which
    // began the evening before; "last night" then is that same night too.
    const inNight = toWallClock(now, timeZone).hour < NIGHT_SPAN[1] - 24;
    const base = nightSpan === -1 || (nightSpan === 0 && inNight) ? addZonedDays(startOfZonedDay(now, timeZone), -1, timeZone) : day;
    const from = atZonedTime(base, h0, 0, timeZone);
    const to = since ? now : Math.min(atZonedTime(addZonedDays(base, Math.floor(h1 / 24), timeZone), h1 % 24, 0, timeZone), now);
    if (from > now) return future;
    const label = since
      ? `since ${formatMoment(from, timeZone, now)}`
      : `${phraseOnly(phrase)} (${formatMoment(from, timeZone, now)} to ${formatMoment(to, timeZone, now)})`;
    return { kind: 'range', from, to, phrase, label };
  }

  // a day: "today", "yesterday", "on monday", "since yesterday", "this week"
  if (day > now) return future;
  let spanDays = /\bweek\b/.test(lower) ? 7 : 1;
  if (/\bweekend\b/.test(lower)) {
    // a weekend is Saturday and Sunday, whichever of the two chrono landed on
    const weekday = getWeekday(toLocalDate(day, timeZone));
    if (weekday === 0) day = addZonedDays(day, -1, timeZone);
    spanDays = 2;
    if (day > now) return future;
  }
  const to = since ? now : Math.min(addZonedDays(day, spanDays, timeZone), now);
  const isToday = day === startOfZonedDay(now, timeZone);
  const named = phraseOnly(phrase).replace(/\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/g, (w) => w[0].toUpperCase() + w.slice(1));
  const weekdayOnly = /^(?:on\s+|last\s+)?[a-z]+day$/i.test(phraseOnly(phrase)) && start.isCertain('weekday') && !/\b(?:to|yester)day\b/.test(lower);
  const label = isToday && to === now ? 'today' : since ? `since ${named}` : weekdayOnly ? `on ${named.replace(/^(?:on|last)\s+/, '')}` : named;
  return { kind: 'range', from: day, to, phrase, label };
}

/** `text` is what chrono read; `originalText` the same-length caller's text the phrase is quoted from. */
function resolveResult(text: string, originalText: string, result: chrono.ParsedResult, scope: TimeScope): TimePhrase {
  const prep = findPreposition(text, result);
  const phrase = originalText.slice(prep.start, result.index + result.text.length).trim();
  const lower = result.text.toLowerCase();
  return (
    resolveRelative(result, scope, prep, phrase, lower) ??
    resolveClockRange(result, scope, phrase, lower) ??
    resolveClockPoint(result, scope, prep, phrase, lower) ??
    resolveDay(result, scope, prep, phrase, lower)
  );
}

function phraseOnly(phrase: string): string {
  const words = phrase.split(/\s+/);
  return PREPOSITIONS.has(words[0]) && words.length > 1 ? words.slice(1).join(' ') : phrase;
}

const require = createRequire(import.meta.url);

/**
 * Where the sun is for a zone when the caller knows no place: the most populous city of that
 * IANA zone in the city-timezones table (shipped in npm, no network). A zone spans a few hundred
 * kilometres at most in practice, so sunset is right to within about half an hour; answers name
 * the time they used. (A primitive the shared module does not have: it takes a place, not a zone.)
 */
let zoneCities: Map<string, { lat: number; lon: number }> | undefined;
export function getZoneLocation(timeZone: string): { lat: number; lon: number } | null {
  if (!zoneCities) {
    zoneCities = new Map();
    const rows = (require('city-timezones') as { cityMapping: Array<{ timezone: string; lat: number; lng: number; pop: number }> }).cityMapping;
    const best = new Map<string, { lat: number; lng: number; pop: number }>();
    for (const row of rows) {
      const seen = best.get(row.timezone);
      if (row.timezone && (!seen || row.pop > seen.pop)) best.set(row.timezone, row);
    }
    for (const [zone, row] of best) zoneCities.set(zone, { lat: row.lat, lon: row.lng });
  }
  return zoneCities.get(timeZone) ?? null;
}

const SUN_PATTERN = new RegExp(`\\b(since|after|from)\\s+(?:the\\s+)?(${Object.keys(SUN_WORDS).join('|')}|first light)\\b`);

/** "since sunset", "after dark", "from dawn": the latest such sun event that has passed, to now. */
function findSunPhrase(text: string, scope: TimeScope): TimePhraseScan | undefined {
  const m = SUN_PATTERN.exec(text);
  if (!m) return undefined;
  const event: SunEvent = m[2] === 'first light' ? 'dawn' : SUN_WORDS[m[2]];
  const ctx: TimeContext = { now: scope.now, timeZone: scope.timeZone, location: getZoneLocation(scope.timeZone) };
  const from = getPreviousSunTime(event, scope.now, ctx);
  const phrase = m[0];
  const label = `since ${m[2]} (${formatMoment(from, scope.timeZone, scope.now)})`;
  const remainder = `${text.slice(0, m.index)} ${' '.repeat(m[0].length)} ${text.slice(m.index + m[0].length)}`;
  const rest = findTimePhraseOnly(remainder, scope);
  if (rest.phrase.kind !== 'none') {
    return {
      phrase: {
        kind: 'several',
        phrases: [phrase, rest.phrase.kind === 'several' ? rest.phrase.phrases.join(', ') : 'phrase' in rest.phrase ? rest.phrase.phrase : ''],
      },
      remainder: text,
    };
  }
  return { phrase: { kind: 'range', from, to: scope.now, phrase, label }, remainder };
}

/** A day and nothing finer: "today", "yesterday", "on monday" (no clock time, day part or span back from now). */
function isDayOnly(result: chrono.ParsedResult): boolean {
  const start = result.start;
  const dated = start.isCertain('day') || start.isCertain('weekday');
  return dated && !result.end && !start.isCertain('hour') && dayPartOf(result) === null && !hasTag(result, 'result/relativeDate');
}

/** A time of day with no day of its own: "lunch" (read as 12pm to 2pm), "the morning", "at 3pm", "between 2 and 4". */
function isTimeOfDayOnly(result: chrono.ParsedResult): boolean {
  const start = result.start;
  if (start.isCertain('day') || start.isCertain('weekday') || hasTag(result, 'result/relativeDate')) return false;
  return start.isCertain('hour') || (dayPartOf(result) !== null && !/\bnight\b/.test(result.text.toLowerCase()));
}

/** Words between two time phrases that make them two times, not one ("at lunch and yesterday", "at 9 than today"). */
const JOINS_TWO_TIMES = /\b(?:and|or|than|vs|versus|compared|but|plus|then|instead|not|since|until|till|before|after|from|to)\b/;

/**
 * A part of a day said apart from its day ("the lunch peak today", "today in the morning", "at 3pm
 * at the dock yesterday") is one time: that part of that day (docs/decisions.md, "Round J: scene
 * questions"). Only a day with nothing finer and a time of day with no day of its own, with no word
 * between them that joins two times; they are read together as chrono reads them said side by
 * side: the day part after the day ("yesterday afternoon"), a clock time before it ("at 3pm yesterday").
 */
function readPartOfDay(prepared: string, text: string, results: chrono.ParsedResult[], scope: TimeScope): TimePhraseScan | undefined {
  if (results.length !== 2) return undefined;
  const day = results.find(isDayOnly);
  const part = results.find((r) => r !== day && isTimeOfDayOnly(r));
  if (!day || !part) return undefined;
  const dayPrep = findPreposition(prepared, day);
  const partPrep = findPreposition(prepared, part);
  if (dayPrep.word !== null && dayPrep.word !== 'on') return undefined;
  // "yesterday since 9am" may be yesterday from 9 on or since 9 yesterday until now: not read
  if (
    !part.end &&
    partPrep.word !== null &&
    (OPEN_START_PREPOSITIONS.has(partPrep.word) || CLOSED_END_PREPOSITIONS.has(partPrep.word) || partPrep.word === 'by')
  )
    return undefined;
  const [first, second] = [dayPrep.start < partPrep.start ? day : part, dayPrep.start < partPrep.start ? part : day];
  if (JOINS_TWO_TIMES.test(prepared.slice(first.index + first.text.length, findPreposition(prepared, second).start))) return undefined;
  const partText = prepared.slice(partPrep.start, part.index + part.text.length);
  const together = (dayPartOf(part) !== null && !part.start.isCertain('hour') ? `${day.text} ${part.text}` : `${partText} ${day.text}`).replace(/\s+/g, ' ');
  const reference = { instant: new Date(scope.now), timezone: getOffsetMinutes(scope.now, scope.timeZone) };
  const read = parser.parse(together, reference).filter((r) => !hasTag(r, 'casualReference/now'));
  if (read.length !== 1 || read[0].text.length + read[0].index < together.length) return undefined;
  const phrase = resolveResult(together, together, read[0], scope);
  let remainder = text;
  for (const r of [day, part]) {
    const { start } = findPreposition(prepared, r);
    const end = r.index + r.text.length;
    remainder = `${remainder.slice(0, start)}${' '.repeat(end - start)}${remainder.slice(end)}`;
  }
  return { phrase, remainder };
}

/**
 * "the afternoon yesterday", "the evening on monday": chrono reads the day part said first with
 * the date of now, so it is read again the way round it reads right ("yesterday afternoon").
 */
function readDayPartBeforeDay(result: chrono.ParsedResult, scope: TimeScope): TimePhrase | undefined {
  const m = /^(morning|afternoon|evening)\s+(?:of\s+)?(.+)$/.exec(result.text.toLowerCase());
  if (!m || dayPartOf(result) === null || result.start.isCertain('hour')) return undefined;
  const reference = { instant: new Date(scope.now), timezone: getOffsetMinutes(scope.now, scope.timeZone) };
  const [day] = parser.parse(m[2], reference);
  if (!day || day.text.length !== m[2].length || !isDayOnly(day)) return undefined;
  const together = `${m[2]} ${m[1]}`;
  const read = parser.parse(together, reference);
  if (read.length !== 1 || read[0].text.length !== together.length) return undefined;
  return resolveResult(together, together, read[0], scope);
}

/** `text` is already lowercased and normalised (see query-tokenizer). */
export function findTimePhrase(text: string, scope: TimeScope): TimePhraseScan {
  return findSunPhrase(text, scope) ?? findTimePhraseOnly(text, scope);
}

function findTimePhraseOnly(text: string, scope: TimeScope): TimePhraseScan {
  // spoken clock times ("half past 7", "quarter to eleven", "seven o'clock"): the shared reader
  const spoken = rewriteSpokenClocks(text);
  const prepared = rewriteBetweenAnd(spoken.text);
  // chrono only takes a fixed offset: the zone's at `now`
  const reference = { instant: new Date(scope.now), timezone: getOffsetMinutes(scope.now, scope.timeZone) };
  // "now" / "right now" is the default moment, not a time phrase; the tokenizer reads it as a word.
  const results = parser.parse(prepared, reference).filter((r) => !hasTag(r, 'casualReference/now'));
  if (results.length === 0) return { phrase: { kind: 'none' }, remainder: text };
  if (results.length > 1) {
    return readPartOfDay(prepared, text, results, scope) ?? { phrase: { kind: 'several', phrases: results.map((r) => r.text) }, remainder: text };
  }
  const result = results[0];
  const phrase = readDayPartBeforeDay(result, scope) ?? resolveResult(prepared, text, result, scope);
  const { start } = findPreposition(prepared, result);
  let end = result.index + result.text.length;
  // a rewritten spoken time ("half past 7" → "7:30" and padding) is blanked whole
  for (const [a, b] of spoken.spans) if (a < end && b > end) end = b;
  const remainder = `${text.slice(0, start)} ${' '.repeat(end - start)} ${text.slice(end)}`;
  return { phrase, remainder };
}
