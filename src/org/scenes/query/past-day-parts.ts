import { findTimePhrase } from '../../../platform/language/index.ts';
import { overnightSpan } from '../../../platform/language/time/overnight.ts';
import { formatMoment } from '../../../platform/time/index.ts';

/**
 * "how long was the person here in the night?", "did anyone come in during the evening?": a part of
 * the day after "in the", "during the" or "over the", in a question about the past, is the last such
 * part that has begun, not today's when it is still to come. The night is the one just past or the one
 * in progress (overnight.ts), said as "last night" or "the night so far"; the morning, afternoon or
 * evening not yet begun today is yesterday's, said as such. A present or future question ("is anyone
 * here in the evening?") is left to the shared reader, which asks back (docs/decisions.md, "Round R:
 * scene questions").
 */
const DAY_PART = /\b(?:in|during|over)\s+the\s+(morning|afternoon|evening|night)\b/;
const PAST_TENSE = /\b(?:was|were|did|came)\b/;

type Found = ReturnType<typeof findTimePhrase>;

/** The part of the day the past-tense question means, or undefined when the shared reader already reads it. */
export function readPastDayPart(text: string, now: number, timeZone: string): Found | undefined {
  const m = DAY_PART.exec(text);
  if (!m) return undefined;
  // the shared reader reads "in the night" itself, without the question's tense (past-range.ts): here the tense decides
  const found = findTimePhrase(text, { now, timeZone });
  const nightRead = m[1] === 'night' && found.phrase.kind === 'range';
  const rest = `${text.slice(0, m.index)}${' '.repeat(m[0].length)}${text.slice(m.index + m[0].length)}`;
  // only where the shared reader would say it is still to come (or reads the night), and it is the question's one time
  if (found.phrase.kind !== 'future' && !nightRead) return undefined;
  const other = findTimePhrase(rest, { now, timeZone }).phrase;
  // ("in the night on monday": which night that is, the one before or after, is asked back)
  if (other.kind !== 'none')
    return nightRead && 'phrase' in other ? { phrase: { kind: 'several', phrases: [m[0], other.phrase] }, remainder: rest } : undefined;
  // "will anyone be here in the night": a night to come, asked back as the future
  if (!PAST_TENSE.test(text)) return nightRead ? { phrase: { kind: 'future', phrase: m[0] }, remainder: rest } : undefined;
  const part = m[1];
  if (part === 'night') {
    const span = overnightSpan(now, timeZone);
    const which = span.to >= now ? 'the night so far' : 'last night';
    const label = `${which} (${formatMoment(span.from, timeZone, now)} to ${formatMoment(span.to, timeZone, now)})`;
    return { phrase: { kind: 'range', from: span.from, to: span.to, label, phrase: m[0] }, remainder: rest };
  }
  const yesterday = findTimePhrase(`yesterday ${part}`, { now, timeZone }).phrase;
  if (yesterday.kind !== 'range') return undefined;
  return { phrase: { ...yesterday, phrase: m[0] }, remainder: rest };
}
