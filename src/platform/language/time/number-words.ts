/**
 * Amounts said in words, for durations and counts: "ninety", "forty-five" (split by the tokenizer
 * into "forty" "five"), "twenty five", "a hundred and twenty", "one hundred fifty". And the vague
 * counts ("a few", "several", "some") that say no number at all: a watch never picks one for them,
 * the agent asks. See docs/decisions.md, "Round I: the time grammar".
 */
import type { Token } from '../normalize.ts';

/** The numbers one to nineteen said in words. */
export const SMALL_NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
/** "twenty" to "ninety". */
export const TENS_WORDS: Readonly<Record<string, number>> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };

/** The hours of a clock said in words, "one" to "twelve" (in that order: regular expressions are built from the keys). */
export const HOUR_WORDS: Readonly<Record<string, number>> = Object.fromEntries(Object.entries(SMALL_NUMBER_WORDS).filter(([, n]) => n <= 12));

/** "forty five", "ninety", "seven": a number under a hundred said in words at words[i]. */
function readBelowHundred(words: readonly string[], i: number): { value: number; length: number } | undefined {
  const w = words[i];
  if (w === undefined) return undefined;
  if (w in TENS_WORDS) {
    const unit = SMALL_NUMBER_WORDS[words[i + 1] ?? ''];
    return unit !== undefined && unit < 10 ? { value: TENS_WORDS[w] + unit, length: 2 } : { value: TENS_WORDS[w], length: 1 };
  }
  return w in SMALL_NUMBER_WORDS ? { value: SMALL_NUMBER_WORDS[w], length: 1 } : undefined;
}

/**
 * A whole number said in words at words[i] ("ninety", "forty five", "a hundred and twenty", "two
 * hundred"), with the number of words read; undefined when there is none. "a" alone is no number here.
 */
export function readNumberWords(words: readonly string[], i: number): { value: number; length: number } | undefined {
  const w = words[i];
  const hundredAt =
    w === 'hundred' ? i : words[i + 1] === 'hundred' && (w === 'a' || w === 'one' || (SMALL_NUMBER_WORDS[w ?? ''] ?? 10) < 10) ? i + 1 : undefined;
  if (hundredAt === undefined) return readBelowHundred(words, i);
  const hundreds = w === 'a' || w === 'hundred' ? 1 : SMALL_NUMBER_WORDS[w!];
  const and = words[hundredAt + 1] === 'and' ? 1 : 0;
  const rest = readBelowHundred(words, hundredAt + 1 + and);
  if (!rest) return { value: hundreds * 100, length: hundredAt - i + 1 };
  return { value: hundreds * 100 + rest.value, length: hundredAt - i + 1 + and + rest.length };
}

/** Units a vague count is said of ("a few nights", "several hours"). */
const VAGUE_UNITS = new Set(['nights', 'evenings', 'days', 'hours', 'hrs', 'minutes', 'mins', 'weeks']);

/**
 * "(for) (the next) a few nights", "several hours", "some more minutes" at tokens[i]: a count the
 * words do not give. Returns the question to ask and the tokens it covers, or undefined. "a couple
 * of" is two and is not vague.
 */
export function readVagueCount(tokens: Token[], i: number, to: number): { question: string; first: number; last: number } | undefined {
  const w = tokens[i]?.text;
  if (w !== 'few' && w !== 'several' && w !== 'some') return undefined;
  let last = i + 1;
  if (tokens[last]?.text === 'more') last++;
  const saidUnit = tokens[last]?.text ?? '';
  if (last >= to || !VAGUE_UNITS.has(saidUnit)) return undefined;
  const unit = saidUnit === 'hrs' ? 'hours' : saidUnit === 'mins' ? 'minutes' : saidUnit;
  let first = i;
  if (w === 'few' && tokens[first - 1]?.text === 'a') first--;
  // "in the last few hours" is said of the past, which another reader answers
  if (['last', 'past'].includes(tokens[first - 1]?.text ?? '')) return undefined;
  if (tokens[first - 1]?.text === 'next') first--;
  if (tokens[first - 1]?.text === 'the') first--;
  if (['for', 'over', 'by', 'in'].includes(tokens[first - 1]?.text ?? '')) first--;
  let from = first;
  while (['for', 'over', 'by', 'in', 'the'].includes(tokens[from].text)) from++;
  const said = tokens
    .slice(from, last + 1)
    .map((t) => t.text)
    .join(' ');
  const example = `for ${unit === 'days' || unit === 'weeks' ? 2 : 3} ${unit}`;
  return { question: `How many ${unit} do you mean by "${said}"? Tell me a number, for example "${example}".`, first, last };
}
