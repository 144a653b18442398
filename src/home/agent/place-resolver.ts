/**
 * Finds the rooms and sensors a clause talks about, and only those the household has: a place
 * the home does not have comes back as `unknown` so the planner can say so instead of inventing
 * it. Typos were already corrected towards these names by the normaliser.
 */
import type { ContextSensor, HouseholdContext } from './context.ts';
import {
  type Token,
  SPELLING_FIXES,
  STOP_WORDS,
  getTypoDistance,
  isEnglishWord,
  isPersonWord,
  isPlaceWord,
  isAnimalNoun,
  readRegionalNoun,
  scorePlaceMeaning,
} from '../../platform/language/index.ts';
import { CONDITION_WORDS, KIND_WORDS, NON_PLACE_WORDS, OUT_OF_SCOPE_NOUNS, REFERENCE_WORDS, VAGUE_SUBJECTS, WHOLE_HOME_WORDS } from './vocabulary.ts';

/** `byMeaning`: resolved through the lexicon, not the home's own names (its score, under 1 when not a synonym). */
/** `slips`: words read as this home's name words one slip away ("dor" as "door"), for the reply to say. */
export type Place =
  | { type: 'room'; room: string; sensors: ContextSensor[]; byMeaning?: number; slips?: Slip[] }
  | { type: 'sensor'; sensor: ContextSensor; byMeaning?: number; slips?: Slip[] }
  /** Several sensors meant together: a room's cameras, all cameras, the whole home. */
  | { type: 'group'; label: string; sensors: ContextSensor[]; wholeHome: boolean; except: boolean }
  | { type: 'ambiguous'; label: string; options: string[] }
  | { type: 'unknown'; label: string; reason?: string }
  | { type: 'vague'; label: string };

export interface Slip {
  from: string;
  to: string;
}

export interface Mention {
  start: number;
  end: number;
  text: string;
  place: Place;
}

/** Room name words, sensor name words: what the normaliser corrects typos towards. */
const placeWordCache = new WeakMap<object, WeakMap<object, string[]>>();

export function listPlaceWords(ctx: HouseholdContext): string[] {
  const cached = placeWordCache.get(ctx.rooms)?.get(ctx.sensors);
  if (cached) return cached;
  const list = collectPlaceWords(ctx);
  if (!placeWordCache.has(ctx.rooms)) placeWordCache.set(ctx.rooms, new WeakMap());
  placeWordCache.get(ctx.rooms)!.set(ctx.sensors, list);
  return list;
}

function collectPlaceWords(ctx: HouseholdContext): string[] {
  const words = new Set<string>();
  for (const r of ctx.rooms) for (const w of getNamingWords(r.name)) words.add(w);
  for (const s of ctx.sensors) for (const w of getNamingWords(s.name)) words.add(w);
  return [...words];
}

/**
 * The words of a name that name the place on their own. A function word ("under the house", "top of
 * the stairs", "out the back") never does, and the whole home's word after one ("house" of "under the
 * house") names the house, not the room: both count only inside the whole name said
 * (findNamePhrases; docs/decisions.md, "Round L household: places and words").
 */
function getNamingWords(name: string): string[] {
  const words = splitName(name);
  return words.filter((w, k) => !STOP_WORDS.has(w) && !(WHOLE_HOME_WORDS.has(w) && words.slice(0, k).some((x) => STOP_WORDS.has(x))));
}

/** Number words that can start a name ("two-car garage", "first-floor landing", "third bedroom"). */
const NAME_NUMBERS =
  /^(?:\d+(?:st|nd|rd|th)?|one|two|three|four|five|six|seven|eight|nine|ten|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)$/;

/**
 * The tokens as the time reader should see them: a number inside one of this home's names spelt out
 * in full ("the 5th bedroom", "the two-car garage") is part of the name, not a date or a count, so it
 * is hidden from the time reader (docs/decisions.md, "Round L household: places and words").
 */
export function hideNameNumbers(said: Token[], ctx: HouseholdContext): Token[] {
  const tokens = hideDeterminedFunctionNames(said, ctx);
  const names = listNumberNames(ctx);
  if (!names.length) return tokens;
  const out = tokens.slice();
  for (const name of names) {
    for (let i = 0; i + name.length <= tokens.length; i++) {
      if (!name.every((w, k) => tokens[i + k].text === w || (!NAME_NUMBERS.test(w) && matchWord(tokens[i + k].text, w)))) continue;
      name.forEach((w, k) => {
        if (NAME_NUMBERS.test(w)) out[i + k] = { ...tokens[i + k], text: 'room' };
      });
    }
  }
  return out;
}

/** Words that make the word after them a noun: "the till", "our till". */
const NAME_DETERMINERS = new Set(['the', 'my', 'our', 'this', 'that', 'your']);

/**
 * The tokens with a one-word name of this home that is a function word ("till", the shop's cash desk) hidden from the
 * time reader where a determiner makes it the noun ("mute the till camera", "watch the till till 9"): "till 9" alone
 * stays a time (docs/decisions.md, "Before round S: words").
 */
function hideDeterminedFunctionNames(tokens: Token[], ctx: HouseholdContext): Token[] {
  const names = listFunctionWordNames(ctx);
  if (!names.size) return tokens;
  return tokens.map((t, k) => (names.has(t.text) && NAME_DETERMINERS.has(tokens[k - 1]?.text ?? '') ? { ...t, text: 'room' } : t));
}

/**
 * This home's one-word names that are function words ("till"), and the first word of a sensor's name that is a function
 * word the normaliser respells ("till camera"; docs/decisions.md, "Round S: times").
 */
function listFunctionWordNames(ctx: HouseholdContext): Set<string> {
  const names = [...ctx.rooms.map((r) => r.name), ...ctx.sensors.map((s) => s.room)].map(splitName);
  const firsts = ctx.sensors.map((s) => splitName(s.name)[0]).filter((w) => w !== undefined && STOP_WORDS.has(w) && SPELLING_FIXES[w] !== undefined);
  return new Set([...names.filter((n) => n.length === 1 && STOP_WORDS.has(n[0])).map((n) => n[0]), ...firsts]);
}

/**
 * The message's tokens with such a name given back where the normaliser spelt it as the function word it looks like
 * ("the till" → "the until"): after a determiner it can only be the noun, the home's name.
 */
export function restoreFunctionWordNames(tokens: Token[], ctx: HouseholdContext): Token[] {
  const names = listFunctionWordNames(ctx);
  if (!names.size) return tokens;
  return tokens.map((t, k) => {
    const name = [...names].find((n) => SPELLING_FIXES[n] === t.text);
    return name && NAME_DETERMINERS.has(tokens[k - 1]?.text ?? '') ? { ...t, text: name, root: name } : t;
  });
}

/** This home's names of several words with a number among them, as their words. */
function listNumberNames(ctx: HouseholdContext): string[][] {
  const names = [...ctx.rooms.map((r) => r.name), ...ctx.sensors.map((s) => s.name)].map(splitName);
  return names.filter((w) => w.length > 1 && w.some((x) => NAME_NUMBERS.test(x)));
}

/** The message with the numbers of this home's names said in full taken out ("the 5th bedroom" → "the bedroom"), for the time checks. */
export function hideNameNumbersInText(text: string, ctx: HouseholdContext): string {
  let out = text;
  for (const name of listNumberNames(ctx)) {
    const pattern = new RegExp(`\\b${name.map((w) => w.replace(/[^a-z0-9]/g, '')).join('[\\s-]+')}\\b`, 'gi');
    out = out.replace(pattern, name.filter((w) => !NAME_NUMBERS.test(w)).join(' '));
  }
  return out;
}

/** Every word of the home's names, a phrase name's function words too: what a mention's words are checked against. */
function listNameWords(ctx: HouseholdContext): string[] {
  return [...listPlaceWords(ctx), ...listPhraseNames(ctx).flat()];
}

/** Names with a function word inside, as their words ("under the house"): read only as a whole phrase. */
function listPhraseNames(ctx: HouseholdContext): string[][] {
  const names = [...ctx.rooms.map((r) => r.name), ...ctx.sensors.map((s) => s.name)];
  return names.map(splitName).filter((words) => words.some((w) => STOP_WORDS.has(w)));
}

/** Token positions in [from, to) that spell out a name with a function word inside ("under the house"). */
function findNamePhrases(tokens: Token[], from: number, to: number, ctx: HouseholdContext): Set<number> {
  const inside = new Set<number>();
  for (const name of listPhraseNames(ctx)) {
    for (let i = from; i + name.length <= to; i++) {
      // ("the till cam" for the till camera: a kind word of the same kind stands for the name's)
      const sameKind = (said: string, w: string) => w in KIND_WORDS && KIND_WORDS[said] === KIND_WORDS[w];
      if (name.every((w, k) => tokens[i + k].text === w || (!STOP_WORDS.has(w) && (matchWord(tokens[i + k].text, w) || sameKind(tokens[i + k].text, w))))) {
        for (let k = 0; k < name.length; k++) inside.add(i + k);
      }
    }
  }
  return inside;
}

const headWordCache = new WeakMap<object, Set<string>>();

/** Last words of room names and of sensor names without kind words: the nouns that name a place. */
function isHeadWord(word: string, ctx: HouseholdContext): boolean {
  let heads = headWordCache.get(ctx.sensors);
  if (!heads) {
    heads = new Set<string>();
    for (const r of ctx.rooms) heads.add(splitName(r.name).at(-1)!);
    for (const s of ctx.sensors) {
      const words = splitName(s.name).filter((w) => !(w in KIND_WORDS));
      if (words.length) heads.add(words.at(-1)!);
      heads.add(splitName(s.room).at(-1)!);
    }
    headWordCache.set(ctx.sensors, heads);
  }
  for (const h of heads) if (matchWord(word, h)) return true;
  return false;
}

function matchWord(word: string, nameWord: string): boolean {
  if (word === nameWord || word === `${nameWord}s` || `${word}s` === nameWord) return true;
  // "yard" for "backyard": the tail of a compound, long enough not to be noise; "house" alone is the
  // whole home, never the tail of "greenhouse" or "under-house"
  return word.length >= 4 && nameWord.length > word.length && nameWord.endsWith(word) && !WHOLE_HOME_WORDS.has(word);
}

/** A name's words as the normaliser reads a message: lower case, a possessive "'s" dropped ("Aoife's room" → aoife, room), split at hyphens. */
function splitName(name: string): string[] {
  return name
    .toLowerCase()
    .replace(/['\u2019\u02bc]s\b/g, '')
    .split(/[\s-]+/)
    .filter(Boolean);
}

/** Words of a sensor that say where it is (its name without kind words, plus its room's name). */
function getSensorPlaceWords(sensor: ContextSensor): string[] {
  return [...splitName(sensor.name).filter((w) => !(w in KIND_WORDS)), ...splitName(sensor.room)];
}

type TokenClass = 'place' | 'kind' | 'whole' | 'unknown' | 'vague' | 'other';

function classifyToken(token: Token, allPlaceWords: string[]): TokenClass {
  const w = token.text;
  // "the 5th bedroom": a number is a name word only where this home's name has it as said
  if (/\d/.test(w) && !/^url\d+$/.test(w) && allPlaceWords.includes(w)) return 'place';
  if (/^url\d+$/.test(w) || /\d/.test(w)) return 'other';
  if (allPlaceWords.some((p) => matchWord(w, p))) return 'place';
  if (toHomeWord(w, allPlaceWords) !== w) return 'place';
  if (w in KIND_WORDS) return 'kind';
  if (WHOLE_HOME_WORDS.has(w)) return 'whole';
  if (VAGUE_SUBJECTS.has(w)) return 'vague';
  if (STOP_WORDS.has(w) || NON_PLACE_WORDS.has(w) || REFERENCE_WORDS.has(w) || w in CONDITION_WORDS || OUT_OF_SCOPE_NOUNS.has(w)) {
    return 'other';
  }
  // the tagger sometimes reads a place noun as a verb ("the back garden from dusk"): the lexicon decides
  if ((!token.isNoun || token.isVerb) && !(/[^s]$/.test(w) && !/(ing|ed)$/.test(w) && isPlaceWord(w))) return 'other';
  return 'unknown';
}

/**
 * "the chooks" where the home has a chicken coop: a regional noun whose plain word is one of this home's name words is
 * read as that word (lexicon/regional.ts; docs/decisions.md, "Before round S: words"); any other word is itself.
 */
function toHomeWord(word: string, allPlaceWords: string[]): string {
  if (allPlaceWords.some((p) => matchWord(word, p))) return word;
  const plain = readRegionalNoun(word);
  return plain && allPlaceWords.some((p) => matchWord(plain, p)) ? plain : word;
}

/**
 * "the laundry" for the laundry room, "the chooks" for the chook pen: the first word of a two-word room name said alone
 * names that room when the rest is only a category word ("room", "area") and the word is a place by itself, or when
 * it is the animal the place is for; never a person ("the kids" are no kids' room) nor a word of another name
 * (docs/decisions.md, "Before round S: words").
 */
function isModifierNamingRoom(word: string, ctx: HouseholdContext): boolean {
  // ("Tom's room": a person's room, never the tomcat's)
  const fits = ctx.rooms
    .filter((r) => !/['\u2019\u02bc]s\b/.test(r.name))
    .map((r) => splitName(r.name))
    .filter((n) => n.length === 2 && matchWord(word, n[0]))
    .filter(([first, rest]) => (isAnimalNoun(first) ? true : !isPersonWord(first) && GENERIC_PLACE_WORDS.has(rest) && isPlaceWord(first)));
  return fits.length === 1;
}

function matchesAll(words: string[], nameWords: string[]): boolean {
  return words.every((w) => nameWords.some((n) => matchWord(w, n)));
}

function getKind(words: string[]): 'camera' | 'contact' | 'motion' | 'any' | undefined {
  const kinds = words.map((w) => KIND_WORDS[w]).filter(Boolean);
  return kinds.find((k) => k !== 'any') ?? kinds[0];
}

function filterByKind(sensors: ContextSensor[], kind: string | undefined): ContextSensor[] {
  return !kind || kind === 'any' ? sensors : sensors.filter((s) => s.kind === kind);
}

function pluralKind(kind: string | undefined): string {
  return !kind || kind === 'any' ? 'sensors' : kind === 'camera' ? 'cameras' : `${kind} sensors`;
}

/** Meaning scores at or above this name a place surely enough to act on; below, down to ASK, we ask. */
const SURE = 0.75;
const ASK = 0.6;

/** The home's rooms ranked by how close their meaning is to the words said (WordNet + household terms). */
function rankRoomsByMeaning(placeWords: string[], ctx: HouseholdContext): { room: string; score: number }[] {
  const phrase = placeWords.join(' ');
  return ctx.rooms
    .map((r) => ({ room: r.name, score: scorePlaceMeaning(phrase, r.name.toLowerCase()) }))
    .filter((x) => x.score >= ASK)
    .sort((a, b) => b.score - a.score);
}

/**
 * Resolves words that are not this home's names by meaning: "baby's room" is the nursery, "drive"
 * the driveway, "lounge" the living room. A sure, clear winner is the place; close or unsure
 * candidates are a question; a word that names a kind of place the home lacks is unknown ("the
 * attic"); anything else names no place (undefined: "afternoon", "guests").
 */
function resolveByMeaning(placeWords: string[], kindWords: string[], ctx: HouseholdContext, label: string): Place | undefined {
  const ranked = rankRoomsByMeaning(placeWords, ctx);
  const kind = getKind(kindWords);
  const best = ranked[0];
  if (best && best.score >= SURE && !(ranked[1] && ranked[1].score > best.score - 0.1)) {
    const sensors = filterByKind(
      ctx.sensors.filter((s) => s.room === best.room),
      kind,
    );
    if (kindWords.length === 0) return { type: 'room', room: best.room, sensors: ctx.sensors.filter((s) => s.room === best.room), byMeaning: best.score };
    if (sensors.length === 1) return { type: 'sensor', sensor: sensors[0], byMeaning: best.score };
    if (sensors.length > 1) return { type: 'group', label: best.room, sensors, wholeHome: false, except: false };
    return { type: 'unknown', label, reason: `There is no ${kind === 'any' || !kind ? 'sensor' : kind} in the ${best.room}.` };
  }
  if (best) {
    const close = ranked.filter((x) => x.score > best.score - 0.1).map((x) => x.room);
    // close or unsure candidates: ask, naming them, rather than act on a guess
    return { type: 'ambiguous', label, options: close };
  }
  if (placeWords.some((w) => isPlaceWord(w)) || isPlaceWord(placeWords.join(' '))) return { type: 'unknown', label };
  return undefined;
}

/** Resolves the words of one mention to a place of this household (undefined: it names no place). */
function resolveRun(placeWords: string[], kindWords: string[], ctx: HouseholdContext, label: string): Place | undefined {
  const byName = resolveRunByName(placeWords, kindWords, ctx, label);
  if (!placeWords.length) return byName;
  const names = listNameWords(ctx);
  const unmatched = placeWords.filter((w) => !names.some((n) => matchWord(w, n)));
  // every word said is one of this home's name words, and they resolved: the home's own name wins
  if (unmatched.length === 0 && byName.type !== 'unknown') {
    const room = byName.type === 'sensor' && kindWords.length === 0 ? findRoomNamedByCamera(placeWords, byName.sensor, ctx) : undefined;
    if (room) return { type: 'room', room, sensors: ctx.sensors.filter((s) => s.room === room) };
    // "the door": the back door contact by name, or the porch (a covered entrance) by meaning; two name
    // words of one sensor said ("the front door") are that sensor, never a lookalike by meaning
    // (docs/decisions.md, "Round O: words")
    if ((byName.type === 'room' || (byName.type === 'sensor' && placeWords.length === 1)) && kindWords.length === 0) {
      const named = byName.type === 'sensor' ? byName.sensor.room : byName.room;
      const fullName = byName.type === 'sensor' ? getSensorPlaceWords(byName.sensor) : splitName(byName.room);
      const partial = fullName.some((w) => !placeWords.some((p) => matchWord(p, w)));
      if (partial) {
        // ("the laundry" for the laundry room: the room the words name by meaning too, its rest only a category word, is not
        // rivalled by looser meanings; "the deck" of the back deck still asks about the porch)
        const own = GENERIC_PLACE_WORDS.has(fullName.at(-1)!) ? scorePlaceMeaning(placeWords.join(' '), named.toLowerCase()) : 0;
        const rivals = rankRoomsByMeaning(placeWords, ctx).filter((x) => x.room !== named && x.score >= ASK && !(own >= SURE && x.score < own - 0.1));
        const calledSo = rivals.length ? findSensorCalledSo(placeWords, named, ctx) : undefined;
        if (calledSo) return { type: 'sensor', sensor: calledSo };
        if (rivals.length) {
          const first = byName.type === 'sensor' ? byName.sensor.name : byName.room;
          return { type: 'ambiguous', label, options: [first, ...rivals.map((x) => x.room)] };
        }
      }
    }
    return byName;
  }
  const slipped = byName.type === 'unknown' ? resolveBySlip(placeWords, kindWords, ctx, label) : undefined;
  if (slipped) return slipped;
  return resolveByMeaning(placeWords, kindWords, ctx, label) ?? (unmatched.length < placeWords.length && byName.type !== 'unknown' ? byName : undefined);
}

/**
 * "the porch" where the front porch has the "porch camera": the home itself calls that sensor by the words said, so
 * they name it (a named sensor is that sensor only) rather than a lookalike by meaning (the deck) to ask about
 * (docs/decisions.md, "Round Q: places").
 */
function findSensorCalledSo(placeWords: string[], room: string, ctx: HouseholdContext): ContextSensor | undefined {
  const said = placeWords.join(' ');
  const own = (s: ContextSensor) => splitName(s.name).filter((w) => !(w in KIND_WORDS));
  const inRoom = ctx.sensors.filter((s) => s.room === room);
  const called = inRoom.filter((s) => own(s).join(' ') === said);
  // (the words in another sensor's name too, "garage" of the garage camera and the garage side door: the room)
  const shared = inRoom.some((s) => !called.includes(s) && placeWords.every((w) => own(s).includes(w)));
  return called.length === 1 && !shared ? called[0] : undefined;
}

/**
 * "the entrance" where the genkan has the "entrance camera" and the front door contact: a room named in another
 * language ("genkan", no English word) is called by its camera's name in English, so the words said name the room,
 * and a room means every sensor in it (docs/decisions.md, "Round Q: places"). A room with an English name keeps the
 * camera alone ("the gate" of the driveway's gate camera).
 */
function findRoomNamedByCamera(placeWords: string[], sensor: ContextSensor, ctx: HouseholdContext): string | undefined {
  if (sensor.kind !== 'camera' || !sensor.room) return undefined;
  const own = splitName(sensor.name).filter((w) => !(w in KIND_WORDS));
  if (own.join(' ') !== placeWords.join(' ') || !isOtherLanguageName(sensor.room)) return undefined;
  return ctx.rooms.some((r) => r.name === sensor.room) ? sensor.room : undefined;
}

/** A room name with no English word in it ("genkan"): the home may call it by its camera's name (findRoomNamedByCamera). */
export function isOtherLanguageName(room: string): boolean {
  return !splitName(room).some((w) => isEnglishWord(w));
}

/** A word no dictionary knows ("dor", "hal", "sensr"), which may be a slip of the keyboard: never a real word. */
function isSlipWord(word: string): boolean {
  return /^[a-z]{3,}$/.test(word) && !STOP_WORDS.has(word) && !isEnglishWord(word);
}

/**
 * "the store rom" for the store room: a doubled letter of a name word written once, said beside an exact word of the
 * same name, is that name word even when a dictionary has the word ("rom"), since no other reading fits the name
 * said (docs/decisions.md, "Before round Q: words"). "motor" is no "motion": no doubled letter was dropped.
 */
function isDoubleWrittenOnce(word: string, nameWord: string): boolean {
  if (word.length < 3) return false;
  for (let i = 1; i < nameWord.length; i++) if (nameWord[i] === nameWord[i - 1] && nameWord.slice(0, i) + nameWord.slice(i + 1) === word) return true;
  return false;
}

/** The name word `word` is one slip from (two for long words), same first letter. */
function isSlipOf(word: string, nameWord: string): boolean {
  if (word[0] !== nameWord[0] || nameWord.length < 3) return false;
  return getTypoDistance(word, nameWord) <= (Math.min(word.length, nameWord.length) >= 5 ? 2 : 1);
}

/**
 * "the shed dor", "the hal motion sensor", "the frnt dor": words no dictionary knows, said beside
 * this home's own name or kind words, read as the name words they are one slip from — when exactly
 * one sensor (or, with no kind said, one room) fits every word said. Several fit: asked. A real
 * English word is never read as another ("motor" is no "motion"): see docs/decisions.md,
 * "Round I: words".
 */
function resolveBySlip(placeWords: string[], kindWords: string[], ctx: HouseholdContext, label: string): Place | undefined {
  const names = listNameWords(ctx);
  const unmatched = placeWords.filter((w) => !names.some((n) => matchWord(w, n)));
  const besideName = unmatched.length < placeWords.length;
  const slipOfDouble = (w: string) => besideName && names.some((n) => isDoubleWrittenOnce(w, n));
  if (!unmatched.length || !unmatched.every((w) => isSlipWord(w) || slipOfDouble(w))) return undefined;
  // a slip alone ("the dor") has nothing beside it to say which name it is; one a kind word alone
  // stands beside ("the bak camera") must be a slip of one name word only (not "back" and "bar")
  if (!besideName && (!kindWords.length || unmatched.some((w) => names.filter((n) => isSlipOf(w, n)).length !== 1))) return undefined;
  const fits = (nameWords: string[]) => placeWords.every((w) => nameWords.some((n) => matchWord(w, n) || (unmatched.includes(w) && isSlipOf(w, n))));
  const slipsTo = (nameWords: string[]): Slip[] => unmatched.map((w) => ({ from: w, to: nameWords.find((n) => isSlipOf(w, n))! }));
  const sensors = filterByKind(
    ctx.sensors.filter((s) => fits(getSensorPlaceWords(s))),
    getKind(kindWords),
  );
  const rooms = kindWords.length ? [] : ctx.rooms.filter((r) => fits(splitName(r.name)));
  if (rooms.length === 1 && sensors.every((s) => s.room === rooms[0].name)) {
    const room = rooms[0].name;
    return { type: 'room', room, sensors: ctx.sensors.filter((s) => s.room === room), slips: slipsTo(splitName(room)) };
  }
  if (sensors.length === 1 && !rooms.length) return { type: 'sensor', sensor: sensors[0], slips: slipsTo(getSensorPlaceWords(sensors[0])) };
  const options = [...rooms.map((r) => r.name), ...sensors.map((s) => s.name)];
  return options.length ? { type: 'ambiguous', label, options } : undefined;
}

/** Resolves the words of one mention by this household's own room and sensor names. */
function resolveRunByName(placeWords: string[], kindWords: string[], ctx: HouseholdContext, label: string): Place {
  const kind = getKind(kindWords);
  if (placeWords.length === 0) {
    const sensors = filterByKind(ctx.sensors, kind);
    if (sensors.length === 1) return { type: 'sensor', sensor: sensors[0] };
    if (sensors.length === 0) return { type: 'unknown', label, reason: `There is no ${label} in your home.` };
    return { type: 'ambiguous', label, options: sensors.map((s) => s.name) };
  }
  const rooms = ctx.rooms.filter((r) => matchesAll(placeWords, splitName(r.name)));
  const exactRooms = rooms.filter((r) => splitName(r.name).join(' ') === placeWords.join(' '));
  const room = exactRooms.length === 1 ? exactRooms[0] : rooms.length === 1 ? rooms[0] : undefined;
  if (room && kindWords.length === 0) {
    const elsewhere = exactRooms.length ? [] : findSameHeadElsewhere(placeWords, room.name, ctx);
    if (elsewhere.length) return { type: 'ambiguous', label, options: [room.name, ...elsewhere.map((s) => s.name)] };
    return { type: 'room', room: room.name, sensors: ctx.sensors.filter((s) => s.room === room.name) };
  }
  let sensors = ctx.sensors.filter((s) => matchesAll(placeWords, getSensorPlaceWords(s)));
  if (kindWords.length) {
    const ofKind = filterByKind(sensors, kind);
    if (ofKind.length === 0) {
      const where = room ? `the ${room.name}` : placeWords.join(' ');
      const has = sensors.length ? ` (it has ${sensors.map((s) => s.name).join(', ')})` : '';
      return sensors.length || room
        ? { type: 'unknown', label, reason: `There is no ${kind === 'any' || !kind ? 'sensor' : kind} in ${where}${has}.` }
        : { type: 'unknown', label };
    }
    sensors = ofKind;
  }
  if (sensors.length === 1) return { type: 'sensor', sensor: sensors[0] };
  if (sensors.length > 1) {
    // "the kitchen sensor" with a motion sensor and a door contact there: one was meant — which?
    if (kindWords.length && kindWords.every((w) => !w.endsWith('s')) && placeWords.length)
      return { type: 'ambiguous', label, options: sensors.map((s) => s.name) };
    const sameRoom = sensors.every((s) => s.room === sensors[0].room);
    if (sameRoom) return { type: 'group', label, sensors, wholeHome: false, except: false };
    if (rooms.length > 1) return { type: 'ambiguous', label, options: rooms.map((r) => r.name) };
    return { type: 'ambiguous', label, options: sensors.map((s) => s.name) };
  }
  if (rooms.length > 1) return { type: 'ambiguous', label, options: rooms.map((r) => r.name) };
  if (room) return { type: 'room', room: room.name, sensors: [] };
  return { type: 'unknown', label };
}

/**
 * "the door" in a home with a front door (a room) and an annexe door contact: a bare word that is
 * the head of the room's name and of sensors' names in other rooms names none of them in
 * particular, so it is asked (docs/decisions.md, "Round J household: coverage of verbs and
 * objects"). A word that only modifies another name ("garden" of the garden shed door) does not count.
 */
function findSameHeadElsewhere(placeWords: string[], roomName: string, ctx: HouseholdContext): ContextSensor[] {
  if (placeWords.length !== 1 || splitName(roomName).length < 2 || !matchWord(placeWords[0], splitName(roomName).at(-1)!)) return [];
  return ctx.sensors.filter((s) => {
    const head = splitName(s.name)
      .filter((w) => !(w in KIND_WORDS))
      .at(-1);
    return s.room !== roomName && head !== undefined && matchWord(placeWords[0], head);
  });
}

/** "front and back doors": the head noun after "and/or" that a bare modifier shares ("door"). */
function findSharedHead(tokens: Token[], i: number, to: number, consumed: Set<number>): string | undefined {
  if (!['and', 'or', '&'].includes(tokens[i]?.text ?? '')) return undefined;
  let head: string | undefined;
  for (let k = i + 1; k < Math.min(to, i + 5); k++) {
    const t = tokens[k];
    if (STOP_WORDS.has(t.text) && head === undefined) continue;
    if (!t.isNoun || STOP_WORDS.has(t.text) || consumed.has(k) || NON_PLACE_WORDS.has(t.text)) break;
    head = t.text.replace(/s$/, '');
    if (t.breakAfter) break;
  }
  return head;
}

/** "…the porch too, same thing": "thing" after "same" is the request before, no vague place (docs/decisions.md, "Round Q: places"). */
function isSameThing(tokens: Token[], i: number): boolean {
  return ['thing', 'things'].includes(tokens[i].text) && tokens[i - 1]?.text === 'same';
}

/**
 * "and sunday night as well": "well" after "as" is "too", never the tail of a compound name ("stairwell"); only a
 * "well" that goes on into a name word of the home ("as well house") is left to the name (docs/decisions.md, "Before
 * round T: follow-ups").
 */
function isAsWell(tokens: Token[], i: number, allPlaceWords: string[]): boolean {
  if (tokens[i].text !== 'well' || tokens[i - 1]?.text !== 'as') return false;
  const next = tokens[i].breakAfter ? undefined : tokens[i + 1]?.text;
  return !next || !allPlaceWords.includes(next);
}

/** The places mentioned in tokens[from, to), skipping tokens already read as times or conditions. */
/** "has gone home", "we're home", "got back home": where people go, not every sensor of the house. */
/** Words after which "to" opens a verb ("need to study"), not a place ("go to the study"). */
const INFINITIVE_LEADS = new Set([
  'need',
  'needs',
  'want',
  'wants',
  'have',
  'has',
  'got',
  'going',
  'trying',
  'try',
  'tries',
  'plan',
  'plans',
  'planning',
  'like',
  'love',
  'able',
  'used',
]);

function isHomeAdverb(tokens: Token[], i: number): boolean {
  const w = tokens[i].text;
  const before = tokens[i - 1]?.text ?? '';
  const after = tokens[i + 1]?.text ?? '';
  // "we're all in", "they are all asleep": all of the people; "all next week", "all night": a time
  // "if it opens at all": a hedge, not every sensor
  if (
    w === 'all' &&
    (['we', 'they', 'you', 'are', 'were', 'is', 'am', 'be', 'at'].includes(before) ||
      ['next', 'week', 'weekend', 'night', 'day', 'morning', 'evening', 'afternoon', 'month', 'year'].includes(after))
  )
    return true;
  // "from next door": the neighbours, not a door of this home
  if (w === 'next' && after === 'door') return true;
  if (w === 'door' && before === 'next') return true;
  // ("the lads up the road", "a van down the street": the neighbours' side, not a place of this home — docs/decisions.md, "Round T: reasons")
  if (['road', 'street'].includes(w) && before === 'the' && ['up', 'down', 'across', 'over'].includes(tokens[i - 2]?.text ?? '')) return true;
  // "I need to study", "she has to shower first": a room's name said as the verb of "need to…"
  if (before === 'to' && tokens[i].isVerb && INFINITIVE_LEADS.has(tokens[i - 2]?.text ?? '')) return true;
  if (w !== 'home') return false;
  // ("we are all home now", "we're both home": "all" and "both" there are the people, so the verb before them counts)
  const prev = (['all', 'both'].includes(before) ? tokens[i - 2]?.text : before) ?? '';
  return [
    'gone',
    'go',
    'goes',
    'went',
    'going',
    'come',
    'comes',
    'came',
    'coming',
    'get',
    'gets',
    'got',
    'getting',
    'back',
    'be',
    'is',
    'are',
    'am',
    'was',
    'were',
    'been',
    'arrive',
    'arrives',
    'arrived',
    'head',
    'heading',
    'headed',
    'drive',
    'driving',
    'walk',
    'walking',
  ].includes(prev);
}

export function findMentions(tokens: Token[], from: number, to: number, ctx: HouseholdContext, consumed: Set<number>): Mention[] {
  const allPlaceWords = listPlaceWords(ctx).filter((w) => !(w in KIND_WORDS));
  const phrases = findNamePhrases(tokens, from, to, ctx);
  const classify = (k: number): TokenClass => {
    const c = classifyToken(tokens[k], allPlaceWords);
    return phrases.has(k) && (c === 'other' || c === 'whole') ? 'place' : c;
  };
  const mentions: Mention[] = [];
  let i = from;
  while (i < to) {
    const cls = consumed.has(i) || isHomeAdverb(tokens, i) || isSameThing(tokens, i) || isAsWell(tokens, i, allPlaceWords) ? 'other' : classify(i);
    if (cls === 'other') {
      i++;
      continue;
    }
    const start = i;
    const classes: TokenClass[] = [];
    while (i < to && !consumed.has(i)) {
      // "the carport under the house": a name spelt out as a phrase starts a mention of its own
      if (classes.length && phrases.has(i) && !phrases.has(i - 1)) break;
      const c = isAsWell(tokens, i, allPlaceWords) ? 'other' : classify(i);
      // "all the cameras", "everything else": the quantifier reaches over one article
      const lastReal = classes.filter((k) => k !== 'other').at(-1);
      if (c === 'other' && lastReal === 'whole' && ['the', 'of', 'my', 'our', 'else', 'in', 'on', 'at'].includes(tokens[i].text)) {
        classes.push('other');
        i++;
        continue;
      }
      if (c === 'other') break;
      classes.push(c);
      i++;
      if (tokens[i - 1].breakAfter) break;
    }
    const words = tokens.slice(start, i).map((t) => toHomeWord(t.text, allPlaceWords));
    // "which rooms are…": a category word alone names no room
    if (words.every((w, k) => classes[k] === 'other' || GENERIC_PLACE_WORDS.has(w))) continue;
    // "back on the 30th", "front": a name's modifier without its head noun names nothing —
    // unless a coordinated phrase lends it one ("the front and back doors" → the front door)
    const named = (w: string, k: number) => classes[k] === 'place' && (isHeadWord(w, ctx) || (classes.length === 1 && isModifierNamingRoom(w, ctx)));
    if (classes.every((c) => c === 'place' || c === 'other') && !words.some(named)) {
      const head = findSharedHead(tokens, i, to, consumed);
      if (!head) continue;
      const lent = [...words.filter((_, k) => classes[k] !== 'other'), head];
      const place = resolveRun(lent, [], ctx, lent.join(' '));
      if (place) mentions.push({ start, end: i, text: lent.join(' '), place });
      continue;
    }
    const text = words.filter((_, k) => classes[k] !== 'other').join(' ');
    const place = resolveMention(words, classes, ctx, text, tokens, i);
    if (place) mentions.push({ start, end: i, text, place });
  }
  return mentions;
}

const WHOLE_TIME_NOUNS = new Set([
  'time',
  'night',
  'nights',
  'day',
  'days',
  'evening',
  'morning',
  'afternoon',
  'weekend',
  'week',
  'while',
  'trip',
  'holiday',
  'holidays',
  'vacation',
  'stay',
]);

const GENERIC_PLACE_WORDS = new Set(['room', 'rooms', 'area', 'areas', 'place', 'places', 'space', 'spaces', 'spot', 'spots']);

/**
 * "the wash house", "the hen house": "house" after a word the tagger read as a verb ("wash") or not as a place, where
 * the two words together name a kind of place, is that place's name, never the whole home (docs/decisions.md,
 * "Before round S: words"); its words, or undefined.
 */
function readHouseCompound(words: string[], tokens: Token[], end: number): string[] | undefined {
  if (words.at(-1) !== 'house' || words.filter((w) => WHOLE_HOME_WORDS.has(w)).length !== 1) return undefined;
  const before = words.length > 1 ? words.at(-2)! : (tokens[end - 2]?.text ?? '');
  if (!/^[a-z]{3,}$/.test(before) || STOP_WORDS.has(before)) return undefined;
  if (isPlaceWord(`${before} house`)) return [before, 'house'];
  return isPlaceWord(`${before}house`) ? [`${before}house`] : undefined;
}

function resolveMention(words: string[], classes: TokenClass[], ctx: HouseholdContext, label: string, tokens: Token[], end: number): Place | undefined {
  const placeWords = words.filter((_, k) => classes[k] === 'place' || classes[k] === 'unknown');
  const kindWords = words.filter((_, k) => classes[k] === 'kind');
  // "the pool house", "the summer house": "house" after a place word is the head of a place's name,
  // not the whole home — a home without one is asked (see docs/decisions.md, "Round G: words")
  const head = words.length - 1;
  if (words[head] === 'house' && classes[head] === 'whole' && classes[head - 1] === 'place' && classes.filter((c) => c === 'whole').length === 1) {
    return resolveRun([...placeWords, 'house'], kindWords, ctx, label) ?? { type: 'unknown', label };
  }
  const compound = readHouseCompound(words, tokens, end);
  if (compound) return resolveRun(compound, kindWords, ctx, compound.join(' ')) ?? { type: 'unknown', label: compound.join(' ') };
  if (classes.includes('whole')) {
    // "the whole time", "all night", "the entire weekend": a span of time, not the whole home
    if (
      !placeWords.length &&
      !kindWords.length &&
      WHOLE_TIME_NOUNS.has(tokens[end]?.text ?? '') &&
      words.every((w) => ['whole', 'entire', 'all', 'every', 'the'].includes(w))
    )
      return undefined;
    // "after all", "at all", "we're all in": a set phrase, no place (see docs/decisions.md, "Round H: intent")
    if (words.length === 1 && words[0] === 'all' && ['after', 'at', "we're", 'were', "that's", 'thats'].includes(tokens[end - 2]?.text ?? '')) return undefined;
    const except = tokens[end]?.text === 'else' || words.includes('else');
    // "every room", "all the rooms": a category word, not one room
    if (placeWords.length && placeWords.every((w) => GENERIC_PLACE_WORDS.has(w))) {
      return { type: 'group', label: 'whole home', sensors: filterByKind(ctx.sensors, getKind(kindWords)), wholeHome: true, except };
    }
    if (placeWords.length) {
      // "everything in the garage", "all the garage sensors": the room's sensors
      const inner = resolveRun(placeWords, kindWords, ctx, label);
      // "zorp everything", "everything in the zorble": a word no lexicon knows is no part of the whole home, so it is asked
      const start = end - words.length;
      if (!inner && words.some((_, k) => classes[k] === 'unknown' && tokens[start + k]?.unknown)) return { type: 'unknown', label };
      if (!inner) return { type: 'group', label: 'whole home', sensors: filterByKind(ctx.sensors, getKind(kindWords)), wholeHome: true, except };
      if (inner.type === 'room')
        return { type: 'group', label: inner.room, sensors: filterByKind(inner.sensors, getKind(kindWords)), wholeHome: false, except };
      return inner;
    }
    const kind = getKind(kindWords);
    const sensors = filterByKind(ctx.sensors, kind);
    const groupLabel = kindWords.length ? `all ${pluralKind(kind)}` : 'whole home';
    return { type: 'group', label: groupLabel, sensors, wholeHome: true, except };
  }
  if (classes.every((c) => c === 'vague')) return { type: 'vague', label };
  return resolveRun(placeWords, kindWords, ctx, label);
}
