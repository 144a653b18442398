/**
 * Content words a reading left over that change what was asked (see docs/decisions.md, "Round J
 * household: coverage of verbs and objects"): a second action joined to the request ("watch the
 * driveway and text my brother…", "…and book a locksmith") and a thing named as the request's object
 * that is no place, sensor or detection kind ("watch the motor in the garage", "mute the loft sensor
 * and the thingy by the back"). The tagger's parts of speech (Token.isNoun, Token.isVerb) say what a
 * word is (places are read through WordNet before this); its place in the sentence says whether the
 * request is about it. Words of a
 * statement ("we fly out on the 9th and land back on the 13th"), of a condition ("if a car pulls in")
 * or of a reason are not the request's.
 */
import type { Token } from './normalize.ts';
import { isFillerWord } from './lexicon/filler.ts';
import { STOP_WORDS } from './words.ts';

export type ContentRole = 'action' | 'thing';

/** The caller's own vocabulary. */
export interface ContentVocabulary {
  /** Words it reads ("watch", "camera", "end"): never a left-over action or thing. */
  known(token: Token): boolean;
  /** The notices it sends the user ("alert", "notification", "text"): "send me a notification" is its own way of telling. */
  notice(token: Token): boolean;
}

const COORDINATORS = new Set(['and', 'or', 'also', 'plus', 'then']);
const DETERMINERS = new Set(['the', 'a', 'an', 'my', 'our', 'your', 'his', 'her', 'their', 'its', 'this', 'that', 'these', 'those', 'some', 'another']);
/** Auxiliary and modal verbs: they open a statement or a question, never a request of their own. */
export const AUXILIARIES: ReadonlySet<string> = new Set([
  'be',
  'is',
  'are',
  'am',
  'was',
  'were',
  'been',
  'being',
  "'s",
  "'re",
  "'m",
  'have',
  'has',
  'had',
  'having',
  "'ve",
  'do',
  'does',
  'did',
  'can',
  'could',
  'will',
  'would',
  "'ll",
  "'d",
  'shall',
  'should',
  'may',
  'might',
  'must',
]);
/** A subject before the joined verb makes the sentence a statement ("we leave at 7 and get back at 9"), not a second request. */
const SUBJECTS = new Set(['i', 'we', 'he', 'she', 'they']);
/** The user as the one an action is for ("send me…", "give us…"). */
const USER = new Set(['me', 'us']);
/** A request put to the agent inside a joined part ("…and can you also do the boiler", "…and could you please feed the cat"). */
const REQUEST_FRAME = new Set(['can', 'could', 'would', 'will', 'you']);
/** "do" as a main verb with an object of its own ("…and do the hot water system"), not an auxiliary nor "do the same". */
const DO_VERBS = new Set(['do', 'does', 'did']);

/** Words of a request's cue that its object follows ("keep an eye on the …", "look out for the …"). */
const CUE_PARTICLES = new Set(['on', 'over', 'after', 'for', 'out']);

/**
 * Verbs that pass a word on: the agent's own only when the one told is the user ("tell me if…");
 * "…and tell the neighbours to move their truck", "…and ask my son to…" is nothing it can do.
 */
const RELAY_VERBS = new Set(['tell', 'ask', 'remind', 'warn', 'notify', 'text', 'message', 'call', 'ring', 'phone', 'email']);

function isContentToken(t: Token, next: Token | undefined, vocabulary: ContentVocabulary): boolean {
  const mainDo = DO_VERBS.has(t.text) && DETERMINERS.has(next?.text ?? '') && next?.text !== 'that';
  const relays = t.isVerb && RELAY_VERBS.has(t.text) && Boolean(next) && !USER.has(next?.text ?? '');
  // "…and let the dog out": "let" is the agent's own only as "let me know"
  const lets = t.text === 'let' && DETERMINERS.has(next?.text ?? '');
  return (
    /^[a-z][a-z'-]*$/.test(t.text) &&
    !isFillerWord(t.text) &&
    (!AUXILIARIES.has(t.text) || mainDo) &&
    !COORDINATORS.has(t.text) &&
    !DETERMINERS.has(t.text) &&
    (!vocabulary.known(t) || mainDo || relays || lets)
  );
}

/** The role of a content word tokens[k] (of the clause tokens[from, to)) that the reading did not use, or undefined. */
export function classifyContentWord(
  tokens: readonly Token[],
  k: number,
  from: number,
  to: number,
  used: ReadonlySet<number>,
  vocabulary: ContentVocabulary,
): ContentRole | undefined {
  const t = tokens[k];
  if (!isContentToken(t, tokens[k + 1], vocabulary)) return undefined;
  // ("…and do the same for the shed" repeats the request)
  if (DO_VERBS.has(t.text) && tokens[k + 2]?.text === 'same') return undefined;
  // ("…and send me a notification if anyone comes": what the agent does anyway)
  const tellsUser = USER.has(tokens[k + 1]?.text ?? '') && tokens.slice(k + 2, Math.min(to, k + 5)).some((x) => vocabulary.notice(x));
  // "…and email the landlord": a word the tagger took for a noun, opening a part with an object of its own, is its verb
  const verb =
    t.isVerb ||
    DO_VERBS.has(t.text) ||
    (t.isNoun && !STOP_WORDS.has(t.text) && DETERMINERS.has(tokens[k + 1]?.text ?? '') && !DETERMINERS.has(tokens[k - 1]?.text ?? ''));
  if (verb && !tellsUser && isJoinedAction(tokens, k, from, used)) return 'action';
  // "heat the sauna for 7pm": the request's own verb is none the agent reads, whatever its object
  if (verb && !tellsUser && isOpeningVerb(tokens, k, from, used)) return 'action';
  if (t.isNoun && !t.isVerb && !STOP_WORDS.has(t.text) && isRequestObject(tokens, k, from, to, used, vocabulary)) return 'thing';
  return undefined;
}

/**
 * "…and text my brother", "…and then just book a locksmith", "…and can you also do the boiler": a verb
 * that opens a part joined to a request with no subject of its own (the agent asked is none).
 */
function isJoinedAction(tokens: readonly Token[], k: number, from: number, used: ReadonlySet<number>): boolean {
  let j = k - 1;
  const skipped = (x: Token) => (isFillerWord(x.text) || REQUEST_FRAME.has(x.text) || COORDINATORS.has(x.text)) && !SUBJECTS.has(x.text);
  // (the last coordinator before the verb, past a request frame: "and can you also | do")
  while (j >= from && !used.has(j) && skipped(tokens[j]) && !(COORDINATORS.has(tokens[j].text) && !REQUEST_FRAME.has(tokens[j - 1]?.text ?? ''))) j--;
  if (j < from || used.has(j) || !COORDINATORS.has(tokens[j].text)) return isFramedAfterBreak(tokens, k, from, used);
  while (j - 1 >= from && !used.has(j - 1) && COORDINATORS.has(tokens[j - 1].text)) j--;
  return j > from && !tokens.slice(from, j).some((x) => SUBJECTS.has(x.text));
}

/**
 * "watch the bin store tonight, can you scare the crows off?": a request put to the agent ("can you", "could you")
 * right after a break in the message opens a part of its own, as "and" does (docs/decisions.md, "Before round T:
 * probe leaks").
 */
function isFramedAfterBreak(tokens: readonly Token[], k: number, from: number, used: ReadonlySet<number>): boolean {
  let j = k - 1;
  while (j > from && !used.has(j) && isFillerWord(tokens[j].text) && tokens[j].text !== 'you') j--;
  if (tokens[j]?.text !== 'you' || !['can', 'could', 'would', 'will'].includes(tokens[j - 1]?.text ?? '') || used.has(j) || used.has(j - 1)) return false;
  const before = tokens[j - 2];
  return j - 2 >= from && Boolean(before?.breakAfter) && !tokens.slice(from, j - 1).some((x) => SUBJECTS.has(x.text));
}

/** General verbs that frame a request of the agent's own ("use the garage sensor tomorrow", "set the porch for tonight"). */
const FRAMING_VERBS = new Set([
  'use',
  'set',
  'put',
  'get',
  'make',
  'have',
  'keep',
  'start',
  'begin',
  'turn',
  'switch',
  'run',
  'let',
  'give',
  'try',
  'go',
  'need',
  'want',
]);

/** Verbs of a pause, not a request: "no wait, half ten", "hang on, from 11", "hold on, till 6 only". */
export const HESITATION_VERBS: ReadonlySet<string> = new Set(['wait', 'hang', 'hold']);

/** tokens[k] opens the clause: only filler and a request frame ("please", "can you") before it, none of them read. */
function isOpeningVerb(tokens: readonly Token[], k: number, from: number, used: ReadonlySet<number>): boolean {
  // (a request's verb is said in its base form: "heard something down there" is a statement)
  const text = tokens[k].text;
  if (FRAMING_VERBS.has(text) || FRAMING_VERBS.has(tokens[k].root) || HESITATION_VERBS.has(text) || tokens[k].root !== text) return false;
  for (let j = from; j < k; j++) if (used.has(j) || !(isFillerWord(tokens[j].text) || REQUEST_FRAME.has(tokens[j].text))) return false;
  return true;
}

/**
 * "watch the motor in the garage", "…and also the thingy by the back": a noun in the noun phrase the
 * request's verb takes, or one joined to a place the request names; not the subject of a clause of
 * its own ("…and the kids are asleep").
 */
function isRequestObject(tokens: readonly Token[], k: number, from: number, to: number, used: ReadonlySet<number>, vocabulary: ContentVocabulary): boolean {
  let j = k - 1;
  const isModifier = (x: Token) => DETERMINERS.has(x.text) || (!x.isVerb && !STOP_WORDS.has(x.text) && !AUXILIARIES.has(x.text));
  while (j >= from && !used.has(j) && !COORDINATORS.has(tokens[j].text) && isModifier(tokens[j])) j--;
  if (j < from) return false;
  const head = tokens[j];
  // ("keep an eye on the gizmo": the particle after the cue's last word opens its object too)
  const opens = used.has(j)
    ? (head.isVerb && !head.isNoun) || CUE_PARTICLES.has(head.text)
    : (CUE_PARTICLES.has(head.text) && used.has(j - 1) && vocabulary.known(tokens[j - 1])) ||
      (COORDINATORS.has(head.text) && isAfterUsed(tokens, j, from, used));
  if (!opens) return false;
  let e = k + 1;
  while (e < to && tokens[e].isNoun && !used.has(e)) e++;
  return !(e < to && (AUXILIARIES.has(tokens[e].text) || (tokens[e].isVerb && !tokens[e].isNoun)));
}

/** The coordinator at j follows a word the reading used ("the loft sensor and also …"). */
function isAfterUsed(tokens: readonly Token[], j: number, from: number, used: ReadonlySet<number>): boolean {
  let b = j - 1;
  while (b >= from && !used.has(b) && (COORDINATORS.has(tokens[b].text) || isFillerWord(tokens[b].text))) b--;
  return b >= from && used.has(b);
}
