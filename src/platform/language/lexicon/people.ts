/**
 * People words from WordNet: whether a word names a kind of person ("nanny", "son",
 * "friend", "grandma"), and whether two words name the same kind ("grandma" and "grandmother",
 * "nanny" and "nursemaid"), so a household's free-text note about someone ("grandmother") answers
 * to the word a message uses ("when grandma gets here").
 */
import { readRegionalNoun } from './regional.ts';
import { findSense, getHypernymClosure, getNounBaseForms, getNounSenses } from './wordnet.ts';

let personOffset: number | undefined;

function getPersonOffset(): number | undefined {
  personOffset ??= findSense('person', 'human being')?.offset;
  return personOffset;
}

/** A noun with a sense under person.n.01 ("nanny", "son", "friend", "stranger"); not a name or a place. */
/** Short words for people that WordNet does not list as such ("my ex's house"). */
const SHORT_PERSON_WORDS = new Set(['ex', 'bf', 'gf', 'bff']);

export function isPersonWord(word: string): boolean {
  if (SHORT_PERSON_WORDS.has(word)) return true;
  // ("the sparky is doing the wiring": a trade's regional name is its plain word, lexicon/regional.ts)
  const plain = readRegionalNoun(word);
  if (plain && plain !== word) return isPersonWord(plain);
  const person = getPersonOffset();
  if (person === undefined || word.length < 3) return false;
  return getNounSenses(word).some((s) => s.offset === person || getHypernymClosure(s.offset).includes(person));
}

/** The same word, or two words that share a person sense ("grandma" ~ "grandmother"). */
export function isSamePersonWord(a: string, b: string): boolean {
  const fa = getNounBaseForms(a);
  const fb = new Set(getNounBaseForms(b).map((f) => f.replace(/_/g, ' ')));
  if (fa.some((f) => fb.has(f))) return true;
  const person = getPersonOffset();
  return getNounSenses(a).some((s) => (s.offset === person || getHypernymClosure(s.offset).includes(person!)) && s.lemmas.some((l) => fb.has(l)));
}
