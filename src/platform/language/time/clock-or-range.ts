/**
 * "From ten to midnight": a range (from 10 until midnight) or one clock time (23:50, "ten to
 * midnight"), and nothing else said picks one. Minutes said in words before "to" and an hour
 * ("five", "ten", "twenty", "twenty-five") are how people tell the time, so when the range has no
 * other end ("from ten to seven until nine" is 18:50 to 21:00) both readings stand and the agent
 * asks. Numbers in digits ("from 10 to 6") are a range, as before. See docs/decisions.md,
 * "Round I: the time grammar".
 */
import type { Token } from '../normalize.ts';
import { readHourWord } from './spoken-clock.ts';

interface ClockAnchor {
  kind: 'clock' | 'sun';
  hour?: number;
  minute?: number;
  role: string;
}

const MINUTE_WORDS: Record<string, number> = { five: 5, ten: 10, twenty: 20, 'twenty-five': 25 };
const NAMED_HOURS: Record<string, number> = { midnight: 24, noon: 12, midday: 12 };
/** Words after the hour that make "N to H" part of a longer phrase ("ten to seven minutes" is none). */
const NOT_A_CLOCK_AFTER = new Set(['minutes', 'minute', 'mins', 'hours', 'hour', 'hrs', 'past', 'nights', 'days']);

/** The question asking which of the two readings is meant, or undefined when the words settle it. */
export function findClockOrRange(
  tokens: Token[],
  from: number,
  to: number,
  spec: { anchors: ClockAnchor[]; durationMs?: number; recurrence?: string },
): string | undefined {
  const ends = spec.anchors.filter((a) => a.role === 'end');
  const start = spec.anchors.find((a) => a.role === 'start');
  if (ends.length !== 1 || start?.kind !== 'clock' || start.minute !== 0 || spec.durationMs !== undefined || spec.recurrence) return undefined;
  for (let i = from; i + 3 < to + 1; i++) {
    if (tokens[i].text !== 'from') continue;
    const twentyFive = tokens[i + 1]?.text === 'twenty' && tokens[i + 2]?.text === 'five';
    const minutes = twentyFive ? 25 : MINUTE_WORDS[tokens[i + 1]?.text ?? ''];
    const k = i + (twentyFive ? 3 : 2);
    if (minutes === undefined || tokens[k]?.text !== 'to' || k + 1 >= to) continue;
    const hourWord = tokens[k + 1].text;
    const hour = NAMED_HOURS[hourWord] ?? (/^\d/.test(hourWord) ? undefined : readHourWord(hourWord));
    if (hour === undefined || NOT_A_CLOCK_AFTER.has(tokens[k + 2]?.text ?? '')) continue;
    // the range reading is the one read: its start is the minutes word taken as an hour
    if (((start.hour ?? -1) % 12 || 12) !== (minutes % 12 || 12)) continue;
    const at = hour * 60 - minutes;
    const clock = `${Math.floor(at / 60) % 24}:${String(at % 60).padStart(2, '0')}`;
    const said = tokens
      .slice(i + 1, k + 2)
      .map((t) => t.text)
      .join(' ');
    const range = `from ${tokens
      .slice(i + 1, k)
      .map((t) => t.text)
      .join(' ')} until ${hourWord}`;
    return `"${said.charAt(0).toUpperCase()}${said.slice(1)}" could be the clock time ${clock} (from ${clock} on), or the range ${range}.`;
  }
  return undefined;
}

const MINUTE_VALUES = new Set([5, 10, 20, 25]);
/** Words before "N to H" that say which reading is meant: a range ("from 10 to 6", digits) or one time ("until 10 to 7"). */
const SETTLED_BEFORE = new Set(['from', 'between', 'until', 'till', 'til', 'by', 'at', 'before', 'after', 'around', 'about']);

/**
 * A change to a watch's window said as "make it 10 to 7": the clock time 18:50 or the range 10 until
 * 7, with nothing said to pick one. A new watch reads digits as a range (findClockOrRange), but an
 * edit that picked one would silently rewrite a window the user set, so the question is asked.
 */
export function findEditClockOrRange(tokens: Token[]): string | undefined {
  for (let k = 1; k + 1 < tokens.length; k++) {
    if (tokens[k].text !== 'to' || SETTLED_BEFORE.has(tokens[k - 2]?.text ?? '')) continue;
    const first = tokens[k - 1].text;
    const minutes = /^\d{1,2}$/.test(first) ? Number(first) : MINUTE_WORDS[first];
    const hour = readHourWord(tokens[k + 1].text);
    if (minutes === undefined || !MINUTE_VALUES.has(minutes) || hour === undefined || NOT_A_CLOCK_AFTER.has(tokens[k + 2]?.text ?? '')) continue;
    if (/^(am|pm|a\.m\.|p\.m\.|o'clock)$/.test(tokens[k + 2]?.text ?? '')) continue;
    const said = `${first} to ${tokens[k + 1].text}`;
    return `"${said}" could be the time ${hour - 1}:${String(60 - minutes).padStart(2, '0')} or the range from ${first} until ${tokens[k + 1].text}. Which did you mean? I haven't changed anything yet.`;
  }
  return undefined;
}
