import type { findTimePhrase } from '../../../platform/language/index.ts';
import { atZonedTime, formatMoment, startOfZonedDay, addZonedDays } from '../../../platform/time/index.ts';

/**
 * "most vehicles overnight, since 10pm?", "this morning from 6", "last night after 11": a part of the
 * day and a clock inside it name one span, the clock refining the part (from it on after "since",
 * "from", "after"; up to it after "before", "until", "till"). Read only where the shared reader
 * found two times (or a moment) in them; a clock outside the part, or one that fits it twice, is
 * left as it was read, and asked back (docs/decisions.md, "Round T: scene questions").
 */
const CLOCK_CLAUSE = /,?\s*\b(since|from|after|before|until|till)\s+(\d{1,2})(?::(\d{2}))?\s*(am|pm)?(?![\d:])/;
const DAY_PART_WORD = /\b(?:overnight|tonight|morning|afternoon|evening|night)\b/;
const STARTS_AT = new Set(['since', 'from', 'after']);

type Found = ReturnType<typeof findTimePhrase>;

/** The instants in [from, to] with this wall clock (12-hour clocks without am or pm fit either half of the day). */
function clockInSpan(from: number, to: number, hour: number, minute: number, half: string | undefined, timeZone: string): number[] {
  const h = hour % 12;
  const hours = half === 'pm' ? [h + 12] : half === 'am' ? [h] : hour > 12 || hour === 0 ? [hour] : [h, h + 12];
  const days = [startOfZonedDay(from, timeZone), startOfZonedDay(addZonedDays(from, 1, timeZone), timeZone)];
  const found = days.flatMap((day) => hours.map((hh) => atZonedTime(day, hh, minute, timeZone))).filter((t) => t >= from && t <= to);
  return [...new Set(found)];
}

/**
 * The one span a day part and a clock inside it name, or undefined. `read` is the question's own
 * reader of a time phrase, given the text without the clock clause (it reads the day part).
 */
export function readDayPartClock(text: string, found: Found, now: number, timeZone: string, read: (text: string) => Found): Found | undefined {
  const said = found.phrase;
  const twoTimes = said.kind === 'several' || (said.kind === 'point' && DAY_PART_WORD.test(said.phrase));
  const m = CLOCK_CLAUSE.exec(text);
  if (!twoTimes || !m || !DAY_PART_WORD.test(text)) return undefined;
  const part = read(`${text.slice(0, m.index)} ${text.slice(m.index + m[0].length)}`);
  if (part.phrase.kind !== 'range' || !DAY_PART_WORD.test(part.phrase.phrase)) return undefined;
  const { from, to } = part.phrase;
  const hour = Number(m[2]);
  const minute = m[3] === undefined ? 0 : Number(m[3]);
  if (hour > 23 || minute > 59) return undefined;
  const fits = clockInSpan(from, to, hour, minute, m[4], timeZone);
  if (fits.length !== 1) return undefined;
  const [a, b] = STARTS_AT.has(m[1]) ? [fits[0], to] : [from, fits[0]];
  if (a >= b) return undefined;
  const label = `from ${formatMoment(a, timeZone, now)} to ${formatMoment(b, timeZone, now)}`;
  return { phrase: { kind: 'range', from: a, to: b, label, phrase: `${part.phrase.phrase}, ${m[0].replace(/^,?\s*/, '')}` }, remainder: part.remainder };
}
