/**
 * The watch-window reader of the shared time module: reads the time words of one clause
 * ("tonight", "until 6am", "tomorrow 9 to 5", "for the next 2 hours", "every weekday night",
 * "till friday evening", "until the 30th", "around 4", "since 2pm") and turns them into the
 * instants of a future window in the home's zone. Clock and date phrases are parsed by
 * chrono-node; days, day parts and the sun come from ./primitives.ts.
 */
import * as chrono from 'chrono-node';
import type { Token } from '../normalize.ts';
import { addDays, formatClock, fromWallClock, getOffsetMinutes, getWeekday, toLocalDate, toWallClock, type WallClock } from '../../time/index.ts';
import { readNumberWords, readVagueCount } from './number-words.ts';
import { findClockOrRange } from './clock-or-range.ts';
import { findOpenMeridiem } from './open-meridiem.ts';
import { readBusinessHour } from './business-hours.ts';
import { readDayEndedRange } from './day-ended-range.ts';
import { readEventClock } from './event-clock.ts';
import { clockText, readHourWord, readSpokenClock, type SpokenClock } from './spoken-clock.ts';
import {
  DAY_MS,
  DAY_PARTS,
  HOUR_MS,
  MINUTE_MS,
  chooseHour,
  type DayPart,
  formatDay,
  getDayStart,
  getNextSunTime,
  getSunTime,
  isDayPart,
  isBeforeSunrise,
  isNightInProgress,
  nextWeekday,
  parseDayOfMonth,
  parseWeekday,
  resolveDayOfMonth,
  type SunEvent,
  type TimeContext,
} from './primitives.ts';

type Role = 'start' | 'end' | 'point';
type Anchor =
  /** `around`: "around 4" — half an hour either side. `dateOnly`: "until the 30th" — the end of that day. */
  | { kind: 'clock'; hour: number; minute: number; meridiemCertain: boolean; date?: WallClock; role: Role; around?: boolean; dateOnly?: boolean }
  | { kind: 'sun'; event: SunEvent; role: Role };

export type Recurrence = 'none' | 'daily' | 'weekdays' | 'weekends';

export interface TimeSpec {
  anchors: Anchor[];
  durationMs?: number;
  extendMs?: number;
  /** "an hour later", "30 minutes earlier": how far an existing watch's start (or end) moves. */
  shiftMs?: number;
  /** "tonight", "overnight", "every night": the night window. */
  night: boolean;
  /** The night was said only as the start's half of the day ("from 8 tonight"), not as the window's end. */
  nightOfStart?: boolean;
  /** "in the night", "during the night", "in the small hours": said before 05:00, the rest of this night (isTheNightInProgress). */
  theNight?: boolean;
  /** "heading to bed": an hour without am/pm means the morning one, though the window starts now. */
  sleepContext: boolean;
  /** "8 till 3 while I sleep": the start hour without am/pm is the next one to come. */
  nextStart?: boolean;
  /** Days after today the window is on ("tomorrow" = 1). */
  dayOffset: number;
  /** A named day ("monday"). */
  date?: WallClock;
  recurrence?: Exclude<Recurrence, 'none'>;
  /** "this weekend" as a one-off. */
  weekend: boolean;
  /** "tonight and tomorrow night", "the next 3 nights": how many nights one watch covers (1 when unsaid). */
  nights?: number;
  /** "while we're away": no end the agent can know. */
  openEnded: boolean;
  /** A date said that cannot be the one meant as it stands ("the 31st" in November): asked about, never moved. */
  doubtfulDate?: string;
  /** Look-back for questions about the past. */
  sinceMs?: (ctx: TimeContext) => number;
  /**
   * "make that three and a half", "make it 2.5": an amount with a fraction and no unit, which can be
   * no clock time. Its tokens are not consumed: only a follow-up about a watch set for a number of
   * hours gives it a unit (and then uses them); anywhere else they are left over and asked about.
   */
  unitlessAmount?: { value: number; tokens: number[] };
  /** "today", "this morning", "this afternoon": the day (part) said, which a window's end must fall in. */
  saidToday?: string;
  /**
   * "tomorrow morning", "this afternoon", "saturday evening", "in the morning": a part of the day said
   * as the window, with no hours. It sets no hours of its own: the planner asks for them, and a
   * follow-up's bare hours ("from 8 till 11") take its half of the day (docs/decisions.md, "Round J household: time").
   */
  dayPart?: Exclude<DayPart, 'night'>;
  /** "yesterday", "last night": a day already gone, said with the clock times of a window. */
  saidPast?: string;
  /** "in an hour": the window starts that much later. */
  delayMs?: number;
  /** Only past-time words ("yesterday", "last night"): no window can be in the future. */
  past: boolean;
  /** "from 10 to 2": two bare hours whose am/pm nothing settles, with its two readings (./open-meridiem.ts); "from ten to midnight", a range or one clock time (./clock-or-range.ts). */
  openMeridiem?: string;
  /** "a few nights", "several hours": a count the words do not give, with the question that asks for it (./number-words.ts). */
  vagueCount?: string;
  /** Token indexes read as time words. */
  consumed: Set<number>;
  hasTime: boolean;
}

export interface ResolvedWindow {
  startsAt: number;
  endsAt: number;
  recurrence: Recurrence;
  window: string;
  /** No end was said and none follows from the words: the 24 h default, which a reply must state. */
  defaulted: boolean;
  /** A clock window without a day ("from 2 to 4", "around 4") that is already over today: moved to tomorrow, to be asked about. */
  passed?: boolean;
  /** How a reading that could go two ways was taken ("tonight" said before sunrise), for the reply to say. */
  note?: string;
  /** The end's clock happens twice (the clocks go back) and the first was taken (settleRepeatedEnd). */
  repeatedEnd?: boolean;
}

const MINUTE = MINUTE_MS;
const HOUR = HOUR_MS;
const DAY = DAY_MS;

// "till morning" is sunrise; "till friday morning" is a day part of a named day (read with chrono)
const SUN_WORDS: Record<string, SunEvent> = {
  sunset: 'sunset',
  sundown: 'sunset',
  nightfall: 'dusk',
  dusk: 'dusk',
  sunrise: 'sunrise',
  sunup: 'sunrise',
  dawn: 'dawn',
  daybreak: 'dawn',
  morning: 'sunrise',
  dark: 'sunset',
};
const START_WORDS = new Set(['from', 'starting', 'start', 'begin', 'beginning', 'after', 'since', 'at', 'as', 'between']);
const END_WORDS = new Set(['until', 'to', 'through', 'by', 'before', 'stop', 'end', 'finish', 'till', '-']);
const UNIT_MS: Record<string, number> = {
  minute: MINUTE,
  minutes: MINUTE,
  min: MINUTE,
  mins: MINUTE,
  hour: HOUR,
  hours: HOUR,
  hr: HOUR,
  hrs: HOUR,
  h: HOUR,
  day: DAY,
  days: DAY,
  week: 7 * DAY,
  weeks: 7 * DAY,
};
/** Counts said as words that are not numbers ("a night", "a couple"); the numbers are read by ./number-words.ts. */
const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, couple: 2 };
const CHRONO_WORTHY =
  /\d|\b(noon|midday|midnight|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|january|february|march|april|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b/;
/** Words before an hour said as a word that make it a clock time ("until seven"). */
const TIME_PREPOSITIONS = new Set(['at', 'until', 'till', 'til', 'from', 'to', 'by', 'before', 'after', 'around', 'about', 'between', 'and', 'since']);
/** Words after a number that make it an amount, not an hour ("for seven hours", "and three quarters"). */
/** Words that may follow an hour said as a word ("until seven tomorrow", "at seven, please"); any other word ("two fortnights") makes it no hour. */
const HOUR_WORD_FOLLOWERS = new Set([
  'am',
  'pm',
  'tonight',
  'tomorrow',
  'today',
  'this',
  'in',
  'on',
  'at',
  'and',
  'or',
  'to',
  'till',
  'until',
  'til',
  'then',
  'please',
  'thanks',
  'so',
  'if',
  'when',
  'because',
  'as',
  'ish',
  'sharp',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
]);
function isHourWordAt(tokens: Token[], i: number): boolean {
  const t = tokens[i];
  if (!t || /^\d/.test(t.text) || readHourWord(t.text) === undefined) return false;
  const next = tokens[i + 1];
  return !next || t.breakAfter !== '' || HOUR_WORD_FOLLOWERS.has(next.text);
}
/** After "until we/they…": the end is when they are back, or gone — a time the agent cannot know. */
const OPEN_END_WORDS = new Set(['back', 'home', 'return', 'returns', 'arrive', 'arrives', 'gone', 'left', 'leave', 'leaves', 'go', 'goes', 'finished', 'done']);
const NIGHT_WORDS = new Set(['tonight', 'night', 'nights', 'overnight', 'nightly', 'evening', 'evenings', 'weeknight', 'weeknights']);
const AWAY_WORDS = new Set(['away', 'holiday', 'holidays', 'vacation', 'gone', 'out', 'travelling', 'traveling', 'work', 'abroad']);

const ARRIVE_WORDS = new Set(['back', 'home', 'return', 'returning', 'land', 'landing', 'arrive', 'arriving']);
const DEPART_WORDS = new Set(['out', 'off', 'away', 'leave', 'leaving', 'fly', 'flying', 'depart', 'departing', 'go', 'going']);

function getRoleBefore(tokens: Token[], i: number, from: number): Role {
  for (let k = i - 1; k >= from && k >= i - 3; k--) {
    const w = tokens[k].text;
    if (END_WORDS.has(w)) return 'end';
    // "till I'm back at 10": the time of coming back ends the window
    if ((w === 'at' || w === 'by') && ['back', 'home'].includes(tokens[k - 1]?.text ?? '')) return 'end';
    // "we leave at 6", "heading out at 7": the time of leaving starts the window
    if (
      (w === 'at' || w === 'around' || w === 'about') &&
      ['leave', 'leaving', 'go', 'going', 'out', 'off', 'head', 'heading', 'set'].includes(tokens[k - 1]?.text ?? '')
    )
      return 'start';
    // "till we get home sunday evening": the time of coming back ends the window
    if (
      ['back', 'home', 'return', 'returns', 'arrive'].includes(w) &&
      tokens.slice(Math.max(from, k - 4), k).some((t) => ['until', 'till', 'by', 'before'].includes(t.text))
    )
      return 'end';
    if (START_WORDS.has(w)) return 'start';
    // "land back on the 13th", "fly out on the 9th": the day of coming back ends, of leaving starts
    if (w === 'on' && ARRIVE_WORDS.has(tokens[k - 1]?.text ?? '')) return 'end';
    if (w === 'on' && DEPART_WORDS.has(tokens[k - 1]?.text ?? '')) return 'start';
    // "we leave friday at 6pm", "leaving about noon": the time of leaving starts the window
    if (['leave', 'leaving'].includes(w)) return 'start';
    // ("from a quarter past nine": the article of a spoken clock)
    if (!['the', 'at', 'around', 'about', 'it', 'on', 'a'].includes(w)) break;
  }
  return 'point';
}

function parseCount(tokens: Token[], i: number): { value: number; length: number } | undefined {
  const w = tokens[i]?.text;
  if (w === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(w)) return { value: Number(w), length: 1 };
  if (w === 'half' && ['an', 'a'].includes(tokens[i + 1]?.text)) return { value: 0.5, length: 2 };
  // "three quarters of an hour", "a quarter of an hour"
  const quarters =
    ['three', 'a'].includes(w) &&
    ['quarters', 'quarter'].includes(tokens[i + 1]?.text ?? '') &&
    tokens[i + 2]?.text === 'of' &&
    ['an', 'a'].includes(tokens[i + 3]?.text ?? '');
  if (quarters) return { value: w === 'three' ? 0.75 : 0.25, length: 4 };
  if (w === 'a' && tokens[i + 1]?.text === 'couple' && tokens[i + 2]?.text === 'of') return { value: 2, length: 3 };
  // "ninety", "forty five", "a hundred and twenty" (./number-words.ts)
  const spoken = readNumberWords(
    tokens.slice(i, i + 6).map((t) => t.text),
    0,
  );
  if (spoken) return spoken;
  if (w in NUMBER_WORDS) return { value: NUMBER_WORDS[w], length: 1 };
  return undefined;
}

/** Reads a vague count ("for a few nights", "several hours") at tokens[i]; returns the index of the last token read, or undefined when there is none. */
function readVague(scan: SpecScan, i: number): number | undefined {
  const vague = readVagueCount(scan.tokens, i, scan.to);
  if (!vague || vague.first < scan.from) return undefined;
  scan.spec.vagueCount = vague.question;
  for (let j = vague.first; j <= vague.last; j++) take(scan.spec, j);
  return vague.last;
}

/**
 * The amount of a smaller unit said right after an amount ("[and] 15 minutes" after "2 hours"):
 * its length and the last token it covers, or undefined.
 */
function readSmallerAmount(tokens: Token[], i: number, to: number, unitMs: number): { ms: number; last: number } | undefined {
  const k = tokens[i]?.text === 'and' ? i + 1 : i;
  const count = k < to ? parseCount(tokens, k) : undefined;
  const unit = count ? tokens[k + count.length]?.text : undefined;
  if (!count || !unit || !(unit in UNIT_MS) || UNIT_MS[unit] >= unitMs || k + count.length >= to) return undefined;
  return { ms: count.value * UNIT_MS[unit], last: k + count.length };
}

/**
 * "every saturday and sunday night", "every sat & sun", "every monday to friday": the days named
 * make a weekly pattern the watch knows (weekends, weekdays). Read before chrono, which would take
 * "sunday night" for one night.
 */
function readWeeklyDays(tokens: Token[], from: number, to: number, spec: TimeSpec, ctx: TimeContext): void {
  for (let i = from; i < to; i++) {
    const w = tokens[i].text;
    // "on saturday and sunday (nights)": those days (nights) once, from the first to the last
    if (
      parseWeekday(w) !== undefined &&
      tokens[i + 1]?.text === 'and' &&
      parseWeekday(tokens[i + 2]?.text ?? '') !== undefined &&
      !['every', 'each'].includes(tokens[i - 1]?.text ?? '')
    ) {
      const today = toLocalDate(ctx.now, ctx.timeZone);
      const first = nextWeekday(parseWeekday(w)!, today, true);
      const count = ((parseWeekday(tokens[i + 2].text)! - parseWeekday(w)! + 7) % 7) + 1;
      if (count !== 2) continue;
      spec.date = { ...first, hour: 0, minute: 0 };
      const nights = ['night', 'nights', 'evening', 'evenings'].includes(tokens[i + 3]?.text ?? '');
      if (nights) {
        spec.night = true;
        spec.nights = count;
        spec.consumed.add(i + 3);
      } else
        spec.anchors.push({
          kind: 'clock',
          hour: 0,
          minute: 0,
          meridiemCertain: true,
          date: { ...addDays(first, count - 1), hour: 0, minute: 0 },
          role: 'end',
          dateOnly: true,
        });
      for (let j = i; j <= i + 2; j++) spec.consumed.add(j);
      if (['on', 'this'].includes(tokens[i - 1]?.text ?? '')) spec.consumed.add(i - 1);
      return;
    }
    if (!['every', 'each'].includes(w) || parseWeekday(tokens[i + 1]?.text ?? '') === undefined) continue;
    const days: number[] = [];
    let k = i + 1;
    let through = false;
    while (k < to) {
      const d = parseWeekday(tokens[k].text);
      if (d !== undefined) {
        days.push(d);
        k++;
        continue;
      }
      if (['and', '&', 'or'].includes(tokens[k].text) && parseWeekday(tokens[k + 1]?.text ?? '') !== undefined) {
        k++;
        continue;
      }
      if (['to', 'through', 'thru', '-'].includes(tokens[k].text) && parseWeekday(tokens[k + 1]?.text ?? '') !== undefined) {
        through = true;
        k++;
        continue;
      }
      break;
    }
    const set = new Set(days);
    const weekends = !through && set.size === 2 && set.has(0) && set.has(6);
    const weekdays = (through && days[0] === 1 && days[1] === 5) || (!through && set.size === 5 && [1, 2, 3, 4, 5].every((d) => set.has(d)));
    if (!weekends && !weekdays) continue;
    spec.recurrence = weekends ? 'weekends' : 'weekdays';
    for (let j = i; j < k; j++) spec.consumed.add(j);
    if (['night', 'nights', 'evening', 'evenings'].includes(tokens[k]?.text ?? '')) {
      spec.night = true;
      spec.consumed.add(k);
    }
    return;
  }
}

/** The tokens of one clause being read, and the spec read from them so far. */
interface SpecScan {
  tokens: Token[];
  from: number;
  to: number;
  ctx: TimeContext;
  spec: TimeSpec;
  /** "yesterday", "last night", "in the last hour": said of the past only */
  pastWords: boolean;
}

/** Marks tokens as read into the spec. */
function take(spec: TimeSpec, ...idx: number[]): void {
  idx.forEach((k) => spec.consumed.add(k));
}

/** Marks the time after "instead of" as read: it is the time being replaced. */
function takeReplacedTime(tokens: Token[], from: number, to: number, spec: TimeSpec): void {
  // "at 11 tonight instead of the morning": what follows "instead of" is the time being replaced
  for (let i = from; i + 1 < to; i++) {
    if (tokens[i].text !== 'instead' || tokens[i + 1].text !== 'of') continue;
    // only a time ("instead of the morning"); "instead of the drive" names the place being replaced
    let last = i + 1;
    while (last + 1 < to && !tokens[last].breakAfter) last++;
    const words = tokens.slice(i + 2, last + 1).map((t) => t.text);
    if (
      !words.some(
        (w) =>
          /\d/.test(w) ||
          w in SUN_WORDS ||
          NIGHT_WORDS.has(w) ||
          ['tomorrow', 'today', 'noon', 'midnight', 'afternoon'].includes(w) ||
          parseWeekday(w) !== undefined,
      )
    )
      continue;
    for (let k = i; k <= last; k++) {
      spec.consumed.add(k);
      if (tokens[k].breakAfter && k > i + 1) break;
    }
  }
}

/** Settles which anchor starts and which ends the window once all are read. */
function settleAnchorRoles(tokens: Token[], from: number, to: number, spec: TimeSpec): void {
  // a point after "and" that follows "between": "between 11pm and 6am"
  const betweenAt = tokens.slice(from, to).findIndex((t) => t.text === 'between');
  if (betweenAt >= 0 && spec.anchors.length === 2 && spec.anchors.every((a) => a.role !== 'end')) {
    // "between 7 and 10am": the bare 7 after "between" is already the start (chrono's 10am was
    // found first, so the order of the anchors is not the order of the words)
    const startAt = spec.anchors.filter((a) => a.role === 'start').length === 1 ? spec.anchors.findIndex((a) => a.role === 'start') : 0;
    spec.anchors[startAt].role = 'start';
    spec.anchors[1 - startAt].role = 'end';
    // "between 7 and 10am tomorrow": chrono dates only the 10am; the 7 that comes before it is the same day
    const [start, end] = [spec.anchors[startAt], spec.anchors[1 - startAt]];
    if (start.kind === 'clock' && end.kind === 'clock' && end.date && !start.date && start.hour <= end.hour) start.date = end.date;
  }
  // a point between two anchors reads as the end: "sunset to 6", "from 10pm to 6am"
  const starts = spec.anchors.filter((a) => a.role === 'start');
  for (const a of spec.anchors) if (a.role === 'point' && starts.length) a.role = 'end';
  // "from quarter past 4 to quarter of 9 tonight": an end said in the evening makes an earlier
  // start without am/pm the same afternoon's (16:15), not the small hours'
  {
    const s0 = spec.anchors.find((a) => a.role === 'start');
    const e0 = spec.anchors.find((a) => a.role === 'end');
    if (
      s0?.kind === 'clock' &&
      e0?.kind === 'clock' &&
      !s0.meridiemCertain &&
      e0.meridiemCertain &&
      e0.hour >= 13 &&
      s0.hour >= 1 &&
      s0.hour < 12 &&
      s0.hour + 12 < e0.hour
    ) {
      Object.assign(s0, { hour: s0.hour + 12, meridiemCertain: true });
    }
  }
}

/** Applies "this evening" to bare hours, and "while I sleep" said with a start hour. */
function readEveningAndSleep(tokens: Token[], from: number, to: number, spec: TimeSpec): void {
  // "between 7 and 9 this evening", "from 6 to 8 in the evening": the evening says pm for the
  // start, and for an end later on the clock face ("from 10 this evening till 6" still ends at 06:00)
  if (tokens.slice(from, to).some((t) => t.text === 'evening' || t.text === 'evenings') && !tokens.slice(from, to).some((t) => t.text === 'morning')) {
    const start = spec.anchors.find((a) => a.role === 'start' || a.role === 'point');
    if (start?.kind === 'clock' && !start.meridiemCertain && start.hour >= 1 && start.hour <= 11) {
      const end = spec.anchors.find((a) => a.role === 'end');
      if (end?.kind === 'clock' && !end.meridiemCertain && end.hour > start.hour && end.hour <= 11)
        Object.assign(end, { hour: end.hour + 12, meridiemCertain: true });
      Object.assign(start, { hour: start.hour + 12, meridiemCertain: true });
    }
  }
  // "8 till 3 while I sleep" said in the morning after a night shift: sleep is not always at
  // night. With a start hour said without am/pm and no night word, the start is the next one to
  // come (resolveWatchWindow); "while I sleep" alone still means tonight
  const nightWord = tokens.slice(from, to).some((t, k) => NIGHT_WORDS.has(t.text) && tokens[from + k + 1]?.text !== 'shift');
  const openStart = spec.anchors.find((a) => a.role === 'start' && a.kind === 'clock' && !a.meridiemCertain && !a.date);
  if (spec.sleepContext && openStart && !nightWord && !spec.date && spec.dayOffset === 0) {
    spec.night = false;
    spec.nextStart = true;
  }
}

/** Reads a shift of the watch's own time: "start it an hour later" at tokens[i]; returns the index of the last token read, or undefined when there is none. */
function readShift(scan: SpecScan, i: number): number | undefined {
  const { tokens, to, spec } = scan;
  // "start it an hour later", "end it 30 minutes earlier": a shift of the watch's own time
  {
    const count = parseCount(tokens, i);
    const unit = count ? tokens[i + count.length]?.text : undefined;
    const dir = count ? tokens[i + count.length + 1]?.text : undefined;
    if (count && count.length > 0 && unit && unit in UNIT_MS && (dir === 'later' || dir === 'earlier') && i + count.length + 1 < to) {
      spec.shiftMs = (dir === 'later' ? 1 : -1) * count.value * UNIT_MS[unit];
      for (let j = i; j <= i + count.length + 1; j++) take(spec, j);
      i += count.length + 1;
      return i;
    }
  }
  return undefined;
}

/**
 * "extend it an hour", "stretch that 30 minutes", "push it another hour": the amount straight after an extending
 * verb and its object is by how much, as "by an hour" is (see docs/decisions.md, "Before round Q: times").
 */
function isBareExtendAt(tokens: Token[], i: number): boolean {
  return (
    ['it', 'that'].includes(tokens[i - 1]?.text ?? '') &&
    ['extend', 'stretch', 'lengthen'].includes(tokens[i - 2]?.text ?? '') &&
    (parseCount(tokens, i) !== undefined || tokens[i].text === 'another')
  );
}

/** Reads a duration: "for the next 2 hours", "by an hour", "in the last hour" at tokens[i]; returns the index of the last token read, or undefined when there is none. */
function readDuration(scan: SpecScan, i: number): number | undefined {
  const { tokens, to, spec } = scan;
  const w = tokens[i].text;
  const next = tokens[i + 1]?.text;
  const prev = tokens[i - 1]?.text;
  // durations: "for (the next) 2 hours", "next 3 hours", "by an hour", "in the last hour"
  const bareExtend = isBareExtendAt(tokens, i);
  if (
    bareExtend ||
    (['for', 'next', 'by', 'last', 'past', 'in'].includes(w) &&
      !(w === 'next' && (next === 'week' || next === 'weekend') && !['for', 'the'].includes(prev ?? '')))
  ) {
    let k = bareExtend ? i : i + 1;
    if (tokens[k]?.text === 'the' && w !== 'in') k++;
    let kind = w === 'by' || bareExtend ? 'extend' : w === 'last' || w === 'past' ? 'past' : w === 'in' ? 'delay' : 'ahead';
    if (['next', 'last', 'past'].includes(tokens[k]?.text ?? '')) {
      kind = tokens[k].text === 'next' ? kind : 'past';
      k++;
    }
    // "for like an hour", "for about 2 hours": a hedge before the amount
    while (['like', 'about', 'around', 'roughly', 'maybe', 'just', 'approximately', 'another'].includes(tokens[k]?.text ?? '') && k < to) k++;
    let count =
      parseCount(tokens, k) ?? (tokens[k]?.text in UNIT_MS && (kind !== 'extend' || tokens[k - 1]?.text === 'another') ? { value: 1, length: 0 } : undefined);
    // "two and a half hours"
    if (
      count &&
      tokens[k + count.length]?.text === 'and' &&
      ['a', 'an'].includes(tokens[k + count.length + 1]?.text) &&
      tokens[k + count.length + 2]?.text === 'half'
    ) {
      count = { value: count.value + 0.5, length: count.length + 3 };
    }
    // "a couple of hours", "a few minutes"
    if (count && tokens[k + count.length]?.text === 'of' && count.length > 0) count = { ...count, length: count.length + 1 };
    const unit = count ? tokens[k + count.length]?.text : undefined;
    if (count && unit && (unit === 'night' || unit === 'nights') && kind === 'ahead') {
      // "for the next 3 nights", "for two nights"
      spec.night = true;
      spec.nights = count.value;
      for (let j = i; j <= k + count.length; j++) take(spec, j);
      i = k + count.length;
      return i;
    }
    if (count && unit && unit in UNIT_MS) {
      let ms = count.value * UNIT_MS[unit];
      let last = k + count.length;
      // "an hour and a half"
      if (tokens[last + 1]?.text === 'and' && ['a', 'an'].includes(tokens[last + 2]?.text) && ['half', 'quarter'].includes(tokens[last + 3]?.text)) {
        ms += tokens[last + 3].text === 'half' ? UNIT_MS[unit] / 2 : UNIT_MS[unit] / 4;
        take(spec, last + 1, last + 2, last + 3);
        last += 3;
      } else if (tokens[last + 1]?.text === 'and' && tokens[last + 2]?.text === 'three' && ['quarters', 'quarter'].includes(tokens[last + 3]?.text ?? '')) {
        // "an hour and three quarters"
        ms += (UNIT_MS[unit] * 3) / 4;
        take(spec, last + 1, last + 2, last + 3);
        last += 3;
      } else {
        // "2 hours and 15 minutes", "a day and 6 hours", "1 hour 30 mins": a smaller unit adds on
        const more = readSmallerAmount(tokens, last + 1, to, UNIT_MS[unit]);
        if (more) {
          ms += more.ms;
          for (let j = last + 1; j <= more.last; j++) take(spec, j);
          last = more.last;
        }
      }
      if (kind === 'extend') spec.extendMs = ms;
      else if (kind === 'delay') spec.delayMs = ms;
      else if (kind === 'past') {
        spec.sinceMs = (c) => c.now - ms;
        scan.pastWords = true;
      } else spec.durationMs = ms;
      for (let j = i; j <= k + count.length; j++) take(spec, j);
      i = last;
      return i;
    }
  }
  return undefined;
}

/** Reads "next week", "next weekend" at tokens[i]; returns the index of the last token read, or undefined when there is none. */
function readNextWeek(scan: SpecScan, i: number): number | undefined {
  const { tokens, ctx, spec } = scan;
  const w = tokens[i].text;
  const next = tokens[i + 1]?.text;
  const prev = tokens[i - 1]?.text;
  // "next week": the calendar week after this one, Monday to Sunday; "for the next week" is a duration (above)
  if (w === 'next' && (next === 'week' || next === 'weekend') && !['for', 'the'].includes(prev ?? '')) {
    const today: WallClock = { ...toLocalDate(ctx.now, ctx.timeZone), hour: 0, minute: 0 };
    const toMonday = (8 - getWeekday(today)) % 7 || 7;
    const monday = addDays(today, toMonday);
    if (next === 'week') {
      spec.date = monday;
      spec.anchors.push({ kind: 'clock', hour: 0, minute: 0, meridiemCertain: true, date: addDays(monday, 6), role: 'end', dateOnly: true });
    } else {
      spec.date = addDays(monday, 5);
      spec.anchors.push({ kind: 'clock', hour: 0, minute: 0, meridiemCertain: true, date: addDays(monday, 6), role: 'end', dateOnly: true });
    }
    take(spec, i, i + 1);
    i++;
    return i;
  }
  return undefined;
}

/** Reads an amount with no preposition ("90 mins"), or a count of nights ("3 nights") at tokens[i]; returns the index of the last token read, or undefined when there is none. */
function readBareAmount(scan: SpecScan, i: number): number | undefined {
  const { tokens, to, spec } = scan;
  const w = tokens[i].text;
  const next = tokens[i + 1]?.text;
  const prev = tokens[i - 1]?.text;
  // "watch the basement 90 mins": an amount of time with no preposition is how long
  if (
    /^\d+(\.\d+)?$/.test(w) &&
    ['minutes', 'minute', 'mins', 'min', 'hours', 'hour', 'hrs', 'hr'].includes(next ?? '') &&
    !['in', 'last', 'past', 'by', 'after', 'every'].includes(prev ?? '')
  ) {
    spec.durationMs = Number(w) * UNIT_MS[next!];
    take(spec, i, i + 1);
    i++;
    const more = readSmallerAmount(tokens, i + 1, to, UNIT_MS[next!]);
    if (more) {
      spec.durationMs += more.ms;
      for (let j = i + 1; j <= more.last; j++) take(spec, j);
      i = more.last;
    }
    return i;
  }
  // "3 nights", "two nights": that many nights from tonight
  if (
    parseCount(tokens, i) &&
    ['nights'].includes(tokens[i + parseCount(tokens, i)!.length]?.text ?? '') &&
    !spec.consumed.has(i + parseCount(tokens, i)!.length)
  ) {
    const count = parseCount(tokens, i)!;
    spec.night = true;
    spec.nights = count.value;
    for (let j = i; j <= i + count.length; j++) take(spec, j);
    i += count.length;
    return i;
  }
  return undefined;
}

/** "and a half", "and a quarter", "and three quarters" at tokens[k]: the fraction and its last token, or undefined. */
function readAndFraction(tokens: Token[], k: number): { value: number; last: number } | undefined {
  if (tokens[k]?.text !== 'and') return undefined;
  const [a, b] = [tokens[k + 1]?.text, tokens[k + 2]?.text];
  if ((a === 'a' || a === 'an') && b === 'half') return { value: 0.5, last: k + 2 };
  if ((a === 'a' || a === 'an') && b === 'quarter') return { value: 0.25, last: k + 2 };
  if (a === 'three' && (b === 'quarters' || b === 'quarter')) return { value: 0.75, last: k + 2 };
  return undefined;
}

/**
 * An amount said with words and no preposition: "three and a half hours", "two hours", "an hour and
 * a half" (a duration), or "three and a half", "2.5" with no unit (kept aside in spec.unitlessAmount,
 * see TimeSpec). Returns the index of the last token read, or undefined when there is none.
 */
function readWordAmount(scan: SpecScan, i: number): number | undefined {
  const { tokens, to, spec } = scan;
  const prev = tokens[i - 1]?.text ?? '';
  const count = parseCount(tokens, i);
  if (!count || ['in', 'last', 'past', 'by', 'after', 'every', 'each', 'per', 'of', 'the', 'at', 'until', 'till', 'to', 'from', 'between'].includes(prev))
    return undefined;
  let value = count.value;
  let last = i + count.length - 1;
  const fraction = readAndFraction(tokens, last + 1);
  if (fraction && last + 1 < to) {
    value += fraction.value;
    last = fraction.last;
  }
  const unit = tokens[last + 1]?.text ?? '';
  if (last + 1 < to && unit in UNIT_MS && !['day', 'days', 'week', 'weeks'].includes(unit)) {
    let ms = value * UNIT_MS[unit];
    last++;
    // "an hour and a half", "two hours and three quarters" ("wait a minute" is no duration)
    const after = fraction ? undefined : readAndFraction(tokens, last + 1);
    if (['a', 'an'].includes(tokens[i].text) && !after) return undefined;
    if (after && after.last < to) {
      ms += after.value * UNIT_MS[unit];
      last = after.last;
    }
    spec.durationMs = ms;
    for (let j = i; j <= last; j++) take(spec, j);
    return last;
  }
  if ((Number.isInteger(value) && !isMadeAmount(tokens, i, last, to)) || unit in UNIT_MS || unit === 'nights' || unit === 'night') return undefined;
  const idx: number[] = [];
  for (let j = i; j <= last; j++) idx.push(j);
  spec.unitlessAmount = { value, tokens: idx };
  return last;
}

/**
 * "make that two", "make it 7": a whole number alone after "make that/it", which changes the watch
 * just set. Whether it is hours or a clock time only the watch it changes can say (see
 * src/home/agent/offline-planner.ts, giveChangeAmountItsUnit and giveChangeAmountClock).
 */
function isMadeAmount(tokens: Token[], i: number, last: number, to: number): boolean {
  if (!['that', 'it'].includes(tokens[i - 1]?.text ?? '') || tokens[i - 2]?.text !== 'make') return false;
  return last + 1 >= to || ['then', 'instead', 'please'].includes(tokens[last + 1].text);
}

/** Reads "while we sleep", "while I was at work", "until I get back", "while we're away" at tokens[i]; returns the index of the last token read, or undefined when there is none. */
function readWhileUntil(scan: SpecScan, i: number): number | undefined {
  const { tokens, to, spec } = scan;
  const w = tokens[i].text;
  const next = tokens[i + 1]?.text;
  // "while we sleep" is tonight; "while we're away" has no end we can know
  if (w === 'while' && tokens.slice(i + 1, Math.min(to, i + 5)).some((t) => ['sleep', 'asleep', 'sleeping'].includes(t.text))) {
    spec.night = true;
    spec.sleepContext = true;
    for (let j = i; j < Math.min(to, i + 5); j++) if (['while', 'we', 'i', 'are', 'am', 'sleep', 'asleep', 'sleeping'].includes(tokens[j].text)) take(spec, j);
    return i;
  }
  // "while I was at work / out": a past stretch of today, for questions about what happened
  if (
    w === 'while' &&
    tokens.slice(i + 1, Math.min(to, i + 6)).some((t) => t.text === 'was' || t.text === 'were') &&
    tokens.slice(i + 1, Math.min(to, i + 6)).some((t) => AWAY_WORDS.has(t.text))
  ) {
    const atWork = tokens.slice(i + 1, Math.min(to, i + 6)).some((t) => t.text === 'work' || t.text === 'office');
    spec.sinceMs = (c) => {
      // a working day: from 09:00 today, or yesterday's when asked before 09:00; else the day so far
      const today9 = getDayStart(c, 0) + 9 * HOUR;
      return atWork ? (c.now >= today9 ? today9 : today9 - DAY) : getDayStart(c, 0);
    };
    scan.pastWords = true;
    for (let j = i; j < Math.min(to, i + 6); j++)
      if (j === i || AWAY_WORDS.has(tokens[j].text) || ['we', 'was', 'were', 'i', 'at', 'out'].includes(tokens[j].text)) take(spec, j);
    return i;
  }
  // "until I get back", "till we're home": an end the agent cannot know
  if (
    END_WORDS.has(w) &&
    (['i', 'we', 'they', 'he', 'she', 'you'].includes(next ?? '') ||
      // "until the builders have gone", "till my son's home" ("till the sun goes down" is sunset: readSunWords)
      (['the', 'my', 'our', 'his', 'her', 'their'].includes(next ?? '') &&
        !tokens.slice(i + 1, Math.min(to, i + 5)).some((t) => /\d/.test(t.text) || t.text in SUN_WORDS || t.text === 'sun'))) &&
    tokens.slice(i + 2, Math.min(to, i + 5)).some((t) => OPEN_END_WORDS.has(t.text))
  ) {
    spec.openEnded = true;
    // "until they've gone", "till she leaves": an end nobody can tell the time of either
    const upTo = i + 2 + tokens.slice(i + 2, Math.min(to, i + 5)).findIndex((t) => OPEN_END_WORDS.has(t.text));
    for (let j = i; j <= upTo; j++) take(spec, j);
    return i;
  }
  // "while we're in Lanzarote": a stay somewhere by name (not "in bed", "in the garden") is time away
  const inAt = i + 1 + tokens.slice(i + 1, Math.min(to, i + 4)).findIndex((t) => t.text === 'in');
  if (
    w === 'while' &&
    inAt > i &&
    inAt + 1 < to &&
    ['we', 'i', 'they'].includes(next ?? '') &&
    !['bed', 'the', 'our', 'my', 'a', 'here', 'there', 'charge', 'town'].includes(tokens[inAt + 1].text)
  ) {
    spec.openEnded = true;
    // the name of where they will be is part of the phrase, never a place of the home ("Madeira" is also a wine)
    for (let j = i; j <= inAt + 1; j++) take(spec, j);
    return inAt + 1;
  }
  if (w === 'while' && tokens.slice(i + 1, Math.min(to, i + 5)).some((t) => AWAY_WORDS.has(t.text))) {
    spec.openEnded = true;
    for (let j = i; j < Math.min(to, i + 5); j++)
      if (j === i || AWAY_WORDS.has(tokens[j].text) || ['we', 'are', 'i', 'am', 'on', 'at', 'be'].includes(tokens[j].text)) take(spec, j);
    return i;
  }
  return readWhileAtStay(scan, i);
}

/** Where people go and stay a while, never a room of a home: "while we're at the cottage", "while I'm at the wedding". */
const STAY_WORDS = new Set([
  'cottage',
  'cabin',
  'bach',
  'chalet',
  'lake',
  'beach',
  'caravan',
  'campsite',
  'villa',
  'wedding',
  'funeral',
  'hospital',
  'airport',
]);

/**
 * "while we're at the cottage": time away whose end nobody can tell, as "while we're away" is; the place is where
 * the people will be, never one of the home's (see docs/decisions.md, "Before round Q: times").
 */
function readWhileAtStay(scan: SpecScan, i: number): number | undefined {
  const { tokens, to, spec } = scan;
  if (tokens[i].text !== 'while') return undefined;
  let k = i + 1;
  if (!['we', 'i', 'they'].includes(tokens[k]?.text ?? '')) return undefined;
  k++;
  if (['are', 'am', 'will', 'be'].includes(tokens[k]?.text ?? '')) k++;
  if (tokens[k]?.text === 'be') k++;
  if (tokens[k]?.text !== 'at' || !['the', 'our', 'my'].includes(tokens[k + 1]?.text ?? '') || k + 2 >= to) return undefined;
  if (!STAY_WORDS.has(tokens[k + 2].text)) return undefined;
  spec.openEnded = true;
  for (let j = i; j <= k + 2; j++) take(spec, j);
  return k + 2;
}

/** Reads "every night", "every weekday", "nightly", "weekdays", "weekends" at tokens[i]; returns the index of the last token read, or undefined when there is none. */
function readRecurrence(scan: SpecScan, i: number): number | undefined {
  const { tokens, spec } = scan;
  const w = tokens[i].text;
  const next = tokens[i + 1]?.text;
  const prev = tokens[i - 1]?.text;
  if ((w === 'every' || w === 'each') && next) {
    if (['night', 'evening', 'nights'].includes(next)) {
      spec.recurrence = 'daily';
      spec.night = true;
      take(spec, i, i + 1);
      i++;
      return i;
    }
    if (next === 'day') {
      spec.recurrence = 'daily';
      take(spec, i, i + 1);
      i++;
      return i;
    }
    if (next === 'weeknight' || next === 'weeknights') {
      spec.recurrence = 'weekdays';
      spec.night = true;
      take(spec, i, i + 1);
      i++;
      return i;
    }
    const recurrence = next === 'weekday' || next === 'weekdays' ? 'weekdays' : next === 'weekend' || next === 'weekends' ? 'weekends' : undefined;
    if (recurrence) {
      spec.recurrence = recurrence;
      take(spec, i, i + 1);
      i++;
      // "every weekday night", "every weekend evening"
      if (['night', 'nights', 'evening', 'evenings'].includes(tokens[i + 1]?.text ?? '')) {
        spec.night = true;
        take(spec, i + 1);
        i++;
      }
      return i;
    }
  }
  if (w === 'nightly') {
    spec.recurrence = 'daily';
    spec.night = true;
    take(spec, i);
    return i;
  }
  if (w === 'daily') {
    spec.recurrence = 'daily';
    take(spec, i);
    return i;
  }
  if (w === 'weekdays' || w === 'weeknights' || (w === 'weekday' && prev === 'on')) {
    spec.recurrence = 'weekdays';
    if (w === 'weeknights') spec.night = true;
    take(spec, i);
    if (prev === 'on') take(spec, i - 1);
    return i;
  }
  if (w === 'weekends' || w === 'weekend') {
    if (prev === 'this' || (prev === 'the' && tokens[i - 2]?.text !== 'every')) {
      spec.weekend = true;
      take(spec, i - 1, i);
    } else if (w === 'weekend' && ['all', 'whole', 'entire'].includes(prev ?? '')) {
      // "all weekend", "the whole weekend": the coming weekend through, not every one
      // (docs/decisions.md, "Round N: times, follow-ups, arming")
      spec.weekend = true;
      take(spec, i - 1, i);
      if (tokens[i - 2]?.text === 'the') take(spec, i - 2);
    } else {
      spec.recurrence = 'weekends';
      take(spec, i);
      if (prev === 'on') take(spec, i - 1);
    }
    return i;
  }
  return undefined;
}

/** Reads "tonight", "this afternoon", "tomorrow night", "after dark" at tokens[i]; returns the index of the last token read, or undefined when there is none. */
function readNightWords(scan: SpecScan, i: number): number | undefined {
  const { tokens, from, spec } = scan;
  const w = tokens[i].text;
  const next = tokens[i + 1]?.text;
  const prev = tokens[i - 1]?.text;
  if (w === 'tonight' || w === 'overnight') {
    spec.night = true;
    take(spec, i);
    if (w === 'overnight') spec.sinceMs ??= (c) => getNightStart(c, -1);
    return i;
  }
  // "this afternoon", "this evening": since the part began (questions); for a watch, a part of the
  // day with no hours ("till this evening": its usual hour, DAY_PARTS)
  if ((w === 'afternoon' || w === 'evening') && prev === 'this') {
    const part = DAY_PARTS[w];
    spec.sinceMs = (c) => getDayStart(c, 0) + part.start * HOUR;
    readPartOfDay(scan, i - 1, w, 0);
    take(spec, i - 1, i);
    return i;
  }
  // "off a night shift": a kind of work, not a time
  if (w === 'night' && (next === 'shift' || next === 'shifts')) {
    take(spec, i);
    return i;
  }
  // "tomorrow evening", "in the evening", "all evening": a part of the day with no hours, as "this evening" is
  if (w === 'evening' && (prev === 'tomorrow' || ['at', 'all', 'the'].includes(prev ?? '') || i === from)) {
    readPartOfDay(scan, prev === 'tomorrow' || prev === 'all' ? i - 1 : i, w, prev === 'tomorrow' ? 1 : 0);
    take(spec, i);
    if (prev === 'tomorrow' || prev === 'at' || prev === 'all') take(spec, i - 1);
    return i;
  }
  if (w === 'night' || w === 'evening') {
    if (prev === 'tomorrow') {
      // "tonight and tomorrow night": two nights from tonight
      if (spec.night && spec.dayOffset === 0 && tokens.slice(from, i).some((t) => t.text === 'tonight')) spec.nights = Math.max(spec.nights ?? 1, 2);
      else {
        spec.night = true;
        // ("the day after tomorrow night": two days on)
        spec.dayOffset = tokens[i - 2]?.text === 'after' && tokens[i - 3]?.text === 'day' ? 2 : 1;
      }
      take(spec, i - 1, i);
      if (spec.dayOffset === 2) take(spec, i - 3, i - 2);
      return i;
    }
    if (prev === 'last') {
      spec.sinceMs = (c) => getNightStart(c, -1);
      scan.pastWords = true;
      take(spec, i - 1, i);
      return i;
    }
    if (['at', 'all', 'this', 'the', 'tonight'].includes(prev ?? '') || i === from) {
      spec.night = true;
      if (w === 'night' && prev === 'the' && ['in', 'during', 'through', 'thru'].includes(tokens[i - 2]?.text ?? '')) spec.theNight = true;
      take(spec, i);
      if (prev === 'at' || prev === 'all' || prev === 'this') take(spec, i - 1);
      return i;
    }
  }
  if (w === 'hours' && SMALL_HOURS.has(prev ?? '') && tokens[i - 2]?.text === 'the') return readSmallHours(scan, i);
  if (w === 'dark' && (prev === 'after' || prev === 'gets' || prev === 'get')) {
    spec.anchors.push({ kind: 'sun', event: 'sunset', role: 'start' });
    spec.night = true;
    take(spec, i - 1, i);
    takeDarkClause(scan, i - 1);
    return i;
  }
  if (w === 'dark') return readDarkWord(scan, i);
  return undefined;
}

/** "the small hours", "the wee hours", "the early hours": the night's (docs/decisions.md, "Before round S: times"). */
const SMALL_HOURS = new Set(['small', 'wee', 'early']);

/** Reads "(in) the small hours" ending at tokens[i] as the night, or as a question's past night ("anything in the small hours?"). */
function readSmallHours(scan: SpecScan, i: number): number {
  const { spec } = scan;
  spec.night = true;
  spec.theNight = true;
  take(spec, i - 1, i);
  return i;
}

/**
 * "from dark til 6", "at dark", "once it's dark", "until dark": "dark" as a time is sunset, a start
 * after a start word (the night begins then, so "til 6" is 06:00) and an end after an end word
 * (docs/decisions.md, "Round N: times, follow-ups, arming").
 */
function readDarkWord(scan: SpecScan, i: number): number | undefined {
  const { tokens, spec } = scan;
  const prev = tokens[i - 1]?.text ?? '';
  // "once it's dark", "when it is dark": not "it's dark in the garage"
  const saidIs =
    ['is', 's', "it's", 'its'].includes(prev) && tokens.slice(Math.max(scan.from, i - 4), i - 1).some((t) => ['when', 'once', 'soon'].includes(t.text));
  if (START_WORDS.has(prev) || saidIs) {
    spec.anchors.push({ kind: 'sun', event: 'sunset', role: 'start' });
    spec.night = true;
    take(spec, i - 1, i);
    takeDarkClause(scan, i - 1);
    return i;
  }
  if (END_WORDS.has(prev)) {
    spec.anchors.push({ kind: 'sun', event: 'sunset', role: 'end' });
    take(spec, i - 1, i);
    return i;
  }
  return undefined;
}

/** The words before "gets dark" / "it's dark": "(from) when it", "once it" are part of the time. */
function takeDarkClause(scan: SpecScan, at: number): void {
  const { tokens, spec } = scan;
  for (let k = at - 1; k >= scan.from && k >= at - 3; k--) {
    const t = tokens[k].text;
    if (!['it', 'is', 's', 'when', 'once', 'as', 'soon', 'from', 'starting', 'after'].includes(t)) break;
    take(spec, k);
  }
}

/**
 * A part of the day said with no hours, starting at tokens[at]: "till this evening" ends at its usual
 * hour (DAY_PARTS), "from this evening" starts then; said as the window itself it sets `dayPart`,
 * whose hours the planner asks for (docs/decisions.md, "Round J household: time").
 */
function readPartOfDay(scan: SpecScan, at: number, part: 'morning' | 'afternoon' | 'evening', dayOffset: number): void {
  const { tokens, from, spec } = scan;
  const role = getRoleBefore(tokens, at, from);
  if (dayOffset) spec.dayOffset = dayOffset;
  if (role === 'point') {
    spec.dayPart ??= part;
    return;
  }
  const date = dayOffset ? { ...addDays(toLocalDate(scan.ctx.now, scan.ctx.timeZone), dayOffset), hour: 0, minute: 0 } : undefined;
  // ("till this evening" said at 19:00: its hour has passed, which findWindowConflict says)
  if (role === 'end' && !dayOffset) spec.saidToday = `this ${part}`;
  spec.anchors.push({ kind: 'clock', hour: DAY_PARTS[part].typical, minute: 0, meridiemCertain: true, role, ...(date ? { date } : {}) });
  if (role === 'start' && part === 'evening') spec.night = true;
  if (START_WORDS.has(tokens[at - 1]?.text ?? '') || END_WORDS.has(tokens[at - 1]?.text ?? '')) take(spec, at - 1);
}

/** Reads "sunrise", "till the sun's up", "first light" at tokens[i]; returns the index of the last token read, or undefined when there is none. */
function readSunWords(scan: SpecScan, i: number): number | undefined {
  const { tokens, from, spec } = scan;
  const w = tokens[i].text;
  const next = tokens[i + 1]?.text;
  const prev = tokens[i - 1]?.text;
  if (w in SUN_WORDS && w !== 'dark') {
    if (w === 'morning' && prev === 'this') {
      spec.sinceMs = (c) => getDayStart(c, 0);
      readPartOfDay(scan, i - 1, w, 0);
      take(spec, i - 1, i);
      return i;
    }
    const event = SUN_WORDS[w];
    let role = getRoleBefore(tokens, i, from);
    // "in the morning", "first thing in the morning": a part of the day with no hours (the coming
    // morning); "till morning", "by the morning" end at sunrise
    if (w === 'morning' && role === 'point' && prev === 'the' && tokens[i - 2]?.text === 'in') {
      spec.dayPart ??= 'morning';
      if (toWallClock(scan.ctx.now, scan.ctx.timeZone).hour >= 12 && !spec.date) spec.dayOffset ||= 1;
      take(spec, i - 2, i - 1, i);
      return i;
    }
    if (role === 'point') role = event === 'sunset' || event === 'dusk' ? 'start' : 'end';
    if (w === 'morning' && role === 'start') return i;
    spec.anchors.push({ kind: 'sun', event, role });
    take(spec, i);
    if (tokens[i + 1]?.text === 'light' && w === 'first') take(spec, i + 1);
    return i;
  }
  // "till the sun's up", "until the sun comes up", "from when the sun goes down"
  if (w === 'sun') {
    let k = i + 1;
    if (['is', 'be', 'comes', 'come', 'gets', 'goes', 'go', 'has', 'coming', 'going'].includes(tokens[k]?.text ?? '')) k++;
    const t = tokens[k]?.text;
    const event: SunEvent | undefined =
      t === 'up' || t === 'rises' || t === 'risen' ? 'sunrise' : t === 'down' || t === 'sets' || t === 'set' ? 'sunset' : undefined;
    if (event) {
      let role = getRoleBefore(tokens, prev === 'the' && tokens[i - 2]?.text === 'when' ? i - 1 : i, from);
      if (role === 'point') role = event === 'sunset' ? 'start' : 'end';
      spec.anchors.push({ kind: 'sun', event, role });
      for (let j = i; j <= k; j++) take(spec, j);
      if (prev === 'the') take(spec, i - 1);
      if (prev && (END_WORDS.has(prev) || START_WORDS.has(prev))) take(spec, i - 1);
      if (tokens[i - 2] && (END_WORDS.has(tokens[i - 2].text) || START_WORDS.has(tokens[i - 2].text))) take(spec, i - 2);
      i = k;
      return i;
    }
  }
  if (w === 'first' && next === 'light') {
    spec.anchors.push({ kind: 'sun', event: 'dawn', role: 'end' });
    take(spec, i, i + 1);
    i++;
    return i;
  }
  return undefined;
}

/** Reads "now", "today", "yesterday", "the 30th", "tomorrow", "this week" at tokens[i]; returns the index of the last token read, or undefined when there is none. */
function readDayWords(scan: SpecScan, i: number): number | undefined {
  const { tokens, from, ctx, spec } = scan;
  const w = tokens[i].text;
  const next = tokens[i + 1]?.text;
  const prev = tokens[i - 1]?.text;
  if (w === 'now') {
    take(spec, i);
    return i;
  }
  if (w === 'bed' || w === 'sleep' || w === 'sleeping' || w === 'asleep') spec.sleepContext = true;
  if (w === 'today') {
    spec.sinceMs ??= (c) => getDayStart(c, 0);
    take(spec, i);
    return i;
  }
  if (w === 'yesterday') {
    spec.sinceMs = (c) => getDayStart(c, -1);
    scan.pastWords = true;
    take(spec, i);
    return i;
  }
  // "until the 30th", "back on the 2nd": a day of the month without a month
  const dayOfMonth = /^\d{1,2}(st|nd|rd|th)$/.test(w) ? parseDayOfMonth(w) : undefined;
  if (dayOfMonth !== undefined) {
    const d = resolveDayOfMonth(dayOfMonth, ctx, 'future');
    const date = { ...d, hour: 0, minute: 0 };
    // "the 31st" said in November: this month has no such day, and the next month that does is
    // not what anyone means without saying so
    const today = toLocalDate(ctx.now, ctx.timeZone);
    if (dayOfMonth > today.day && (d.month !== today.month || d.year !== today.year)) {
      spec.doubtfulDate = `There's no ${w} this month — which date do you mean (for example "${MONTH_NAMES[(d.month + 10) % 12].replace(/^./, (c) => c.toUpperCase())} 30th" or "${MONTH_NAMES[d.month - 1].replace(/^./, (c) => c.toUpperCase())} ${dayOfMonth}")?`;
    }
    let role = getRoleBefore(tokens, i, from);
    if (role !== 'end' && tokens.slice(Math.max(from, i - 4), i).some((t) => t.text === 'back' || t.text === 'return' || t.text === 'home')) role = 'end';
    if (role === 'end') spec.anchors.push({ kind: 'clock', hour: 0, minute: 0, meridiemCertain: true, date, role: 'end', dateOnly: true });
    else spec.date = date;
    take(spec, i);
    if (prev === 'the') take(spec, i - 1);
    return i;
  }
  // "(the) day after tomorrow" that chrono left (no clock beside it, or said apart from the clock)
  if (w === 'day' && next === 'after' && tokens[i + 2]?.text === 'tomorrow') {
    spec.dayOffset = 2;
    take(spec, i, i + 1, i + 2);
    if (prev === 'the') take(spec, i - 1);
    return i + 2;
  }
  if (w === 'tomorrow' && !(next === 'night' && spec.night)) {
    spec.dayOffset = 1;
    take(spec, i);
    return i;
  }
  if (w === 'week' && prev === 'this') {
    spec.sinceMs = (c) => getDayStart(c, -((toWallClock(c.now, c.timeZone).weekday + 6) % 7));
    take(spec, i - 1, i);
    return i;
  }
  return undefined;
}

/** Reads a bare hour after a time preposition at tokens[i]; returns the index of the last token read, or undefined when there is none. */
function readBareHour(scan: SpecScan, i: number): number | undefined {
  const { tokens, from, spec } = scan;
  const w = tokens[i].text;
  const prev = tokens[i - 1]?.text;
  // a bare hour after a time preposition: "until 6", "between 10 and 6", "around 4"
  const wordHour = isHourWordAt(tokens, i) ? readHourWord(w) : undefined;
  if ((/^\d{1,2}$/.test(w) && Number(w) <= 24) || wordHour !== undefined) {
    const before = prev ?? '';
    const inBetween = before === 'and' && tokens.slice(Math.max(from, i - 4), i).some((t) => t.text === 'between');
    const around = ['around', 'about', 'approximately', 'roughly', 'ish'].includes(before);
    if (START_WORDS.has(before) || END_WORDS.has(before) || before === 'between' || inBetween || around) {
      const role: Role = before === 'between' ? 'start' : inBetween ? 'end' : around ? 'point' : getRoleBefore(tokens, i, from);
      const hour = (wordHour ?? Number(w)) % 24;
      spec.anchors.push({ kind: 'clock', hour, minute: 0, meridiemCertain: hour === 0 || hour > 12, role, around });
      take(spec, i);
      if (around) take(spec, i - 1);
    }
  }
  return undefined;
}

/** "today", "this morning", "yesterday", "last night" said in the clause, read into the spec by chrono or not (for findWindowConflict). */
function noteDaysSaid(tokens: Token[], from: number, to: number, spec: TimeSpec): void {
  for (let i = from; i < to; i++) {
    const [w, prev] = [tokens[i].text, tokens[i - 1]?.text];
    if (!spec.consumed.has(i)) continue;
    if (w === 'today') spec.saidToday ??= 'today';
    else if (prev === 'this' && (w === 'morning' || w === 'afternoon')) spec.saidToday = `this ${w}`;
    else if (w === 'yesterday') spec.saidPast ??= 'yesterday';
    else if (prev === 'last' && (w === 'night' || w === 'evening')) spec.saidPast ??= `last ${w}`;
  }
}

/** Reads the time words of tokens[from, to). */
export function extractTimeSpec(tokens: Token[], from: number, to: number, ctx: TimeContext): TimeSpec {
  const spec: TimeSpec = {
    anchors: [],
    past: false,
    night: false,
    sleepContext: false,
    dayOffset: 0,
    weekend: false,
    openEnded: false,
    consumed: new Set(),
    hasTime: false,
  };
  takeReplacedTime(tokens, from, to, spec);
  readWeeklyDays(tokens, from, to, spec, ctx);
  readClockPhrases(tokens, from, to, ctx, spec);
  // "yesterday", "last night", "in the last hour": said of the past only
  const scan: SpecScan = { tokens, from, to, ctx, spec, pastWords: false };

  for (let i = from; i < to; i++) {
    if (spec.consumed.has(i)) continue;
    const read =
      readVague(scan, i) ??
      readShift(scan, i) ??
      readDuration(scan, i) ??
      readNextWeek(scan, i) ??
      readBareAmount(scan, i) ??
      readWordAmount(scan, i) ??
      readWhileUntil(scan, i) ??
      readRecurrence(scan, i) ??
      readNightWords(scan, i) ??
      readSunWords(scan, i) ??
      readDayWords(scan, i) ??
      readBareHour(scan, i);
    if (read !== undefined) i = read;
  }
  settleAnchorRoles(tokens, from, to, spec);
  readEveningAndSleep(tokens, from, to, spec);
  noteDaysSaid(tokens, from, to, spec);
  // "from 17 until 23 o'clock": the word after an hour already read belongs to it
  for (let i = from + 1; i < to; i++) {
    if ((tokens[i].text === "o'clock" || tokens[i].text === 'oclock') && spec.consumed.has(i - 1) && /^\d{1,2}$/.test(tokens[i - 1].text)) take(spec, i);
  }
  spec.hasTime =
    spec.anchors.length > 0 ||
    spec.night ||
    spec.durationMs !== undefined ||
    spec.extendMs !== undefined ||
    spec.shiftMs !== undefined ||
    spec.recurrence !== undefined ||
    spec.weekend ||
    spec.dayOffset !== 0 ||
    spec.date !== undefined ||
    spec.openEnded ||
    spec.delayMs !== undefined ||
    spec.dayPart !== undefined;
  spec.past = scan.pastWords && !spec.hasTime;
  spec.nightOfStart = isNightOfStart(tokens, from, to);
  // "from ten to midnight": a range or the clock time 23:50 (./clock-or-range.ts)
  spec.openMeridiem = findOpenMeridiem(tokens, from, to, spec) ?? findClockOrRange(tokens, from, to, spec);
  // "tomorrow morning, 8 till 11": the part of the day says the hours' half
  return spec.dayPart && spec.anchors.some((a) => a.kind === 'clock') ? settleDayPart(spec, spec) : spec;
}

/** "from 8 tonight": the only night word says the half of the day of the start ("tonight from 10" is the night's window). */
function isNightOfStart(tokens: Token[], from: number, to: number): boolean {
  const nights = tokens.slice(from, to).filter((t) => /^(tonight|night|nights|overnight|evening)$/.test(t.text));
  const at = tokens.findIndex((t, k) => k > from + 1 && k < to && t.text === 'tonight');
  if (nights.length !== 1 || at < 0) return false;
  const clock = tokens[at - 1].text;
  return (/^\d{1,2}(:\d\d)?$/.test(clock) || readHourWord(clock) !== undefined) && ['from', 'starting', 'after'].includes(tokens[at - 2].text);
}

/** The hours of a part of the day, both ends said (DAY_PARTS, widened so that "till 12" and "till 11 in the evening" fit). */
const PART_HOURS: Record<Exclude<DayPart, 'night'>, [number, number]> = { morning: [5, 12], afternoon: [12, 18], evening: [17, 23] };

/**
 * Bare hours read in the part of the day said with them or before them ("watch the letterbox
 * tomorrow morning" — "from 8 till 11": 08:00 to 11:00 tomorrow). An hour whose half the part does
 * not settle ("from 8 till 1" in the morning: the end) is left to the usual rules. The spec keeps its
 * own day when it names one, else takes that of `said`.
 */
export function settleDayPart(spec: TimeSpec, said: TimeSpec): TimeSpec {
  const part = said.dayPart;
  if (!part) return spec;
  const [lo, hi] = PART_HOURS[part];
  const start = spec.anchors.find((a) => a.role === 'start');
  const anchors = spec.anchors.map((a) => {
    if (a.kind !== 'clock' || a.meridiemCertain || a.dateOnly) return a;
    const hour = [a.hour % 12, (a.hour % 12) + 12].find((h) => h >= lo && h <= hi && !(h === 12 && part === 'evening')) ?? dawnHour(a, start, part);
    return hour === undefined ? a : { ...a, hour, meridiemCertain: true };
  });
  const ownDay = spec.date !== undefined || spec.dayOffset !== 0;
  // (a window the hours do not close yet keeps the part, for the planner to ask about)
  const closed = anchors.some((a) => a.role !== 'end') && (anchors.some((a) => a.role === 'end') || spec.durationMs !== undefined);
  return {
    ...spec,
    anchors,
    dayPart: closed ? undefined : part,
    openMeridiem: undefined,
    dayOffset: ownDay ? spec.dayOffset : said.dayOffset,
    date: ownDay ? spec.date : said.date,
    hasTime: true,
  };
}

/**
 * "tomorrow morning from quarter to five until 9", "tomorrow morning from 3 till 7": an hour from 1 to 4 said with the
 * morning is the small hours' (16:45 is no morning), as a start or as an end not before the start; "tomorrow morning
 * from 9 till 4" keeps its end to the usual rules (16:00).
 */
function dawnHour(a: Anchor, start: Anchor | undefined, part: DayPart): number | undefined {
  if (part !== 'morning' || a.kind !== 'clock' || a.hour < 1 || a.hour > 4) return undefined;
  if (a.role === 'start' || start === undefined || start.kind !== 'clock') return a.hour;
  return start.hour >= 1 && start.hour <= a.hour ? a.hour : undefined;
}

interface ClockPhrase {
  /** Token indexes the phrase covers (the ones rewritten for chrono included). */
  tokens: number[];
  first: number;
  text: string;
  result: chrono.ParsedResult;
  night: boolean;
}

// one chrono pass per message and moment (clauses are read several times while splitting)
const clockPhraseCache = new WeakMap<Token[], Map<string, ClockPhrase[]>>();
/** A piece of the text given to chrono: a word, or a phrase rewritten so that chrono reads it right. */
interface ClockPiece {
  text: string;
  tokens: number[];
  night: boolean;
}

/** Reads a day with its date, or a day part with a clock, at words[i] into pieces; returns the index of the last word read, or undefined when there is none. */
function readDatedPiece(words: string[], i: number, prevWord: string, minutesTo: boolean, ctx: TimeContext, pieces: ClockPiece[]): number | undefined {
  // a day named with its date and maybe a time: "thursday the 10th at 6am", "monday the 14th".
  // Said to chrono time first ("6am on 10 december"), the one order it joins into a range
  // "9am on the 3rd": the date of the clock said before it, as chrono reads it
  if (words[i] === 'on' && words[i + 1] === 'the' && /^\d{1,2}(st|nd|rd|th)$/.test(words[i + 2] ?? '') && /^\d{1,2}(:\d\d)?(am|pm)$|^(am|pm)$/.test(prevWord)) {
    const date = resolveDayOfMonth(parseDayOfMonth(words[i + 2])!, ctx, 'future');
    pieces.push({ text: `on ${date.day} ${MONTH_NAMES[date.month - 1]} ${date.year}`, tokens: [i, i + 1, i + 2], night: false });
    i += 2;
    return i;
  }
  // "sunday evening about 7", "friday morning at half 8": the day's part says am or pm of the clock after it
  if (parseWeekday(words[i]) !== undefined && ['morning', 'afternoon', 'evening', 'night'].includes(words[i + 1] ?? '')) {
    const at = ['at', 'about', 'around', 'by'].includes(words[i + 2] ?? '') ? i + 3 : i + 2;
    const said = readSpokenClock(words, at, { minutesTo: true });
    const digits = /^\d{1,2}(:\d\d)?$/.test(words[at] ?? '') ? words[at] : undefined;
    const hour = said ? said.hour : digits ? Number(digits.split(':')[0]) : undefined;
    const minute = said ? said.minute : digits?.includes(':') ? Number(digits.split(':')[1]) : 0;
    const meridiemSaid = said?.meridiem !== undefined || ['am', 'pm'].includes(words[at + 1] ?? '');
    // ("saturday night 11 till 7 sunday morning" is a range, read below as the night's)
    const ranged = END_WORDS.has(words[said ? said.end : at + 1] ?? '');
    if (hour !== undefined && hour >= 1 && hour <= 12 && !meridiemSaid && !ranged) {
      const part = words[i + 1];
      const pm = part !== 'morning' && !(part === 'night' && hour <= 4);
      const end = said ? said.end : at + 1;
      const covered: number[] = [];
      for (let k = i; k < end; k++) covered.push(k);
      pieces.push({ text: `${clockText({ hour, minute, meridiem: pm ? 'pm' : 'am' })} on ${words[i]}`, tokens: covered, night: false });
      i = end - 1;
      return i;
    }
  }
  const dated = readDatedDay(words, i, ctx, minutesTo);
  if (dated) {
    const covered: number[] = [];
    for (let k = i; k < dated.end; k++) covered.push(k);
    pieces.push({ text: dated.text, tokens: covered, night: false });
    i = dated.end - 1;
    return i;
  }
  return undefined;
}

/** Reads a spoken clock time ("quarter past 8", "half past seven tomorrow morning") at words[i] into pieces; returns the index of the last word read, or undefined when there is none. */
function readSpokenPiece(words: string[], i: number, spoken: SpokenClock | undefined, pieces: ClockPiece[]): number | undefined {
  if (
    spoken &&
    spoken.meridiem === undefined &&
    words[spoken.end] === 'tomorrow' &&
    ['morning', 'afternoon', 'evening', 'night'].includes(words[spoken.end + 1] ?? '')
  ) {
    // "half past seven tomorrow morning": 07:30 tomorrow
    const part = words[spoken.end + 1];
    const covered: number[] = [];
    for (let k = spoken.start; k <= spoken.end + 1; k++) covered.push(k);
    pieces.push({
      text: `${clockText({ hour: spoken.hour, minute: spoken.minute, meridiem: part === 'morning' ? 'am' : 'pm' })} tomorrow`,
      tokens: covered,
      night: false,
    });
    i = spoken.end + 1;
    return i;
  }
  if (spoken) {
    // "ten o'clock on saturday night": the day part after the day says which half of the day
    const onDay = words[spoken.end] === 'on' && parseWeekday(words[spoken.end + 1] ?? '') !== undefined ? spoken.end + 1 : undefined;
    const part = onDay !== undefined ? words[onDay + 1] : undefined;
    if (onDay !== undefined && spoken.meridiem === undefined && (part === 'morning' || part === 'afternoon' || part === 'evening' || part === 'night')) {
      const h = (spoken.hour % 12) + (part === 'morning' ? 0 : 12);
      const covered: number[] = [];
      for (let k = spoken.start; k <= onDay + 1; k++) covered.push(k);
      pieces.push({
        text: `${clockText({ hour: h, minute: spoken.minute, meridiem: part === 'morning' ? 'am' : 'pm' })} on ${words[onDay]}`,
        tokens: covered,
        night: false,
      });
      i = onDay + 1;
      return i;
    }
    const covered: number[] = [];
    for (let k = spoken.start; k < spoken.end; k++) covered.push(k);
    pieces.push({ text: clockText(spoken), tokens: covered, night: false });
    i = spoken.end - 1;
    return i;
  }
  return undefined;
}

/**
 * "10 to 6 tomorrow night", "8 till 11 tomorrow morning", "6-9 tomorrow evening": the day part
 * after a range is the whole range's, not its end's alone: chrono is given "tomorrow 8am to 11am"
 * (am or pm from the part; a night's hours are left to the night rules). Returns the index of the
 * part's word, or undefined when there is none here.
 */
function readRangeBeforeDayPart(tokens: Token[], i: number, w: string, pieces: ClockPiece[]): number | undefined {
  const end = tokens[i + 2]?.text ?? '';
  const part = tokens[i + 4]?.text ?? '';
  const clock = /^(\d{1,2})(:\d\d)?$/;
  if (
    !clock.test(w) ||
    !['to', 'till', 'til', 'until', '-'].includes(tokens[i + 1]?.text ?? '') ||
    !clock.test(end) ||
    tokens[i + 3]?.text !== 'tomorrow' ||
    !['morning', 'afternoon', 'evening', 'night'].includes(part) ||
    tokens[i].breakAfter ||
    tokens[i + 2].breakAfter
  )
    return undefined;
  const said = (text: string) => {
    const hour = Number(clock.exec(text)![1]);
    if (part === 'night' || hour === 0 || hour > 12) return text;
    return `${text}${part === 'morning' && hour < 12 ? 'am' : 'pm'}`;
  };
  const tokensRead = [i, i + 1, i + 2, i + 3, i + 4];
  // "from 10 till 7 tomorrow morning": a start past the end on the clock face starts the evening before (22:00)
  const [startHour, endHour] = [Number(clock.exec(w)![1]), Number(clock.exec(end)![1])];
  if (part === 'morning' && startHour >= 1 && startHour <= 12 && endHour >= 1 && endHour < 12 && startHour % 12 > endHour) {
    pieces.push({ text: `${w}pm to ${end}am tomorrow`, tokens: tokensRead, night: false });
    return i + 4;
  }
  // "from 20 to 8 tomorrow morning": a 24-hour evening start is tonight's too; "tomorrow" is the end's day only
  if (part === 'morning' && startHour > 12 && startHour <= 23 && endHour >= 1 && endHour < 12) {
    pieces.push({ text: `${w} to ${end}am tomorrow`, tokens: tokensRead, night: false });
    return i + 4;
  }
  pieces.push({ text: `tomorrow ${said(w)} to ${said(end)}`, tokens: tokensRead, night: part === 'night' });
  return i + 4;
}

/**
 * "9 to 5 tomorrow", "8 till 6 tomorrow" with no "from" before: "tomorrow" is said of the whole range, a day's hours
 * (09:00 to 17:00 tomorrow), as "tomorrow 9 to 5" is; chrono would take the evening's 21:00 to the morning's 05:00.
 * "from 9 to 5 tomorrow" is asked (./open-meridiem.ts). Returns the index of "tomorrow", or undefined. See
 * docs/decisions.md, "Round S: times".
 */
function readBareRangeBeforeTomorrow(tokens: Token[], i: number, w: string, prevWord: string, pieces: ClockPiece[]): number | undefined {
  const [start, end] = [/^\d{1,2}$/.test(w) ? Number(w) : NaN, /^\d{1,2}$/.test(tokens[i + 2]?.text ?? '') ? Number(tokens[i + 2].text) : NaN];
  if (START_WORDS.has(prevWord) || END_WORDS.has(prevWord) || ['around', 'about', 'and'].includes(prevWord)) return undefined;
  if (!(start >= 7 && start <= 11 && end >= 1 && end <= 6) || !['to', 'till', 'til', 'until', '-'].includes(tokens[i + 1]?.text ?? '')) return undefined;
  if (tokens[i + 3]?.text !== 'tomorrow' || tokens[i].breakAfter || tokens[i + 2].breakAfter) return undefined;
  if (['morning', 'afternoon', 'evening', 'night', 'am', 'pm'].includes(tokens[i + 4]?.text ?? '')) return undefined;
  pieces.push({ text: `tomorrow ${start}am to ${end}pm`, tokens: [i, i + 1, i + 2, i + 3], night: false });
  return i + 3;
}

/**
 * Range words chrono does not join: "saturday 8am right through to sunday 8pm", "all the way to 9", "through to
 * monday" are "to"; "midnight to 6", "from midnight till 5am" start at 12am (chrono reads "midnight" alone, never as
 * a range's start). Returns the index of the last word read, or undefined when there is none here.
 */
function readRangeWords(tokens: Token[], i: number, pieces: ClockPiece[]): number | undefined {
  const words = tokens.slice(i, i + 5).map((t) => t.text);
  const glue =
    /^(?:right through to|right through till|right through until|right up to|right up till|right up until|all the way to|all the way till|all the way until|all the way through to|through to|through till|through until) /.exec(
      `${words.join(' ')} `,
    );
  if (glue && (i === 0 || !tokens[i - 1].breakAfter)) {
    const count = glue[0].trim().split(' ').length;
    pieces.push({ text: 'to', tokens: tokens.slice(i, i + count).map((_, k) => i + k), night: false });
    return i + count - 1;
  }
  if (
    words[0] === 'midnight' &&
    ['to', 'till', 'til', 'until', '-'].includes(words[1] ?? '') &&
    /^\d{1,2}(:\d\d)?(am)?$/.test(words[2] ?? '') &&
    !tokens[i].breakAfter
  ) {
    pieces.push({ text: '12am', tokens: [i], night: false });
    return i;
  }
  return undefined;
}

/**
 * "11 tonight" is 23:00, "5 tonight" and "6 tonight" 17:00 and 18:00 when said as a start ("5 tonight to sunday 6pm");
 * after a range's connector ("between 10 and 6 tonight") an early hour is the night's morning, left to the night rules.
 */
function isEveningHourTonight(hour: number, prevWord: string): boolean {
  if (hour >= 7 && hour <= 11) return true;
  return (hour === 5 || hour === 6) && !['and', 'to', 'till', 'til', 'until', '-', 'through'].includes(prevWord);
}

/** Reads the word at tokens[i] into pieces, rewritten where chrono would misread it; returns the index of the last word read. */
function readWordPiece(tokens: Token[], i: number, prevWord: string, pieces: ClockPiece[]): number {
  // an hour said as a word after a time word ("till seven tomorrow morning"): its digits
  const w = isHourWordAt(tokens, i) && TIME_PREPOSITIONS.has(prevWord) ? String(readHourWord(tokens[i].text)) : tokens[i].text;
  const range =
    readRangeBeforeDayPart(tokens, i, w, pieces) ?? readBareRangeBeforeTomorrow(tokens, i, w, prevWord, pieces) ?? readRangeWords(tokens, i, pieces);
  if (range !== undefined) return range;
  if (/^\d{1,2}(:\d\d)?$/.test(w)) {
    const a = tokens[i + 1]?.text,
      b = tokens[i + 2]?.text,
      c = tokens[i + 3]?.text;
    if (a === 'in' && b === 'the' && c === 'morning') {
      pieces.push({ text: `${w}am`, tokens: [i, i + 1, i + 2, i + 3], night: false });
      i += 3;
      return i;
    }
    if (a === 'in' && b === 'the' && (c === 'evening' || c === 'afternoon')) {
      pieces.push({ text: `${w}pm`, tokens: [i, i + 1, i + 2, i + 3], night: false });
      i += 3;
      return i;
    }
    if (a === 'at' && b === 'night') {
      pieces.push({ text: `${w}pm`, tokens: [i, i + 1, i + 2], night: false });
      i += 2;
      return i;
    }
    // "7 tomorrow morning" is 07:00 tomorrow; chrono would read the 7 as the evening's
    if (a === 'tomorrow' && (b === 'morning' || b === 'evening' || b === 'night' || b === 'afternoon')) {
      pieces.push({ text: `${w}${b === 'morning' ? 'am' : 'pm'} tomorrow`, tokens: [i, i + 1, i + 2], night: false });
      i += 2;
      return i;
    }
    // "11 tonight" is 23:00; "6 tonight" after "between 10 and" is the morning: leave it to the night rules
    if (a === 'tonight' && isEveningHourTonight(Number(w.split(':')[0]), prevWord)) {
      pieces.push({ text: `${w}pm`, tokens: [i, i + 1], night: true });
      i += 1;
      return i;
    }
  }
  // sentence ends stop chrono from joining "until 7. then 9pm"; chrono also joins "tonight until
  // 6:15" into one range that loses the clock, so "tonight" (read by extractTimeSpec) ends its phrase
  // "till the sun's up": the sun, not Sunday
  if (
    w === 'sun' &&
    ['is', 'be', 'comes', 'come', 'gets', 'goes', 'go', 'up', 'down', 'rises', 'sets', 'has', 'coming', 'going'].includes(tokens[i + 1]?.text ?? '')
  ) {
    pieces.push({ text: 'sunlight', tokens: [i], night: false });
    return i;
  }
  // "day after tomorrow" with no "the": chrono reads the day only with its article
  if (w === 'day' && prevWord !== 'the' && tokens[i + 1]?.text === 'after' && tokens[i + 2]?.text === 'tomorrow') {
    pieces.push({ text: 'the day', tokens: [i], night: false });
    return i;
  }
  // "now until 8pm": chrono reads "now" as the range's start and swaps the ends; now is read by
  // extractTimeSpec, so chrono sees a stop there
  if (w === 'now') {
    pieces.push({ text: '.', tokens: [i], night: false });
    return i;
  }
  // ("till 5, a parcel is coming": chrono would read "5 a" as 5am across the comma)
  const ends =
    tokens[i].breakAfter === '.' ||
    (Boolean(tokens[i].breakAfter) && ['a', 'p'].includes(tokens[i + 1]?.text ?? '')) ||
    (['tonight', 'today', 'evening', 'night', 'afternoon', 'morning'].includes(w) && END_WORDS.has(tokens[i + 1]?.text ?? ''));
  pieces.push({ text: ends ? `${w}.` : w, tokens: [i], night: false });
  return i;
}

const WEEKDAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** "from 6 today until 9 tomorrow": each end with its own day (./day-ended-range.ts); not after an end's own word. */
function readDayEnds(words: string[], i: number, ctx: TimeContext): { text: string; end: number } | undefined {
  if (['until', 'till', 'til', 'to', 'by', 'before', 'and'].includes(words[i - 1] ?? '')) return undefined;
  const now = toWallClock(ctx.now, ctx.timeZone);
  const tomorrow = WEEKDAY_NAMES[getWeekday(addDays(toLocalDate(ctx.now, ctx.timeZone), 1))];
  return readDayEndedRange(words, i, now.hour * 60 + now.minute, tomorrow);
}

/** The pieces of the text given to chrono, one for each word or rewritten phrase of tokens. */
function clockPieces(tokens: Token[], ctx: TimeContext): ClockPiece[] {
  const pieces: ClockPiece[] = [];
  const words = tokens.map((t) => t.text);
  for (let i = 0; i < tokens.length; i++) {
    const prevWord = tokens[i - 1]?.text ?? '';
    // spoken clock times, read by the shared reader (./spoken-clock.ts): "quarter past 8",
    // "half past 7", "half ten", "seven o'clock", "ten past six in the morning". "10 to 6" is a
    // range ("from 10 to 6"); "ten to seven" is 18:50 only after at/till/by…, never after from/between
    const minutesTo =
      ['at', 'by', 'until', 'till', 'til', 'before', 'around', 'about', 'after'].includes(prevWord) ||
      // "from ten to seven this evening until ten past nine": the range is said with "until"
      (prevWord === 'from' && tokens.slice(i + 3, i + 8).some((t) => ['until', 'till', 'til'].includes(t.text))) ||
      // "between quarter past six and ten to nine": the range's own connector comes first, so what
      // follows it is one time
      (prevWord === 'and' && words.slice(Math.max(0, i - 8), i - 1).includes('between'));
    // "from closing at 6", "until we open at 8": the place's hours say the clock's half of the day (./business-hours.ts)
    const hours = readBusinessHour(words, i) ?? readEventClock(words, i) ?? readDayEnds(words, i, ctx);
    if (hours) {
      pieces.push({ text: hours.text, tokens: Array.from({ length: hours.end - i + 1 }, (_, k) => i + k), night: false });
      i = hours.end;
      continue;
    }
    const spoken = /^\d/.test(prevWord) && !tokens[i - 1]?.breakAfter ? undefined : readSpokenClock(words, i, { minutesTo });
    i = readDatedPiece(words, i, prevWord, minutesTo, ctx, pieces) ?? readSpokenPiece(words, i, spoken, pieces) ?? readWordPiece(tokens, i, prevWord, pieces);
  }
  return pieces;
}

/** Runs chrono over the text of the pieces: the clock phrases it finds, with the tokens each covers. */
function parseClockPieces(pieces: ClockPiece[], ctx: TimeContext): ClockPhrase[] {
  let text = '';
  const startOf: number[] = [];
  for (const p of pieces) {
    startOf.push(text.length);
    text += `${p.text} `;
  }
  const phrases: ClockPhrase[] = [];
  // chrono is the costly step; only clock digits, noon/midnight and named days give it work
  if (CHRONO_WORTHY.test(text)) {
    const pieceAt = (offset: number) => {
      let k = 0;
      while (k + 1 < startOf.length && startOf[k + 1] <= offset) k++;
      return k;
    };
    const offsetMinutes = getOffsetMinutes(ctx.now, ctx.timeZone);
    for (const r of chrono.parse(text, { instant: new Date(ctx.now), timezone: offsetMinutes }, { forwardDate: true })) {
      const first = pieceAt(r.index);
      const last = pieceAt(r.index + r.text.length - 1);
      const span = pieces.slice(first, last + 1);
      phrases.push({
        tokens: span.flatMap((p) => p.tokens),
        first: pieces[first].tokens[0],
        text: r.text.toLowerCase(),
        result: r,
        night: span.some((p) => p.night),
      });
    }
  }
  return phrases;
}

/** Runs chrono once over the whole message; "8 tonight" and "6 in the morning" are said plainly first. */
function findClockPhrases(tokens: Token[], ctx: TimeContext): ClockPhrase[] {
  const key = `${ctx.now}|${ctx.timeZone}`;
  const cached = clockPhraseCache.get(tokens)?.get(key);
  if (cached) return cached;
  const pieces = clockPieces(tokens, ctx);
  const phrases = parseClockPieces(pieces, ctx);
  if (!clockPhraseCache.has(tokens)) clockPhraseCache.set(tokens, new Map());
  clockPhraseCache.get(tokens)!.set(key, phrases);
  return phrases;
}

const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/**
 * "[on] thursday the 10th [at 6am]", "the 10th at 6am": a date said by its day of the month with a
 * weekday or a time (a bare "the 10th" is read by extractTimeSpec). The text is chrono's, time first.
 */
function readDatedDay(words: string[], i: number, ctx: TimeContext, minutesTo: boolean): { end: number; text: string } | undefined {
  let j = i;
  const weekday = parseWeekday(words[j] ?? '');
  if (weekday !== undefined) j++;
  if (words[j] === 'the') j++;
  const day = /^\d{1,2}(st|nd|rd|th)$/.test(words[j] ?? '') ? parseDayOfMonth(words[j]) : undefined;
  if (day === undefined || j === i) return undefined;
  j++;
  let clock: string | undefined;
  // "the 13th at 8", "the 13th around 8 in the evening"
  if (['at', 'around', 'about', 'by'].includes(words[j] ?? '')) {
    const spoken = readSpokenClock(words, j + 1, { minutesTo });
    if (spoken) {
      clock = clockText(spoken);
      j = spoken.end;
    } else if (/^\d{1,2}(:\d\d)?(am|pm)?$/.test(words[j + 1] ?? '')) {
      clock = words[j + 1];
      j += 2;
      if (['am', 'pm'].includes(words[j] ?? '') && !/[ap]m$/.test(clock)) {
        clock += words[j];
        j++;
      }
    }
    // "at 6 in the morning", "around 8 in the evening", "at 11 at night": the part of the day says am or pm
    if (clock && !/[ap]m$/.test(clock)) {
      const part = words[j] === 'in' && words[j + 1] === 'the' ? words[j + 2] : words[j] === 'at' && words[j + 1] === 'night' ? 'night' : undefined;
      const hour = Number(clock.split(':')[0]);
      if (part && ['morning', 'afternoon', 'evening', 'night'].includes(part) && hour >= 1 && hour <= 12) {
        clock += part === 'morning' ? (hour === 12 ? 'pm' : 'am') : hour === 12 ? 'am' : 'pm';
        if (part === 'night' && hour >= 1 && hour <= 4) clock = clock.replace(/pm$/, 'am');
        j += part === 'night' ? 2 : 3;
      }
    }
  }
  if (weekday === undefined && clock === undefined) return undefined;
  const date = resolveDayOfMonth(day, ctx, 'future');
  const dateText = `${date.day} ${MONTH_NAMES[date.month - 1]} ${date.year}`;
  return { end: j, text: clock ? `${clock} on ${dateText}` : dateText };
}

/** Clock and date phrases of tokens[from, to) ("6am", "tomorrow 9 to 5", "7:30 tomorrow", "noon"). */
function readClockPhrases(tokens: Token[], from: number, to: number, ctx: TimeContext, spec: TimeSpec): void {
  for (const phrase of findClockPhrases(tokens, ctx)) {
    if (phrase.tokens[0] < from || phrase.tokens[phrase.tokens.length - 1] >= to) continue;
    // (days already read as a weekly pattern: "every saturday and sunday night")
    if (phrase.tokens.every((k) => spec.consumed.has(k))) continue;
    readClockPhrase(tokens, from, phrase, spec, ctx);
  }
}

/**
 * "weekdays", "every weekday": a weekly pattern (readRecurrence), never one day's date. (A weekend pattern keeps
 * chrono's Saturday, which resolveWeekendWindow reads.)
 */
function isWeeklyPatternWord(tokens: Token[], k: number): boolean {
  return /^week(?:day|night)s?$/.test(tokens[k].text);
}

/** One clock or date phrase of the clause, read into the spec. */
function readClockPhrase(tokens: Token[], from: number, phrase: ClockPhrase, spec: TimeSpec, ctx: TimeContext): void {
  const r = phrase.result;
  const words = phrase.text;
  const span = phrase.tokens;
  const hasClock = r.start.isCertain('hour') || /\b(noon|midnight)\b/.test(words);
  // "every saturday and sunday night, 9pm to 7am": the days are the weekly pattern already read,
  // not a date for the first window
  // ("every weekday 9 to 11": chrono takes "weekday" for a day, but it is the pattern, read later by readRecurrence)
  const weeklyDays =
    (spec.recurrence !== undefined && span.some((k) => spec.consumed.has(k) && parseWeekday(tokens[k].text) !== undefined)) ||
    span.some((k) => isWeeklyPatternWord(tokens, k));
  const dayCertain = (r.start.isCertain('day') || r.start.isCertain('weekday')) && !weeklyDays;
  const part = words.split(/\s+/).find(isDayPart);
  // ("tomorrow morning" is read as a named day's part is; "tomorrow night" by readNightWords)
  const tomorrowPart = /\btomorrow\b/.test(words) && part !== 'night';
  if (readDayToDayPart(tokens, from, phrase, spec, hasClock, dayCertain)) return;
  if (!hasClock && dayCertain && part && !/\b(tonight|today|yesterday|last)\b/.test(words) && (tomorrowPart || !/\btomorrow\b/.test(words))) {
    readDayPartPhrase(tokens, from, phrase, spec, part);
    return;
  }
  if (
    /\b(hour|hours|minute|minutes|min|mins|week|weeks|days)\b/.test(words) ||
    (/\b(night|tonight|today|yesterday|evening|weekend)\b/.test(words) && !hasClock)
  )
    return;
  // "9 tonight" is 21:00; only a start said that way ("from 10 tonight") makes the window the night's
  // ("until 11 tonight", "back about 9 tonight" end a window that starts now)
  if (phrase.night && getRoleBefore(tokens, phrase.first, from) !== 'end') spec.night = true;
  if (!hasClock) {
    readDatePhrase(tokens, from, phrase, spec, dayCertain);
    return;
  }
  const before = spec.anchors.length;
  readClockTimes(tokens, from, phrase, spec, dayCertain, ctx);
  // "tomorrow morning at 8", "saturday evening from 7": one hour the part of the day said with it
  // has not settled takes the part's half (settleDayPart, at the end of extractTimeSpec)
  // ("till 7 sunday morning": that end only)
  const added = spec.anchors.slice(before);
  if (part && part !== 'night' && !r.end && added.length === 1 && added[0].kind === 'clock' && !added[0].meridiemCertain) {
    spec.anchors[before] = settleDayPart({ ...spec, anchors: added }, { ...spec, dayPart: part }).anchors[0];
    if (added[0].role !== 'end') spec.dayPart ??= part;
  } else if (part && part !== 'night' && r.end && words.search(new RegExp(`\\b${part}\\b`)) < words.search(/\d/)) {
    // "tomorrow morning from quarter to seven till half past eight": a part said before a range
    // settles both its hours (one it does not fit is left to the usual rules); said after the range
    // ("from 10 till 7 sunday morning") it is the end's only, read as chrono reads it
    spec.anchors.splice(before, added.length, ...settleDayPart({ ...spec, anchors: added }, { ...spec, dayPart: part }).anchors);
  }
}

/**
 * "from tomorrow until sunday night": a day with no hours, then a later day's part, read by chrono as one range.
 * The start is that day's start, as "watch the garage tomorrow" is; the end the part's usual hour (as "until
 * sunday night" alone is). Only the end's day may carry a part: "from tomorrow night …" is read as before.
 */
function readDayToDayPart(tokens: Token[], from: number, phrase: ClockPhrase, spec: TimeSpec, hasClock: boolean, dayCertain: boolean): boolean {
  const r = phrase.result;
  const m = /^(?:from )?(tomorrow|(?:mon|tues|wednes|thurs|fri|satur|sun)day) (?:until|till|til|to|through) (?:\S+ )?(morning|afternoon|evening|night)$/.exec(
    phrase.text,
  );
  if (
    hasClock ||
    !dayCertain ||
    !r.end ||
    !m ||
    r.end.isCertain('hour') ||
    !(r.end.isCertain('day') || r.end.isCertain('weekday')) ||
    spec.date ||
    spec.dayOffset
  )
    return false;
  const dateOf = (c: NonNullable<typeof r.end>) => ({ year: c.get('year')!, month: c.get('month')!, day: c.get('day')!, hour: 0, minute: 0 });
  const [start, end] = [dateOf(r.start), dateOf(r.end)];
  if (Date.UTC(end.year, end.month - 1, end.day) <= Date.UTC(start.year, start.month - 1, start.day)) return false;
  const part = m[2] as DayPart;
  spec.anchors.push({ kind: 'clock', hour: 0, minute: 0, meridiemCertain: true, date: start, role: 'start' });
  spec.anchors.push({ kind: 'clock', hour: DAY_PARTS[part].typical, minute: 0, meridiemCertain: true, date: end, role: 'end' });
  phrase.tokens.forEach((k) => spec.consumed.add(k));
  if (phrase.first - 1 >= from && START_WORDS.has(tokens[phrase.first - 1].text)) spec.consumed.add(phrase.first - 1);
  return true;
}

/** "tomorrow" said as the day, not inside "the day after tomorrow" (chrono's date is that day). */
function saysTomorrow(words: string): boolean {
  return /\btomorrow\b/.test(words) && !/\bday after tomorrow\b/.test(words);
}

/** A named day's part with no clock: "till friday evening", "on saturday night", "tomorrow morning". */
function readDayPartPhrase(tokens: Token[], from: number, phrase: ClockPhrase, spec: TimeSpec, part: DayPart): void {
  const r = phrase.result;
  const span = phrase.tokens;
  // "till friday evening", "from monday morning": a named day's part, at the hour people mean
  const date = { year: r.start.get('year')!, month: r.start.get('month')!, day: r.start.get('day')!, hour: 0, minute: 0 };
  const role = getRoleBefore(tokens, phrase.first, from);
  const tomorrow = saysTomorrow(phrase.text);
  // "on saturday night": that night, sunset to sunrise, as "tonight" is
  // ("saturday morning", "tomorrow afternoon": a part of the day with no hours, which the planner asks for)
  // ("saturday night 11 till 7 sunday morning": the part after a clock time is that time's)
  if (role === 'point' && !spec.date && (part === 'night' || (!spec.dayPart && !spec.anchors.some((a) => a.kind === 'clock')))) {
    if (tomorrow) spec.dayOffset = 1;
    else spec.date = date;
    if (part === 'night') spec.night = true;
    else spec.dayPart = part;
    span.forEach((k) => spec.consumed.add(k));
    if (phrase.first - 1 >= from && tokens[phrase.first - 1].text === 'on') spec.consumed.add(phrase.first - 1);
    return;
  }
  spec.anchors.push({ kind: 'clock', hour: DAY_PARTS[part].typical, minute: 0, meridiemCertain: true, date, role: role === 'point' ? 'start' : role });
  if (part === 'night' || part === 'evening') spec.night ||= role !== 'end';
  span.forEach((k) => spec.consumed.add(k));
  if (phrase.first - 1 >= from && (START_WORDS.has(tokens[phrase.first - 1].text) || END_WORDS.has(tokens[phrase.first - 1].text)))
    spec.consumed.add(phrase.first - 1);
}

/** A date with no clock: "until friday", "tomorrow", "on the 3rd". */
function readDatePhrase(tokens: Token[], from: number, phrase: ClockPhrase, spec: TimeSpec, dayCertain: boolean): void {
  const r = phrase.result;
  const words = phrase.text;
  const span = phrase.tokens;
  if (dayCertain && !/\btomorrow\b/.test(words) && getRoleBefore(tokens, phrase.first, from) === 'end') {
    // "until friday", "until nov 30": through the end of that day
    const date = { year: r.start.get('year')!, month: r.start.get('month')!, day: r.start.get('day')!, hour: 0, minute: 0 };
    spec.anchors.push({ kind: 'clock', hour: 0, minute: 0, meridiemCertain: true, date, role: 'end', dateOnly: true });
    span.forEach((k) => spec.consumed.add(k));
    spec.consumed.add(phrase.first - 1);
    return;
  }
  if (dayCertain) {
    if (saysTomorrow(words)) spec.dayOffset = 1;
    else spec.date = { year: r.start.get('year')!, month: r.start.get('month')!, day: r.start.get('day')!, hour: 0, minute: 0 };
    span.forEach((k) => spec.consumed.add(k));
  }
}

/**
 * "from 8pm to 10 on sunday", "between 7 and 11pm on the 14th": a day said after a range that does not cross midnight
 * is the whole range's day, as the same day said before it is ("sunday from 8pm to 10"); chrono gives it to the end
 * alone, which made a watch from tonight until Sunday. The end's date read by chrono is that day; undefined for any
 * other shape (a range crossing midnight, "from 7pm till 7am tomorrow", unless a weekday is said with "on", or an end
 * with its own day, "until sunday 10pm", is left as before). See docs/decisions.md, "Round T: times".
 */
function readTrailingDay(r: chrono.ParsedResult, words: string): WallClock | undefined {
  const end = r.end;
  if (!end || !TRAILING_DAY_SHAPE.test(words) || !(end.isCertain('day') || end.isCertain('weekday'))) return undefined;
  // (two bare hours, "from 6 till 9 tomorrow", are asked about as before)
  if (!r.start.isCertain('meridiem') && !end.isCertain('meridiem')) return undefined;
  const [from, to] = [r.start.get('hour')! * 60 + (r.start.get('minute') ?? 0), end.get('hour')! * 60 + (end.get('minute') ?? 0)];
  // ("from 10pm to 2am on sunday": a weekday said with "on" is the start's, the end the morning after it)
  if (to <= from && !(end.isCertain('weekday') && !end.isCertain('day') && / on \S+$/.test(words))) return undefined;
  return { year: end.get('year')!, month: end.get('month')!, day: end.get('day')!, hour: 0, minute: 0 };
}

/** A clock time or a range of them: "6am", "from 10pm to 6am", "tomorrow 9 to 5". */
function readClockTimes(tokens: Token[], from: number, phrase: ClockPhrase, spec: TimeSpec, dayCertain: boolean, ctx: TimeContext): void {
  const r = phrase.result;
  const words = phrase.text;
  const span = phrase.tokens;
  // ("from 11 till 7 tomorrow" said at 21:30: 11 is next 23:00 tonight, so "tomorrow" is the end's
  // day: see isTonightStart)
  // chrono gives "from 7pm till 7am tomorrow" tomorrow's date at both ends; the day named after
  // "till" belongs to the end only, which resolves after the start anyway
  // ("9 to 5 tomorrow", said with no am/pm and no night, is a day's range: tomorrow's, both ends)
  const dayRange =
    r.end !== null &&
    r.end !== undefined &&
    !r.start.isCertain('meridiem') &&
    !r.end.isCertain('meridiem') &&
    !/\b(tonight|night|evening)\b/.test(words) &&
    r.start.get('hour')! % 12 > r.end.get('hour')! % 12 &&
    r.start.get('hour')! % 12 >= 6 &&
    !isTonightStart(r.start, words, ctx);
  const trailingDay = readTrailingDay(r, words);
  const dayAfterEnd = r.end && !dayRange && !trailingDay && DAY_AFTER_UNTIL.test(words) && !DAY_BEFORE_UNTIL.test(words);
  const date =
    trailingDay ??
    (dayCertain && !dayAfterEnd
      ? forwardWeekdayRange(r, { year: r.start.get('year')!, month: r.start.get('month')!, day: r.start.get('day')!, hour: 0, minute: 0 }, ctx)
      : undefined);
  // "tomorrow from 8 pm until midnight": chrono dates the midnight end and leaves the start's day
  // open; the day said before the range is the start's (see docs/decisions.md, "Round F household: relative days and starts")
  if (!date && r.end && !dayAfterEnd && /^(?:\S+ )?tomorrow\b/.test(words) && spec.dayOffset === 0 && !spec.date) spec.dayOffset = 1;
  const firstWord = words.split(/\s+/)[0];
  // "stop at 5am": the word before the phrase outranks chrono's own "at"
  let role: Role = getRoleBefore(tokens, phrase.first, from);
  if (role === 'point' && (firstWord === 'at' || firstWord === 'by') && ['back', 'home'].includes(tokens[phrase.first - 1]?.text ?? '')) role = 'end';
  if (role === 'point' && START_WORDS.has(firstWord)) role = 'start';
  if (r.end) role = 'start';
  // chrono puts the earlier hour first: "from 9 until midnight" comes back as 00:00 to 09:00; the
  // order said is the order meant
  let [startC, endC] = [r.start, r.end];
  const firstSaid = /\b(\d{1,2})(?::\d\d)?|\b(midnight|noon|midday)\b/.exec(words);
  if (r.end && firstSaid) {
    // (on the clock face noon and midnight are both 12: 0 here, as the hours compared are)
    const said = firstSaid[2] ? 0 : Number(firstSaid[1]) % 12;
    if (r.start.get('hour')! % 12 !== said && r.end.get('hour')! % 12 === said) [startC, endC] = [r.end, r.start];
    // "from noon tomorrow till midnight": both ends are 12 on the clock face; the word said first is the start
    if (firstSaid[2] && isNoonMidnightSwapped(r, firstSaid[2])) [startC, endC] = [r.end, r.start];
  }
  // "from 8 in the morning till half 5 tomorrow": a daytime range (a morning start, an end that
  // afternoon) is the day's whole, not a start today and an end tomorrow
  if (dayAfterEnd && endC && isDaytimeRange(startC, endC) && /\btomorrow\b/.test(words) && spec.dayOffset === 0 && !spec.date) spec.dayOffset = 1;
  spec.anchors.push({ kind: 'clock', ...readStartHour(startC, endC, words), minute: readMinute(startC), date, role });
  // "tonight from 10 to 6", "saturday night 11 till 7": the night says which half of the day
  if (/\b(tonight|night)\b/.test(words) && role !== 'end') spec.night = true;
  if (endC) {
    const startDay = date ?? addDays(toLocalDate(ctx.now, ctx.timeZone), spec.dayOffset);
    const endDate = readEndDate(endC, words, date, dayAfterEnd === true && !phrase.night, startDay);
    spec.anchors.push({ kind: 'clock', ...readHour(endC, words), minute: readMinute(endC), date: endDate, role: 'end' });
  }
  span.forEach((k) => spec.consumed.add(k));
  // "from 10pm": the preposition belongs to the time
  const before = phrase.first - 1;
  if (before >= from && (START_WORDS.has(tokens[before].text) || END_WORDS.has(tokens[before].text))) spec.consumed.add(before);
}

/**
 * The end's own date, kept only when the words name one after "until" ("until monday the 14th at 8pm", "8 tonight to
 * sunday 6pm") and it is not the start's; chrono otherwise dates "9 to 3" to the next day on its own. `endDayOnly`: the
 * day named after "until" belongs to the end and the start is not tonight's ("from 7pm till 7am tomorrow").
 */
function readEndDate(
  endC: chrono.ParsedComponents,
  words: string,
  date: WallClock | undefined,
  endDayOnly: boolean,
  startDay: { year: number; month: number; day: number },
): WallClock | undefined {
  const endNamesDay = DATE_AFTER_UNTIL.test(words);
  if (!endNamesDay || !(endC.isCertain('day') || endC.isCertain('weekday'))) return undefined;
  if (endDayOnly) return readEndWeekday(endC, words, startDay);
  const endDate = { year: endC.get('year')!, month: endC.get('month')!, day: endC.get('day')!, hour: 0, minute: 0 };
  return !date || endDate.year !== date.year || endDate.month !== date.month || endDate.day !== date.day ? endDate : undefined;
}

/**
 * "from 9pm till monday 9am" said on a Saturday: a weekday said with the end alone is that weekday's next occurrence
 * from the start's day, Monday, not the day after the start (docs/decisions.md, "Round R: times"). The start's own day
 * named, or "tomorrow", leaves the end to follow the start as before.
 */
function readEndWeekday(endC: chrono.ParsedComponents, words: string, startDay: { year: number; month: number; day: number }): WallClock | undefined {
  if (!endC.isCertain('weekday') || endC.isCertain('day') || !WEEKDAY_AFTER_UNTIL.test(words)) return undefined;
  const end = nextWeekday(endC.get('weekday')!, startDay, true);
  if (end.year === startDay.year && end.month === startDay.month && end.day === startDay.day) return undefined;
  return { ...end, hour: 0, minute: 0 };
}

/**
 * The days as said, whole or short ("sat 8am to sun 8pm"): chrono certifies the weekday, these words say
 * whose it is (see docs/decisions.md, "Before round Q: times").
 */
const DAY_NAMES = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun';
/** A day named after the range's connector ("…to sunday 6pm"), or before it ("sunday 8 to 6"). */
const DAY_AFTER_UNTIL = new RegExp(`\\b(until|till|to|through)\\b.*\\b(tomorrow|${DAY_NAMES})\\b`);
/** A range of two clocks, neither with a day of its own, then a day: "from 8pm to 10 on sunday" (readTrailingDay). */
const TRAILING_DAY_SHAPE = new RegExp(
  `^(?:from |between )?\\d\\S*(?: [ap]m)? (?:until|till|til|to|through|and|-) \\d\\S*(?: [ap]m)?(?: on)? (?:tomorrow|${DAY_NAMES}|the \\d{1,2}(?:st|nd|rd|th)|\\d{1,2} [a-z]+ \\d{4})$`,
);
/** A weekday, not "tomorrow", named after the range's connector ("…till monday 9am"). */
const WEEKDAY_AFTER_UNTIL = new RegExp(`\\b(until|till|to|through)\\b.*\\b(${DAY_NAMES})\\b`);
const DAY_BEFORE_UNTIL = new RegExp(`\\b(tomorrow|${DAY_NAMES})\\b.*\\b(until|till|to|through)\\b`);
/** A day or a month named after the range's connector ("until monday the 14th at 8pm"). */
const DATE_AFTER_UNTIL = new RegExp(
  `\\b(until|till|to|through)\\b.*\\b(${DAY_NAMES}|january|february|march|april|may|june|july|august|september|october|november|december)\\b`,
);

/**
 * "friday 6pm to midnight", "every weekend 8am to noon": chrono dates a range's named weekday in the
 * past week (its forward-date option holds for single times only); a watch's day named by its weekday
 * alone is the next one, as "friday 6pm" alone is.
 */
function forwardWeekdayRange(r: chrono.ParsedResult, date: WallClock, ctx: TimeContext): WallClock {
  if (!r.end || !r.start.isCertain('weekday') || r.start.isCertain('day')) return date;
  const today = toLocalDate(ctx.now, ctx.timeZone);
  if (Date.UTC(date.year, date.month - 1, date.day) >= Date.UTC(today.year, today.month - 1, today.day)) return date;
  const next = new Date(Date.UTC(date.year, date.month - 1, date.day + 7));
  return { ...date, year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() };
}

/**
 * A range's start without am/pm takes the end's half when it comes before the end on the clock face, the same
 * day: "6 to 8am" is 06:00 to 08:00, "1 to 5pm" 13:00 to 17:00; "10 to 6am" stays the night's (22:00).
 */
function readStartHour(
  startC: chrono.ParsedComponents,
  endC: chrono.ParsedComponents | null | undefined,
  words: string,
): { hour: number; meridiemCertain: boolean } {
  const start = readHour(startC, words);
  // (an end on a day of its own, "5 on saturday until 8 on monday morning", says nothing of the start's half)
  const sameDay = (['year', 'month', 'day'] as const).every((c) => startC.get(c) === endC?.get(c));
  if (start.meridiemCertain || !endC || !endC.isCertain('meridiem') || (!sameDay && (endC.isCertain('weekday') || endC.isCertain('day')))) return start;
  if (/\b(noon|midnight|midday)\b/.test(words)) return start;
  const [from, to] = [start.hour % 12, endC.get('hour')! % 12];
  if (from === 0 || from >= to) return start;
  return { hour: from + (endC.get('hour')! >= 12 ? 12 : 0), meridiemCertain: true };
}

/**
 * "from 11 till 7 tomorrow" said in the evening, its start's morning hour gone and its evening hour
 * at most two hours ahead: the start is tonight's (a bare hour is its next occurrence) and "tomorrow",
 * said after "till", dates the end only; "tomorrow 11 to 7", or the same words said in the morning,
 * stay a day's range (docs/decisions.md, "Round L household: times").
 */
function isTonightStart(start: chrono.ParsedComponents, words: string, ctx: TimeContext): boolean {
  if (!/\b(until|till|til|to)\s+\S+\s+tomorrow\b/.test(words) || /\btomorrow\b.*\b(until|till|til|to)\b/.test(words)) return false;
  const now = toWallClock(ctx.now, ctx.timeZone);
  const nowMinutes = now.hour * 60 + now.minute;
  const evening = ((start.get('hour')! % 12) + 12) * 60 + (start.get('minute') ?? 0);
  return now.hour >= 17 && nowMinutes < evening && evening - nowMinutes <= 2 * 60;
}

/** A start said in the morning (am certain) and an end later the same day: certain and later, or 1 to 8 without am/pm. */
function isDaytimeRange(start: chrono.ParsedComponents, end: chrono.ParsedComponents): boolean {
  const [from, to] = [start.get('hour')!, end.get('hour')!];
  if (!start.isCertain('meridiem') || from >= 12) return false;
  return end.isCertain('meridiem') ? to > from : to % 12 >= 1 && to % 12 <= 8;
}

/** chrono gave "noon ... midnight" (or the other way round) in the opposite order to the words. */
function isNoonMidnightSwapped(r: chrono.ParsedResult, firstWord: string): boolean {
  const saidHour = firstWord === 'midnight' ? 0 : 12;
  const other = saidHour === 12 ? 0 : 12;
  return r.end !== null && r.end !== undefined && r.start.get('hour') === other && r.end.get('hour') === saidHour;
}

/**
 * The hour chrono read and whether am/pm is certain. Chrono guesses the afternoon for the end of
 * "11 till 6"; unless the words said so (pm, 18:00, noon), the hour stays open for the window to
 * choose ("every night from 11 till 6" ends at 06:00).
 */
function readHour(c: chrono.ParsedComponents, words: string): { hour: number; meridiemCertain: boolean } {
  const hour = c.get('hour')!;
  // ("9 til midnight": the midnight is certain, the 9 is not)
  if (c.isCertain('meridiem') || (/\b(noon|midnight|midday)\b/.test(words) && (hour === 0 || hour === 12))) return { hour, meridiemCertain: true };
  // "02:00", "0700": a leading zero is the 24-hour form, the hour is what it says (docs/decisions.md,
  // "Scene questions: round F — the shared time reader")
  if (hour < 10 && new RegExp(`(?<![\\d:.])0${hour}:?\\d\\d(?!\\d)`).test(words)) return { hour, meridiemCertain: true };
  // "this evening", "in the afternoon": the part of the day said which half
  if (/\b(morning|afternoon|evening)\b/.test(words)) return { hour, meridiemCertain: hour > 12 };
  if (hour > 12 && !new RegExp(`\\b${hour}(:\\d\\d)?\\b`).test(words)) return { hour: hour - 12, meridiemCertain: false };
  return { hour, meridiemCertain: hour > 12 };
}

/**
 * The minute chrono read, when the words said it. Chrono gives "midnight" and "noon" in a range the
 * other end's minutes ("from midnight till half five" → 00:30); a minute it only implied is :00.
 */
function readMinute(c: chrono.ParsedComponents): number {
  return c.isCertain('minute') ? (c.get('minute') ?? 0) : 0;
}

/** Sunset of a local day (18:00 when the home has no location), for "last night". */
function getNightStart(ctx: TimeContext, offsetDays: number): number {
  return getSunTime('sunset', addDays(toLocalDate(ctx.now, ctx.timeZone), offsetDays), ctx);
}

export function needsLocation(spec: TimeSpec): boolean {
  return spec.anchors.some((a) => a.kind === 'sun');
}

function resolveStart(anchor: Anchor, day: WallClock, ctx: TimeContext, night: boolean): number {
  if (anchor.kind === 'sun') return getSunTime(anchor.event, day, ctx);
  const d = anchor.date ?? day;
  return fromWallClock({ ...d, hour: chooseHour(anchor, night ? 'night' : 'day'), minute: anchor.minute }, ctx.timeZone);
}

/** First instant after `after` matching the anchor (both half-days tried when am/pm was not said). */
function resolveEnd(anchor: Anchor, after: number, ctx: TimeContext, night: boolean): number {
  if (anchor.kind === 'sun') return getNextSunTime(anchor.event, after, ctx);
  // "until the 30th", "until friday": through the end of that day
  if (anchor.dateOnly && anchor.date) return fromWallClock({ ...addDays(anchor.date, 1), hour: 0, minute: 0 }, ctx.timeZone);
  const base = anchor.date ?? toLocalDate(after, ctx.timeZone);
  const hours =
    anchor.meridiemCertain || anchor.hour === 0 || anchor.hour === 12
      ? [anchor.hour]
      : night && anchor.hour <= 9
        ? [anchor.hour]
        : [anchor.hour, anchor.hour + 12];
  let best = Infinity;
  for (let d = 0; d < 3; d++) {
    for (const h of hours) {
      const t = fromWallClock(addDays({ ...base, hour: h % 24, minute: anchor.minute }, d), ctx.timeZone);
      if (t > after && t < best) best = t;
    }
    if (best < Infinity) break;
  }
  return anchor.date && best === Infinity ? fromWallClock({ ...anchor.date, hour: anchor.hour, minute: anchor.minute }, ctx.timeZone) : best;
}

function isAllowedDay(ms: number, recurrence: Recurrence, ctx: TimeContext): boolean {
  const wd = toWallClock(ms, ctx.timeZone).weekday;
  if (recurrence === 'weekdays') return wd >= 1 && wd <= 5;
  if (recurrence === 'weekends') return wd === 0 || wd === 6;
  return true;
}

function describeAnchor(a: Anchor | undefined, ms: number, ctx: TimeContext): string {
  if (a?.kind === 'sun') return a.event;
  if (a?.dateOnly && a.date) return `the end of ${formatDay(a.date)}`;
  if (a?.date) return `${formatDay(a.date)} ${formatClock(ms, ctx.timeZone)}`;
  return formatClock(ms, ctx.timeZone);
}

/** "around 4": the hour's window, half an hour either side (undefined when not said so). */
function resolveAroundWindow(
  spec: TimeSpec,
  start: Anchor | undefined,
  end: Anchor | undefined,
  today: WallClock,
  recurrence: Recurrence,
  ctx: TimeContext,
): ResolvedWindow | undefined {
  // "around 4": half an hour either side
  if (start?.kind === 'clock' && start.around && !end && spec.durationMs === undefined) {
    for (let d = spec.dayOffset; d < spec.dayOffset + 2; d++) {
      const day = spec.date ?? addDays(today, d);
      const at = fromWallClock({ ...day, hour: chooseHour(start, 'day'), minute: start.minute }, ctx.timeZone);
      if (at + 30 * MINUTE <= ctx.now) continue;
      const startsAt = Math.max(ctx.now, at - 30 * MINUTE);
      const passed = d > spec.dayOffset && !spec.date && spec.dayOffset === 0 && recurrence === 'none';
      return { startsAt, endsAt: at + 30 * MINUTE, recurrence, window: `around ${formatClock(at, ctx.timeZone)}`, defaulted: false, passed };
    }
  }
  return undefined;
}

/** "this weekend", "every weekend": Saturday to Monday (undefined when not said so). */
function resolveWeekendWindow(
  spec: TimeSpec,
  start: Anchor | undefined,
  end: Anchor | undefined,
  today: WallClock,
  recurrence: Recurrence,
  ctx: TimeContext,
): ResolvedWindow | undefined {
  if ((spec.weekend || (recurrence === 'weekends' && !start && !end && !spec.night)) && !start && !end) {
    const wd = getWeekday(today);
    const toSaturday = (6 - wd + 7) % 7;
    const saturday = wd === 0 ? addDays(today, -1) : addDays(today, toSaturday);
    const startsAt = Math.max(ctx.now, fromWallClock(saturday, ctx.timeZone));
    const endsAt = fromWallClock(addDays(saturday, 2), ctx.timeZone);
    return { startsAt, endsAt, recurrence, window: recurrence === 'weekends' ? 'every weekend' : 'this weekend', defaulted: false };
  }
  return undefined;
}

/**
 * A night's small hours ("1 to 5 tonight", "tomorrow night from 2 till 6", "saturday night 1am to
 * 4am"): a start before 05:00 in a night window is on the calendar day after the evening the night
 * begins. "Tonight" said between midnight and sunrise is the night in progress, whose small hours
 * are today's (see docs/decisions.md, "Round G: the time grammar").
 */
function moveToNightSmallHours(spec: TimeSpec, start: Anchor, day: WallClock, ctx: TimeContext): Anchor {
  if (!spec.night || start.kind !== 'clock' || start.dateOnly || chooseHour(start, 'night') >= 5) return start;
  const evening = start.date ?? day;
  const today = toLocalDate(ctx.now, ctx.timeZone);
  const isToday = evening.year === today.year && evening.month === today.month && evening.day === today.day;
  if (isToday && spec.dayOffset === 0 && !spec.date && isNightInProgress(ctx)) return start;
  return { ...start, date: { ...addDays(evening, 1), hour: 0, minute: 0 } };
}

/** The start of the window on day d (first: the first day tried), and how it is said. */
function resolveDayStart(
  spec: TimeSpec,
  start: Anchor | undefined,
  day: WallClock,
  d: number,
  first: number,
  today: WallClock,
  ctx: TimeContext,
): { startsAt: number; startLabel: string; eveningStart: boolean } {
  const night = spec.night;
  const hasLocation = ctx.location !== null;
  let startsAt: number;
  let startLabel: string;
  let eveningStart = false;
  if (start?.kind === 'clock' && spec.nextStart && d === first) {
    // the next such hour to come, a quarter of an hour's grace for one just begun
    const h = start.hour % 12;
    const options = [0, 1].flatMap((k) => [h, h + 12].map((hh) => fromWallClock({ ...addDays(today, k), hour: hh, minute: start.minute }, ctx.timeZone)));
    startsAt = Math.min(...options.filter((t) => t >= ctx.now - 15 * MINUTE));
    startLabel = describeAnchor(start, startsAt, ctx);
  } else if (start) {
    const moved = moveToNightSmallHours(spec, start, day, ctx);
    startsAt = resolveStart(moved, day, ctx, spec.night);
    // "from half eleven" said at 18:20: the hour without am/pm that is still to come today
    // ("12 til 6" said at 23:47: midnight, the 12 still to come); not for a repeating window, whose
    // hours are each day's ("weekdays 9 to 5" said at 13:00 is not 21:00 to 05:00)
    if (
      (spec.recurrence ?? 'none') === 'none' &&
      start.kind === 'clock' &&
      !start.meridiemCertain &&
      !start.date &&
      !spec.date &&
      spec.dayOffset === 0 &&
      d === first &&
      start.hour <= 12 &&
      startsAt < ctx.now - 15 * MINUTE &&
      startsAt + 12 * HOUR > ctx.now
    ) {
      startsAt += 12 * HOUR;
      eveningStart = true;
    }
    startLabel = describeAnchor(moved, startsAt, ctx);
  } else if (night) {
    startsAt = hasLocation ? getSunTime('sunset', day, ctx) : fromWallClock({ ...day, hour: 18, minute: 0 }, ctx.timeZone);
    startLabel = hasLocation ? 'sunset' : '18:00';
  } else if (spec.delayMs !== undefined && d === 0) {
    startsAt = ctx.now + spec.delayMs;
    startLabel = formatClock(startsAt, ctx.timeZone);
  } else if ((d === 0 && !spec.date) || (!spec.dayOffset && !spec.date)) {
    startsAt = d === 0 ? ctx.now : fromWallClock(day, ctx.timeZone);
    startLabel = 'now';
  } else {
    startsAt = fromWallClock(day, ctx.timeZone);
    startLabel = formatClock(startsAt, ctx.timeZone);
  }
  return { startsAt, startLabel, eveningStart };
}

/**
 * "7:30 to 9", both hours bare and the end later on the clock face: one half of the day, never
 * 19:30 to 09:00. A start moved to the evening (its morning gone) keeps its end in the evening too
 * (docs/decisions.md, "Round Q: bare hours").
 */
function isLaterSameHalf(start: Anchor | undefined, end: Anchor): boolean {
  if (start?.kind !== 'clock' || end.kind !== 'clock' || start.meridiemCertain || end.meridiemCertain || start.date || end.date) return false;
  return (end.hour % 12) * 60 + end.minute > (start.hour % 12) * 60 + start.minute;
}

/** The end of a window starting at startsAt on day, and how it is said. */
/** "from sundown to 6", "from dusk till 5": a bare end hour after an evening sun start is the morning's (docs/decisions.md, "Round N: times, follow-ups, arming"). */
function isEveningSunStart(start: Anchor | undefined): boolean {
  return start?.kind === 'sun' && (start.event === 'sunset' || start.event === 'dusk');
}

function resolveDayEnd(
  spec: TimeSpec,
  start: Anchor | undefined,
  end: Anchor | undefined,
  startsAt: number,
  eveningStart: boolean,
  day: WallClock,
  ctx: TimeContext,
): { endsAt: number; endLabel: string; defaulted: boolean } {
  const night = spec.night;
  const hasLocation = ctx.location !== null;
  let endsAt: number;
  let endLabel: string;
  let defaulted = false;
  if (end) {
    // "from 9pm until 6" ends in the morning; "from now (17:00) until 8" at 20:00, the nearest 8
    endsAt = resolveEnd(
      end,
      startsAt,
      ctx,
      night ||
        (eveningStart && !isLaterSameHalf(start, end)) ||
        (spec.sleepContext && !spec.nextStart) ||
        (start !== undefined && toWallClock(startsAt, ctx.timeZone).hour >= 20) ||
        isEveningSunStart(start),
    );
    endLabel = describeAnchor(end, endsAt, ctx);
  } else if (spec.durationMs !== undefined) {
    endsAt = startsAt + spec.durationMs;
    endLabel = formatClock(endsAt, ctx.timeZone);
  } else if (night || (start && (toWallClock(startsAt, ctx.timeZone).hour >= 17 || toWallClock(startsAt, ctx.timeZone).hour < 5))) {
    // several nights: until the sunrise after the last one
    const more = Math.max(0, (spec.nights ?? 1) - 1);
    endsAt = hasLocation
      ? getNextSunTime('sunrise', startsAt + more * DAY, ctx)
      : fromWallClock({ ...addDays(day, 1 + more), hour: 7, minute: 0 }, ctx.timeZone);
    endLabel = hasLocation ? (more ? `sunrise ${formatDay(toLocalDate(endsAt, ctx.timeZone))}` : 'sunrise') : '07:00';
  } else {
    endsAt = startsAt + DAY;
    endLabel = `${formatClock(endsAt, ctx.timeZone)} tomorrow`;
    defaulted = true;
  }
  return { endsAt, endLabel, defaulted };
}

/**
 * The (first) window of a watch. Windows are never in the past: one whose start has passed
 * starts now, one that is over moves to the next day that fits.
 */
export function resolveWatchWindow(spec: TimeSpec, ctx: TimeContext): ResolvedWindow {
  const recurrence: Recurrence = spec.recurrence ?? 'none';
  const today = { ...toLocalDate(ctx.now, ctx.timeZone), hour: 0, minute: 0 };
  const start =
    spec.anchors.find((a) => a.role === 'start') ?? (spec.anchors.some((a) => a.role === 'end') ? undefined : spec.anchors.find((a) => a.role === 'point'));
  const end = spec.anchors.find((a) => a.role === 'end');
  const night = spec.night;
  const around = resolveAroundWindow(spec, start, end, today, recurrence, ctx);
  if (around) return around;
  const weekend = resolveWeekendWindow(spec, start, end, today, recurrence, ctx);
  if (weekend) return weekend;

  // "tonight" asked between midnight and sunrise: the night in progress, which began yesterday
  const first = night && !start && spec.dayOffset === 0 && !spec.date && isTheNightInProgress(spec, ctx) ? -1 : spec.dayOffset;
  for (let d = first; d < spec.dayOffset + 8; d++) {
    const day = spec.date ? addDays(spec.date, d - spec.dayOffset) : addDays(today, d);
    const { startsAt: dayStart, startLabel, eveningStart } = resolveDayStart(spec, start, day, d, first, today, ctx);
    let startsAt = dayStart;
    const { endsAt, endLabel, defaulted } = resolveDayEnd(spec, start, end, startsAt, eveningStart, day, ctx);
    // "start at 8am" said at 17:00: the next 08:00, not a window already running
    if (start && !end && spec.durationMs === undefined && !night && startsAt < ctx.now - 15 * MINUTE) continue;
    if (
      endsAt <= ctx.now ||
      (!isAllowedDay(Math.max(startsAt, ctx.now), recurrence, ctx) && !(recurrence !== 'none' && startsAt < ctx.now && isAllowedDay(startsAt, recurrence, ctx)))
    ) {
      if (spec.date && end && endsAt > ctx.now) break;
      continue;
    }
    if (startsAt < ctx.now) {
      startsAt = ctx.now;
    }
    const prefix = { none: '', daily: night ? 'every night, ' : 'every day, ', weekdays: 'weekdays, ', weekends: 'weekends, ' }[recurrence];
    const label =
      defaulted && startLabel === 'now'
        ? 'the next 24 hours'
        : startLabel === 'now' && spec.durationMs !== undefined && !end
          ? `for the next ${formatDuration(spec.durationMs)}`
          : startLabel === 'now'
            ? `now until ${endLabel}`
            : `${startLabel} to ${endLabel}`;
    // "from 2 to 4" said at 17:00: today's window is over; the next one is tomorrow's, but ask.
    // A window in the small hours ("between midnight and 5", "from 1 to 4am") said in the day is
    // the coming night's: nobody asks to watch last night, so that is taken, not asked about
    const smallHours = start?.kind === 'clock' && start.hour < 5 && end?.kind === 'clock' && end.hour <= 7 && toWallClock(ctx.now, ctx.timeZone).hour >= 5;
    const passed =
      d > Math.max(first, 0) &&
      start !== undefined &&
      end !== undefined &&
      start.kind === 'clock' &&
      end.kind === 'clock' &&
      !start.date &&
      !spec.date &&
      spec.dayOffset === 0 &&
      recurrence === 'none' &&
      !night &&
      !smallHours;
    const note =
      night && !start && d === first && first < spec.dayOffset
        ? describeNightInProgress(endsAt, ctx)
        : night && !start && d === 0 && !spec.date
          ? describeComingNight(startsAt, ctx)
          : undefined;
    return settleRepeatedEnd(spec, { startsAt, endsAt, recurrence, window: `${prefix}${label}`, defaulted, passed, ...(note ? { note } : {}) }, ctx);
  }
  return { startsAt: ctx.now, endsAt: ctx.now + DAY, recurrence, window: 'the next 24 hours', defaulted: true };
}

/**
 * "from 9pm to 1am" the night the clocks go back: 01:00 happens twice, and after a start said before it the end is
 * the first 01:00 (before the change), as a person counting the evening's hours means; the reply says so. A start
 * that happens twice, or a time that does not exist, is still asked (findClockChange). See docs/decisions.md,
 * "Round S: times".
 */
function settleRepeatedEnd(spec: TimeSpec, window: ResolvedWindow, ctx: TimeContext): ResolvedWindow {
  const start = spec.anchors.find((a) => a.role === 'start');
  const end = spec.anchors.find((a) => a.role === 'end');
  if (spec.recurrence || !start || end?.kind !== 'clock' || end.dateOnly || window.endsAt <= ctx.now) return window;
  const offset = getOffsetMinutes(window.endsAt, ctx.timeZone);
  const other = [getOffsetMinutes(window.endsAt - 3 * HOUR, ctx.timeZone), getOffsetMinutes(window.endsAt + 3 * HOUR, ctx.timeZone)].find(
    (o) => o !== offset && getOffsetMinutes(window.endsAt + (offset - o) * MINUTE, ctx.timeZone) === o,
  );
  if (other === undefined) return window;
  const first = Math.min(window.endsAt, window.endsAt + (offset - other) * MINUTE);
  // (a start that is itself in the repeated hour, or after the first of the two, is asked about)
  if (first <= window.startsAt || first - window.startsAt <= Math.abs(offset - other) * MINUTE) return window;
  const said = formatClock(first, ctx.timeZone);
  const note = `The clocks go back that night, so ${said} happens twice: I'll stop at the first ${said}, before the clocks go back.`;
  return { ...window, endsAt: first, repeatedEnd: true, note: window.note ? `${window.note} ${note}` : note };
}

/**
 * "Tonight" after midnight is the night in progress until 02:00 (primitives.ts, isNightInProgress); "in the night",
 * "during the night", "in the small hours" say the night itself, not the evening, so before 05:00 and sunrise they
 * are the rest of this night (docs/decisions.md, "Before round S: times").
 */
function isTheNightInProgress(spec: TimeSpec, ctx: TimeContext): boolean {
  return isNightInProgress(ctx) || (spec.theNight === true && isBeforeSunrise(ctx) && toWallClock(ctx.now, ctx.timeZone).hour < 5);
}

/**
 * "Tonight" said after midnight is read two ways by the hour (primitives.ts, isNightInProgress); the
 * reply says which was taken and how to say the other (docs/decisions.md, "Round J household: time").
 */
function describeNightInProgress(endsAt: number, ctx: TimeContext): string {
  return `It's past midnight, so I took that as the rest of this night, until sunrise (${formatClock(endsAt, ctx.timeZone)}) — say "from sunset to sunrise" if you meant the coming evening.`;
}

function describeComingNight(startsAt: number, ctx: TimeContext): string | undefined {
  if (!isBeforeSunrise(ctx)) return undefined;
  return `I took that as the coming night, from ${formatClock(startsAt, ctx.timeZone)} this evening, not what is left of last night — say "till morning" if you meant from now until sunrise.`;
}

/**
 * Why a window read from the words cannot be what was meant, said so that the user can correct it;
 * undefined when it fits. Windows are never silently moved when what was said is already over, empty
 * or inverted: "from 10 till 8 this morning" at 14:20 (the end has passed), "from 9 tonight till 9
 * tonight" (no time at all), "tonight from sunset to 8pm" with sunset at 21:03 (the end comes before
 * the start). See docs/decisions.md, "Round G: the time grammar".
 */
export function findWindowConflict(spec: TimeSpec, window: ResolvedWindow, ctx: TimeContext): string | undefined {
  const start = spec.anchors.find((a) => a.role === 'start');
  const end = spec.anchors.find((a) => a.role === 'end');
  const said = spec.durationMs === undefined && (spec.nights ?? 1) === 1 && !spec.openEnded;
  const clockEnd = end?.kind === 'clock' && !end.dateOnly ? end : undefined;
  // "from 10 till 8 yesterday": a day already gone
  if (spec.saidPast && spec.anchors.some((a) => a.kind === 'clock') && !spec.recurrence)
    return `You said "${spec.saidPast}", which is already over, and I can only watch from now on.`;
  // "until 8 this morning", "till 11am today" said in the afternoon: the end has passed
  const today = toLocalDate(ctx.now, ctx.timeZone);
  const endDay = toLocalDate(window.endsAt - 1, ctx.timeZone);
  const endOnToday = endDay.year === today.year && endDay.month === today.month && endDay.day === today.day;
  const endSaidToday = !clockEnd?.date || formatDay(clockEnd.date) === formatDay(today);
  if (spec.saidToday && clockEnd && endSaidToday && said && !spec.recurrence && !spec.night && !endOnToday) {
    const hour = clockEnd.meridiemCertain ? clockEnd.hour : spec.saidToday === 'this morning' ? clockEnd.hour % 12 : chooseHour(clockEnd, 'day');
    const at = fromWallClock({ ...today, hour, minute: clockEnd.minute }, ctx.timeZone);
    return `${formatClock(at, ctx.timeZone)} ${spec.saidToday} has already passed (it's ${formatClock(ctx.now, ctx.timeZone)} now).`;
  }
  const clockChange = findClockChange(spec, window, ctx);
  if (clockChange) return clockChange;
  if (!start || !end || !said) return undefined;
  if (spec.openMeridiem) return spec.openMeridiem;
  // "from 9 tonight till 9 tonight", "from 10pm to 10pm": the same time at both ends
  if (
    start.kind === 'clock' &&
    clockEnd &&
    start.meridiemCertain &&
    clockEnd.meridiemCertain &&
    start.hour === clockEnd.hour &&
    start.minute === clockEnd.minute &&
    (!clockEnd.date || !start.date || formatDay(clockEnd.date) === formatDay(start.date))
  )
    return `From ${formatClock(window.startsAt, ctx.timeZone)} until ${formatClock(window.startsAt, ctx.timeZone)} is no time at all.`;
  // "from sunset to 8pm" in June, "from 4pm to sunset" in December: the sun's time is on the wrong
  // side of the clock, so the window as said is empty (read on, it would run for a day)
  const sun = start.kind === 'sun' ? start : end.kind === 'sun' ? end : undefined;
  const clock = start.kind === 'clock' ? start : clockEnd;
  if (sun && clock && window.endsAt - window.startsAt > 18 * HOUR) {
    const sunAt = sun === start ? window.startsAt : getSunTime(sun.event, toLocalDate(window.startsAt, ctx.timeZone), ctx);
    const clockAt = sun === start ? window.endsAt : window.startsAt;
    const sunDay = toLocalDate(sunAt, ctx.timeZone);
    const dayWord = formatDay(sunDay) === formatDay(today) ? (sun.event === 'sunset' || sun.event === 'dusk' ? 'tonight' : 'today') : `on ${formatDay(sunDay)}`;
    const name = sun.event.charAt(0).toUpperCase() + sun.event.slice(1);
    return `${name} ${dayWord} is at ${formatClock(sunAt, ctx.timeZone)}, ${sun === start ? 'after' : 'before'} ${formatClock(clockAt, ctx.timeZone)}, so that window has no time in it.`;
  }
  return undefined;
}

/**
 * A clock time said for a night the clocks change: "from 2 to 3 tonight" when 02:00–03:00 happens
 * twice (the clocks go back) or not at all (they go forward) in the home's zone. The window would
 * silently take one of them (fromWallMs in src/platform/time/zoned-time.ts), so it is asked about.
 */
function findClockChange(spec: TimeSpec, window: ResolvedWindow, ctx: TimeContext): string | undefined {
  if (spec.recurrence) return undefined;
  const ends: [TimeSpec['anchors'][number] | undefined, number][] = [
    [spec.anchors.find((a) => a.role === 'start' || a.role === 'point'), window.startsAt],
    [spec.anchors.find((a) => a.role === 'end'), window.endsAt],
  ];
  for (const [anchor, at] of ends) {
    if (anchor?.kind !== 'clock' || anchor.dateOnly || at <= ctx.now || (window.repeatedEnd && at === window.endsAt)) continue;
    const offset = getOffsetMinutes(at, ctx.timeZone);
    const around = [getOffsetMinutes(at - 3 * HOUR, ctx.timeZone), getOffsetMinutes(at + 3 * HOUR, ctx.timeZone)];
    const said = formatClock(at, ctx.timeZone);
    // the same wall time under the other offset is a real instant too: it happens twice
    const twice = around.some((other) => other !== offset && getOffsetMinutes(at + (offset - other) * MINUTE, ctx.timeZone) === other);
    if (twice) return `The clocks go back that night, so ${said} happens twice.`;
    // a wall time in the gap was moved past it: the hour said is not the hour resolved
    const wall = toWallClock(at, ctx.timeZone);
    if (around[0] !== offset && wall.hour % 12 !== anchor.hour % 12 && wall.minute === anchor.minute) {
      const asSaid = `${String(anchor.hour).padStart(2, '0')}:${String(anchor.minute).padStart(2, '0')}`;
      return `The clocks go forward that night, so ${asSaid} does not exist (the clock jumps to ${said}).`;
    }
  }
  return undefined;
}

function formatDuration(ms: number): string {
  if (ms % HOUR === 0) return ms === HOUR ? 'hour' : `${ms / HOUR} hours`;
  const hours = Math.floor(ms / HOUR);
  const minutes = Math.round((ms % HOUR) / MINUTE);
  if (hours >= 1 && minutes !== 30) return `${hours} ${hours === 1 ? 'hour' : 'hours'} ${minutes} minutes`;
  return `${Math.round(ms / MINUTE)} minutes`;
}

/** What a follow-up changes of a watch's window (the fields it leaves out stay as they are). */
type WindowChange = { starts_at?: string; ends_at?: string; recurrence?: Recurrence; window?: string };

/** Changes to an existing watch's window from a follow-up ("make it until 6am", "extend it by an hour"). */
export function resolveWindowChange(
  spec: TimeSpec,
  watch: { starts_at: string; ends_at: string; recurrence: string },
  ctx: TimeContext,
  startRequested: boolean,
): WindowChange {
  const startsAt = Date.parse(watch.starts_at);
  const endsAt = Date.parse(watch.ends_at);
  const out: WindowChange = {};
  if (spec.recurrence) out.recurrence = spec.recurrence;
  if (spec.shiftMs !== undefined) return shiftWindow(spec.shiftMs, startsAt, endsAt, ctx, startRequested, out);
  if (spec.extendMs !== undefined) {
    out.ends_at = new Date(endsAt + spec.extendMs).toISOString();
    out.window = `${formatClock(Math.max(startsAt, ctx.now), ctx.timeZone)} to ${formatClock(endsAt + spec.extendMs, ctx.timeZone)}`;
    return out;
  }
  const hasStart = spec.anchors.some((a) => a.role === 'start');
  const hasEnd = spec.anchors.some((a) => a.role === 'end');
  // "change that to tonight", "make it tomorrow": only the day changes; the watch keeps its hours
  const dayOnly =
    spec.anchors.length === 0 &&
    spec.durationMs === undefined &&
    !spec.recurrence &&
    !spec.weekend &&
    !spec.nights &&
    (spec.night || spec.dayOffset !== 0 || spec.date !== undefined) &&
    endsAt - startsAt < DAY;
  if (dayOnly) {
    const moved = moveWindowDay(spec, startsAt, endsAt, ctx);
    if (moved) return { ...out, ...moved };
  }
  if (spec.night || (hasStart && hasEnd) || spec.weekend) {
    // a follow-up keeps what it does not change: the watch's day ("tomorrow 8 to 6" → "sorry, 8 to 4")
    // and its night ("tonight from 10 to 6" → "sorry, 11 to 5")
    const startWall = toWallClock(startsAt, ctx.timeZone);
    const nightWatch = startWall.hour >= 17 || startWall.hour < 5;
    const keepDay = !spec.date && spec.dayOffset === 0 && !spec.anchors.some((a) => a.kind === 'clock' && a.date) && startsAt > ctx.now;
    const kept: TimeSpec = {
      ...spec,
      night: spec.night || (hasStart && hasEnd && nightWatch),
      date: keepDay ? { ...toLocalDate(startsAt, ctx.timeZone), hour: 0, minute: 0 } : spec.date,
    };
    const w = resolveWatchWindow(kept, ctx);
    return {
      ...out,
      starts_at: new Date(w.startsAt).toISOString(),
      ends_at: new Date(w.endsAt).toISOString(),
      window: w.window,
      // (no recurrence key when none was said: the watch keeps its own)
      ...(spec.recurrence || out.recurrence ? { recurrence: spec.recurrence ?? out.recurrence } : {}),
    };
  }
  changeOneEnd(spec, startsAt, endsAt, ctx, startRequested, out);
  return out;
}

/** "start it an hour later" moves the start; "finish it half an hour earlier" the end. */
function shiftWindow(shiftMs: number, startsAt: number, endsAt: number, ctx: TimeContext, startRequested: boolean, out: WindowChange): WindowChange {
  const s = startRequested ? startsAt + shiftMs : startsAt;
  const e = startRequested ? endsAt : endsAt + shiftMs;
  // (a shift that leaves no window, or ends it in the past, changes nothing: the planner asks)
  if (s >= e || e <= ctx.now) return out;
  if (startRequested) out.starts_at = new Date(s).toISOString();
  else out.ends_at = new Date(e).toISOString();
  out.window = `${formatClock(Math.max(s, ctx.now), ctx.timeZone)} to ${formatClock(e, ctx.timeZone)}`;
  return out;
}

/** The watch's hours on the day the follow-up names, or undefined when that window would already be over. */
function moveWindowDay(spec: TimeSpec, startsAt: number, endsAt: number, ctx: TimeContext): WindowChange | undefined {
  const wall = toWallClock(startsAt, ctx.timeZone);
  const today = toLocalDate(ctx.now, ctx.timeZone);
  const day = spec.date ?? addDays(today, spec.dayOffset);
  let s = fromWallClock({ ...day, hour: wall.hour, minute: wall.minute }, ctx.timeZone);
  // "tonight" for a watch that starts in the small hours: the coming night's
  if (spec.night && spec.dayOffset === 0 && !spec.date && wall.hour < 12 && s < ctx.now)
    s = fromWallClock({ ...addDays(today, 1), hour: wall.hour, minute: wall.minute }, ctx.timeZone);
  const e = s + (endsAt - startsAt);
  if (e <= ctx.now) return undefined;
  const from = Math.max(s, ctx.now);
  return {
    starts_at: new Date(from).toISOString(),
    ends_at: new Date(e).toISOString(),
    window: `${describeAnchor(undefined, from, ctx)} to ${formatClock(e, ctx.timeZone)}`,
  };
}

/**
 * "start it at 4 instead" of a watch from 17:21 tonight, said at 10:00: 04:00 has passed, but 16:00 on the
 * watch's own day is still ahead and before its end, so that is the start (an edit keeps the watch's day).
 * Undefined when am/pm or a date was said, or the other half-day does not fit either.
 */
function findOtherHalfStart(anchor: Anchor, day: WallClock, endsAt: number, ctx: TimeContext): number | undefined {
  if (anchor.kind !== 'clock' || anchor.meridiemCertain || anchor.date || anchor.dateOnly || anchor.hour === 0 || anchor.hour >= 12) return undefined;
  const s = fromWallClock({ ...day, hour: anchor.hour + 12, minute: anchor.minute }, ctx.timeZone);
  return s >= ctx.now && s < endsAt ? s : undefined;
}

/** One time said ("make it 10pm", "start at 9", "till 4", "for two hours"): the start or the end it changes, set on `out`. */
function changeOneEnd(spec: TimeSpec, startsAt: number, endsAt: number, ctx: TimeContext, startRequested: boolean, out: WindowChange): void {
  const anchor = spec.anchors[0];
  // "make it 10pm" of a 21:00–05:00 watch: a bare time changes the end it is nearer to
  let nearStart = false;
  if (anchor?.kind === 'clock' && anchor.role === 'point' && !startRequested) {
    const clockOf = (ms: number) => {
      const wc = toWallClock(ms, ctx.timeZone);
      return wc.hour * 60 + wc.minute;
    };
    const said = chooseHour(anchor, toWallClock(startsAt, ctx.timeZone).hour >= 17 ? 'night' : 'day') * 60 + anchor.minute;
    const gap = (a: number, b: number) => Math.min(Math.abs(a - b), 1440 - Math.abs(a - b));
    nearStart = startsAt > ctx.now && gap(said, clockOf(startsAt)) < gap(said, clockOf(endsAt));
  }
  if (anchor && (startRequested || anchor.role === 'start' || nearStart)) {
    const day = { ...toLocalDate(Math.max(startsAt, ctx.now), ctx.timeZone), hour: 0, minute: 0 };
    let s = resolveStart(anchor, day, ctx, spec.night || toWallClock(endsAt, ctx.timeZone).hour < 9);
    if (s < ctx.now) s = findOtherHalfStart(anchor, day, endsAt, ctx) ?? resolveStart(anchor, addDays(day, 1), ctx, spec.night);
    out.starts_at = new Date(s).toISOString();
    // (the end is sent as it is, so the change states the whole window it leaves: "actually make it from 8")
    out.ends_at = new Date(endsAt).toISOString();
    out.window = `${describeAnchor(anchor, s, ctx)} to ${formatClock(endsAt, ctx.timeZone)}`;
  } else if (anchor) {
    // the half of the day follows the watch's own span: a day watch's "till 4" is 16:00, a night's
    // (one that ends in the morning) 04:00; an evening watch's (17:00 to 22:00) "at 9" is 21:00
    const e = resolveEnd(
      anchor,
      Math.max(startsAt, ctx.now),
      ctx,
      toWallClock(startsAt, ctx.timeZone).hour >= 17 && toWallClock(endsAt, ctx.timeZone).hour < 12,
    );
    out.ends_at = new Date(e).toISOString();
    out.window = `${formatClock(Math.max(startsAt, ctx.now), ctx.timeZone)} to ${describeAnchor(anchor, e, ctx)}`;
  } else if (spec.durationMs !== undefined) {
    out.ends_at = new Date(Math.max(startsAt, ctx.now) + spec.durationMs).toISOString();
  }
}

/** Look-back start for questions about the past ("last night", "today", "since 2pm"). */
export function resolveSince(spec: TimeSpec, ctx: TimeContext): number | undefined {
  if (spec.sinceMs) return spec.sinceMs(ctx);
  // "anything tonight?", "anything in the night?" asked in the evening: since this evening's sunset, not last night's
  // (past-range.ts reads the same phrase from 18:00 on; docs/decisions.md, "Before round S: times")
  if (spec.night) return getNightStart(ctx, toWallClock(ctx.now, ctx.timeZone).hour >= 18 && getNightStart(ctx, 0) <= ctx.now ? 0 : -1);
  const anchor = spec.anchors[0];
  if (anchor?.kind === 'clock') {
    const today = { ...toLocalDate(ctx.now, ctx.timeZone), hour: 0, minute: 0 };
    const hour = anchor.meridiemCertain ? anchor.hour : anchor.hour + 12 <= toWallClock(ctx.now, ctx.timeZone).hour ? anchor.hour + 12 : anchor.hour;
    let t = fromWallClock({ ...(anchor.date ?? today), hour, minute: anchor.minute }, ctx.timeZone);
    if (t > ctx.now) t -= DAY;
    return t;
  }
  if (spec.date) return fromWallClock(spec.date, ctx.timeZone);
  return undefined;
}
