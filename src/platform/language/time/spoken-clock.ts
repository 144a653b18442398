/**
 * The one reader of clock times said in words, shared by the watch-window reader (future
 * windows) and the past-range reader (questions about what happened). See docs/decisions.md,
 * "One spoken-clock reader".
 *
 * It reads, from a list of lower-case words:
 *   "quarter past 6", "quarter to eleven", "half past seven", "half ten" (British: 10:30),
 *   "ten past six", "twenty-five to 9", "seven o'clock", "10 o'clock",
 * each optionally followed by the words that fix the half of the day: "am"/"pm", "in the
 * morning", "in the afternoon", "in the evening", "at night", "tonight".
 *
 * API (kept small on purpose):
 *   readSpokenClock(words, i)      → the clock time starting at words[i], or undefined
 *   findSpokenClocks(words)        → every such time, left to right, not overlapping (minutes
 *                                    "to" an hour only after "at", "until"… unless told)
 *   rewriteSpokenClocks(text)      → the same over plain text: each time replaced by "H:MM"
 *                                    (plus "am"/"pm" when known), padded to the same length so
 *                                    character offsets still point into the caller's text
 *   clockText(clock)               → "22:45", "6:10am", "7:00": a form chrono-node reads
 *   daytimeHour(hour)              → the documented rule for an hour said without am/pm on a
 *                                    day that is not a night: 7–11 morning, 12 noon, 1–6 afternoon
 */
import { HOUR_WORDS } from './number-words.ts';

export interface SpokenClock {
  /** Index of the first word and one past the last word read (the half-of-day words included). */
  start: number;
  end: number;
  /** 1–12 as said when `meridiem` is unknown; 0–23 when it is known. */
  hour: number;
  minute: number;
  /** The half of the day when the words said it; undefined when they did not. */
  meridiem?: 'am' | 'pm';
}

export interface SpokenClockOptions {
  /**
   * Read "ten to seven" (minutes TO an hour, said with a number) as 6:50. "10 to 6" is far more
   * often a range ("from 10 to 6"), so callers enable it only where the words before it make a
   * single time likely (after "at", "until", "by"…). "quarter to" is always read.
   */
  minutesTo?: boolean;
}

/** Words after which "ten to seven" is one time, when the caller does not say (findSpokenClocks). */
const SINGLE_TIME_BEFORE = new Set(['at', 'by', 'until', 'till', 'til', 'before', 'around', 'about', 'after', 'since']);

const MINUTE_WORDS: Record<string, number> = {
  five: 5,
  ten: 10,
  twenty: 20,
  'twenty-five': 25,
  'twenty five': 25,
};
const UNIT_WORDS = new Set(['hours', 'hour', 'hrs', 'hr', 'minutes', 'minute', 'mins', 'min', 'nights', 'days', 'weeks', 'people', 'cars']);

/** "7", "07", "seven" → 7 (1–12 only; a 24-hour number is not said with "past" or "o'clock"). */
export function readHourWord(word: string | undefined): number | undefined {
  if (word === undefined) return undefined;
  if (/^\d{1,2}$/.test(word)) {
    const n = Number(word);
    return n >= 1 && n <= 12 ? n : undefined;
  }
  return HOUR_WORDS[word];
}

function readMinutes(words: readonly string[], i: number): { minutes: number; length: number } | undefined {
  const w = words[i];
  if (w === undefined) return undefined;
  if (w === 'quarter') return { minutes: 15, length: 1 };
  if (w === 'half') return { minutes: 30, length: 1 };
  if (w === 'twenty' && words[i + 1] === 'five') return { minutes: 25, length: 2 };
  if (/^\d{1,2}$/.test(w) && Number(w) > 0 && Number(w) < 60) return { minutes: Number(w), length: 1 };
  if (w in MINUTE_WORDS) return { minutes: MINUTE_WORDS[w], length: 1 };
  return undefined;
}

/** "am", "pm", "in the morning", "at night", "tonight" right after words[i - 1]. */
function readMeridiem(words: readonly string[], i: number): { meridiem: 'am' | 'pm'; length: number } | undefined {
  const [a, b, c] = [words[i], words[i + 1], words[i + 2]];
  if (a === 'am' || a === 'a.m.' || a === 'a.m') return { meridiem: 'am', length: 1 };
  if (a === 'pm' || a === 'p.m.' || a === 'p.m') return { meridiem: 'pm', length: 1 };
  if (a === 'in' && b === 'the' && c === 'morning') return { meridiem: 'am', length: 3 };
  if (a === 'in' && b === 'the' && (c === 'afternoon' || c === 'evening')) return { meridiem: 'pm', length: 3 };
  if (a === 'at' && b === 'night') return { meridiem: 'pm', length: 2 };
  if (a === 'tonight') return { meridiem: 'pm', length: 1 };
  return undefined;
}

function withMeridiem(words: readonly string[], start: number, end: number, hour: number, minute: number): SpokenClock {
  const m = readMeridiem(words, end);
  if (!m) return { start, end, hour, minute };
  // "twelve at night" is midnight; "twelve in the morning" too; "twelve in the afternoon" is noon
  let h = hour % 12;
  if (m.meridiem === 'pm' && !(hour === 12 && words[end] !== 'in')) h += 12;
  if (m.meridiem === 'pm' && hour === 12 && words[end + 2] === 'afternoon') h = 12;
  // "tonight" is kept as a word of its own (it also says which night), only its half of day is read
  const length = words[end] === 'tonight' ? 0 : m.length;
  return { start, end: end + length, hour: h, minute, meridiem: m.meridiem };
}

/**
 * "ten to midnight" (23:50), "quarter past noon" (12:15): minutes to or past midnight or noon, whose
 * half of the day the hour says. words[at] is "to" or "past"; the rules for "to" are readSpokenClock's.
 */
function readNamedHour(
  words: readonly string[],
  at: number,
  first: string,
  minutes: number,
  options: SpokenClockOptions,
): Omit<SpokenClock, 'start'> | undefined {
  const [dir, name] = [words[at], words[at + 1]];
  const base = name === 'midnight' ? 24 * 60 : name === 'noon' || name === 'midday' ? 12 * 60 : undefined;
  if (base === undefined) return undefined;
  let clock: number;
  if (dir === 'past' || (dir === 'after' && (first === 'quarter' || first === 'half'))) clock = (base % (24 * 60)) + minutes;
  else if (dir === 'to' && first !== 'half' && (first === 'quarter' || (options.minutesTo && !/^\d/.test(first)))) clock = base - minutes;
  else return undefined;
  const hour = Math.floor(clock / 60);
  return { end: at + 2, hour, minute: clock % 60, meridiem: hour >= 12 ? 'pm' : 'am' };
}

/** The spoken clock time that starts at words[i], if any. */
export function readSpokenClock(words: readonly string[], i: number, options: SpokenClockOptions = {}): SpokenClock | undefined {
  const w = words[i];
  if (w === undefined) return undefined;
  // "seven o'clock", "10 oclock"
  const bare = readHourWord(w);
  if (bare !== undefined && (words[i + 1] === "o'clock" || words[i + 1] === 'oclock')) {
    return withMeridiem(words, i, i + 2, bare, 0);
  }
  // "half ten" (British): half past ten; never "half an hour", "half 10 hours"
  if (w === 'half' && readHourWord(words[i + 1]) !== undefined && !UNIT_WORDS.has(words[i + 2] ?? '')) {
    return withMeridiem(words, i, i + 2, readHourWord(words[i + 1])!, 30);
  }
  const amount = readMinutes(words, i);
  if (!amount) return undefined;
  const dirAt = i + amount.length;
  // "ten minutes past six"
  const minutesWord = ['minutes', 'minute', 'mins'].includes(words[dirAt] ?? '') ? 1 : 0;
  const dir = words[dirAt + minutesWord];
  const named = readNamedHour(words, dirAt + minutesWord, w, amount.minutes, options);
  if (named) return { start: i, ...named };
  const hour = readHourWord(words[dirAt + minutesWord + 1]);
  if (hour === undefined || UNIT_WORDS.has(words[dirAt + minutesWord + 2] ?? '')) return undefined;
  const end = dirAt + minutesWord + 2;
  if (dir === 'past' || dir === 'after') {
    // "5 past 8" only with a number before it; "after" only with quarter/half ("10 after 6" is rare and ambiguous)
    if (dir === 'after' && w !== 'quarter' && w !== 'half') return undefined;
    return withMeridiem(words, i, end, hour, amount.minutes);
  }
  // "quarter of 9" (American): 8:45
  if (dir === 'to' || dir === 'till' || dir === 'til' || (dir === 'of' && w === 'quarter')) {
    if (w === 'half') return undefined;
    if (w !== 'quarter' && (!options.minutesTo || /^\d/.test(w))) return undefined;
    return withMeridiem(words, i, end, (hour + 11) % 12 || 12, 60 - amount.minutes);
  }
  return undefined;
}

/**
 * Every spoken clock time in the words, left to right. Without `options.minutesTo`, "ten to
 * seven" is read as 6:50 only after a word that makes one time likely ("at", "until", "since"…);
 * "from ten to seven" stays a range.
 */
export function findSpokenClocks(words: readonly string[], options: SpokenClockOptions = {}): SpokenClock[] {
  const out: SpokenClock[] = [];
  for (let i = 0; i < words.length; i++) {
    // "between quarter past six and ten to nine": the range has its own connector already, so the
    // time after it is one time
    const afterConnector = words[i - 1] === 'and' && words.slice(Math.max(0, i - 8), i - 1).includes('between');
    const c = readSpokenClock(words, i, { minutesTo: options.minutesTo ?? (SINGLE_TIME_BEFORE.has(words[i - 1] ?? '') || afterConnector) });
    if (c) {
      out.push(c);
      i = c.end - 1;
    }
  }
  return out;
}

/** "22:45", "6:10am" or "7:00": the time in a form chrono-node reads. */
export function clockText(c: Pick<SpokenClock, 'hour' | 'minute' | 'meridiem'>): string {
  const mm = String(c.minute).padStart(2, '0');
  if (c.meridiem === 'am') return `${c.hour % 12 || 12}:${mm}am`;
  if (c.meridiem === 'pm') return `${c.hour % 12 || 12}:${mm}pm`;
  return `${c.hour}:${mm}`;
}

/**
 * The spoken clock times of a plain lower-case text replaced in place by clockText(), padded
 * with spaces to the same length; `spans` are the replaced character ranges.
 */
export function rewriteSpokenClocks(text: string, options: SpokenClockOptions = {}): { text: string; spans: Array<[number, number]> } {
  const matches = [...text.matchAll(/[a-z0-9'.:-]+/g)];
  const words = matches.map((m) => m[0].replace(/[.]$/, ''));
  const spans: Array<[number, number]> = [];
  let out = '';
  let at = 0;
  for (const c of findSpokenClocks(words, options)) {
    const from = matches[c.start].index!;
    const last = matches[c.end - 1];
    const to = last.index! + last[0].length;
    const replacement = clockText(c);
    if (replacement.length > to - from) continue;
    out += text.slice(at, from) + replacement.padEnd(to - from, ' ');
    at = to;
    spans.push([from, to]);
  }
  return { text: out + text.slice(at), spans };
}

/**
 * An hour said without am/pm for a daytime moment (a past day's "at 9", "at 3 on monday"): the
 * hour people mean in waking hours — 7 to 11 the morning, 12 noon, 1 to 6 the afternoon.
 * See docs/decisions.md, "One spoken-clock reader".
 */
export function daytimeHour(hour: number): number {
  if (hour === 0 || hour > 12) return hour;
  if (hour === 12) return 12;
  return hour >= 7 ? hour : hour + 12;
}
