/**
 * Coverage of a reading (see docs/decisions.md, "Coverage before action"): which words of a
 * message the reading used, and which words it left over that could change what an action does.
 * Times, dates, numbers, durations, negation and cancellation, question words and place nouns
 * left over mean the reading is incomplete: the surface asks instead of acting. So do a second
 * action joined to the request and a thing named as its object (content-words.ts). Politeness,
 * hedges and chit-chat are known filler (lexicon/filler.ts) and may be left over.
 */
import type { Token } from './normalize.ts';
import { classifyContentWord, type ContentVocabulary } from './content-words.ts';
import { isPlaceModifier } from './lexicon/modifiers.ts';
import { isPlaceWord } from './lexicon/places.ts';
import { isInFixedOrPhrase } from './lexicon/fixed-phrases.ts';
import { getNounSenses, isEnglishWord } from './lexicon/wordnet.ts';
import { STOP_WORDS } from './words.ts';

/** action: a verb the request joins that the reading did not do ("…and text my brother"); thing: an object it did not read ("the motor"). */
export type WordRole = 'time' | 'number' | 'negation' | 'question' | 'place' | 'unknown' | 'action' | 'thing';

/** Words that say when or how long. */
const TIME_WORDS = new Set([
  'hour',
  'hours',
  'hr',
  'hrs',
  'minute',
  'minutes',
  'min',
  'mins',
  'second',
  'seconds',
  'day',
  'days',
  'night',
  'nights',
  'week',
  'weeks',
  'weekend',
  'weekends',
  'weekday',
  'weekdays',
  'weeknight',
  'weeknights',
  'month',
  'months',
  'fortnight',
  'morning',
  'mornings',
  'afternoon',
  'afternoons',
  'evening',
  'evenings',
  'tonight',
  'tomorrow',
  'today',
  'yesterday',
  'noon',
  'midday',
  'midnight',
  'sunset',
  'sunrise',
  'dusk',
  'dawn',
  'daybreak',
  'sundown',
  'nightfall',
  'am',
  'pm',
  "o'clock",
  'oclock',
  'quarter',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'mon',
  'tue',
  'tues',
  'wed',
  'thu',
  'thur',
  'thurs',
  'fri',
  'sat',
  'january',
  'february',
  'march',
  'april',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'lunchtime',
  'bedtime',
  'dinnertime',
  'teatime',
  'overnight',
  'nightly',
  'daily',
  'weekly',
  'hourly',
  'later',
  'ish',
  'christmas',
  'easter',
  'holiday',
  'holidays',
  'vacation',
  'trip',
  'while',
  'whichever',
  'either',
  'whenever',
]);

const NUMBER_WORDS = new Set([
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'sixty',
  'ninety',
  'hundred',
  'half',
  'couple',
  'few',
  'several',
  'dozen',
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'both',
]);

/** Words that turn a request around or take one back. */
const NEGATION_WORDS = new Set([
  'not',
  "n't",
  'never',
  'no',
  'none',
  'nobody',
  'forget',
  'scrap',
  'cancel',
  'undo',
  'relax',
  'except',
  'without',
  'unless',
  'excluding',
  'nevermind',
  'revert',
  'stop',
]);

const QUESTION_WORDS = new Set(['what', 'when', 'where', 'who', 'whom', 'whose', 'which', 'why', 'how', 'whether']);

/** Words that never name a place even where the lexicon's first sense is one. */
const NOT_PLACES = new Set([
  'home',
  'house',
  'place',
  'way',
  'bit',
  'lot',
  'eye',
  'eyes',
  'tab',
  'tabs',
  'side',
  'spot',
  'end',
  'back',
  'front',
  'top',
  'bottom',
  'here',
  'there',
  'somewhere',
  'anywhere',
  'everywhere',
  'world',
  'town',
  'city',
  'country',
  'work',
  'office',
  'school',
  'abroad',
  'away',
  'holiday',
  'station',
  'airport',
  'hospital',
  'shop',
  'shops',
  'store',
  'gym',
  'church',
  'beach',
  'mum',
  'mom',
  'gran',
  'grandma',
  'friends',
  'neighbour',
  'neighbor',
  'neighbours',
  'neighbors',
  'camp',
  'hotel',
  'cottage',
  'parents',
  'bed',
  'area',
  'areas',
  'zone',
  'space',
  'stuff',
  'thing',
  'things',
]);

/** Meals and the like name a time only after a time word ("until dinner"; not "we're out for dinner"). */
const TIME_AFTER_PREPOSITION = new Set(['breakfast', 'lunch', 'dinner', 'tea', 'supper', 'brunch', 'work', 'school', 'bed']);
const TIME_PREPOSITIONS = new Set(['until', 'till', 'til', 'by', 'before', 'after', 'from', 'around', 'past']);

/** The role a left-over word plays, or undefined when leaving it over cannot change an action. */
export function classifyWord(word: string, prev?: string, noun = true): WordRole | undefined {
  if (/^url\d+$/.test(word)) return undefined;
  // "i'm" is read "i am"
  if (word === 'am' && (prev === 'i' || prev === undefined)) return undefined;
  if (TIME_AFTER_PREPOSITION.has(word)) return prev && TIME_PREPOSITIONS.has(prev) ? 'time' : undefined;
  if (/\d/.test(word)) return /^\d+(st|nd|rd|th)$/.test(word) || /^\d{1,2}(:\d\d)?(am|pm)?$/.test(word) ? 'time' : 'number';
  if (TIME_WORDS.has(word)) return 'time';
  if (NUMBER_WORDS.has(word)) return 'number';
  if (NEGATION_WORDS.has(word)) return 'negation';
  if (QUESTION_WORDS.has(word)) return 'question';
  // "the outside cameras": a kind of place the reading did not narrow to
  if (['outside', 'inside', 'outdoor', 'outdoors', 'indoor', 'indoors', 'exterior', 'interior', 'upstairs', 'downstairs'].includes(word)) return 'place';
  // ("bikeshed": a place run together that WordNet lacks has no verb reading, whatever the tagger guessed)
  if ((noun || getNounSenses(word).length === 0) && word.length >= 3 && !NOT_PLACES.has(word) && /^[a-z]+$/.test(word) && isPlaceWord(word)) return 'place';
  return undefined;
}

export interface Uncovered {
  index: number;
  text: string;
  role: WordRole;
}

/**
 * Words of tokens[from, to) the reading did not use and that could change an action. Given the
 * caller's own vocabulary, content words count too: a joined action or an object noun.
 */
export function findUncovered(tokens: readonly Token[], from: number, to: number, used: ReadonlySet<number>, vocabulary?: ContentVocabulary): Uncovered[] {
  const out: Uncovered[] = [];
  // ("the kids are out trick or treating", "back sooner or later": one phrase of a reason, no choice nor second request)
  const words = tokens.some((t) => t.text === 'or') ? tokens.map((t) => t.text) : undefined;
  for (let k = from; k < to; k++) {
    if (used.has(k) || (words && isInFixedOrPhrase(words, k))) continue;
    let role = classifyWord(tokens[k].text, tokens[k - 1]?.text, tokens[k].isNoun && !tokens[k].isVerb);
    // "tonight or tomorrow": a choice of times is no time
    // ("for the next hour or so" is a hedge: the hour was read)
    if (!role && tokens[k].text === 'or' && tokens[k + 1]?.text !== 'so' && [tokens[k - 1], tokens[k + 1]].some((t) => t && classifyWord(t.text) === 'time'))
      role = 'time';
    // "for a bit", "for a little bit": how long is not said
    if (
      !role &&
      tokens[k].text === 'bit' &&
      ['a', 'little'].includes(tokens[k - 1]?.text ?? '') &&
      tokens.slice(Math.max(from, k - 3), k).some((t) => t.text === 'for')
    )
      role = 'time';
    if (role === 'time' && isTimeAwayOver(tokens, k, from)) role = undefined;
    if (role === 'place' && isNeighbourPhrase(tokens, k)) role = undefined;
    // a word no lexicon knows may say anything ("watch the porch until zorp"), unless it is where someone is off to
    if (!role && tokens[k].unknown && !isOutingPlace(tokens, k, from)) role = 'unknown';
    if (!role && isUnreadPlaceModifier(tokens, k, from, used)) role = 'unknown';
    // "till flamingo", "until the milkman comes", "once the kettle boils": an end or start the reading did not read is no time it knows
    if (!role && tokens[k].isNoun && isUnreadEnd(tokens, k, from, used)) role = 'time';
    if (!role && isUnknownClockUnit(tokens, k, from, used)) role = 'time';
    if (!role && vocabulary) role = classifyContentWord(tokens, k, from, to, used, vocabulary);
    if (role) out.push({ index: k, text: tokens[k].text, role });
  }
  return out;
}

/**
 * "the lads next door", "the people up the road", "a van down the street": one phrase for the neighbours, never a place
 * of the home (docs/decisions.md, "Round T: reasons"; src/home/agent/place-resolver.ts reads "next door" likewise).
 */
function isNeighbourPhrase(tokens: readonly Token[], k: number): boolean {
  const [w, before, lead] = [tokens[k].text, tokens[k - 1]?.text, tokens[k - 2]?.text ?? ''];
  if (w === 'door' && before === 'next') return true;
  return ['road', 'street'].includes(w) && before === 'the' && ['up', 'down', 'across', 'over'].includes(lead);
}

const MODIFIED_DETERMINERS = new Set(['the', 'a', 'an', 'my', 'our', 'your', 'his', 'her', 'their', 'this', 'that']);

/**
 * "watch the snarfed garage": a word between a determiner and what the reading took, unread, that no lexicon has as a
 * word describing a place (isPlaceModifier: "the big garage", "the old shed" and "the converted loft" still act), may
 * say anything (docs/decisions.md, "Before round S: probe leaks").
 */
function isUnreadPlaceModifier(tokens: readonly Token[], k: number, from: number, used: ReadonlySet<number>): boolean {
  if (k <= from || k + 1 >= tokens.length || !used.has(k + 1) || STOP_WORDS.has(tokens[k + 1].text) || !MODIFIED_DETERMINERS.has(tokens[k - 1].text))
    return false;
  const word = tokens[k].text;
  // (a word no lexicon has that the normaliser let pass is a name or an acronym: "the MJPEG camera")
  return word.length >= 3 && !STOP_WORDS.has(word) && classifyWord(tokens[k + 1].text) !== 'time' && isEnglishWord(word) && !isPlaceModifier(word);
}

/** Words that open the end of a time ("until …"), or its start from an event ("once …", "after …"). */
const END_WORDS = new Set(['until', 'till', 'til', 'untill', 'once', 'after', 'before']);

/** tokens[k] is the first noun after an "until" (or "once", "after") the reading did not use, past determiners ("till the milkman comes"). */
function isUnreadEnd(tokens: readonly Token[], k: number, from: number, used: ReadonlySet<number>): boolean {
  let j = k - 1;
  while (j >= from && !used.has(j) && ['the', 'a', 'an', 'my', 'our', 'his', 'her', 'their', 'your'].includes(tokens[j].text)) j--;
  // ("from 10pm to flamingo": "to" right after a time the reading used opens its end)
  const toAfterTime = tokens[j]?.text === 'to' && j - 1 >= from && used.has(j - 1) && classifyWord(tokens[j - 1].text) === 'time';
  return j >= from && !used.has(j) && (END_WORDS.has(tokens[j].text) || toAfterTime);
}

/** Words of thanks said after a clock ("from 7 cheers"), never a unit. */
const SIGN_OFFS = new Set(['cheers', 'thanks', 'thx', 'mate', 'pls', 'please', 'ta']);

/**
 * "from 7 bells", "at 6 ticks": a noun right after a number the reading took as a clock, itself no word of time and
 * unread, is a unit no reader knows, so the clock is not one (docs/decisions.md, "Before round R: coverage probe").
 */
function isUnknownClockUnit(tokens: readonly Token[], k: number, from: number, used: ReadonlySet<number>): boolean {
  // ("11 till 6 I want the garage watched", "from 7 mum wants it": a subject and its verb, no unit)
  if (tokens[k].text.length < 3 || tokens[k + 1]?.isVerb) return false;
  // (only a clock that starts: "till 11 cheers" ends with a word of thanks, no unit)
  if (!['from', 'at'].includes(tokens[k - 2]?.text ?? '') || SIGN_OFFS.has(tokens[k].text)) return false;
  return k > from && tokens[k].isNoun && used.has(k - 1) && !used.has(k) && /^\d{1,2}$/.test(tokens[k - 1].text) && classifyWord(tokens[k].text) !== 'time';
}

/** Words that open an end ("till …") or a start ("once …") from an event, never a cause ("after the break-in", "when the postman comes"). */
const EVENT_END_WORDS = new Set(['until', 'till', 'til', 'untill', 'once']);

/**
 * tokens[k] is a noun, no word of time, right after "till" or "once" (past determiners): "…, we've got guests till the
 * milkman comes", "…, tenants are moving out once the kettle boils" — an end or start said inside a reason, which
 * no reader knows (docs/decisions.md, "Before round R: coverage probe").
 */
export function isEventEndWord(tokens: readonly Token[], k: number, from: number): boolean {
  if (!tokens[k].isNoun || classifyWord(tokens[k].text) === 'time') return false;
  let j = k - 1;
  while (j >= from && ['the', 'a', 'an', 'my', 'our', 'his', 'her', 'their', 'your'].includes(tokens[j].text)) j--;
  return j >= from && EVENT_END_WORDS.has(tokens[j].text);
}

/**
 * "we're off to the footy", "heading to the rodeo", "going to the bingo": where the household is going is a reason
 * for leaving, no part of what is asked (docs/decisions.md, "Before round R: follow-ups"). tokens[k] is that place:
 * at most one word after "off to", "heading to", "headed to" or "going to" and a determiner.
 */
function isOutingPlace(tokens: readonly Token[], k: number, from: number): boolean {
  let j = k - 1;
  if (j >= from && ['the', 'a', 'my', 'our', 'his', 'her', 'their'].includes(tokens[j].text)) j--;
  if (j - 1 < from || tokens[j].text !== 'to') return false;
  const before = tokens[j - 1].text;
  return before === 'off' || before === 'heading' || before === 'headed' || (before === 'going' && j !== k - 1);
}

/**
 * "back from the trip", "home from our holiday", "just got back from vacation": a time away that is
 * over names no time for the request (see docs/decisions.md, "Round H: intent").
 */
function isTimeAwayOver(tokens: readonly Token[], k: number, from: number): boolean {
  if (!['trip', 'holiday', 'holidays', 'vacation'].includes(tokens[k].text)) return false;
  let j = k - 1;
  while (j >= from && ['the', 'our', 'my', 'a', 'that', 'this', 'long', 'big', 'family', 'work', 'ski', 'school'].includes(tokens[j].text)) j--;
  return j > from && tokens[j].text === 'from' && ['back', 'home', 'returned', 'return', 'returning'].includes(tokens[j - 1].text);
}

/** The left-over words as the user would recognise them: runs of neighbouring words kept together ("half ten"). */
export function quoteUncovered(tokens: readonly Token[], uncovered: readonly Uncovered[]): string[] {
  const runs: number[][] = [];
  for (const u of uncovered) {
    const last = runs.at(-1);
    if (last && u.index - last.at(-1)! <= 2) {
      for (let k = last.at(-1)! + 1; k <= u.index; k++) last.push(k);
    } else runs.push([u.index]);
  }
  return runs.map((r) => r.map((k) => tokens[k].text).join(' '));
}
