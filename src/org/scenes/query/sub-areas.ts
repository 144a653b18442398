import { locationWords } from './query-tokenizer.ts';
import { WORDS_BY_ROLE } from './query-vocabulary.ts';

/**
 * A part of the scene's own place named by a word for a part ("the boarding lane", "the ticket
 * desk", "the queue area" at a ferry terminal): the camera counts the whole scene and does not
 * count such a part apart, so a count is answered for the whole scene and says so; a yes/no is
 * asked back, since the part alone may hold none of those counted (docs/decisions.md, "Before round
 * Q: scene questions"). The scene data holds only a location label (no zones or description), so a
 * part is known by its head noun alone; a word before it that names another kind of place ("the
 * kitchen area") keeps it another place, refused as before.
 */
const PART_NOUNS = new Set([
  'lane',
  'lanes',
  'queue',
  'desk',
  'counter',
  'area',
  'section',
  'corner',
  'bay',
  'bays',
  'row',
  'rows',
  'aisle',
  'booth',
  'kiosk',
  'zone',
  'point',
]);
const NAMED_PLACES = new Set(WORDS_BY_ROLE.named_place);
const SUB_AREA = /\b(?:in|at|on|near|by|inside)\s+(?:the\s+)?((?:[a-z]+\s+){1,2}?)([a-z]+)\b/g;

export interface SubArea {
  /** the part as said ("boarding lane") */
  name: string;
  /** the question's text without the part */
  rest: string;
}

/**
 * The part of the scene a question names, when the words it is named with are the words the
 * reading could not place (`blocked`: unknown words and other places), or undefined.
 */
export function readSubArea(text: string, location: string, blocked: readonly string[]): SubArea | undefined {
  if (blocked.length === 0) return undefined;
  const own = new Set(locationWords(location));
  for (const m of text.matchAll(SUB_AREA)) {
    const words = [...m[1].trim().split(/\s+/), m[2]];
    if (!PART_NOUNS.has(m[2]) || words.some((w) => own.has(w) || /\d/.test(w))) continue;
    if (words.slice(0, -1).some((w) => NAMED_PLACES.has(w) || PART_NOUNS.has(w) || w === 'the')) continue;
    // every word the reading could not place is a word of the part: nothing else is left unread
    if (!blocked.every((w) => words.includes(w))) continue;
    const rest = `${text.slice(0, m.index)} ${text.slice(m.index + m[0].length)}`.replace(/\s+/g, ' ').trim();
    return { name: words.join(' '), rest };
  }
  return readPartOfPlace(text, own, blocked);
}

/**
 * "at the end of the quay", "the far side of the hall", "in the corner of the yard": a part of the
 * scene's own place named by where in it ("end", "side", "corner") and the place's own words, read
 * as a part like the ones above (docs/decisions.md, "Round Q: scene questions").
 */
const PART_OF =
  /\b(?:in|at|on|near|by|down|over)\s+(?:the\s+)?((?:far|near|other|back|front|top|bottom|left|right)\s+)?(end|side|corner|edge|back|front|middle)\s+of\s+(?:the\s+|this\s+)?([a-z]+)(?:\s+([a-z]+))?\b/g;

function readPartOfPlace(text: string, own: ReadonlySet<string>, blocked: readonly string[]): SubArea | undefined {
  for (const m of text.matchAll(PART_OF)) {
    // the place named must be this scene's own ("the end of the quay" at the ferry quay); "the end of the road" is not
    if (!own.has(m[3])) continue;
    const place = m[4] && own.has(m[4]) ? `${m[3]} ${m[4]}` : m[3];
    const after = m[4] && !own.has(m[4]) ? m[4] : '';
    const words = [...(m[1] ? [m[1].trim()] : []), m[2]];
    if (!blocked.every((w) => words.includes(w))) continue;
    const rest = `${text.slice(0, m.index)} in the ${place} ${after} ${text.slice(m.index + m[0].length)}`.replace(/\s+/g, ' ').trim();
    return { name: `${words.join(' ')} of the ${place}`, rest };
  }
  return undefined;
}
