/**
 * Which words name places at all, and how close a phrase's meaning is to a place's name, from
 * WordNet: a nursery is a baby's room, a drive is a driveway, a garden is "a
 * yard or lawn adjoining a house", a sitting room or front room is a living room. What WordNet
 * lacks for homes is in the small household vocabulary below, as WordNet lemmas to read a phrase
 * as — not phrase rules.
 */
import { findSense, getHypernymClosure, getNounSenses, getSynset, type Synset } from './wordnet.ts';

/**
 * Household words WordNet does not have in the sense a home means: each maps to the WordNet
 * lemmas it stands for. British "lounge" is a living room and the "garden" the backyard; a kids'
 * room is a child's room; a front door is the entrance a porch covers.
 */
export const HOUSEHOLD_TERMS: Record<string, string[]> = {
  lounge: ['living room'],
  // British: the garden is the backyard
  garden: ['backyard', 'garden'],
  'kids room': ["child's room"],
  'kid room': ["child's room"],
  'children room': ["child's room"],
  'childrens room': ["child's room"],
  'baby room': ["baby's room"],
  'front door': ['front door', 'porch'],
  'front entrance': ['front door', 'porch'],
  'back garden': ['backyard'],
  'back yard': ['backyard'],
  'rear garden': ['backyard'],
  'front garden': ['front yard'],
  'drive way': ['driveway'],
  'car port': ['carport'],
  // the room where the washing is done, by its regional names: WordNet has only "washhouse" for it
  // (and "laundry" first as the washing itself); "washroom" stays the toilet (docs/decisions.md, "Before round S: words")
  laundry: ['laundry'],
  'laundry room': ['laundry'],
  'utility room': ['laundry'],
  'wash house': ['laundry'],
  'family room': ['living room'],
};

interface PlaceRoot {
  lemma: string;
  gloss: string;
}

/** Senses whose hyponyms are places a home can have: built structures, ways in and through, grounds, water. */
const PLACE_ROOTS: PlaceRoot[] = [
  { lemma: 'structure', gloss: 'a thing constructed' },
  { lemma: 'way', gloss: 'road or path' },
  { lemma: 'yard', gloss: 'enclosed land around a house' },
  { lemma: 'entrance', gloss: 'provides access' },
  // a pool, a pond, a lawn: what a home's grounds hold besides buildings
  { lemma: 'excavation', gloss: 'a hole in the ground' },
  { lemma: 'body of water', gloss: 'the part of the earth' },
  { lemma: 'tract', gloss: 'an extended area of land' },
  // the laundry as a room (the washhouse under it): WordNet files it as a workplace, no structure
  { lemma: 'laundry', gloss: 'workplace where clothes' },
];

let rootOffsets: Set<number> | undefined;

function getRootOffsets(): Set<number> {
  if (!rootOffsets) {
    rootOffsets = new Set();
    for (const r of PLACE_ROOTS) {
      const s = findSense(r.lemma, r.gloss);
      if (s) rootOffsets.add(s.offset);
    }
  }
  return rootOffsets;
}

const placeSenseCache = new Map<number, boolean>();

function isPlaceSense(s: Synset): boolean {
  let v = placeSenseCache.get(s.offset);
  if (v === undefined) {
    const roots = getRootOffsets();
    v = roots.has(s.offset) || getHypernymClosure(s.offset).some((o) => roots.has(o));
    placeSenseCache.set(s.offset, v);
  }
  return v;
}

/** How many of a word's senses (most frequent first) are read: rarer ones are noise ("yard" the spar). */
const SENSES_READ = 5;

const placeSensesCache = new Map<string, Synset[]>();

/** The senses of a phrase that are places, the household vocabulary first. */
export function getPlaceSenses(phrase: string): Synset[] {
  const key = phrase.toLowerCase().replace(/'/g, '').replace(/\s+/g, ' ').trim();
  const cached = placeSensesCache.get(key);
  if (cached) return cached;
  const lemmas = HOUSEHOLD_TERMS[key] ?? [phrase.toLowerCase().trim()];
  const out: Synset[] = [];
  for (const lemma of lemmas) {
    let senses = getNounSenses(lemma);
    // "kids room" → "kid's room"; "babys room" → "baby's room"
    if (!senses.length && lemma.includes(' ')) {
      const [first, ...rest] = lemma.split(' ');
      senses = getNounSenses(`${first.replace(/s$/, '')}'s ${rest.join(' ')}`);
    }
    for (const s of senses.slice(0, SENSES_READ)) if (isPlaceSense(s) && !out.includes(s)) out.push(s);
  }
  if (placeSensesCache.size > 5000) placeSensesCache.clear();
  placeSensesCache.set(key, out);
  return out;
}

/**
 * True when a word or phrase usually names a place ("attic", "patio"; not "afternoon", "guests",
 * nor "car", whose rarer sense is a railway car): its most frequent sense is a place.
 */
export function isPlaceWord(phrase: string): boolean {
  const key = phrase.toLowerCase().replace(/'/g, '').replace(/\s+/g, ' ').trim();
  if (HOUSEHOLD_TERMS[key]) return true;
  const first = getNounSenses(phrase)[0];
  if (first === undefined) return isCompoundPlaceWord(key);
  return isPlaceSense(first);
}

/**
 * A word run together from two nouns that WordNet lacks as one, whose last part is a place
 * ("poolhouse", "treehouse", "bikeshed"): it names a kind of place too, so a home without one is
 * asked about it rather than the word dropped (see docs/decisions.md, "Round G: words").
 */
function isCompoundPlaceWord(word: string): boolean {
  if (!/^[a-z]{7,}$/.test(word)) return false;
  for (let k = 3; k <= word.length - 4; k++) {
    const head = getNounSenses(word.slice(k))[0];
    if (head && isPlaceSense(head) && getNounSenses(word.slice(0, k)).length) return true;
  }
  return false;
}

function getWords(text: string): string[] {
  return text.toLowerCase().match(/[a-z]+/g) ?? [];
}

/**
 * Category words too broad to tell two places apart: two rooms are both "room"s, and a gloss
 * saying "room" names no room in particular.
 */
const GENERIC_LEMMAS = new Set(['room', 'area', 'structure', 'building', 'way', 'artifact', 'floor', 'place', 'space', 'construction']);

function getSpecificLemmas(s: Synset): string[] {
  return s.lemmas.filter((l) => !l.includes(' ') && !GENERIC_LEMMAS.has(l));
}

function getSpecificHypernymLemmas(s: Synset): string[] {
  return s.hypernyms.flatMap((h) => getSpecificLemmas(getSynset(h)));
}

/**
 * How well one sense of what was said names one sense of a home's place: 1 the same concept,
 * 0.85 the word for its kind ("child's room" for the nursery, "yard" for the backyard), 0.7 a
 * broader word ("bedroom" for the nursery), 0.7 a more specific one,
 * 0.75 a gloss that names it, 0.6 a gloss that names its kind ("shed":
 * "an outbuilding…", and a garage is an outbuilding) or a place whose gloss names what was said
 * or its kind ("porch": "…often forming a covered entrance" — a door is an entrance), 0.5
 * siblings under a specific kind, 0 unrelated. Below 0.75 is a guess: the planner asks.
 */
function scoreSenses(said: Synset, place: Synset): number {
  if (said.offset === place.offset) return 1;
  if (place.hypernyms.includes(said.offset)) return 0.85;
  if (getHypernymClosure(place.offset, 2).includes(said.offset)) return 0.7;
  // a nursery is a kids' room, but a kids' room need not be the nursery: not sure enough to act
  if (getHypernymClosure(said.offset, 2).includes(place.offset)) return 0.7;
  // the gloss's own genus is the said word's hypernym, scored above: "a garage for one or two cars" (a
  // carport) names the garage only as its kind, never the same place (docs/decisions.md, "Before round S: words")
  const genus = new Set(getSpecificHypernymLemmas(said));
  const saidGloss = new Set(getWords(said.gloss.split(';')[0]).filter((w) => !genus.has(w)));
  if (getSpecificLemmas(place).some((l) => saidGloss.has(l))) return 0.75;
  if (getSpecificHypernymLemmas(place).some((l) => saidGloss.has(l))) return 0.6;
  const placeGloss = new Set(getWords(place.gloss.split(';')[0]));
  if ([...getSpecificLemmas(said), ...getSpecificHypernymLemmas(said)].some((l) => placeGloss.has(l))) return 0.6;
  const shared = said.hypernyms.filter((h) => place.hypernyms.includes(h));
  if (shared.some((h) => getSpecificLemmas(getSynset(h)).length > 0 && !getRootOffsets().has(h))) return 0.5;
  return 0;
}

const scoreCache = new Map<string, number>();

/**
 * The senses a name WordNet lacks as a whole is read by: its head noun, unless the head is only a
 * category word ("pool area", "lounge room", "games room") — then its modifier, when that names a
 * place, else nothing. Every room is a "room" and every area an "area", so scoring by the category
 * alone made any room-like word ("lounge") a candidate for the "pool area" and the "games room"
 * (see docs/decisions.md, "Round I: words").
 */
function getNameHeadSenses(words: string[]): Synset[] {
  const head = words.at(-1)!;
  return GENERIC_LEMMAS.has(head) ? getPlaceSenses(words.slice(0, -1).join(' ')) : getPlaceSenses(head);
}

/**
 * How close the meaning of `said` (a phrase from a message) is to a place `name` of the home,
 * 0–1. Names WordNet does not know as a whole ("front porch", "side yard") are read by their head
 * noun, a little less sure.
 */
export function scorePlaceMeaning(said: string, name: string): number {
  const key = `${said}\u0000${name}`;
  const cached = scoreCache.get(key);
  if (cached !== undefined) return cached;
  const saidSenses = getPlaceSenses(said);
  let best = 0;
  if (saidSenses.length) {
    let nameSenses = getPlaceSenses(name);
    let factor = 1;
    if (!nameSenses.length) {
      const words = getWords(name);
      if (words.length > 1) {
        nameSenses = getNameHeadSenses(words);
        factor = 0.95;
      }
    }
    saidSenses.forEach((s, i) => {
      for (const n of nameSenses) best = Math.max(best, scoreSenses(s, n) * factor * (i === 0 ? 1 : 0.95));
    });
  }
  if (scoreCache.size > 20000) scoreCache.clear();
  scoreCache.set(key, best);
  return best;
}
