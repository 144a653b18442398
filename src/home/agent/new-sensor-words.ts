/**
 * "add a camera in the garage as the side gate cam": the name and the room a request to add a
 * sensor by its address says, read from the clause's words (src/home/agent/offline-planner.ts,
 * planAddSensor, reads the rest: the kind and the address).
 */
import { KIND_WORDS } from './vocabulary.ts';

/** A new sensor's name: after "as (the)", "call it (the)", "named". */
export function readNewSensorName(words: string[]): string | undefined {
  const span = findNewSensorNameSpan(words);
  if (!span) return undefined;
  return (
    words
      .slice(span.nameStart, span.end)
      .filter((w) => w !== 'the' && w !== 'my' && w !== 'our')
      .map((w) => (w === 'cam' ? 'camera' : w))
      .join(' ') || undefined
  );
}

/** Where the words that name a new sensor are: from "as", "named" or "call it" (start) and its name (nameStart) to end. */
export function findNewSensorNameSpan(words: string[]): { start: number; nameStart: number; end: number } | undefined {
  const at = words.findIndex((w, k) => w === 'as' || w === 'named' || (w === 'it' && words[k - 1] === 'call'));
  if (at < 0) return undefined;
  let end = at + 1;
  while (end < words.length && !['and', 'in', 'at', 'please', 'url0', 'url1'].includes(words[end])) end++;
  return { start: words[at] === 'it' ? at - 1 : at, nameStart: at + 1, end };
}

/** A new sensor's room: after "in (the)", else its name without the kind ("garage camera" → garage). */
export function readNewSensorRoom(words: string[], name: string | undefined): string | undefined {
  let room: string | undefined;
  const inAt = words.findIndex((w, k) => w === 'in' && words[k + 1] !== 'url0');
  if (inAt >= 0) {
    const rest = words.slice(inAt + 1).filter((w) => w !== 'the' && w !== 'my' && w !== 'our');
    const end = rest.findIndex((w) => ['and', 'it', 'at', 'as', 'please', 'is'].includes(w) || /^url\d+$/.test(w));
    room = rest.slice(0, end < 0 ? undefined : end).join(' ') || undefined;
  }
  if (!room && name)
    room =
      name
        .split(' ')
        .filter((w) => !(w in KIND_WORDS))
        .join(' ') || undefined;
  return room;
}

/**
 * Words no name of a sensor has past its first word: one that opens a time said after the name ("… as the gate camera
 * until the kettle boils", "… after the match"), or the agent spoken to ("… as the gate camera, can you …").
 */
const TIME_OPENERS = new Set(['until', 'till', 'til', 'after', 'when', 'once', 'before', 'from', 'while', 'you']);

/**
 * A word of a new sensor's name that says a time ("front gate camera until the kettle boils") or speaks to the agent:
 * adding a sensor takes no time, so the name is asked about rather than kept with it (docs/decisions.md, "Before round T: probe leaks").
 * A word of time that names a place stays ("the morning room camera", "the night cam", "camera 2").
 */
export function findTimeInSensorName(name: string): string | undefined {
  return name.split(' ').find((w, k, all) => TIME_OPENERS.has(w) && k > 0 && k + 1 < all.length);
}
