/**
 * Turns a typed message into lemmatised tokens: URLs set aside, texting shorthand expanded,
 * typos corrected towards the planner's vocabulary and the household's own room and sensor
 * names, then tokenised and lemmatised by compromise (contractions expanded: "what's" → "what is").
 */
import nlp from 'compromise';
import { distance } from 'fastest-levenshtein';
import { SPELLING_FIXES, STOP_WORDS } from './words.ts';
import { isEnglishWord, isLexiconNoun } from './lexicon/wordnet.ts';
import { writtenClocksAndAmounts } from './written-clocks.ts';
import { readRegionalNoun } from './lexicon/regional.ts';

export interface Token {
  /** Lower-case surface form (contractions expanded). */
  text: string;
  /** Lemma ("watching" → "watch", "cameras" → "camera"); the text when compromise has none. */
  root: string;
  /** Punctuation that ends a clause right after this token. */
  breakAfter: '' | ',' | '.';
  isNoun: boolean;
  isVerb: boolean;
  /**
   * A word no lexicon knows and no correction reached ("zorp"): it may say anything, so a reading
   * that leaves it over is incomplete (docs/decisions.md, "Coverage before action"). Names written
   * with a capital inside a sentence ("Liam", "Porto") are not counted.
   */
  unknown?: boolean;
}

export interface NormalizedMessage {
  tokens: Token[];
  /** URLs found in the message, in order; tokens "url0", "url1"… stand for them. */
  urls: string[];
  /**
   * Typos corrected by spelling distance ("drievway" → "driveway"), in order: the reply says them
   * (see docs/decisions.md, "Round G: words"). Shorthand from the fixed table ("tonite") is not listed.
   */
  corrections?: { from: string; to: string }[];
}

const lexicon = (nlp as unknown as { world(): { model: { one: { lexicon: Record<string, string> } } } }).world().model.one.lexicon;
interface CompromiseTerm {
  text: string;
  normal: string;
  implicit?: string;
  root?: string;
  post?: string;
  tags: Set<string>;
}

/** Texting words and fillers that carry no request ("lol", "yall", "tbh"): known, though no dictionary has them. */
const CHAT_WORDS = new Set([
  'lol',
  'lmao',
  'haha',
  'hahaha',
  'hehe',
  'yall',
  'tbh',
  'imo',
  'imho',
  'btw',
  'fyi',
  'omg',
  'ugh',
  'hmm',
  'hmmm',
  'umm',
  'erm',
  'pls',
  'plz',
  'thx',
  'cya',
  'gonna',
  'wanna',
  'gotta',
  'kinda',
  'sorta',
  'dunno',
  'aye',
  'yeah',
  'yep',
  'nope',
  'yup',
  'nah',
  'okey',
  'xoxo',
  'thanx',
  'ish',
  'cuz',
  'coz',
  'cos',
  'innit',
  'reckon',
  'cheers',
  'mate',
  'folks',
  'mum',
  'mom',
]);

/** Weekdays written short ("to tue 6am"): words, never slips of "the" or "thru" (docs/decisions.md, "Round R: times"). */
const WEEKDAY_SHORTHAND = new Set(['mon', 'tue', 'tues', 'wed', 'weds', 'thu', 'thur', 'thurs', 'fri', 'sat', 'sun']);

const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s,;]+/gi;

/** Words the corrector leaves alone: real English words, numbers, placeholders. */
function isKnownWord(word: string, names: Set<string>, correctable: ReadonlySet<string>): boolean {
  if (names.has(word) || STOP_WORDS.has(word) || /\d/.test(word) || /^url\d+$/.test(word)) return true;
  if (WEEKDAY_SHORTHAND.has(word)) return true;
  // a regional noun ("chook", "bakkie") is a word, never a slip of a home's name ("coop")
  if (readRegionalNoun(word)) return true;
  if (lexicon[word] !== undefined) return true;
  // plurals and simple inflections of known words
  for (const suffix of ['s', 'es', 'ed', 'ing', 'd']) {
    const base = word.slice(0, -suffix.length);
    // "-d" inflects only a word ending in "e" ("closed"): "shead" is no form of the name "shea"
    if (suffix === 'd' && !base.endsWith('e')) continue;
    if (word.endsWith(suffix) && lexicon[base] !== undefined) return true;
  }
  if (correctable.has(word)) return true;
  // a real English word is never corrected into another one ("motor" is no "motion"): see
  // docs/decisions.md, "Coverage before action"; short ones too ("bat" is no "bar"), while a slip no
  // dictionary has ("dor") is left to the corrector (docs/decisions.md, "Round I: words")
  return word.length >= 3 && isLexiconNoun(word);
}

/**
 * Whether compromise's own lexicon has the word, as it stands or as a plain inflection ("refurbished", "fenced"):
 * a word in common use, as against a rare one WordNet merely lists (docs/decisions.md, "Before round S: probe leaks").
 */
export function isCommonWord(word: string): boolean {
  if (lexicon[word] !== undefined) return true;
  return ['s', 'es', 'ed', 'd', 'ing'].some((suffix) => word.endsWith(suffix) && lexicon[word.slice(0, -suffix.length)] !== undefined);
}

/** Levenshtein distance counting one swap of adjacent letters ("wacth") as one edit. */
export function getTypoDistance(a: string, b: string): number {
  if (a.length === b.length) {
    for (let i = 0; i + 1 < a.length; i++) {
      if (a[i] !== b[i]) {
        if (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2)) return 1;
        break;
      }
    }
  }
  return distance(a, b);
}

/** Closest vocabulary or name word within `maxDistance` edits, same first letter; undefined when none or a tie. */
function correctWord(word: string, candidates: string[], maxDistance = 1): string | undefined {
  if (word.length < 3) return undefined;
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  let tie = false;
  for (const c of candidates) {
    if (c[0] !== word[0] || Math.abs(c.length - word.length) > maxDistance) continue;
    const d = getTypoDistance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
      tie = false;
    } else if (d === bestDistance && c !== best) tie = true;
  }
  return tie ? undefined : best;
}

/**
 * "tnght", "grge": a word written with no vowels at all, as in a hurried text, is the one vocabulary or name word with
 * the same letters once its vowels are dropped, and the same first letter; none or several, undefined
 * (docs/decisions.md, "Before round T: words"). Only words no dictionary has reach here.
 */
export function restoreVowels(word: string, candidates: readonly string[]): string | undefined {
  if (word.length < 4 || /[aeiouy]/.test(word) || !/^[a-z]+$/.test(word)) return undefined;
  const found = new Set(candidates.filter((c) => c[0] === word[0] && c.length > word.length && c.replace(/[aeiouy]/g, '') === word));
  return found.size === 1 ? [...found][0] : undefined;
}

/** Splits a glued compound ("livingroom") into two adjacent name words when it is exactly that. */
function splitCompound(word: string, names: string[]): string | undefined {
  for (const a of names) {
    if (word.startsWith(a) && word.length > a.length) {
      const rest = word.slice(a.length);
      if (names.includes(rest)) return `${a} ${rest}`;
    }
  }
  return undefined;
}

/**
 * Joins a home's one-word name written as two words ("sleep out" for the sleepout, "store room" for the
 * storeroom): only when the two words are exactly the name split in two, and not both names of the home
 * themselves (then they may be two places). The reverse of `splitCompound`.
 */
function joinSplitNames(text: string, names: string[], nameSet: ReadonlySet<string>): string {
  for (const name of names) {
    if (!/^[a-z]{6,}$/.test(name)) continue;
    for (let at = 3; at <= name.length - 3; at++) {
      const [a, b] = [name.slice(0, at), name.slice(at)];
      if (nameSet.has(a) && nameSet.has(b)) continue;
      // (most messages do not hold the two halves at all: no pattern is compiled for them)
      if (!text.includes(`${a} ${b}`)) continue;
      text = text.replace(new RegExp(String.raw`\b${a} ${b}\b`, 'g'), name);
    }
  }
  return text;
}

export type Normalizer = (message: string, names: string[]) => NormalizedMessage;

const CACHE_SIZE = 256;
const caches: Map<string, NormalizedMessage>[] = [];

/**
 * A normaliser for one surface's vocabulary (the words typos are corrected towards besides the
 * place's own names). Calling it with a message and `names` — the household's room and sensor
 * name words — corrects typos towards this home's own vocabulary ("garge" → "garage").
 */
export function createNormalizer(vocabulary: readonly string[]): Normalizer {
  const words = new Set(vocabulary);
  const list = [...words];
  // follow-ups re-read earlier turns; normalising is pure, so keep the last few results
  const cache = new Map<string, NormalizedMessage>();
  caches.push(cache);
  return (message, names) => {
    const key = `${names.join(' ')}\u0000${message}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const result = computeNormalized(message, names, words, list);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, result);
    return result;
  };
}

/** Forgets cached normalisations (benchmarks measure cold messages). */
export function clearNormalizerCache(): void {
  for (const c of caches) c.clear();
}

function computeNormalized(message: string, names: string[], correctable: ReadonlySet<string>, correctableList: string[]): NormalizedMessage {
  const urls: string[] = [];
  let text = message.replace(URL_PATTERN, (url) => {
    urls.push(url.replace(/[.!?)]+$/, ''));
    return ` url${urls.length - 1} `;
  });
  text = text
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\.{2,}|\u2026/g, '. ')
    .replace(/&/g, ' and ')
    .toLowerCase()
    // "from now till half six", "starting now until 8": the start is now, the time after is the end
    // (see docs/decisions.md, "Round F household: relative days and starts")
    .replace(/\b(?:from|starting|beginning|as of) (?:right )?now\b(?=[\s,]*(?:until|till|til|to|through)\b)/g, 'now')
    // "between 9 and 12.30", "until 7.45pm": a clock time written with a dot is the one written with a colon
    // (docs/decisions.md, "Round Q: bare hours"); "for 2.50 hours", "1.5" stay amounts
    .replace(
      /(?<=\b(?:until|till|til|to|and|from|between|at|by|before|after|since) )([01]?\d|2[0-3])\.([0-5]\d)\b(?![.\d]| ?(?:hours?|hrs?|h|mins?|minutes?|days?|weeks?|%))/g,
      '$1:$2',
    )
    .replace(/\b([01]?\d|2[0-3])\.([0-5]\d) ?([ap]\.?m\b\.?)/g, '$1:$2$3')
    // "the garden's fine now": "'s" before how a place is, is "is" (compromise read it as "the garden's …")
    .replace(
      /\b([a-z]+)'s(?= (?:all |now )?(?:fine|ok|okay|alright|all right|safe|clear|empty|quiet|secure|sorted|good|done|over|locked|shut|closed)\b)/g,
      '$1 is',
    );
  // "18h30", "until 0630", "for 2h", "til 7ish", "first light" (./written-clocks.ts)
  text = writtenClocksAndAmounts(text);
  const nameSet = new Set(names);
  text = joinSplitNames(text, names, nameSet);
  // the correction candidates are built only for a word no list knows (most messages have none)
  let candidates: string[] | undefined;
  // words written with a capital after a sentence's first word (names of people and places), and
  // words with two capitals anywhere (acronyms and brands: "MJPEG", "WebRTC")
  const capitalised = new Set<string>();
  for (const m of message.matchAll(/(?<![.!?:"]\s*)(?<=\s)\p{Lu}[\p{L}']+/gu)) capitalised.add(m[0].toLowerCase().replace(/'s$/, ''));
  for (const m of message.matchAll(/[\p{L}']*\p{Lu}[\p{L}']*\p{Lu}[\p{L}']*/gu)) capitalised.add(m[0].toLowerCase().replace(/'s$/, ''));
  const unknown = new Set<string>();
  const corrections: { from: string; to: string }[] = [];
  text = text.replace(/[a-z0-9']+/g, (word) => {
    const fixed = SPELLING_FIXES[word];
    if (fixed) return fixed;
    if (isKnownWord(word, nameSet, correctable) || word.includes("'")) return word;
    // a home's own names are few and long: two slips are still clear ("garaj" → "garage")
    candidates ??= [...new Set([...correctableList, ...names])];
    const corrected =
      splitCompound(word, names) ??
      correctWord(word, candidates) ??
      (word.length >= 5 ? correctWord(word, names, 2) : undefined) ??
      restoreVowels(word, candidates);
    if (corrected === undefined && /^[a-z]{3,}$/.test(word) && !capitalised.has(word) && !CHAT_WORDS.has(word) && !isEnglishWord(word)) unknown.add(word);
    if (corrected !== undefined && corrected !== word) corrections.push({ from: word, to: corrected });
    return corrected ?? word;
  });

  const doc = nlp(text);
  doc.compute('root');
  const tokens: Token[] = [];
  // doc.docs holds the terms directly; doc.json() would cost a millisecond per message
  for (const sentence of (doc as unknown as { docs: CompromiseTerm[][] }).docs) {
    for (const term of sentence) {
      const surface = (term.implicit || term.normal || term.text).replace(/'s$/, '');
      if (!surface) continue;
      const post = term.post ?? '';
      tokens.push({
        text: surface,
        root: term.root || surface,
        breakAfter: /[.!?]/.test(post) ? '.' : /[,;:]/.test(post) ? ',' : '',
        isNoun: term.tags.has('Noun'),
        isVerb: term.tags.has('Verb'),
        // always present (true or undefined): every token has one shape, so the planner's optimised code does not deoptimise on a rare one
        unknown: unknown.has(surface) || undefined,
      });
    }
    if (tokens.length) tokens[tokens.length - 1].breakAfter = '.';
  }
  return { tokens, urls, ...(corrections.length ? { corrections } : {}) };
}
