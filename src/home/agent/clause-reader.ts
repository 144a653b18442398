/**
 * Splits a normalised message into clauses ("watch the garage tonight and mute the nursery
 * camera" → two) and finds the intent of each from the cue table in vocabulary.ts.
 */
import { parseWeekday, type Token } from '../../platform/language/index.ts';
import { DEVICE_NOUNS, INTENT_CUES, type IntentKind } from './vocabulary.ts';

export interface Clause {
  from: number;
  to: number;
  intent?: IntentKind;
  /** Token span of the cue that gave the intent, and the indexes of its own words (not the gaps). */
  cue?: { start: number; end: number; words: number; matched: number[] };
  /** "i mean the back door sensor": replaces what the previous clause was about. */
  correction: boolean;
  /** Separated from the previous clause by a sentence end rather than a comma or "and". */
  newSentence: boolean;
  /** Introduced by "but" / "except" / "though": a contrast with the clause before. */
  contrast: boolean;
}

const BE_FORMS = new Set(['is', 'are', 'was', 'were', 'am', 'be', 'been', "'s", "'re"]);
const CONJUNCTIONS = new Set(['and', 'then', 'also', 'plus']);
/** Contrast splits only when what follows has a verb of its own ("…but keep the driveway"); "everything but the nursery" stays one clause. */
const CONTRASTS = new Set(['but', 'though', 'although', 'however', 'whereas']);
const MAX_GAP = 6;

interface CompiledCue {
  intent: IntentKind;
  parts: (string[] | null)[]; // null = gap
  words: number;
  order: number;
}

const compiledCues: CompiledCue[] = INTENT_CUES.flatMap(({ intent, cues }, groupIndex) =>
  cues.map((cue, k) => {
    const parts = cue.split(' ').map((p) => (p === '…' ? null : p.split('|')));
    return { intent, parts, words: parts.filter(Boolean).length, order: groupIndex * 100 + k };
  }),
);

function matchesWord(token: Token, alternatives: string[]): boolean {
  const canonical = BE_FORMS.has(token.text) ? 'be' : token.root;
  return alternatives.includes(token.text) || alternatives.includes(canonical);
}

/** Matches cue parts from token i; returns the end index or -1, filling `matched` with the cue words' indexes. */
function matchFrom(tokens: Token[], i: number, to: number, parts: (string[] | null)[], skip: Set<number>, matched: number[] = []): number {
  let k = i;
  matched.length = 0;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p];
    if (part === null) {
      const nextPart = parts[p + 1]!;
      let found = -1;
      for (let g = k; g < Math.min(to, k + MAX_GAP + 1); g++) {
        if (!skip.has(g) && matchesWord(tokens[g], nextPart)) {
          found = g;
          break;
        }
      }
      if (found < 0) return -1;
      matched.push(found);
      k = found + 1;
      p++;
      continue;
    }
    if (k >= to || skip.has(k) || !matchesWord(tokens[k], part)) return -1;
    matched.push(k);
    k++;
  }
  return k;
}

/** Whether each word part of a cue has one of its alternatives among the clause's words (plain loops: this runs for every cue of every clause). */
function hasEveryPart(parts: (string[] | null)[], present: Set<string>): boolean {
  for (const part of parts) {
    if (part === null) continue;
    let found = false;
    for (const w of part) {
      if (present.has(w)) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

/** "the guard is back", "our guard": the person, a reason said beside the request, not a request to guard (docs/decisions.md, "Before round Q: words"). */
function isPersonNounGuard(tokens: Token[], i: number): boolean {
  return (tokens[i].text === 'guard' || tokens[i].text === 'guards') && i > 0 && DETERMINERS.has(tokens[i - 1].text);
}
const DETERMINERS = new Set(['the', 'a', 'our', 'my', 'your', 'their', 'his', 'her']);

/** Pronouns of someone told about ("he's dropping the keys off", "someone's turning off the water"), never the agent. */
const THIRD_PERSONS = new Set(['he', 'she', 'they', 'someone', 'somebody', 'everyone', 'everybody']);

/** Words that may open a clause before its subject ("…, because the guy is dropping off a pallet"). */
const SUBJECT_OPENERS = new Set(['and', 'but', 'because', 'cause', 'cos', 'coz', 'as', 'since', 'so']);

/**
 * "…, guy's dropping off a pallet", "…, my brother is turning off the water": a cue said as "is …ing" after the
 * subject that opens its part of the message (at most two nouns after a determiner, or "he", "someone") tells what
 * someone else is doing, never asks for it (docs/decisions.md, "Before round S: probe leaks"). "are you watching …"
 * opens with its verb, a question.
 */
function isNarratedCue(tokens: Token[], i: number, from: number): boolean {
  if (!tokens[i].text.endsWith('ing') || i - 2 < from || !BE_FORMS.has(tokens[i - 1].text)) return false;
  let start = i - 1;
  while (start - 1 >= from && i - start < 3 && !tokens[start - 1].breakAfter && tokens[start - 1].isNoun && !tokens[start - 1].isVerb) start--;
  if (start === i - 1 && THIRD_PERSONS.has(tokens[i - 2].text)) start = i - 2;
  if (start === i - 1 || ['you', 'i', 'we', 'it'].includes(tokens[start].text)) return false;
  if (start - 1 >= from && DETERMINERS.has(tokens[start - 1].text)) start--;
  // (the subject opens the clause, a sentence or a part after a comma)
  const before = tokens[start - 1];
  return (
    start === from || !before || Boolean(before.breakAfter) || (SUBJECT_OPENERS.has(before.text) && (start - 2 < from || Boolean(tokens[start - 2].breakAfter)))
  );
}

/** Verbs of device control: Vigil watches, it never locks, opens or sets anything (src/home/agent/vocabulary.ts has the rest). */
const DEVICE_VERBS = new Set(['lock', 'unlock', 'open', 'close', 'shut', 'dim', 'brighten']);
/** Verbs that set a device when said with one ("turn the heating down", "switch the lights off"). */
const SETTING_VERBS = new Set(['turn', 'switch', 'set', 'put']);

/**
 * "lock the shutter at 6", "turn the heating down a notch": a part that opens with a verb of device control. Joined
 * to a request ("mute the till camera and lock the shutter at 6") it is a request of its own, which Vigil cannot do,
 * never more words of the request before it (docs/decisions.md, "Round S: places").
 */
export function opensDeviceControl(tokens: Token[], from: number, to: number): boolean {
  const first = tokens[from];
  if (!first?.isVerb) return false;
  if (DEVICE_VERBS.has(first.text)) return true;
  return SETTING_VERBS.has(first.text) && tokens.slice(from + 1, to).some((t) => DEVICE_NOUNS.has(t.text));
}

function opensDeviceRequest(tokens: Token[], from: number, to: number): boolean {
  return CONJUNCTIONS.has(tokens[from - 1]?.text ?? '') && opensDeviceControl(tokens, from, to);
}

/** The strongest intent cue in tokens[from, to): most cue words, then the table's order. */
export function findIntent(tokens: Token[], from: number, to: number, skip: Set<number> = new Set()): Pick<Clause, 'intent' | 'cue'> {
  let best: { cue: CompiledCue; start: number; end: number; matched: number[] } | undefined;
  const matched: number[] = [];
  // only cues whose every word occurs in the clause can match: skips most of the table cheaply
  const present = new Set<string>();
  for (let i = from; i < to; i++) {
    present.add(tokens[i].text);
    present.add(BE_FORMS.has(tokens[i].text) ? 'be' : tokens[i].root);
  }
  for (const cue of compiledCues) {
    if (!hasEveryPart(cue.parts, present)) continue;
    for (let i = from; i < to; i++) {
      // "the driveway and porch watches": the noun alone is no request to watch
      if (cue.parts.length === 1 && tokens[i].text === 'watches' && tokens[i].isNoun) continue;
      if (cue.parts.length === 1 && isPersonNounGuard(tokens, i)) continue;
      if (isNarratedCue(tokens, i, from)) continue;
      const end = matchFrom(tokens, i, to, cue.parts, skip, matched);
      if (end < 0) continue;
      if (!best || cue.words > best.cue.words || (cue.words === best.cue.words && cue.order < best.cue.order)) {
        best = { cue, start: i, end, matched: [...matched] };
      }
      break;
    }
  }
  return best ? { intent: best.cue.intent, cue: { start: best.start, end: best.end, words: best.cue.words, matched: best.matched } } : {};
}

/** First words of the cues: "watch" may be tagged a noun, but after "but" it starts a request. */
const CUE_VERBS = new Set(
  compiledCues
    .map((c) => c.parts[0])
    .filter((p): p is string[] => p !== null)
    .flat()
    .filter((w) => !['be', 'what', 'who', 'how', 'i', 'no', 'do', 'can', 'may', 'any', 'anything', 'not', 'ok', 'okay', 'fine', 'is'].includes(w)),
);

/** A verb (not a form of "be") within the next few words, before the next conjunction. */
function hasOwnVerb(tokens: Token[], from: number): boolean {
  for (let k = from; k < Math.min(tokens.length, from + 5); k++) {
    const t = tokens[k];
    if (CONJUNCTIONS.has(t.text) || CONTRASTS.has(t.text)) return false;
    if ((t.isVerb && !BE_FORMS.has(t.text) && t.root !== 'be') || CUE_VERBS.has(t.text)) return true;
    if (t.breakAfter) return false;
  }
  return false;
}

/** "stop at 5am", "end at 7": an end time, not a request to stop. "until we're back": an end, not a homecoming. */
export function findTimeVerbs(tokens: Token[]): Set<number> {
  const skip = new Set<number>();
  tokens.forEach((t, i) => {
    if (!['until', 'till', 'til', 'when', 'while', 'before', 'once', 'after'].includes(t.text)) return;
    const end = tokens.slice(i + 1, i + 6).findIndex((x) => x.text === 'back' || x.text === 'home');
    if (end >= 0) for (let k = i + 1; k <= i + 1 + end; k++) skip.add(k);
  });
  // "while we're in Lanzarote", "when we're in Spain": where the household will be, not where the home is
  tokens.forEach((t, i) => {
    if (!['while', 'whilst', 'when'].includes(t.text) || !['we', 'i', 'they'].includes(tokens[i + 1]?.text ?? '')) return;
    const at = tokens.slice(i + 1, i + 4).findIndex((x) => x.text === 'in');
    if (at >= 0) for (let k = i + 1; k <= i + 1 + at; k++) skip.add(k);
  });
  // "we're back on the 15th around 8pm", "I'm home at 6 tomorrow": a coming back said with its day or
  // time to come is the end of a time away, not a homecoming now (docs/decisions.md, "Round H: the time grammar")
  tokens.forEach((t, i) => {
    if (t.text !== 'back' && t.text !== 'home') return;
    const [a, b] = [tokens[i + 1]?.text ?? '', tokens[i + 2]?.text ?? ''];
    const future = /^(tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday|next)$/;
    const dated =
      future.test(a) ||
      (['on', 'at', 'around', 'by', 'about'].includes(a) && (/^\d/.test(b) || future.test(b) || (b === 'the' && /^\d/.test(tokens[i + 3]?.text ?? ''))));
    if (!dated) return;
    for (let k = Math.max(0, i - 3); k <= i; k++)
      if (['we', 'i', 'are', 'am', 'be', 'will', 'get', 'getting', 'come', 'coming', 'back', 'home'].includes(tokens[k].text)) skip.add(k);
  });
  tokens.forEach((t, i) => {
    // ("the porch one should stop at 4": said of a watch, a request to change it, read from the cue)
    if (
      ['stop', 'end', 'finish'].includes(t.text) &&
      ['at', 'by', 'around'].includes(tokens[i + 1]?.text ?? '') &&
      /\d|noon|midnight|sunrise|dawn/.test(tokens[i + 2]?.text ?? '') &&
      !['can', 'could', 'should', 'will', 'must'].includes(tokens[i - 1]?.text ?? '')
    ) {
      skip.add(i);
    }
  });
  return skip;
}

/** Words that open a question of its own after a comma or "and" ("…, and did anything trip the sensor?"). */
const QUESTION_OPENERS = new Set(['did', 'was', 'were', 'has', 'have', 'does', 'is', 'are', 'what', 'when', 'where', 'who', 'which', 'why', 'how']);

/** "actually no, keep the garden one", "actually leave the shed": keep or leave after the words that open a change of mind. */
export function keepsAfterAll(words: readonly string[]): boolean {
  let k = 0;
  while (['actually', 'no', 'wait', 'oh', 'hmm', 'on', 'second', 'thoughts', 'thought', 'just'].includes(words[k] ?? '')) k++;
  // (a change of mind said first: "keep the porch camera on it" alone is a request of its own)
  return k > 0 && words.slice(0, k).some((w) => w !== 'just') && (words[k] === 'keep' || words[k] === 'leave');
}

/** "I meant…", "sorry, …", "actually …", "no wait, …": a piece that takes back what the clause before it said. */
function opensCorrection(tokens: Token[], from: number, intent: string | undefined, afterAClause: boolean): boolean {
  const first = tokens[from]?.text;
  return (
    (first === 'i' && ['mean', 'meant'].includes(tokens[from + 1]?.text)) ||
    first === 'sorry' ||
    first === 'rather' ||
    first === 'oops' ||
    // ("…, actually keep the garden one": keeping is no new object for the request before, see keepsAfterAll)
    (first === 'actually' && afterAClause && !intent && !keepsAfterAll(tokens.slice(from, from + 8).map((t) => t.text))) ||
    // "watch the garage, no wait, the shed": taken back inside one message (see docs/decisions.md, "Round H: intent")
    (first === 'no' &&
      afterAClause &&
      (!intent || intent === 'help') &&
      ['sorry', 'wait', 'actually', 'i', 'rather', 'make'].includes(tokens[from + 1]?.text ?? ''))
  );
}

/** "we're off to Goa tomorrow so watch the balcony…": "so" between a reason and a request of its own (docs/decisions.md, "Before round L"). */
function opensRequestAfterReason(tokens: Token[], i: number, start: number, skip: Set<number>): boolean {
  if (tokens[i].text !== 'so' || i <= start || tokens[i + 1]?.text === 'that' || findIntent(tokens, start, i, skip).intent) return false;
  return findIntent(tokens, i + 1, tokens.length, skip).intent !== undefined && hasOwnVerb(tokens, i + 1);
}

/**
 * "…and uh the porch too same thing thanks": thanks that close a message after a request are no help request of
 * their own, so the piece they end glues back to the request before it (docs/decisions.md, "Round Q: places").
 */
function findClosingThanks(tokens: Token[]): number[] {
  let n = tokens.length;
  // ("thanks mate", "cheers buddy": a term of address after the thanks is theirs)
  const address = ['mate', 'buddy', 'pal', 'love', 'folks', 'guys'].includes(tokens[n - 1]?.text ?? '') && !tokens[n - 2]?.breakAfter;
  if (address) n -= 1;
  // ("thanks so much", "thank you very much", "thanks a lot")
  if (['much', 'lot'].includes(tokens[n - 1]?.text ?? '') && ['so', 'very', 'a'].includes(tokens[n - 2]?.text ?? '')) n -= 2;
  const last = tokens[n - 1]?.text;
  // (", thanks" after a comma is a piece of its own already)
  const at = last === 'you' ? n - 2 : n - 1;
  // ("sleepout tonight thanks": a place and its time are a request of three words)
  if (n < 3 || tokens[at - 1]?.breakAfter) return [];
  const found = last === 'thanks' || last === 'cheers' || last === 'thx' ? [n - 1] : last === 'you' && tokens[n - 2].text === 'thank' ? [n - 2, n - 1] : [];
  return found.length && address ? [...found, tokens.length - 1] : found;
}

/**
 * "…, we're in the garage", "I'm out in the den.": where someone is, said of a place of this home as a part of its own,
 * is no city the home is in, so its words cue no change of location; "we're in Leeds" still may. Said with no comma
 * after a mute it is a trailing reason (side-clauses.ts) (docs/decisions.md, "Before round T: words").
 */
function opensPart(tokens: Token[], i: number): boolean {
  const before = tokens[i - 1];
  return !before || Boolean(before.breakAfter) || (SUBJECT_OPENERS.has(before.text) && (!tokens[i - 2] || Boolean(tokens[i - 2].breakAfter)));
}

function findWhereaboutsInHome(tokens: Token[], hasPlace: (from: number, to: number) => boolean): number[] {
  const out: number[] = [];
  tokens.forEach((t, i) => {
    if (!['we', 'i'].includes(t.text) || !BE_FORMS.has(tokens[i + 1]?.text ?? '') || !opensPart(tokens, i)) return;
    let at = i + 2;
    if (['all', 'both', 'just', 'out', 'up', 'down', 'back'].includes(tokens[at]?.text ?? '')) at++;
    if (!['in', 'at'].includes(tokens[at]?.text ?? '')) return;
    let end = at + 1;
    while (end < tokens.length && end - at < 5 && !tokens[end - 1].breakAfter) end++;
    if (hasPlace(at + 1, end)) for (let k = i; k <= at; k++) out.push(k);
  });
  return out;
}

/**
 * Splits at sentence ends, commas and conjunctions, then glues back pieces that carry no request
 * of their own ("mute the backyard and living room cameras", "…, sunset to sunrise, every night").
 * A piece with its own place and its own time after a clause with a time stays separate
 * ("watch the garage tonight, the porch till midnight").
 */
export function splitClauses(tokens: Token[], hasPlace: (from: number, to: number) => boolean, hasTime: (from: number, to: number) => boolean): Clause[] {
  const skip = findTimeVerbs(tokens);
  for (const k of findClosingThanks(tokens)) skip.add(k);
  for (const k of findWhereaboutsInHome(tokens, hasPlace)) skip.add(k);
  const pieces: { from: number; to: number; newSentence: boolean; contrast: boolean }[] = [];
  let start = 0;
  let newSentence = true;
  let contrast = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if ((CONTRASTS.has(t.text) && i > start && hasOwnVerb(tokens, i + 1)) || opensRequestAfterReason(tokens, i, start, skip)) {
      pieces.push({ from: start, to: i, newSentence, contrast });
      newSentence = false;
      contrast = CONTRASTS.has(t.text);
      start = i + 1;
      continue;
    }
    // "between 7 and 9", "saturday and sunday night": one time, not two clauses
    const betweenTimes =
      t.text === 'and' &&
      (tokens.slice(Math.max(start, i - 3), i).some((x) => x.text === 'between') ||
        (parseWeekday(tokens[i - 1]?.text ?? '') !== undefined && parseWeekday(tokens[i + 1]?.text ?? '') !== undefined));
    if (CONJUNCTIONS.has(t.text) && i > start && !betweenTimes) {
      pieces.push({ from: start, to: i, newSentence, contrast });
      newSentence = false;
      contrast = false;
      start = i + 1;
      continue;
    }
    if (CONJUNCTIONS.has(t.text) && i === start) {
      start = i + 1;
      continue;
    }
    if (t.breakAfter) {
      pieces.push({ from: start, to: i + 1, newSentence, contrast });
      newSentence = t.breakAfter === '.';
      contrast = false;
      start = i + 1;
    }
  }
  if (start < tokens.length) pieces.push({ from: start, to: tokens.length, newSentence, contrast });

  const clauses: Clause[] = [];
  for (const piece of pieces) {
    if (piece.from >= piece.to) continue;
    const found = findIntent(tokens, piece.from, piece.to, skip);
    const first = tokens[piece.from]?.text;
    const correction = opensCorrection(tokens, piece.from, found.intent, clauses.length > 0);
    const prev = clauses.at(-1);
    // "watch the deck tonight, and did anything set off the workshop sensor today?": a question of its own
    const question =
      piece.from > 0 &&
      QUESTION_OPENERS.has(first ?? '') &&
      !(['what', 'how'].includes(first ?? '') && tokens[piece.from + 1]?.text === 'about') &&
      (tokens[piece.from - 1].breakAfter !== '' || CONJUNCTIONS.has(tokens[piece.from - 1].text));
    const separate =
      found.intent !== undefined ||
      correction ||
      !prev ||
      piece.newSentence ||
      piece.contrast ||
      question ||
      opensDeviceRequest(tokens, piece.from, piece.to) ||
      // ("stop all the watches, actually leave the shed": what is kept is a clause of its own)
      keepsAfterAll(tokens.slice(piece.from, piece.from + 8).map((t) => t.text)) ||
      (hasPlace(piece.from, piece.to) && hasTime(piece.from, piece.to) && hasTime(prev.from, prev.to));
    if (separate) {
      clauses.push({ from: piece.from, to: piece.to, ...found, correction, newSentence: piece.newSentence, contrast: piece.contrast });
    } else {
      prev.to = piece.to;
      if (!prev.intent) Object.assign(prev, findIntent(tokens, prev.from, prev.to, skip));
    }
  }
  // a cue may only complete once pieces are glued ("leave the nursery and the living room alone")
  for (const c of clauses) {
    const again = findIntent(tokens, c.from, c.to, skip);
    if (again.intent && (!c.cue || (again.cue && again.cue.words > c.cue.words))) Object.assign(c, again);
  }
  return clauses;
}
