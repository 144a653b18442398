import { findTimePhrase } from '../../../platform/language/index.ts';

/**
 * Questions that compare two times (docs/decisions.md, "Scene questions: coverage before an
 * answer"): "compare this morning with yesterday morning", "how does today compare to
 * yesterday", "busier today than yesterday?", "more people now than an hour ago?". Each side is
 * read by the shared time reader on its own; the words that are neither time nor connective are
 * left for the ordinary reading (what is compared: people or vehicles), so the coverage rule
 * still sees every one of them.
 */

type TimePhrase = ReturnType<typeof findTimePhrase>['phrase'];

export interface Side {
  from: number;
  to: number;
  label: string;
  phrase?: string;
}

export interface ComparisonOfTimes {
  first: Side;
  second: Side;
  /** the words left for the ordinary reading ("the number of cars") */
  rest: string;
  /** "busier … than": the direction a yes/no question asks about */
  direction?: 'up' | 'down';
}

const UP = new Set(['more', 'busier', 'fuller', 'higher', 'bigger', 'heavier', 'greater']);
const DOWN = new Set(['fewer', 'less', 'quieter', 'emptier', 'calmer', 'lower', 'smaller', 'lighter']);

const COMPARE_PATTERNS: RegExp[] = [
  // "compare this morning with yesterday", "compare cars today and yesterday"
  /^(?<lead>.*?)\b(?:compare|compared|comparing)\b(?<a>.+?)\b(?:with|to|against|and|vs|versus)\b(?<b>.+)$/,
  // "how does today compare with yesterday", "how did this morning compare to yesterday morning"
  /^(?<lead>.*?)\b(?:how|what)\s+(?:does|did|do|is|was)\b(?<a>.+?)\bcompare(?:d)?\s+(?:with|to|against)\b(?<b>.+)$/,
  // "today vs yesterday", "this morning versus yesterday morning"
  /^(?<lead>)(?<a>.+?)\b(?:vs|versus|compared to|compared with)\b(?<b>.+)$/,
];
/** "busier today than yesterday", "more people now than an hour ago" */
const THAN_PATTERN =
  /^(?<lead>.*?)\b(?<word>more|fewer|less|busier|quieter|fuller|emptier|calmer|higher|lower|bigger|smaller|heavier|lighter|greater)\b(?<a>.*?)\bthan\b(?<b>.+)$/;

/**
 * "more people at 10am or 2pm?", "was it busier in the morning or the afternoon?": which of two
 * times, asked with a comparative word and "or"; answered as a comparison with no direction, so
 * never a yes or a no (docs/decisions.md, "Before round Q: scene questions")
 */
const EITHER_PATTERN =
  /^(?<lead>.*?)\b(?:more|fewer|less|busier|quieter|fuller|emptier|calmer|higher|lower|bigger|smaller|heavier|lighter|greater)\b(?<a>.+?)\bor\b(?<b>.+)$/;

function side(phrase: TimePhrase, now: number, nowWord: boolean): Side | undefined {
  if (phrase.kind === 'range') return { from: phrase.from, to: phrase.to, label: phrase.label, phrase: phrase.phrase };
  if (phrase.kind === 'point') return { from: phrase.at, to: phrase.at, label: phrase.label, phrase: phrase.phrase };
  if (phrase.kind === 'none' && nowWord) return { from: now, to: now, label: 'now' };
  return undefined;
}

const NOW_WORDS = /\b(?:now|right now|currently|at the moment|at present)\b/;
/** The second side is now only when it says nothing but that: "than it is now", "than now", "than right now". */
const NOW_SIDE = /^\s*(?:(?:it|there|things|they)\s+(?:is|are)\s+)?(?:right\s+)?(?:now|currently|at the moment|at present)\s*$/;

/**
 * Two times compared, or undefined when the question is not such a comparison (one time or
 * none, or a side that is not a time: "busier than usual" is read elsewhere).
 */
export function readTimeComparison(text: string, scope: { now: number; timeZone: string }): ComparisonOfTimes | undefined {
  let match: RegExpExecArray | null = null;
  let direction: 'up' | 'down' | undefined;
  let word = '';
  for (const pattern of COMPARE_PATTERNS) {
    match = pattern.exec(text);
    if (match) break;
  }
  if (!match) {
    match = THAN_PATTERN.exec(text);
    if (match) {
      word = match.groups!.word;
      direction = UP.has(word) ? 'up' : DOWN.has(word) ? 'down' : undefined;
    } else {
      match = EITHER_PATTERN.exec(text);
      if (!match) return undefined;
    }
  }
  const { lead, a, b } = match.groups as { lead: string; a: string; b: string };
  const left = findTimePhrase(a, scope);
  const right = findTimePhrase(b, scope);
  // "more than usual", "than before": not two times
  if (left.phrase.kind === 'several' || right.phrase.kind === 'several' || (right.phrase.kind === 'none' && !NOW_SIDE.test(b))) return undefined;
  const leadTime = findTimePhrase(lead, scope);
  // "busier today than yesterday": the first time may sit before the comparative word
  // "is it busier than yesterday?", "are there more people than an hour ago?": asked in the
  // present tense with no first time, the first time is now (the past tense says no time: refused)
  const said = `${lead} ${a}`;
  // ("how does it compare with yesterday at the same time?": "does" is the present tense too)
  const presentTense = /\b(?:is|are|am|does|do)\b/.test(said) && !/\b(?:was|were|did|had|been)\b/.test(said);
  const first =
    side(left.phrase, scope.now, NOW_WORDS.test(a) || (presentTense && leadTime.phrase.kind === 'none')) ??
    side(leadTime.phrase, scope.now, NOW_WORDS.test(lead));
  // "was it busier at noon than it is now?": now is the second time
  const second = side(right.phrase, scope.now, right.phrase.kind === 'none' && NOW_SIDE.test(b));
  if (!first || !second) return undefined;
  const usedLead = left.phrase.kind === 'none' && leadTime.phrase.kind !== 'none';
  const strip = (s: string) => s.replace(NOW_WORDS, ' ');
  // the comparative word and the connectives are consumed here; what is compared is what is left
  const rest = [usedLead ? leadTime.remainder : lead, strip(left.remainder), NOW_SIDE.test(b) ? '' : strip(right.remainder)]
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return { first, second, rest, ...(direction ? { direction } : {}) };
}
