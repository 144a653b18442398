// The module's public face: what other modules may import (docs/architecture.md).
export { isAnimalNoun, readAnimalWord } from './lexicon/animals.ts';

export { isPersonWord, isSamePersonWord } from './lexicon/people.ts';
export { isPatronWord } from './lexicon/patrons.ts';
export { isPlaceWord, scorePlaceMeaning } from './lexicon/places.ts';
export { readRegionalNoun } from './lexicon/regional.ts';
export { getNounSenses, isEnglishWord, loadWordNet } from './lexicon/wordnet.ts';
export { createNormalizer, getTypoDistance, restoreVowels, type Token } from './normalize.ts';
export { findTimePhrase } from './time/past-range.ts';
export {
  clockText,
  daytimeHour,
  findSpokenClocks,
  readSpokenClock,
  rewriteSpokenClocks,
  type SpokenClock,
  type SpokenClockOptions,
} from './time/spoken-clock.ts';
export { MAX_WINDOW_MS, describeDuration } from './time/query-window.ts';
export { getSunTime, nextWeekday, parseWeekday, type SunEvent } from './time/primitives.ts';
export { extractTimeSpec, needsLocation, resolveSince, resolveWatchWindow, resolveWindowChange, settleDayPart, type TimeSpec } from './time/watch-window.ts';
export { findEditClockOrRange } from './time/clock-or-range.ts';
export { findWindowConflict } from './time/watch-window.ts';
export { findOpenDayHalf } from './time/open-meridiem.ts';
export { HOUR_WORDS, SMALL_NUMBER_WORDS, TENS_WORDS } from './time/number-words.ts';
export { DIALECT_DAY_PARTS, SPELLING_FIXES, STOP_WORDS } from './words.ts';
export { classifyWord, findUncovered, isEventEndWord, quoteUncovered, type Uncovered, type WordRole } from './coverage.ts';
export type { ContentVocabulary } from './content-words.ts';
export { AUXILIARIES, HESITATION_VERBS } from './content-words.ts';
