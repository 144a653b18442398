/**
 * Tells apart a message in another language from English with typos, so the agent answers
 * "I understand English" instead of guessing (bad input). tinyld guesses the language;
 * because short English commands with typos fool it, we also require that few of the words are
 * English words the planner or compromise's lexicon knows.
 */
import nlp from 'compromise';
import { detectAll } from 'tinyld';
import { listCorrectableWords } from './vocabulary.ts';
import { SPELLING_FIXES, STOP_WORDS, getTypoDistance, isEnglishWord } from '../../platform/language/index.ts';

const lexicon = (nlp as unknown as { world(): { model: { one: { lexicon: Record<string, string> } } } }).world().model.one.lexicon;
const planWords = new Set(listCorrectableWords());

/**
 * A typo of a word the planner knows ("unmte", "wacth"), by the normaliser's own measure (a swap of
 * two letters is one slip; a home's own long names take two: "drievway"): English with slips, not
 * another language.
 */
function isNearPlanWord(word: string, placeWords: string[]): boolean {
  if (word.length < 5) return false;
  const isOneSlip = (w: string) => w[0] === word[0] && Math.abs(w.length - word.length) <= 1 && getTypoDistance(w, word) <= 1;
  for (const w of planWords) if (isOneSlip(w)) return true;
  for (const w of placeWords) if (isOneSlip(w)) return true;
  for (const w of placeWords) if (w[0] === word[0] && Math.abs(w.length - word.length) <= 2 && getTypoDistance(w, word) <= 2) return true;
  return false;
}

/** ISO 639-1 code of the message's language when it is clearly not English; undefined otherwise. */
export function detectForeignLanguage(message: string, placeWords: string[]): string | undefined {
  const text = message.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ' ');
  const letters = text.match(/\p{L}/gu) ?? [];
  if (letters.length === 0) return undefined;
  const latin = letters.filter((c) => /[a-z\u00c0-\u024f]/i.test(c)).length;
  if (latin / letters.length < 0.5) return detectAll(text)[0]?.lang ?? 'und';
  const places = new Set(placeWords);
  // room names ("garage") are shared across languages: they are no evidence either way
  const words = (text.toLowerCase().match(/[\p{L}']+/gu) ?? []).filter((w) => !places.has(w));
  if (words.length === 0) return undefined;
  const known = words.filter((w) => {
    const base = w.replace(/'s$/, '');
    return (
      STOP_WORDS.has(base) ||
      planWords.has(base) ||
      base in SPELLING_FIXES ||
      lexicon[base] !== undefined ||
      lexicon[base.replace(/(s|es|ed|ing)$/, '')] !== undefined ||
      isNearPlanWord(base, placeWords)
    );
  }).length;
  const accented = /[\u00c0-\u024f]/.test(text);
  if (known / words.length >= 0.6) return undefined;
  // only now ask tinyld: it is the slow part, and mostly English slips end above
  const top = detectAll(text)[0];
  if (top && top.lang !== 'en') return top.lang;
  return accented ? 'und' : undefined;
}

/** The verbs a request to the agent opens with, arming's among them (the general reader's are corrected by the normaliser too). */
const COMMAND_VERBS = ['arm', 'disarm', 'watch', 'monitor', 'mute', 'unmute', 'silence', 'stop', 'cancel', 'stand', 'ignore', 'leave', 'check', 'guard'];
/** The verbs, and "house" that arming takes ("dissarm the hosue"): read before the general reader corrects typos. */
const SLIP_TARGETS = [...COMMAND_VERBS, 'house'];

/**
 * "dissarm", "unmtue the hall camera", "the hosue": a word no dictionary has, one slip (a letter added, dropped,
 * changed or two swapped) from exactly one command verb (or "house"), read as that word. A real English word is never
 * rewritten, nor a word two verbs are one slip from (docs/decisions.md, "Round L household: places and words"); two
 * real words run together ("disram": "dis" and "ram") are no word of their own (docs/decisions.md, "Before round T: words").
 */
export function correctCommandVerbSlips(message: string): { text: string; slips: { from: string; to: string }[] } {
  const slips: { from: string; to: string }[] = [];
  const text = message.replace(/[a-z]{4,}/gi, (raw) => {
    const word = raw.toLowerCase();
    if (planWords.has(word) || lexicon[word] !== undefined || word in SPELLING_FIXES || isEnglishWord(word, false)) return raw;
    const near = SLIP_TARGETS.filter((v) => v.length >= 4 && v[0] === word[0] && Math.abs(v.length - word.length) <= 1 && getTypoDistance(v, word) <= 1);
    if (near.length !== 1) return raw;
    slips.push({ from: word, to: near[0] });
    return near[0];
  });
  return { text, slips };
}
