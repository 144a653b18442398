/**
 * A range of two bare clock hours whose halves of the day are genuinely open: "from 10 to 2",
 * "from 8 till 6 tomorrow". The start hour is past the end hour, so the window crosses noon or
 * midnight: 10:00 to 14:00, or 22:00 to 02:00. Both are watches people ask for when the start is a
 * morning hour (7–11) and the night's reading ends in the small hours (1–4), so nothing in the
 * numbers picks one; a night's reading that runs until the morning ("from 10 till 6", "11 to 7")
 * is a whole night's watch and is taken. Words decide too: "tonight", "overnight", "every night"
 * (the night); "tomorrow", "on Thursday", "every weekday" said before the range (that day's
 * daytime). A day said only after the end ("from 8 till 6 tomorrow") can be the day of the whole
 * window or only of its end (from 8 tonight till 6 tomorrow morning), so it leaves the range open
 * even when it runs until the morning. See docs/decisions.md, "Round H: the time grammar".
 */
import type { Token } from '../normalize.ts';
import { readHourWord, readSpokenClock } from './spoken-clock.ts';
import { parseWeekday } from './primitives.ts';

interface BareHour {
  kind: 'clock' | 'sun';
  hour?: number;
  minute?: number;
  meridiemCertain?: boolean;
  dateOnly?: boolean;
  date?: unknown;
  around?: boolean;
  role: string;
}

const RANGE_STARTS = new Set(['from', 'between']);
const RANGE_ENDS = new Set(['to', 'till', 'til', 'until', 'and', '-']);
/** Words after which a clock is one time, not a range's start ("at 9 to 6" is not read as a bare range). */
const AFTER_TIME_WORD = new Set(['at', 'by', 'around', 'about', 'before', 'after', 'until', 'till', 'til', 'to', 'past', 'and', '-', 'from', 'between']);
const DAY_PART_WORDS = new Set(['morning', 'afternoon', 'evening', 'night', 'tonight', 'overnight', 'nights', 'nightly', 'am', 'pm', 'noon', 'midnight']);

function isDayWord(w: string): boolean {
  return w === 'tomorrow' || w === 'tmrw' || w === 'today' || parseWeekday(w) !== undefined;
}

/**
 * A clock time without am/pm at tokens[i]: a bare hour ("8", "eight"), hour and minutes in digits
 * ("9:45", "9.45") or said ("quarter to ten", "half six"). Its hour (1–12), minute and last token.
 */
function readOpenClock(tokens: Token[], i: number, to: number): { hour: number; minute: number; last: number } | undefined {
  const w = tokens[i]?.text;
  if (w === undefined || i >= to) return undefined;
  const digits = /^(\d{1,2})[:.](\d{2})$/.exec(w);
  if (digits) return Number(digits[1]) >= 1 && Number(digits[1]) <= 12 ? { hour: Number(digits[1]), minute: Number(digits[2]), last: i } : undefined;
  const words = tokens.slice(i, to).map((t) => t.text);
  const spoken = readSpokenClock(words, 0);
  if (spoken && spoken.meridiem === undefined) return { hour: spoken.hour, minute: spoken.minute, last: i + spoken.end - 1 };
  const hour = readHourWord(w);
  return hour === undefined ? undefined : { hour, minute: 0, last: i };
}

/**
 * Where "from <h1> to <h2>" is said in tokens[from, to): the index of the start time's first token and of the end
 * time's last. With `unopened`, also "<h1> to <h2>" with no "from" ("9 to 6 tomorrow"), after no time word.
 */
function findBareRange(tokens: Token[], from: number, to: number, start: Clock, end: Clock, unopened = false): { start: number; end: number } | undefined {
  const same = (a: Clock, b: { hour: number; minute: number }) => a.hour === b.hour && a.minute === b.minute;
  for (let i = from; i + 3 < to + 1; i++) {
    const opened = RANGE_STARTS.has(tokens[i].text);
    if (!opened && !(unopened && (i === from || !AFTER_TIME_WORD.has(tokens[i - 1].text)))) continue;
    const first = readOpenClock(tokens, opened ? i + 1 : i, to);
    if (!first || !same(start, first) || !RANGE_ENDS.has(tokens[first.last + 1]?.text ?? '')) continue;
    const second = readOpenClock(tokens, first.last + 2, to);
    if (!second || !same(end, second)) continue;
    return { start: opened ? i + 1 : i, end: second.last };
  }
  return undefined;
}

interface Clock {
  hour: number;
  minute: number;
}

/**
 * The two readings of a bare range whose am/pm is open ("10:00 to 14:00 or 22:00 to 02:00"), to be
 * asked about; undefined when the words or the hours settle it.
 */
export function findOpenMeridiem(
  tokens: Token[],
  from: number,
  to: number,
  spec: { anchors: BareHour[]; night: boolean; recurrence?: string; dayOffset: number; date?: unknown; saidToday?: string; durationMs?: number },
): string | undefined {
  const start = spec.anchors.find((a) => a.role === 'start');
  const end = spec.anchors.find((a) => a.role === 'end');
  if (spec.anchors.length !== 2 || start?.kind !== 'clock' || end?.kind !== 'clock' || start.hour === undefined || end.hour === undefined) return undefined;
  if (start.meridiemCertain || end.meridiemCertain || start.dateOnly || end.dateOnly || start.around || end.around) return undefined;
  if (spec.night || spec.recurrence || spec.saidToday || spec.durationMs !== undefined) return undefined;
  // both readings plausible: a morning start (7–11) and an end by 6 (the daytime one by 18:00)
  if (start.hour < 7 || start.hour > 11 || end.hour < 1 || end.hour > 6) return undefined;
  const [startClock, endClock] = [
    { hour: start.hour, minute: start.minute ?? 0 },
    { hour: end.hour, minute: end.minute ?? 0 },
  ];
  // ("9 to 6 tomorrow" with no "from": the day word after it leaves the range as open as "from 9 to 6 tomorrow" does)
  const at = findBareRange(tokens, from, to, startClock, endClock) ?? findBareRange(tokens, from, to, startClock, endClock, true);
  if (!at) return undefined;
  const words = tokens.slice(from, to).map((t) => t.text);
  if (words.some((w) => DAY_PART_WORDS.has(w))) return undefined;
  const before = tokens.slice(from, at.start).some((t) => isDayWord(t.text));
  const after = tokens.slice(at.end + 1, to).some((t) => isDayWord(t.text));
  if (!RANGE_STARTS.has(tokens[at.start - 1]?.text ?? '') && !after) return undefined;
  // "tomorrow from 8 till 6", "on thursday from 9 to 5": that day's daytime
  if (before) return undefined;
  // "from 10 till 6": the night's reading runs until the morning, a whole night's watch, and is
  // taken; one that stops in the small hours ("from 10 to 2") is no likelier than the midday one
  // (said to the minute, an end from 4:30 is the morning's: "from quarter past ten to quarter to five")
  if (end.hour * 60 + (end.minute ?? 0) >= 4 * 60 + 30 && !after) return undefined;
  const [m1, m2] = [start.minute ?? 0, end.minute ?? 0];
  const pad = (h: number, m: number) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
  const day = after ? ` ${tokens.slice(at.end + 1, to).find((t) => isDayWord(t.text))?.text}` : '';
  return `"From ${saidClock(start.hour, m1)} to ${saidClock(end.hour, m2)}${day}" could be ${pad(start.hour, m1)} to ${pad(end.hour + 12, m2)}${day}, or ${pad(start.hour + 12, m1)} to ${pad(end.hour, m2)} overnight.`;
}

/** "7", "7:30": a bare clock time as said. */
function saidClock(hour: number, minute: number | undefined): string {
  return minute ? `${hour}:${String(minute).padStart(2, '0')}` : `${hour}`;
}

/**
 * The planner's own open am/pm questions, asked before a window is worked out (moved here from
 * src/home/agent/offline-planner.ts unchanged, so that the time layer holds every open am/pm rule;
 * see docs/decisions.md, "Round I: the time grammar"): "from 9 till 5" said before 9 in the morning
 * (09:00–17:00 or 21:00–05:00) and "from 7 to 9" said before 9 (07:00–09:00 or 19:00–21:00), when
 * no word picks a half of the day. `nowHour` is the home's wall-clock hour; `text` the message.
 */
export function findOpenDayHalf(
  spec: { anchors: BareHour[]; night: boolean; sleepContext: boolean; recurrence?: string; dayOffset?: number; date?: unknown },
  nowHour: number,
  text: string,
): string | undefined {
  const [from, till] = [spec.anchors.find((a) => a.role === 'start'), spec.anchors.find((a) => a.role === 'end')];
  if (from?.kind !== 'clock' || till?.kind !== 'clock' || from.hour === undefined || till.hour === undefined) return undefined;
  if (from.meridiemCertain || till.meridiemCertain || spec.night || spec.sleepContext || spec.recurrence) return undefined;
  if (from.date || till.date || spec.date) return findOpenLaterDayHalf(from, till, text);
  // "from 9 till 5": 09:00–17:00 or 21:00–05:00, both a usual watch — asked, not guessed
  if (from.hour >= 7 && from.hour <= 11 && till.hour >= 3 && till.hour <= 7 && nowHour < from.hour && !/\b(work|school|office|shift|day)\b/.test(text)) {
    return `From ${from.hour} in the morning until ${till.hour} in the afternoon, or from ${from.hour} at night until ${till.hour} in the morning?`;
  }
  // "from 7 to 9": 07:00–09:00 or 19:00–21:00, both a usual watch and nothing said picks one — asked
  if (
    from.hour >= 6 &&
    till.hour <= 11 &&
    from.hour < till.hour &&
    nowHour < till.hour &&
    !/\b(work|school|office|shift|morning|afternoon|evening|night|breakfast|dinner|am|pm)\b/.test(text)
  ) {
    const [a, b] = [saidClock(from.hour, from.minute), saidClock(till.hour, till.minute)];
    return `From ${a} until ${b} in the morning, or from ${a} until ${b} in the evening?`;
  }
  return undefined;
}

/**
 * "sunday from 8 to 10", "from 7 to 9 on monday": on a weekday still to come both halves of the day
 * are ahead, 08:00–10:00 and 20:00–22:00 both a usual watch, and nothing said picks one — asked, as "from 7 to 9"
 * said before 9 today is (see docs/decisions.md, "Before round T: times"). A range that crosses noon ("from 9 to 5")
 * stays the day's.
 */
const WEEKDAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun';

function findOpenLaterDayHalf(from: BareHour, till: BareHour, text: string): string | undefined {
  if (from.hour === undefined || till.hour === undefined || from.around || till.around) return undefined;
  if (from.hour < 6 || till.hour > 11 || from.hour >= till.hour) return undefined;
  // (said as a range with "from" on a named weekday; "tomorrow from 9 to 11" and "sunday 9 to 11" stay the day's
  // hours, as tests/agent/before-s-time.test.ts and tests/agent/before-s-probe.test.ts hold)
  if (!/\bfrom \S+ (?:to|till|til|until|-) /.test(text) || !new RegExp(`\\b(${WEEKDAYS})\\b`).test(text)) return undefined;
  if (/\b(work|school|office|shift|morning|afternoon|evening|night|tonight|today|breakfast|dinner|am|pm|noon|midnight)\b/.test(text)) return undefined;
  const [a, b] = [saidClock(from.hour, from.minute), saidClock(till.hour, till.minute)];
  return `From ${a} until ${b} in the morning, or from ${a} until ${b} in the evening?`;
}
