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
import { readHourWord } from './spoken-clock.ts';
import { parseWeekday } from './primitives.ts';

interface BareHour {
  kind: 'clock' | 'sun';
  hour?: number;
  meridiemCertain?: boolean;
  dateOnly?: boolean;
  around?: boolean;
  role: string;
}

const RANGE_STARTS = new Set(['from', 'between']);
const RANGE_ENDS = new Set(['to', 'till', 'til', 'until', 'and', '-']);
const DAY_PART_WORDS = new Set(['morning', 'afternoon', 'evening', 'night', 'tonight', 'overnight', 'nights', 'nightly', 'am', 'pm', 'noon', 'midnight']);

function isDayWord(w: string): boolean {
  return w === 'tomorrow' || w === 'tmrw' || w === 'today' || parseWeekday(w) !== undefined;
}

/** Where "from <h1> to <h2>" is said in tokens[from, to): the index of the start hour and of the end hour. */
function findBareRange(tokens: Token[], from: number, to: number, startHour: number, endHour: number): { start: number; end: number } | undefined {
  for (let i = from; i + 3 < to + 1; i++) {
    if (!RANGE_STARTS.has(tokens[i].text)) continue;
    if (readHourWord(tokens[i + 1]?.text) !== startHour || !RANGE_ENDS.has(tokens[i + 2]?.text ?? '')) continue;
    if (readHourWord(tokens[i + 3]?.text) !== endHour) continue;
    return { start: i + 1, end: i + 3 };
  }
  return undefined;
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
  const at = findBareRange(tokens, from, to, start.hour, end.hour);
  if (!at) return undefined;
  const words = tokens.slice(from, to).map((t) => t.text);
  if (words.some((w) => DAY_PART_WORDS.has(w))) return undefined;
  const before = tokens.slice(from, at.start).some((t) => isDayWord(t.text));
  const after = tokens.slice(at.end + 1, to).some((t) => isDayWord(t.text));
  // "tomorrow from 8 till 6", "on thursday from 9 to 5": that day's daytime
  if (before) return undefined;
  // "from 10 till 6": the night's reading runs until the morning, a whole night's watch, and is
  // taken; one that stops in the small hours ("from 10 to 2") is no likelier than the midday one
  if (end.hour >= 5 && !after) return undefined;
  const pad = (h: number) => `${String(h).padStart(2, '0')}:00`;
  const day = after ? ` ${tokens.slice(at.end + 1, to).find((t) => isDayWord(t.text))?.text}` : '';
  return `"From ${start.hour} to ${end.hour}${day}" could be ${pad(start.hour)} to ${pad(end.hour + 12)}${day}, or ${pad(start.hour + 12)} to ${pad(end.hour)} overnight.`;
}
