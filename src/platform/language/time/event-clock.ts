/**
 * A range's start said as an event with its clock: "after work at 5:30 until midnight", "once the shop shuts at 7 till
 * 8 tomorrow morning", "from when I leave at 6 to 7 tomorrow morning". The clock inside the event is the start; the
 * event's words are no time of their own and no request. Read only when the range's end word follows the clock, so
 * that the clock is plainly the start; an event without a clock is left to be asked. An end said the same way ("till
 * Mum gets home at 9:30", "until the kids wake up around 8") ends at its clock. A place's closing or opening time
 * is ./business-hours.ts's. See docs/decisions.md, "Before round T: times".
 */

const OPENERS = new Set(['from', 'after', 'since', 'once', 'starting']);
const END_WORDS = new Set(['until', 'till', 'til', 'to', 'through']);
/** Words that are times, days or clause glue themselves: never an event's. */
const NOT_EVENT =
  /^(?:\d.*|today|tonight|tomorrow|yesterday|morning|afternoon|evening|night|noon|midday|midnight|now|then|dusk|dawn|sunset|sunrise|dark|light|am|pm|and|or|but|until|till|til|to|through|at|for|in|on|every|each|next|this|last|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|week|day|days|hour|hours|minutes?)$/;
const MOST_EVENT_WORDS = 5;

/** The clock of an event's "at 5:30" at words[i] (just after the opener), for chrono, and its last word's index. */
export function readEventClock(words: string[], i: number): { text: string; end: number } | undefined {
  if (['until', 'till', 'til'].includes(words[i - 1] ?? '')) return readEventEnd(words, i);
  if (!OPENERS.has(words[i - 1] ?? '')) return undefined;
  // ("from the porch at 6 until 9": after "from" a place may follow; an event there is said with "when")
  if (['from', 'starting'].includes(words[i - 1]) && words[i] !== 'when') return undefined;
  let j = i;
  while (j < i + MOST_EVENT_WORDS && words[j] !== 'at' && /^[a-z']+$/.test(words[j] ?? '') && !NOT_EVENT.test(words[j])) j++;
  if (j === i || words[j] !== 'at') return undefined;
  const clock = /^(\d{1,2})(?::([0-5]\d))?(am|pm)?$/.exec(words[j + 1] ?? '');
  if (!clock || Number(clock[1]) > 23) return undefined;
  const meridiem = !clock[3] && ['am', 'pm'].includes(words[j + 2] ?? '') ? words[j + 2] : '';
  const last = meridiem ? j + 2 : j + 1;
  if (!END_WORDS.has(words[last + 1] ?? '')) return undefined;
  // "once we shut at 7 until 8 tomorrow morning": an evening hour before an end on the next day is the evening's
  const hour = Number(clock[1]);
  const evening = !clock[3] && !meridiem && hour >= 5 && hour <= 11 && words.slice(last + 2, last + 5).includes('tomorrow');
  return { text: `${words[j + 1]}${meridiem}${evening ? 'pm' : ''}`, end: last };
}

/** "till Mum gets home at 9:30": the event's clock (after "at", "around" or "about"), said last in the words. */
function readEventEnd(words: string[], i: number): { text: string; end: number } | undefined {
  let j = i;
  while (j < i + MOST_EVENT_WORDS && !['at', 'around', 'about'].includes(words[j]) && /^[a-z']+$/.test(words[j] ?? '') && !NOT_EVENT.test(words[j])) j++;
  if (j === i || !['at', 'around', 'about'].includes(words[j] ?? '')) return undefined;
  const clock = /^(\d{1,2})(?::([0-5]\d))?(am|pm)?$/.exec(words[j + 1] ?? '');
  if (!clock || Number(clock[1]) > 23) return undefined;
  const meridiem = !clock[3] && ['am', 'pm'].includes(words[j + 2] ?? '') ? words[j + 2] : '';
  const last = meridiem ? j + 2 : j + 1;
  if (last !== words.length - 1) return undefined;
  // "until the kids wake up around 8": waking is the morning's
  const morning = !clock[3] && !meridiem && Number(clock[1]) <= 11 && words.slice(i, j).some((w) => ['wake', 'wakes', 'waking', 'up', 'woken'].includes(w));
  return { text: `at ${words[j + 1]}${meridiem}${morning ? 'am' : ''}`, end: last };
}
