import type { Token } from './query-tokenizer.ts';
import type { WordRole } from './query-vocabulary.ts';

/**
 * The coverage rule of the scene interpreter (docs/decisions.md, "Scene questions: coverage
 * before an answer"): a reading answers only when it accounts for every word that could change
 * the answer. The read stage consumes what it understands (the time phrase, comparisons such as
 * "more than 5" and "than usual", fixed expressions, vocabulary words); what is left must be
 * known filler. A word that carries a time, a number, a comparison, an object or a question,
 * left over, means part of the question was not read: the interpreter then says what it did
 * understand and what it did not, and answers nothing.
 */

/**
 * Filler words that are filler only once their phrase has been read: "since", "before",
 * "between" left over mean a time phrase was not understood ("since before lunch"); "more",
 * "than", "less" left over mean a comparison was not ("more people now than an hour ago").
 */
const TIME_CONNECTIVES = ['since', 'before', 'after', 'until', 'till', 'between', 'during', 'from', 'ago'];
const TIME_UNITS = ['hour', 'hours', 'minute', 'minutes', 'second', 'seconds'];
const COMPARISON_WORDS = ['more', 'less', 'than', 'longer', 'long', 'other', 'same', 'every', 'each'];

/** The words that decide an answer, left over after reading: what was not understood. */
export function leftoverActionWords(tokens: readonly Token[], roles: ReadonlySet<WordRole>, consumed: ReadonlySet<number> = new Set()): string[] {
  const out: string[] = [];
  tokens.forEach((t, i) => {
    if (consumed.has(i)) return;
    const onlyFiller = t.roles.size === 1 && t.roles.has('filler');
    if (!onlyFiller) return;
    // "how many minutes has he been here": a unit of the stay asked about
    if (TIME_UNITS.includes(t.word) && roles.has('dwell')) return;
    if (TIME_CONNECTIVES.includes(t.word) || TIME_UNITS.includes(t.word) || COMPARISON_WORDS.includes(t.word)) out.push(t.word);
  });
  return out;
}

const SUBJECTS: Array<[WordRole, string]> = [
  ['animals', 'animals'],
  ['unrecognized', 'unrecognized people'],
  ['loitering', 'people loitering'],
  ['anomaly', 'unusual activity'],
  ['vehicles', 'vehicles'],
  ['crowd', 'how crowded it is'],
  ['people', 'people'],
  ['activity', 'what happened'],
];
const ASKS: Array<[WordRole, (subject: string) => string]> = [
  ['first', (s) => `when the first ${s} were seen`],
  ['last', (s) => `when ${s} were last seen`],
  ['dwell', (s) => `how long ${s} stayed`],
  ['peak', (s) => `the peak of ${s}`],
  ['minimum', (s) => `the lowest count of ${s}`],
  ['average', (s) => `the average of ${s}`],
  ['departures', (s) => `${s} leaving`],
  ['arrivals', (s) => `${s} arriving`],
  ['trend_up', (s) => `whether ${s} are rising`],
  ['trend_down', (s) => `whether ${s} are falling`],
  ['trend', (s) => `the trend of ${s}`],
  ['empty', () => `whether it is empty`],
  ['count', (s) => `the number of ${s}`],
  ['presence', (s) => `whether there are any ${s}`],
];

/**
 * What a reading understood, in words, for a refusal: "a question about the peak of vehicles in
 * the parking lot since 09:00". Built from the roles the read stage found, so it never claims
 * more than was read.
 */
export function describeUnderstood(roles: ReadonlySet<WordRole>, place: string, timeLabel: string | undefined): string {
  const subject = SUBJECTS.find(([r]) => roles.has(r))?.[1];
  const ask = ASKS.find(([r]) => roles.has(r))?.[1];
  const about = ask ? ask(subject ?? 'people or vehicles') : subject;
  const when = timeLabel ?? (roles.has('current') ? 'now' : undefined);
  return `a question about ${about ?? 'this scene'} in the ${place}${when ? ` ${when}` : ''}`;
}

/** The refusal the coverage rule gives: what was understood, what was not, and what to do. */
export function notCoveredReason(understood: string, leftover: readonly string[]): string {
  const words = leftover.map((w) => `"${w}"`).join(', ');
  const time = leftover.some((w) => TIME_CONNECTIVES.includes(w) || TIME_UNITS.includes(w));
  const comparison = leftover.some((w) => COMPARISON_WORDS.includes(w));
  const hint = time
    ? 'name the time plainly, e.g. "since 9am", "between 2 and 3pm" or "in the last 30 minutes"'
    : comparison
      ? 'compare with a number or with usual, e.g. "more than 5 people since 9am?" or "busier than usual?"'
      : 'ask it in other words, like the examples';
  return `I understood ${understood}, but not ${words}, so I have not answered; ${hint}.`;
}
