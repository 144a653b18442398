/**
 * Fixed phrases joined by "or" ("trick or treating", "more or less", "sooner or later", "rain or shine"): one activity
 * or one hedge said in a reason or aside, not a choice of two things nor a second request (docs/decisions.md, "Before
 * round T: words"). WordNet's multi-word lemmas ("trick_or_treat", "give_or_take", "come_hell_or_high_water") are the
 * lexicon; the few common idioms it lacks are listed here as phrases, never as sentences.
 */
import { getBaseForms, isLexiconLemma } from './wordnet.ts';

/** Idioms with "or" that WordNet 3.1 has no lemma for. */
const IDIOMS: ReadonlySet<string> = new Set([
  'sooner_or_later',
  'rain_or_shine',
  'come_rain_or_shine',
  'one_way_or_another',
  'one_way_or_the_other',
  'now_or_never',
  'sink_or_swim',
  'do_or_die',
  'win_or_lose',
  'hit_or_miss',
  'whether_or_not',
  'dead_or_alive',
]);

const LONGEST = 6;

function isFixedPhrase(words: readonly string[]): boolean {
  const head = words.slice(0, -1).join('_');
  // ("trick or treating": the last word may be inflected)
  return getBaseForms(words[words.length - 1]).some((last) => {
    const lemma = head ? `${head}_${last}` : last;
    return IDIOMS.has(lemma) || isLexiconLemma(lemma);
  });
}

/** Whether words[k] belongs to a fixed phrase with "or" inside it ("the kids are out trick or treating": trick, or, treating). */
export function isInFixedOrPhrase(words: readonly string[], k: number): boolean {
  for (let from = Math.max(0, k - LONGEST + 1); from <= k; from++) {
    for (let to = Math.max(k + 1, from + 3); to <= Math.min(words.length, from + LONGEST); to++) {
      const or = words.indexOf('or', from);
      if (or <= from || or >= to - 1) continue;
      if (isFixedPhrase(words.slice(from, to))) return true;
    }
  }
  return false;
}
