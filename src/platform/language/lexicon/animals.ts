/**
 * Which animal a noun names, read from WordNet (like places.ts reads rooms): the cameras tell
 * cats and dogs (detection type `animal`, subtype cat or dog), so a question about a "pooch",
 * a "tabby" or a "hound" is about those, "pet" or "animal" about either, and a "bird" or a "fox"
 * about something the cameras do not report, which the caller refuses rather than answer "none".
 * Only a word's most frequent sense counts: "guy" (also a WordNet sense of "cat") stays a person.
 */
import { getHypernymClosure, getNounSenses, type Synset } from './wordnet.ts';

/** cat, dog: a kind the cameras report; animal: either ("pet"); other: an animal they do not report. */
export type AnimalWordKind = 'cat' | 'dog' | 'animal' | 'other';

/** Words whose WordNet first sense misses what people mean ("kitty" is a pool of money there, "kitten" a young mammal). */
const OWN_WORDS: Record<string, AnimalWordKind> = {
  kitty: 'cat',
  kitties: 'cat',
  kitten: 'cat',
  kittens: 'cat',
  kittie: 'cat',
  pup: 'dog',
  pups: 'dog',
  doggo: 'dog',
  doggos: 'dog',
  moggy: 'cat',
  moggie: 'cat',
  moggies: 'cat',
  // Australian: a chicken, which the cameras do not report
  chook: 'other',
  chooks: 'other',
};

interface Anchors {
  animal: number;
  dog: number;
  cat: number;
  domesticCat: number;
  generic: Set<number>;
}

let anchors: Anchors | undefined;

function first(lemma: string): Synset {
  const s = getNounSenses(lemma)[0];
  if (!s) throw new Error(`WordNet has no noun "${lemma}"`);
  return s;
}

function getAnchors(): Anchors {
  anchors ??= {
    animal: first('animal').offset,
    dog: first('dog').offset,
    cat: first('cat').offset,
    domesticCat: first('domestic cat').offset,
    // words for "an animal" in general: a question with them is about cats and dogs alike
    generic: new Set(['animal', 'domestic animal', 'pet', 'critter'].map((w) => first(w).offset)),
  };
  return anchors;
}

const cache = new Map<string, AnimalWordKind | null>();

/** The animal a word names, or null when its usual sense is no animal. */
export function readAnimalWord(word: string): AnimalWordKind | null {
  const w = word.toLowerCase();
  if (OWN_WORDS[w]) return OWN_WORDS[w];
  if (cache.has(w)) return cache.get(w)!;
  const sense = getNounSenses(w)[0];
  let kind: AnimalWordKind | null = null;
  if (sense) {
    const a = getAnchors();
    const above = new Set([sense.offset, ...getHypernymClosure(sense.offset)]);
    // "cat" itself is the feline family in WordNet; below it only house cats are cats (a lion is not)
    if (sense.offset === a.cat || above.has(a.domesticCat)) kind = 'cat';
    else if (above.has(a.dog)) kind = 'dog';
    else if (a.generic.has(sense.offset)) kind = 'animal';
    else if (above.has(a.animal)) kind = 'other';
  }
  cache.set(w, kind);
  return kind;
}

/**
 * True when one of a noun's frequent senses is an animal ("chicken", first the meat in WordNet; "hen"; "chook"): for
 * a place named after the animal it holds (the chicken coop), where the first sense alone would miss it.
 */
export function isAnimalNoun(word: string): boolean {
  const w = word.toLowerCase();
  if (OWN_WORDS[w]) return true;
  const animal = getAnchors().animal;
  return getNounSenses(w)
    .slice(0, 3)
    .some((s) => s.offset === animal || getHypernymClosure(s.offset).includes(animal));
}
