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
