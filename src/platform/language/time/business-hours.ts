/**
 * A window's start or end said as a place's closing or opening time: "from closing at 6", "from when we close at 9",
 * "after we shut at 5:30", "until we open at 8". A shop closes in the evening and opens in the morning, so a bare
 * hour from 5 to 11 takes that half of the day; an hour from 12 to 4 is left to the usual rules (a bar closing at 2).
 * See docs/decisions.md, "Round S: times".
 */

const START_OR_END = new Set(['from', 'after', 'since', 'starting', 'until', 'till', 'til', 'to']);
const SUBJECTS = new Set(['we', 'they', 'i', 'you', 'he', 'she', 'it']);
const CLOSING = new Set(['close', 'closes', 'closing', 'shut', 'shuts', 'shutting']);
const OPENING = new Set(['open', 'opens', 'opening']);

/** The clock of a closing or opening time at words[i] (just after its from/until word): its text for chrono and its last word's index. */
export function readBusinessHour(words: string[], i: number): { text: string; end: number } | undefined {
  if (!START_OR_END.has(words[i - 1] ?? '')) return undefined;
  let j = i;
  if (words[j] === 'when') j++;
  if (SUBJECTS.has(words[j] ?? '')) j++;
  else if (words[j] === 'the' && ['shop', 'store', 'office', 'bar', 'cafe', 'pub', 'salon'].includes(words[j + 1] ?? '')) j += 2;
  const verb = words[j] ?? '';
  const evening = CLOSING.has(verb);
  if (!evening && !OPENING.has(verb)) return undefined;
  j++;
  if (words[j] === 'up') j++;
  if (words[j] !== 'at') return undefined;
  const clock = /^(\d{1,2})(:\d\d)?$/.exec(words[j + 1] ?? '');
  if (!clock) return undefined;
  const hour = Number(clock[1]);
  const meridiemSaid = ['am', 'pm'].includes(words[j + 2] ?? '');
  const text = meridiemSaid || hour < 5 || hour > 11 ? words[j + 1] : `${words[j + 1]}${evening ? 'pm' : 'am'}`;
  return { text, end: j + 1 };
}
