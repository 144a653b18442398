/**
 * A range whose two ends each carry their own day: "from 6 today until 9 tomorrow", "8pm tonight till 7am tomorrow",
 * "today 9 until tomorrow 5", "from 10 tonight to 6 tomorrow morning". chrono reads "from 6 today" alone (06:00) and
 * "tomorrow" alone, so the end's day moved the whole window or the end fell before its start. Each end keeps its own
 * day: the start today (its hour's next occurrence after now, or the evening's after "tonight"), the end tomorrow.
 * Read only when the end on the clock face comes before the start (the window crosses midnight once) and a bare end
 * hour has one sensible reading: the morning's, at most 16 hours after the start. Any other shape is left to the
 * usual rules, which ask. See docs/decisions.md, "Before round T: times".
 */

const CONNECTORS = new Set(['until', 'till', 'til', 'to', '-', 'through']);
const TODAY = new Set(['today', 'tonight']);
const PARTS: Record<string, 'am' | 'pm'> = { morning: 'am', afternoon: 'pm', evening: 'pm' };
const LONGEST_MINUTES = 16 * 60;

interface Clock {
  hour: number;
  minute: number;
  meridiem?: 'am' | 'pm';
  /** Index of the clock's last word (its am/pm when said). */
  last: number;
}

/** A clock at words[i]: "6", "6:30", "18:00", "6pm", or with "am"/"pm" after it. */
function readClock(words: string[], i: number): Clock | undefined {
  const m = /^(\d{1,2})(?::(\d\d))?(am|pm)?$/.exec(words[i] ?? '');
  if (!m) return undefined;
  const [hour, minute] = [Number(m[1]), Number(m[2] ?? 0)];
  if (hour > 23 || minute > 59) return undefined;
  const said = m[3] ?? words[i + 1];
  if (m[3]) return hour >= 1 && hour <= 12 ? { hour, minute, meridiem: m[3] as 'am' | 'pm', last: i } : undefined;
  if (said === 'am' || said === 'pm') return hour >= 1 && hour <= 12 ? { hour, minute, meridiem: said, last: i + 1 } : undefined;
  return { hour, minute, last: i };
}

/** An end said as a day word and a clock, either order: "today 9", "9 today"; its clock and last word's index. */
function readDayClock(words: string[], i: number, days: Set<string>): { clock: Clock; day: string; last: number } | undefined {
  if (days.has(words[i] ?? '')) {
    const clock = readClock(words, i + 1);
    return clock && { clock, day: words[i], last: clock.last };
  }
  const clock = readClock(words, i);
  if (!clock || !days.has(words[clock.last + 1] ?? '')) return undefined;
  return { clock, day: words[clock.last + 1], last: clock.last + 1 };
}

/** Minutes after midnight of a clock, its half settled; undefined when the half is not certain. */
function minutesOf(c: Clock, meridiem: 'am' | 'pm' | undefined): number | undefined {
  if (c.hour > 12 || (c.hour === 0 && !c.meridiem)) return c.hour * 60 + c.minute;
  const half = c.meridiem ?? meridiem;
  if (!half) return undefined;
  return ((c.hour % 12) + (half === 'pm' ? 12 : 0)) * 60 + c.minute;
}

/** The start's minutes today: said, the evening's after "tonight" (5 to 11), or a bare hour's next occurrence after now. */
function startMinutes(c: Clock, day: string, nowMinutes: number): number | undefined {
  if (c.meridiem || c.hour > 12) return minutesOf(c, undefined);
  if (day === 'tonight') return c.hour >= 5 && c.hour <= 11 ? minutesOf(c, 'pm') : undefined;
  const morning = minutesOf(c, 'am')!;
  // (both halves still ahead: "from 9 today" said at 08:00 is either; left to the usual rules)
  if (c.hour === 12 || c.hour === 0 || morning > nowMinutes) return undefined;
  return minutesOf(c, 'pm');
}

function clockText(minutes: number): string {
  const [hour, minute] = [Math.floor(minutes / 60), minutes % 60];
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${h12}${minute ? `:${String(minute).padStart(2, '0')}` : ''}${hour >= 12 ? 'pm' : 'am'}`;
}

/**
 * The range at words[i] ("6 today until 9 tomorrow", after any "from") rewritten for chrono as "6pm to saturday 9am",
 * and the index of its last word; undefined when the words are not that shape or their reading is not certain.
 * `nowMinutes`: the local time now, in minutes after midnight; `tomorrow`: tomorrow's weekday name, which dates the end
 * alone ("6pm to saturday 9am"), so that the "today" of the start is not taken for the end's day.
 */
export function readDayEndedRange(words: string[], i: number, nowMinutes: number, tomorrow: string): { text: string; end: number } | undefined {
  const start = readDayClock(words, i, TODAY);
  if (!start || !CONNECTORS.has(words[start.last + 1] ?? '')) return undefined;
  const end = readDayClock(words, start.last + 2, new Set(['tomorrow']));
  if (!end) return undefined;
  const from = startMinutes(start.clock, start.day, nowMinutes);
  if (from === undefined || from <= nowMinutes) return undefined;
  let last = end.last;
  const part = PARTS[words[last + 1] ?? ''];
  if (part && words[last] === 'tomorrow') last++;
  let to = minutesOf(end.clock, part);
  // a bare end hour: the morning's when that makes the window cross one night (at most 16 hours)
  if (to === undefined) {
    const morning = minutesOf(end.clock, 'am')!;
    to = end.clock.hour !== 12 && morning + 24 * 60 - from <= LONGEST_MINUTES ? morning : undefined;
  }
  if (to === undefined || to >= from) return undefined;
  return { text: `${clockText(from)} to ${tomorrow} ${clockText(to)}`, end: last };
}
