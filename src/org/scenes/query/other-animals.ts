/**
 * Animals other than cats and dogs (docs/decisions.md, "Before round T: scene questions"). The
 * detector labels cats and dogs only (src/platform/kinds/kinds.ts, kind `animal`), but a scene may
 * hold detections of another animal (a sandbox injection or another source names it in the
 * subtype: "goat", "fox"). A question about such an animal is answered from those detections; only
 * when the scene holds none is it refused with what the detector knows.
 */
import nlp from 'compromise';

/** Words whose plural is the word itself, which compromise would add an s to. */
const SAME_PLURAL = new Set(['reindeer', 'deer', 'sheep', 'moose', 'elk', 'bison', 'fish', 'swine', 'cattle']);

/** The subtype a detection of the animal a word names would carry: its singular, lower case ("goats" → goat, "foxes" → fox). */
export function otherAnimalSubtype(word: string): string {
  const w = word.toLowerCase();
  if (SAME_PLURAL.has(w)) return w;
  const one = nlp(w).nouns().toSingular().text().toLowerCase();
  if (one && !one.includes(' ')) return one;
  return w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w;
}

/** "goats", "foxes", "reindeer": the plural of an animal subtype, for answers. */
export function animalPlural(kind: string): string {
  if (SAME_PLURAL.has(kind)) return kind;
  const many = nlp(kind).nouns().toPlural().text().toLowerCase();
  return many && !many.includes(' ') ? many : `${kind}s`;
}

/**
 * The one animal (not a cat or a dog) a question names when the scene holds detections of it:
 * the subtype to answer from, or undefined (the question is then refused as before). More than one
 * such animal, or one beside a cat or a dog, is not read.
 */
export function readOtherAnimal(others: readonly string[], catOrDog: boolean, seen: readonly string[] | undefined): string | undefined {
  const kinds = new Set(others.map(otherAnimalSubtype));
  if (kinds.size !== 1 || catOrDog || !seen) return undefined;
  const [kind] = kinds;
  return seen.includes(kind) ? kind : undefined;
}
