/**
 * Whether a word said between a determiner and a place ("the big garage", "the old shed", "the converted loft") is
 * one a household uses to describe a place: an adjective WordNet has ("big", "upstairs", "heated", colours), a noun
 * ("the bike shed"), a word in common use (compromise's lexicon: "refurbished", "fenced"), or the participle of a
 * verb with several senses ("renovated"). A made-up word, or a rare verb's participle ("the snarfed garage"), is not:
 * coverage leaves it unread and the agent asks (docs/decisions.md, "Before round S: probe leaks").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCommonWord } from '../normalize.ts';
import { isLexiconNoun, locateDictionary } from './wordnet.ts';

let adjectives: Set<string> | undefined;
let verbSenses: Map<string, number> | undefined;

/** The adjective lemmas of WordNet and the sense count of each verb lemma, read once. */
function load(): { adjectives: Set<string>; verbSenses: Map<string, number> } {
  if (!adjectives || !verbSenses) {
    const dir = locateDictionary();
    adjectives = new Set();
    for (const line of readFileSync(join(dir, 'index.adj'), 'latin1').split('\n'))
      if (line && line[0] !== ' ') adjectives.add(line.slice(0, line.indexOf(' ')));
    verbSenses = new Map();
    for (const line of readFileSync(join(dir, 'index.verb'), 'latin1').split('\n')) {
      if (!line || line[0] === ' ') continue;
      const fields = line.split(' ');
      verbSenses.set(fields[0], Number(fields[2]));
    }
  }
  return { adjectives, verbSenses };
}

/** The stems an adjective or a participle may come from: "bigger" → big, "renovated" → renovate, "snarfed" → snarf. */
function stems(word: string): string[] {
  const out = [word];
  for (const [suffix, add] of [
    ['er', ''],
    ['est', ''],
    ['ed', ''],
    ['ed', 'e'],
    ['d', ''],
    ['ing', ''],
    ['ing', 'e'],
  ] as const)
    if (word.endsWith(suffix) && word.length > suffix.length + 2) out.push(word.slice(0, -suffix.length) + add);
  // doubled consonants: "bigger" → big, "stopped" → stop
  for (const s of out.slice(1)) if (s.length > 3 && s.at(-1) === s.at(-2)) out.push(s.slice(0, -1));
  return out;
}

/** True when the word may describe a place in a household's mouth (see the file comment). */
export function isPlaceModifier(word: string): boolean {
  if (!/^[a-z]+$/.test(word)) return true;
  const { adjectives, verbSenses } = load();
  if (isCommonWord(word) || isLexiconNoun(word)) return true;
  return stems(word).some((s) => adjectives.has(s) || (verbSenses.get(s) ?? 0) >= 2);
}
