import { readAnimalWord } from '../../../platform/language/index.ts';

/**
 * "the first stray dog", "any feral cats": a word for whose a cat or a dog is, or how it lives, that
 * a camera cannot see. A dog is a dog: the question is answered for every dog (or cat) seen and the
 * answer says the camera cannot tell the kind said (docs/decisions.md, "Before round Q: scene
 * questions"). Only before a cat or a dog word: "a stray fox" stays an animal the cameras do not
 * report, and "a stray" alone stays unread.
 */
const UNSEEN_ANIMAL_MODIFIERS = ['stray', 'strays', 'feral', 'street', 'roaming', 'loose', 'lost', 'abandoned', 'homeless', 'ownerless'];
const MODIFIER = new RegExp(`\\b(${UNSEEN_ANIMAL_MODIFIERS.join('|')})\\s+([a-z]+)\\b`, 'g');

export interface AnimalModifier {
  /** the word set aside ("stray") */
  word: string;
  /** the question's text without it */
  rest: string;
}

export function readAnimalModifier(text: string): AnimalModifier | undefined {
  for (const m of text.matchAll(MODIFIER)) {
    const kind = readAnimalWord(m[2]);
    if (kind !== 'cat' && kind !== 'dog') continue;
    const rest = `${text.slice(0, m.index)} ${text.slice(m.index + m[1].length)}`.replace(/\s+/g, ' ').trim();
    return { word: m[1], rest };
  }
  return undefined;
}
