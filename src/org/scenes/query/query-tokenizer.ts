import { rewriteDottedClocks } from '../../../platform/language/time/clock-phrases.ts';
import nlp from 'compromise';
import { closest, distance } from 'fastest-levenshtein';
import { stemmer } from 'stemmer';
import {
  SMALL_NUMBER_WORDS,
  SPELLING_FIXES,
  TENS_WORDS,
  getNounSenses,
  isPatronWord,
  readAnimalWord,
  restoreVowels,
} from '../../../platform/language/index.ts';
import { PHRASE_REPLACEMENTS, PLACE_ALIASES, WORDS_BY_ROLE, WORD_REPLACEMENTS, type WordRole } from './query-vocabulary.ts';

/**
 * Turns a casual question into classified words: lowercase, contractions expanded, slang and
 * typos replaced ("ppl" → people, "rn" → now), fixed expressions merged ("came in" → arrive),
 * then each word matched by its Porter stem (stemmer) against the vocabulary. Words that are
 * neither vocabulary nor the scene's location are returned as unknown so the interpreter can
 * refuse instead of guessing.
 */

export interface Token {
  word: string;
  roles: ReadonlySet<WordRole>;
}

export interface TokenizedQuestion {
  tokens: Token[];
  /** words nobody knows, in order */
  unknown: string[];
  /** named places (vocabulary or unknown words after "in/at the") that are not this scene's location */
  otherPlaces: string[];
  /** a spot inside the scene that picks out one person ("the guy by the gate"): not another scene */
  landmarks: string[];
}

const ROLES_BY_STEM = new Map<string, Set<WordRole>>();
for (const [role, words] of Object.entries(WORDS_BY_ROLE) as Array<[WordRole, readonly string[]]>) {
  for (const word of words) {
    const stem = stemmer(word);
    const roles = ROLES_BY_STEM.get(stem) ?? new Set<WordRole>();
    roles.add(role);
    ROLES_BY_STEM.set(stem, roles);
  }
}

/** Words chrono needs to see spelled right; typo-corrected like the vocabulary. */
const TIME_WORDS = [
  'minute',
  'minutes',
  'hour',
  'hours',
  'second',
  'seconds',
  'morning',
  'afternoon',
  'evening',
  'night',
  'tonight',
  'today',
  'yesterday',
  'midnight',
  'noon',
  'since',
  'between',
  'before',
  'after',
  'until',
  'last',
  'past',
  'week',
  'days',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'ago',
];

/**
 * Typo correction only for words of 5+ letters, one edit away, same first letter, and only
 * towards content words: short words collide too easily (cat/car), and correcting towards
 * filler would turn real questions we cannot answer ("where ...") into ones we can ("there ...").
 */
const MIN_FUZZY_LENGTH = 5;
const FUZZY_ROLES: WordRole[] = [
  'people',
  'vehicles',
  'anomaly',
  'unrecognized',
  'loitering',
  'crowd',
  'peak',
  'average',
  'arrivals',
  'presence',
  'trend_up',
  'trend_down',
  'trend',
  'last',
  'activity',
  'empty',
  'level_busy',
  'level_crowded',
  'level_quiet',
  'departures',
];
const FUZZY_TARGETS = [...new Set([...FUZZY_ROLES.flatMap((role) => WORDS_BY_ROLE[role]), ...TIME_WORDS])].filter(
  (w) => w.length >= MIN_FUZZY_LENGTH && /^[a-z]+$/.test(w),
);
/**
 * Short words that carry the question ("how", "more", "last"): corrected only when the typo is
 * their letters with two neighbours swapped ("hwo", "mroe", "lsat"), which no other word is.
 */
const SWAP_TARGETS = [
  'how',
  'many',
  'more',
  'less',
  'than',
  'last',
  'when',
  'what',
  'were',
  'was',
  'there',
  'any',
  'anyone',
  'people',
  'cars',
  'busy',
  'full',
  'empty',
  'most',
  'peak',
  'since',
  'today',
  'hour',
  'night',
  'seen',
  'come',
  'came',
  'left',
  'getting',
  'anything',
  'someone',
  'anybody',
  'been',
  'here',
  'right',
  'now',
  'the',
  'is',
  'are',
  'has',
  'have',
];
/** The shared layer's texting shorthand and misspellings, where they spell out plain words. */
const SHARED_FIXES = Object.fromEntries(Object.entries(SPELLING_FIXES).filter(([, to]) => /^[a-z ]+$/.test(to)));

/** compromise's lexicon (about 24,000 English words), as the shared normaliser uses it. */
const ENGLISH = (nlp as unknown as { world(): { model: { one: { lexicon: Record<string, string> } } } }).world().model.one.lexicon;

/** Transposition, deletion and insertion typos seen in typed questions, kept as one edit. */
function isOneSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i + 1 < a.length; i++) {
    if (a[i] !== b[i]) return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return false;
}

/** Two letters of `a` swapped, side by side or not, make `b` ("aminals" → "animals"). */
function isTwoLettersSwapped(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const diff = [...a].flatMap((c, i) => (c === b[i] ? [] : [i]));
  return diff.length === 2 && a[diff[0]] === b[diff[1]] && a[diff[1]] === b[diff[0]];
}

/** Every word the vocabulary knows of five letters or more: a non-word with two of its letters swapped is that word. */
const TRANSPOSE_TARGETS = [...new Set([...Object.values(WORDS_BY_ROLE).flat(), ...TIME_WORDS])].filter(
  (w) => w.length >= MIN_FUZZY_LENGTH && /^[a-z]+$/.test(w),
);

/** The one vocabulary word (or word of the place's name) `word` is with two letters swapped, if exactly one fits. */
function swappedLetters(word: string, location: string): string | undefined {
  if (word.length < MIN_FUZZY_LENGTH) return undefined;
  const fits = [...new Set([...TRANSPOSE_TARGETS, ...locationWords(location)])].filter((w) => isTwoLettersSwapped(word, w));
  return new Set(fits.map((w) => stemmer(w))).size === 1 ? fits[0] : undefined;
}

/**
 * The words of the scene's location label, and each pair of neighbours joined ("staff_car_park"
 * → staff, car, park, staffcar, carpark), since the normaliser merges "car park" into "carpark".
 */
export function locationWords(location: string): string[] {
  const words = location
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const joined = words.slice(1).map((w, i) => `${words[i]}${w}`);
  return [...words, ...joined];
}

/** Roles that name what is counted: a location word with one ("car" in car_park) is a place only inside the location's name. */
const SUBJECT_ROLES: WordRole[] = ['people', 'vehicles', 'animals', 'objects'];

/** Stems that name this scene's location, aliases included. */
function locationStemsOf(location: string): Set<string> {
  const words = locationWords(location);
  const aliases = PLACE_ALIASES.filter((group) => group.some((w) => words.includes(w))).flat();
  return new Set([...words, ...aliases].map((w) => stemmer(w)));
}

/** Every word of the vocabulary and the time words: what a word texted without vowels may be ("frst", "vhcls"). */
const VOWEL_TARGETS = [...new Set([...Object.values(WORDS_BY_ROLE).flat(), ...SWAP_TARGETS, ...TIME_WORDS])].filter((w) => /^[a-z]+$/.test(w));

function isKnownWord(word: string, locationStems: ReadonlySet<string>): boolean {
  const stem = stemmer(word);
  return /^\d/.test(word) || ROLES_BY_STEM.has(stem) || locationStems.has(stem) || TIME_WORDS.includes(word);
}

/**
 * A three-letter word that is no English word and is a word of this scene's place name with one
 * letter left out ("gte" at the main gate, "dck" at the dock) is that word; only towards the
 * place's own words, and only when one of them fits (docs/decisions.md, "Scene questions: round F's causes").
 */
function missingLetterOfPlace(word: string, location: string): string {
  const fits = [...new Set(locationWords(location))].filter(
    (w) => w.length === 4 && w[0] === word[0] && [...w].some((_, i) => i > 0 && w.slice(0, i) + w.slice(i + 1) === word),
  );
  return fits.length === 1 ? fits[0] : word;
}

function correctTypo(word: string, locationStems: ReadonlySet<string>, location: string): string {
  if (isKnownWord(word, locationStems) || /\d/.test(word) || word.length < 3) return word;
  // a real English word is what it says ("least" is not "last", "where" is not "were"), and so
  // is a noun WordNet knows in any inflection ("carts" is not "cars"): compromise's lexicon holds
  // only the words it cannot infer, so it lacks most plain nouns
  if (ENGLISH[word] !== undefined || getNounSenses(word).length > 0) return word;
  // "vhcls", "frst": a word texted without its vowels is the one question word with those letters (platform/language/normalize.ts)
  const unvowelled = restoreVowels(word, [...VOWEL_TARGETS, ...locationWords(location)]);
  if (unvowelled) return unvowelled;
  const swapped = [...SWAP_TARGETS, ...FUZZY_TARGETS, ...locationWords(location)].find((w) => isOneSwap(word, w));
  if (swapped) return swapped;
  // "aminals": two letters swapped further apart, towards the one word of the vocabulary that fits
  const transposed = swappedLetters(word, location);
  if (transposed) return transposed;
  // one edit, same first letter, one best candidate: 4-letter words only towards longer
  // content words ("loby" → "lobby"), never towards another short word (cat/car)
  const shortTargets = word.length >= MIN_FUZZY_LENGTH ? SWAP_TARGETS.filter((w) => w.length >= 4) : [];
  const targets = [...new Set([...FUZZY_TARGETS, ...locationWords(location), ...shortTargets])].filter(
    (w) => w[0] === word[0] && (w.length >= MIN_FUZZY_LENGTH || shortTargets.includes(w)) && (word.length >= MIN_FUZZY_LENGTH || w.length > word.length),
  );
  if (word.length === 3) return missingLetterOfPlace(word, location);
  if (word.length < 4 || targets.length === 0) return word;
  const best = closest(word, targets);
  if (distance(word, best) > 1) return word;
  const ties = targets.filter((w) => w !== best && distance(word, w) === 1 && stemmer(w) !== stemmer(best));
  return ties.length === 0 ? best : word;
}

/**
 * Verbs of going somewhere: before "past" and a place ("come past the gate", "walked past the
 * door") the word is a movement, going by the place, not a time word (docs/decisions.md, "Round J:
 * scene questions"). Compared by stem, so every inflection counts; the irregular forms are listed.
 */
const MOVEMENT_STEMS = new Set(
  [
    'come',
    'came',
    'go',
    'went',
    'gone',
    'walk',
    'drive',
    'drove',
    'driven',
    'run',
    'ran',
    'ride',
    'rode',
    'ridden',
    'cycle',
    'wander',
    'stroll',
    'get',
    'got',
    'gotten',
    'sneak',
    'snuck',
    'slip',
    'head',
    'jog',
    'rush',
    'hurry',
    'speed',
    'sped',
    'trot',
    'roll',
    'pull',
    'creep',
    'crept',
    'dash',
    'race',
    'march',
    'step',
    'move',
    'fly',
    'flew',
  ].map((w) => stemmer(w)),
);
/** After "past", what makes it a time word after all: a number or a clock ("gone past 10", "come past midnight"). */
const TIME_AFTER_PAST = new Set([
  'midnight',
  'noon',
  'midday',
  'hour',
  'hours',
  'minute',
  'minutes',
  'half',
  'quarter',
  ...Object.keys(SMALL_NUMBER_WORDS),
  ...Object.keys(TENS_WORDS),
]);

/**
 * "come past the gate", "drove past", "walked past in the last hour": "past" after a verb of going
 * is going by the place, read as "by" ("came by" is an arrival). A number or clock after it keeps
 * it a time word ("gone past midnight"), and so does any other word before it ("in the past hour",
 * "half past five").
 */
function readMovementPast(words: string[]): string[] {
  return words.map((word, i) => {
    if (word !== 'past' || i === 0 || !MOVEMENT_STEMS.has(stemmer(words[i - 1]))) return word;
    const next = words[i + 1];
    if (next !== undefined && (/^\d/.test(next) || TIME_AFTER_PAST.has(next))) return word;
    return 'by';
  });
}

/** Question words a slip may stand for at the head of a question ("wen was …", "hw many …"). */
const QUESTION_WORDS = ['how', 'what', 'when', 'where', 'who', 'which', 'why', 'whose'];
/** Words that follow a question word at the head of a question: a verb of being or doing, or "many", "long"… */
const AFTER_QUESTION_WORD = new Set(['is', 'are', 'was', 'were', 'did', 'does', 'do', 'has', 'have', 'had', 'can', 'could', 'many', 'much', 'long', 'often']);
/** Words that may come before the question word ("so when was …", "ok how many …"). */
const OPENERS = new Set(['so', 'and', 'ok', 'okay', 'hey', 'hi', 'um', 'erm', 'but', 'right', 'then', 'also']);

/**
 * A word of the scene's own place name typed with a slip, beside the word before or after it in
 * that name ("ticket hal" at the ticket hall, "main gat" at the main gate): one edit (fastest-
 * levenshtein) from that word, same first letter, even when it is an English word or a name
 * ("hal"), since the name around it says which place is meant. A word alone, or not beside the
 * rest of the name ("was hal in the ticket hall?"), is left as it is (docs/decisions.md, "Round N:
 * scene questions").
 */
function readPlaceNameSlip(words: string[], location: string, locationStems: ReadonlySet<string>): string[] {
  const name = location
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (name.length < 2) return words;
  return words.map((word, i) => {
    if (word.length < 3 || /\d/.test(word) || isKnownWord(word, locationStems)) return word;
    const fits = name.filter(
      (w, k) =>
        w !== word &&
        w[0] === word[0] &&
        w.length >= 3 &&
        distance(w, word) === 1 &&
        ((k > 0 && words[i - 1] === name[k - 1]) || (k + 1 < name.length && words[i + 1] === name[k + 1])),
    );
    return fits.length === 1 ? fits[0] : word;
  });
}

/**
 * A slip of a question word at the head of a question ("wen was the cat last seen", "wy is it
 * busy"): a word the vocabulary does not know, first (after an opener like "so"), followed by a
 * verb like "was" or by "many"/"long", one edit (fastest-levenshtein) from exactly one question
 * word with the same first letter. It is that question word even when it is a rare English word
 * ("wen", a cyst): no noun opens a question before "was". Two question words as close ("whn": when
 * or who) leave it as it is, to be asked about (docs/decisions.md, "Round J: scene questions").
 */
function readQuestionWordSlip(words: string[], locationStems: ReadonlySet<string>): string[] {
  const head = words.findIndex((w) => !OPENERS.has(w));
  const word = words[head];
  if (head < 0 || !AFTER_QUESTION_WORD.has(words[head + 1] ?? '') || QUESTION_WORDS.includes(word) || isKnownWord(word, locationStems)) return words;
  const fits = QUESTION_WORDS.filter((q) => q[0] === word[0] && distance(q, word) === 1);
  return fits.length === 1 ? words.map((w, i) => (i === head ? fits[0] : w)) : words;
}

/**
 * Lowercase, expand contractions, drop punctuation (keeping what time phrases need: "9:30",
 * "2-3pm"), replace slang and typos. The result is what chrono and the tokenizer both read.
 */
export function normaliseQuestion(question: string, location: string): string {
  const locationStems = locationStemsOf(location);
  const text = question
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019`´]/g, "'")
    .replace(/(\d\s*)([ap])\.m\.?/g, '$1$2m')
    .replace(/[\s\S]*/, rewriteDottedClocks) // "at 7.30": a clock time, before the dot is stripped
    .replace(/\bo'clock\b/g, 'oclock')
    // "1st time a dog was seen": the first time; "the 1st" alone stays a date
    .replace(/\b1st(?=\s+time\b)/g, 'first')
    // "as of 7:10", "as at noon": that moment (docs/decisions.md, "Round H: scene questions")
    .replace(/\bas (?:of|at) (?=\d|noon\b|midnight\b)/g, 'at ')
    .replace(/\bwon't\b/g, 'will not')
    .replace(/\bcan't\b/g, 'can not')
    .replace(/n't\b/g, ' not')
    .replace(/'re\b/g, ' are')
    .replace(/'ve\b/g, ' have')
    .replace(/'ll\b/g, ' will')
    .replace(/'m\b/g, ' am')
    .replace(/'d\b/g, ' would')
    .replace(/'s\b/g, ' is')
    .replace(/(\d)\s*\+/g, '$1 plus ') // "10+ people"
    .replace(/(\d)\s*%/g, '$1 percent ') // "over 50%"
    .replace(/(?<!\d)-|-(?!\d)/g, ' ')
    .replace(/[^a-z0-9:\- ]+/g, ' ')
    .replace(/:(?!\d)|(?<!\d):/g, ' ');
  const words = text
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => WORD_REPLACEMENTS[word] ?? SHARED_FIXES[word] ?? correctTypo(word, locationStems, location));
  return readMovementPast(readQuestionWordSlip(readPlaceNameSlip(words, location, locationStems), locationStems)).join(' ');
}

/** Longest first, so "at any one time" wins over "at once"-style shorter overlaps. */
const PHRASES = PHRASE_REPLACEMENTS.map(([phrase, replacement]) => [phrase.split(' '), replacement] as const).sort((a, b) => b[0].length - a[0].length);

function mergePhrases(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length;) {
    const hit = PHRASES.find(([parts]) => parts.every((part, k) => words[i + k] === part));
    if (hit) {
      if (hit[1]) out.push(hit[1]);
      i += hit[0].length;
    } else {
      out.push(words[i]);
      i += 1;
    }
  }
  return out;
}

/** Words that tell one place from another of the same kind ("front entrance", "north lobby"). */
const QUALIFIERS = new Set(['front', 'back', 'rear', 'side', 'main', 'north', 'south', 'east', 'west', 'upper', 'lower', 'staff', 'service']);

/** Only "in"-like words: "at lunch" or "by noon" are not places. */
const PLACE_PREPOSITIONS = new Set(['in', 'inside', 'outside', 'near']);
const DETERMINERS = new Set(['the', 'my', 'our', 'your', 'this', 'that']);

/** True when the word sits where a place name goes: "in the kitchen", "at reception". */
function isInPlaceSlot(words: string[], i: number): boolean {
  let j = i - 1;
  if (j >= 0 && DETERMINERS.has(words[j])) j -= 1;
  return j >= 0 && PLACE_PREPOSITIONS.has(words[j]);
}

/** Words before which "patient" is the adjective ("be patient", "very patient"), not the people waiting. */
const ADJECTIVE_CUES = new Set([
  'be',
  'is',
  'are',
  'was',
  'were',
  'been',
  'being',
  'so',
  'very',
  'too',
  'more',
  'most',
  'less',
  'how',
  'stay',
  'remain',
  'they',
  'we',
  'he',
  'she',
]);

/**
 * The people a place serves ("patients", "passengers", "pupils") are people, as "customers" are
 * (src/platform/language/lexicon/patrons.ts); not when said as an adjective ("the patient guy",
 * "were they patient").
 */
function readPatronNoun(words: string[], i: number): ReadonlySet<WordRole> | undefined {
  const next = words[i + 1];
  const isPeople = (w: string | undefined) => w !== undefined && ROLES_BY_STEM.get(stemmer(w))?.has('people') === true;
  // "the patient guy" and "were people patient": beside a word for people it describes them
  if (ADJECTIVE_CUES.has(words[i - 1] ?? '') || isPeople(next) || isPeople(words[i - 1]) || !isPatronWord(words[i])) return undefined;
  return ROLES_BY_STEM.get(stemmer('people'));
}

const LANDMARK_PREPOSITIONS = new Set(['by', 'near', 'at']);
const ONE_PERSON_DETERMINERS = new Set(['the', 'that', 'this']);

/**
 * "the guy by the gate", "that man near the door": a place named to point at one person is a spot
 * inside the scene, not another scene (docs/decisions.md, "Round O: scene questions").
 */
function isPersonLandmark(words: string[], i: number): boolean {
  if (!DETERMINERS.has(words[i - 1] ?? '') || !LANDMARK_PREPOSITIONS.has(words[i - 2] ?? '')) return false;
  const person = words[i - 3];
  const singular = person !== undefined && !person.endsWith('s') && ROLES_BY_STEM.get(stemmer(person))?.has('people') === true;
  return singular && ONE_PERSON_DETERMINERS.has(words[i - 4] ?? '');
}

/**
 * A noun the vocabulary lacks, one or two words, after "the guy by the": a spot, never after "the
 * people by the"; "the end of the quay" is a part of the place (sub-areas.ts), not a spot.
 */
function isNounLandmark(words: string[], i: number, landmarks: readonly string[]): boolean {
  if (words[i + 1] === 'of') return false;
  const start = isPersonLandmark(words, i) ? i : i >= 4 && isPersonLandmark(words, i - 1) && landmarks.at(-1) === words[i - 1] ? i - 1 : -1;
  return start >= 0 && words[start - 3] !== 'people';
}

/** Classify the words of a normalised question whose time phrase has been blanked out. */
export function tokenizeQuestion(text: string, location: string): TokenizedQuestion {
  const locationStems = locationStemsOf(location);
  const words = mergePhrases(text.split(/[^a-z0-9]+/).filter(Boolean));
  const tokens: Token[] = [];
  const unknown: string[] = [];
  const otherPlaces: string[] = [];
  const landmarks: string[] = [];
  const ownWords = new Set(locationWords(location));
  const ownQualifiers = [...ownWords].filter((w) => QUALIFIERS.has(w));
  words.forEach((word, i) => {
    const stem = stemmer(word);
    if (QUALIFIERS.has(word)) {
      // "the back entrance" at a scene labelled front_entrance is another place; at a scene
      // labelled just "entrance" it is taken as this one; elsewhere the word describes nothing.
      const next = words[i + 1];
      const beforePlace = next !== undefined && (locationStems.has(stemmer(next)) || ROLES_BY_STEM.get(stemmer(next))?.has('named_place'));
      if (ownWords.has(word)) tokens.push({ word, roles: new Set<WordRole>(['place']) });
      else if (beforePlace && ownQualifiers.length > 0) otherPlaces.push(`${word} ${next}`);
      else if (beforePlace) tokens.push({ word, roles: new Set<WordRole>(['filler']) });
      else if (ROLES_BY_STEM.has(stem)) tokens.push({ word, roles: ROLES_BY_STEM.get(stem)! });
      else unknown.push(word);
      return;
    }
    if (locationStems.has(stem)) {
      // "how many cars in the car park": "cars" is what is counted, "car park" the place
      const own = ROLES_BY_STEM.get(stem);
      const subject = own !== undefined && SUBJECT_ROLES.some((r) => own.has(r));
      const inName = [words[i - 1], words[i + 1]].some((w) => w !== undefined && w !== word && locationStems.has(stemmer(w)));
      if (!subject || inName) {
        tokens.push({ word, roles: new Set<WordRole>(['place']) });
        return;
      }
    }
    const roles = ROLES_BY_STEM.get(stem) ?? (/\d/.test(word) ? undefined : readPatronNoun(words, i));
    // a noun the vocabulary lacks may still name a cat or a dog ("pooch"), or an animal the cameras do not report
    // (never a spot after "that person by the": "the fish stall" is a place, not a fish)
    const animal = roles || /\d/.test(word) || isNounLandmark(words, i, landmarks) ? null : readAnimalWord(word);
    if (animal) {
      tokens.push({ word, roles: new Set<WordRole>([animal === 'other' ? 'other_animal' : 'animals']) });
      return;
    }
    if (roles?.has('named_place') || (!roles && isInPlaceSlot(words, i) && !/^\d/.test(word))) {
      (isPersonLandmark(words, i) ? landmarks : otherPlaces).push(word);
      return;
    }
    // "that person by the benches", "the guy near the vending machines": a spot named by any noun,
    // one or two words, points at one person as a place word does (docs/decisions.md, "Before round S: scene questions")
    if (!roles && !/\d/.test(word) && isNounLandmark(words, i, landmarks)) {
      landmarks.push(word);
      return;
    }
    if (roles) tokens.push({ word, roles });
    else if (word.length > 1 || /\d/.test(word)) unknown.push(word);
  });
  return { tokens, unknown, otherPlaces, landmarks };
}
