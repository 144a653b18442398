/**
 * An answer that only picks a half of the day, said to the agent's am/pm question ("From 7 until 9 in the morning,
 * or from 7 until 9 in the evening?" — "evening"; "… (say am or pm)?" — "pm please"; "the night one", "the first
 * one"). Read here as the half of the day the request's first clock is in; the planner joins it to the request
 * asked about (offline-planner.ts, answerDayHalf; docs/decisions.md, "Before round S: follow-ups").
 */

/** Words that pick the first reading offered (the daytime / morning one). */
const DAY_WORDS =
  /^(?:am|a\.m\.?|morning|in the morning|early morning|early in the morning|the morning(?: one)?|day|daytime|day ?time|during the day|in the day|the day(?: one)?|the daytime one|the first(?: one)?|first(?: one)?)$/;
/** Words that pick the second reading offered (the evening / night one). */
const NIGHT_WORDS =
  /^(?:pm|p\.m\.?|evening|in the evening|the evening(?: one)?|night|at night|the night(?: one)?|nighttime|night ?time|overnight|the overnight one|afternoon|in the afternoon|the afternoon(?: one)?|the second(?: one)?|second(?: one)?|the last one|the later one)$/;
/** Words that are about the morning or the afternoon of the end in an overnight question, so ambiguous there. */
const END_PART_WORDS = /\b(?:morning|afternoon)\b/;
const FILLER =
  /^(?:(?:oh|ah|um+|hm+|ok(?:ay)?|sorry|yes|yeah|yep|no|nope|nah|actually|i meant?|i mean|it's|its|it is|the|make it|please)[\s,]+)*|(?:[\s,.]+(?:please|thanks|thank you|cheers|one|mate|obviously|of course|i mean|i meant|sorry|then|is what i meant|is what i mean|i think))*[\s.!]*$/g;

/**
 * 'am' or 'pm' for the request's first clock, when the message says only a half of the day; undefined otherwise.
 * `overnight` (the end's hour comes before the start's, "from 9 to 5"): "morning" and "afternoon" may name the end's
 * half there, so they pick nothing.
 */
export function readDayHalfAnswer(message: string, overnight: boolean): 'am' | 'pm' | undefined {
  const text = message
    .trim()
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(FILLER, '')
    .trim();
  if (!text || (overnight && END_PART_WORDS.test(text))) return undefined;
  if (DAY_WORDS.test(text)) return 'am';
  if (NIGHT_WORDS.test(text)) return 'pm';
  return undefined;
}

/** A half of the day named in a short answer ("early doors morning-ish"), read or not. */
const NAMES_A_HALF = /\b(?:am|pm|a\.m|p\.m|morning|mornings|evening|evenings|night|nights|afternoon|arvo|daytime|overnight)\b/;

/**
 * A short answer without a clock of its own that names a half of the day, whether or not it reads as one: after an
 * am/pm question it answers that question, so one not read is asked again, never joined to the request some other way
 * (offline-planner.ts, answerDayHalf).
 */
export function namesADayHalf(message: string): boolean {
  const text = message.trim().toLowerCase();
  return !/\d/.test(text) && text.split(/\s+/).length <= 6 && NAMES_A_HALF.test(text);
}
