import { readActivityTime } from './activity-times.ts';
import { readCameraQuestion } from './camera-status.ts';
import { findTimePhrase, readAnimalWord, MAX_WINDOW_MS, describeDuration, SMALL_NUMBER_WORDS, TENS_WORDS } from '../../../platform/language/index.ts';
import { rewriteClockPhrases } from '../../../platform/language/time/clock-phrases.ts';
import { overnightSpan } from '../../../platform/language/time/overnight.ts';
import { readTimeComparison, type ComparisonOfTimes } from './query-compare.ts';
import { describeUnderstood, leftoverActionWords, notCoveredReason } from './query-coverage.ts';
import { describeKindQuestion, interpretKindQuestion } from './query-kinds.ts';
import { describeRoleRefusal, findRestrictedRoles } from './people-roles.ts';
import { locationWords, normaliseQuestion, tokenizeQuestion, type Token } from './query-tokenizer.ts';
import { WORDS_BY_ROLE, type WordRole } from './query-vocabulary.ts';
import { readSubArea } from './sub-areas.ts';
import { describeUnseenActRefusal, findUnseenAct } from './unseen-acts.ts';
import { dropFalseStart } from './false-starts.ts';
import { readAnimalModifier } from './animal-modifiers.ts';
import { otherAnimalSubtype, readOtherAnimal } from './other-animals.ts';
import { readSincePeak } from './since-peak.ts';
import { readPastDayPart } from './past-day-parts.ts';
import { readDayPartClock } from './day-part-clock.ts';
import { dropPoliteLead } from './polite-leads.ts';

const LEVEL_WORDS = {
  busy: WORDS_BY_ROLE.level_busy,
  crowded: WORDS_BY_ROLE.level_crowded,
  full: WORDS_BY_ROLE.level_full,
  quiet: WORDS_BY_ROLE.level_quiet,
} as const;
import { addZonedDays, formatClock, formatMoment, isValidTimeZone, startOfZonedDay, toWallClock } from '../../../platform/time/index.ts';
import type { Aggregate, Comparison, Interpretation, InterpretResult, Metric, QueryContext, Threshold } from './query.types.ts';
import { LOITERING_DWELL_S } from '../scene-engine.ts';

/**
 * Understands a scene question: which metric (people, vehicles, crowd
 * density, anomalies), which aggregate (now, peak, average, arrivals, presence, list) and which
 * time range. Words vote for intents by role; anything the vocabulary does not cover, any
 * contradiction (people *and* vehicles, peak *and* average) and any future time makes the
 * question "not understood" with examples, never a best guess.
 */

/** Loitering: a tracked person present this long (an anomaly); the scene engine's threshold. */
export { LOITERING_DWELL_S };

/** Aggregates read over a span, with how a refusal names them ("… is a moment, and an average needs a span"). */
const RANGE_AGGREGATES = new Map<Aggregate, string>([
  ['peak', 'a peak'],
  ['average', 'an average'],
  ['arrivals', 'a count of arrivals'],
  ['list', 'a list'],
  ['trend', 'a trend'],
  ['summary', 'a summary'],
  ['minimum', 'a lowest count'],
]);
/** Crowd levels as a share of capacity: "busy" from 50 %, "crowded" from 75 %, "full" from 100 %, "quiet" up to 25 %. */
export const CROWDED_SHARE = 0.75;
/** "busy" asks less than "crowded": half of capacity or more. */
export const BUSY_SHARE = 0.5;
export const QUIET_SHARE = 0.25;
/** "more than usual": the same time of day on this many earlier days. */
export const USUAL_BASELINE_DAYS = 7;
/** "how many people are here right now" against usual: the half hour either side of now on earlier days. */
export const USUAL_MOMENT_SPAN_MS = 30 * 60_000;
/** "when was the last car seen" with no time named looks back this far (the longest window). */
const LAST_SEEN_LOOKBACK_MS = MAX_WINDOW_MS;
/** "when was the cat seen?" with no time named: the last day's sightings */
const ANIMAL_WHEN_LOOKBACK_MS = 24 * 3_600_000;
/** "how long did the intruder stay?" with no time named: the latest stay of the last day */
const LATEST_STAY_LOOKBACK_MS = 24 * 3_600_000;
const WH_WORDS = new Set(['how', 'what', 'whats', 'when', 'who', 'where', 'which', 'why', 'hows', 'howmany', 'howmuch', 'howlong']);

const NUMBER_WORDS: Record<string, number> = { zero: 0, ...SMALL_NUMBER_WORDS, ...TENS_WORDS, dozen: 12, hundred: 100 };
const NUMBER = `(\\d+|${Object.keys(NUMBER_WORDS).join('|')})`;
const MORE_WORDS = 'more|greater|higher|bigger|over|above|exceeding|exceeded|exceed|exceeds|beyond|upwards of|in excess of';
const FEWER_WORDS = 'fewer|less|lower|smaller|under|below|beneath';
/** after a number: not a count when a unit of time or a clock follows ("reach 5pm", "hit 10 minutes") */
const NOT_A_TIME = '(?!\\s*(?::|\\.\\d|am\\b|pm\\b|oclock|o clock|seconds?\\b|secs?\\b|minutes?\\b|mins?\\b|hours?\\b|hrs?\\b|days?\\b|weeks?\\b))';
/** "more than 5", "over 10", "at least 3", "fewer than 2", "5 or more", "10+" */
const COMPARISON_PATTERNS: Array<[RegExp, (n: number) => { op: Comparison; value: number }]> = [
  [new RegExp(`\\b(?:at least|no fewer than|no less than|not less than|a minimum of|minimum of)\\s+${NUMBER}\\b`), (n) => ({ op: '>=', value: n })],
  [new RegExp(`\\b(?:at most|no more than|not more than|a maximum of|maximum of|up to)\\s+${NUMBER}\\b`), (n) => ({ op: '<=', value: n })],
  [new RegExp(`\\b(?:${MORE_WORDS})(?:\\s+than)?\\s+${NUMBER}\\b`), (n) => ({ op: '>', value: n })],
  [new RegExp(`\\b(?:${FEWER_WORDS})(?:\\s+than)?\\s+${NUMBER}\\b`), (n) => ({ op: '<', value: n })],
  // "when did it first pass 20?", "did it hit 50 people?", "did it cross 50?": a count crossing a number (never "in the
  // past 5 minutes" or "half past 5", so "past" is not one of them, and a unit after the number is not a count)
  [
    new RegExp(
      `\\b(?:passed|passes|passing|pass|topped|tops|top|went over|gone over|go over|goes over|crossed|crosses|crossing|cross|broke|breaks|breaking|break|surpassed|surpasses|surpass)\\s+${NUMBER}\\b${NOT_A_TIME}`,
    ),
    (n) => ({ op: '>', value: n }),
  ],
  // "did it ever go past 50 people?": "past" after a verb of going, a number and a word for what is
  // counted, is a count crossing the number ("walked past the gate", "half past 5", "the past 5
  // minutes" and "gone past 20" with nothing counted named stay as they were: docs/decisions.md,
  // "Before round Q: scene questions")
  [
    // (the verb is left in the question, as "go" of "go over 40" is, so "car park … cars" never run together)
    new RegExp(
      `(?<=\\b(?:went|gone|go|goes|going|got|get|gets|getting)\\s+)past\\s+${NUMBER}(?=\\s+(?:people|persons|visitors|customers|guests|cars|vehicles)\\b)`,
    ),
    (n) => ({ op: '>', value: n }),
  ],
  [
    new RegExp(`\\b(?:reached|reaches|reaching|reach|hit|hits|hitting|got to|get to|gets to|touched|touch)\\s+${NUMBER}\\b${NOT_A_TIME}`),
    (n) => ({ op: '>=', value: n }),
  ],
  [new RegExp(`\\b${NUMBER}\\s*(?:\\+|or more|or over|or above|plus)(?=\\s|$)`), (n) => ({ op: '>=', value: n })],
  [new RegExp(`\\b${NUMBER}\\s+or (?:fewer|less|under|below)\\b`), (n) => ({ op: '<=', value: n })],
];
const CAPACITY_PATTERNS: Array<[RegExp, Comparison]> = [
  [/\b(?:over|above|beyond|exceeding|exceeded|past|more than)\s+(?:its\s+|the\s+)?(?:capacity|max capacity|maximum capacity)\b/, '>'],
  [/\b(?:at|reached|reach|hit|hitting|at full|full)\s+(?:its\s+|the\s+)?(?:capacity|max capacity|maximum capacity)\b/, '>='],
  [/\b(?:under|below|within)\s+(?:its\s+|the\s+)?(?:capacity|max capacity|maximum capacity)\b/, '<'],
];
/** "than usual", "than normal", "than average", "than it usually is": a comparison with earlier days */
const USUAL_PATTERN =
  /\b(more|fewer|less|busier|quieter|fuller|emptier|calmer|higher|lower|bigger|smaller|heavier|lighter|different)\b((?:\s+\w+){0,3}?)\s+than\s+(?:usual|normal|normally|usually|typical|typically|average|the average|expected|a normal day|on a normal day|it usually is|it normally is|most days|other days|a typical day|on a typical day)\b/;
const USUAL_NEUTRAL_PATTERN =
  /\b(?:compared? (?:to|with)|vs|versus|relative to)\s+(?:usual|normal|average|the average|a normal day|a typical day|typical|other days|most days)\b|\b(?:is|was)\s+(?:this|that|it)\s+(?:normal|usual|typical)\b|\bnormal for\b|\busual for\b/;
/** "compare the people now with usual", "how does it compare to normal" */
const COMPARE_WITH_USUAL =
  /\b(?:compare|compared|comparing)\b(.*?)\b(?:with|to|against|vs|versus)\s+(?:usual|normal|average|the average|typical|a normal day|a typical day|other days|most days|what is usual|what is normal)\b/;
/** "is it busy for this time of day?": busier than usual at this time of day */
const LEVEL_FOR_TIME_OF_DAY = /\b(busy|quiet|crowded|packed|calm)\b()\s+for\s+(?:this|the)\s+time\s+of\s+(?:the\s+)?day\b/;
/** The time of day a comparison with usual already means. */
const SAME_TIME_OF_DAY =
  /\b(?:for|at|around)\s+(?:this|the|that)\s+(?:time(?:\s+of\s+(?:the\s+)?day)?|hour)(?:\s+of\s+(?:the\s+)?day)?\b|\bthis time of (?:the )?day\b/g;
const AUXILIARY_VERBS = new Set(['is', 'are', 'was', 'were', 'did', 'does', 'do', 'has', 'have', 'had']);
/** "… and when was …", "… and is it …": a second question joined to the first. */
const SECOND_QUESTION =
  /\b(?:and|also|plus|then|or|but)\s+(?:also\s+)?(?:how|what|whats|when|whens|who|where|which|why|is|are|was|were|did|does|do|has|have|had|any|can|could)\b/;
/** Follow-ups lean on an earlier question this surface does not keep: "same for cars", "what about yesterday". */
const FOLLOW_UP = /^(?:and|also|what about|how about|same|ok and|okay and)\b|\bsame (?:for|with|as)\b|\binstead\b/;

const ABSENCE_PATTERN =
  /\b(?:while|when|since|after|before|until)\s+(?:i|we)\s+(?:was|were|am|are|had|have|got|went|left|slept|came|got)?\s*(?:been\s+)?(?:out|away|gone|asleep|sleeping|at work|at the office|at school|on holiday|on vacation|left|slept|home|back|out shopping|shopping|in bed)?\b(?:\s+(?:of the house|of town|for the day))?/;

const NEGATIONS = new Set(['not', 'never', 'no', 'nor', 'neither', 'nobody', 'nothing', 'none']);

/** Words that describe a place's state, not people: "empty" says nothing about cars vs people by itself. */
const PLACE_STATE_WORDS = new Set(['empty', 'occupied', 'vacant', 'unoccupied', 'deserted']);
/** Locations where "empty" or "occupied" may well mean vehicles. */
const VEHICLE_PLACES = ['lot', 'parking', 'carpark', 'garage', 'driveway', 'dock', 'bay', 'road', 'street', 'loading'];
/** Places where cars park: a count with nothing named there could be of people or of cars. */
const PARKING_PLACES = ['lot', 'parking', 'carpark', 'garage', 'driveway'];
/** Words that open a yes/no question ("is the lobby empty", "any strangers", "someone hanging around?"). */
const YES_NO_STARTERS = new Set([
  ...AUXILIARY_VERBS,
  'am',
  'any',
  'anyone',
  'anybody',
  'someone',
  'somebody',
  'anything',
  'something',
  'nobody',
  'can',
  'could',
]);

/** "parking_lot" → "parking lot" */
export function describeLocation(location: string): string {
  return location.replace(/[_-]+/g, ' ').trim();
}

export function buildExamples(location: string): string[] {
  const place = describeLocation(location);
  return [
    `How many people are in the ${place} right now?`,
    `What was the peak number of people in the last hour?`,
    `What was the average number of people since 9am?`,
    `How many people arrived this morning?`,
    `Is anyone in the ${place}?`,
    `Were any vehicles here between 2 and 3pm?`,
    `How crowded is it?`,
    `Anything unusual in the last 30 minutes?`,
    `Any unrecognized people today?`,
    `Has anyone been loitering?`,
  ];
}

class NotUnderstood extends Error {
  /** animals the question named that the detector does not label, as subtypes (InterpretResult.animals) */
  animals?: string[];
}

function refuse(reason: string): never {
  throw new NotUnderstood(reason);
}

function quote(words: string[]): string {
  return words.map((w) => `"${w}"`).join(', ');
}

function collectRoles(tokens: Token[]): Set<WordRole> {
  const roles = new Set<WordRole>();
  // "is the lot empty of cars", "free of vehicles": the state word is about the vehicles named
  const vehiclesNamed = tokens.some((t) => t.roles.has('vehicles'));
  for (const token of tokens) {
    for (const role of token.roles) {
      if (role === 'people' && vehiclesNamed && PLACE_STATE_WORDS.has(token.word)) continue;
      roles.add(role);
    }
  }
  return roles;
}

/** "fullest", "emptiest": the most or the fewest of what fills a place. */
const FILL_SUPERLATIVES = new Set(['fullest', 'emptiest']);

/**
 * "when was the car park fullest?", "when was the lot emptiest of cars?": at a place where cars park,
 * or with vehicles named and no people, a car park fills with cars, so the superlative is the peak or
 * the lowest of the vehicle count, not the crowd level (docs/decisions.md, "Before round Q: scene questions").
 */
function readFillSuperlative(roles: Set<WordRole>, tokens: Token[], location: string): Set<WordRole> {
  if (!tokens.some((t) => FILL_SUPERLATIVES.has(t.word))) return roles;
  if (tokens.some((t) => (t.roles.has('people') && !PLACE_STATE_WORDS.has(t.word)) || (t.roles.has('crowd') && !FILL_SUPERLATIVES.has(t.word)))) return roles;
  if (!roles.has('vehicles') && !PARKING_PLACES.some((w) => locationWords(location).includes(w))) return roles;
  const read = new Set(roles);
  read.delete('crowd');
  read.delete('people');
  read.add('vehicles');
  return read;
}

/** The first word that is not politeness ("please", "can you") decides whether this is an instruction. */
function firstMeaningfulToken(tokens: Token[]): Token | undefined {
  return tokens.find((t) => !(t.roles.size === 1 && t.roles.has('filler')));
}

const OCCUPANCY_WORDS = new Set(['occupancy', 'occupied']);
/** "the crowd", "crowds": a body of people, which a count, a peak or an average counts (docs/decisions.md, "Round J: scene questions") */
const CROWD_NOUNS = new Set(['crowd', 'crowds']);
/** "crowd level", "crowd density": how crowded, not how many */
const LEVEL_NOUNS = new Set(['level', 'levels', 'density', 'dense']);

/**
 * Whether the crowd words ask for a head count: "occupancy" over a span ("peak occupancy"), and
 * "the crowd" as a noun with a count, peak, lowest or average ("the peak crowd", "how many in
 * the crowd", "the biggest crowd"). "How crowded", "crowd level", "is it a crowd" stay the crowd level.
 */
function crowdIsHeadcount(roles: Set<WordRole>, crowdWords: string[]): boolean {
  if (crowdWords.some((w) => !OCCUPANCY_WORDS.has(w) && !CROWD_NOUNS.has(w))) return false;
  const sized = (['peak', 'average', 'minimum'] as const).some((r) => roles.has(r));
  return sized || (roles.has('count') && crowdWords.some((w) => CROWD_NOUNS.has(w)));
}

function chooseMetric(roles: Set<WordRole>, location: string, crowdWords: string[] = []): Metric {
  // "what was the peak today" at a lobby: the peak of the people count, the scene's main figure;
  // at a car park the noun decides ("peak" alone could be cars)
  const countsOnly = (['peak', 'minimum', 'average'] as const).some((r) => roles.has(r)) && !roles.has('count');
  if (
    countsOnly &&
    !roles.has('vehicles') &&
    !roles.has('people') &&
    !roles.has('crowd') &&
    !roles.has('anomaly') &&
    !roles.has('unrecognized') &&
    !roles.has('loitering')
  ) {
    // the same places as a count with nothing named (below): where cars park, the vehicle count
    // is as much the scene's figure as the people count; at a dock or a road, vehicles pass
    if (PARKING_PLACES.some((w) => locationWords(location).includes(w))) {
      refuse(`The peak of people or of vehicles? Ask e.g. "peak number of cars in the ${describeLocation(location)} today".`);
    }
    return 'people';
  }
  const anomaly = roles.has('anomaly') || roles.has('unrecognized') || roles.has('loitering');
  if (anomaly && roles.has('vehicles')) {
    refuse('Unusual activity (unrecognized people, loitering) is tracked for people only, not vehicles.');
  }
  if (anomaly) return 'anomalies';
  if (roles.has('vehicles') && roles.has('people')) {
    refuse('The question asks about people and vehicles together; ask about one of them at a time.');
  }
  if (roles.has('vehicles') && roles.has('crowd')) {
    refuse('Crowd density is measured for people; ask how many vehicles there are instead.');
  }
  if (roles.has('vehicles')) return 'vehicles';
  // "occupancy" is both the head count and its share of capacity: over a span ("average
  // occupancy", "peak occupancy") it is the count of occupants; now, the share (with the count)
  if (roles.has('crowd') && crowdIsHeadcount(roles, crowdWords)) return 'people';
  if (roles.has('crowd')) return 'crowd_density';
  if (roles.has('people')) return 'people';
  // "how many were there at 2pm?", "reception numbers": a count with nothing named is of people,
  // the scene's main figure (as "the peak" alone is), except where cars park, where it could be either
  if (roles.has('count') && !roles.has('animals') && !roles.has('other_animal')) {
    if (PARKING_PLACES.some((w) => locationWords(location).includes(w))) {
      refuse(
        `People or vehicles? Ask e.g. "how many cars are in the ${describeLocation(location)}?" or "how many people are in the ${describeLocation(location)}?"`,
      );
    }
    return 'people';
  }
  return refuse(`I could not tell what to count: ask about people, vehicles, how crowded the ${describeLocation(location)} is, or anything unusual.`);
}

/** Words of an amount: "are there many people?" asks for more than whether any are there. */
const QUANTITY_WORDS = new Set(['many', 'lots', 'lot', 'loads', 'load', 'plenty', 'much', 'few', 'several', 'heaps', 'tons', 'bunch']);

function chooseAggregate(metric: Metric, roles: Set<WordRole>, tokens: Token[], rangeish: boolean): Aggregate {
  if (metric === 'anomalies') return 'list';
  const asked = (['peak', 'average', 'arrivals', 'minimum'] as const).filter((a) => roles.has(a));
  if (asked.length > 1) refuse(`The question asks for ${asked.join(' and ')} at once; ask for one of them.`);
  if (metric === 'crowd_density') {
    if (asked[0] === 'arrivals') refuse('Crowd density has no arrivals; ask how many people arrived instead.');
    if (asked[0] === 'minimum') return 'minimum';
    if (asked.length === 1) return asked[0];
    return rangeish && !roles.has('current') ? 'peak' : 'current';
  }
  if (asked.length === 1) return asked[0];
  if (roles.has('presence') && !roles.has('count')) return 'presence';
  // "are people in the lobby?", "are there people here now?": whether any, said with a yes or no
  // ("are there many people?" asks how many: the count, as before)
  if (AUXILIARY_VERBS.has(tokens[0]?.word ?? '') && !roles.has('count') && !tokens.some((t) => QUANTITY_WORDS.has(t.word))) return 'presence';
  if (roles.has('count') && rangeish && asksWhoWasThere(metric, tokens)) return 'peak';
  if (roles.has('current')) return 'current';
  if (roles.has('count')) return rangeish ? 'arrivals' : 'current';
  return rangeish ? 'arrivals' : 'current';
}

/**
 * "how many people were in the lobby at lunch", "how many cars were here yesterday", "how many cars
 * parked today" ("parked" is read as "present"): how many were there over the span, answered as the
 * most at once (the answer says "Peak of"), not how many came in and not "now"; a verb of its own
 * ("were seen", "came in") keeps its reading, and so does "now" (docs/decisions.md, "Round R: scene
 * questions").
 */
function asksWhoWasThere(metric: Metric, tokens: Token[]): boolean {
  if (metric !== 'people' && metric !== 'vehicles') return false;
  const words = tokens.map((t) => t.word);
  if (tokens.some((t) => t.roles.has('current') && t.word !== 'present')) return false;
  return (words.includes('were') || words.includes('present')) && !words.some((w) => SIGHTING_VERBS.has(w));
}
const SIGHTING_VERBS = new Set(['seen', 'spotted', 'detected', 'recorded', 'counted', 'caught', 'picked', 'logged', 'let', 'admitted']);

const SYMBOL: Record<Comparison, string> = { '>': 'more than', '>=': 'at least', '<': 'fewer than', '<=': 'at most' };

/** What a count question asks: the count, its peak or average, presence, trend, the last one seen. */
function describeCountAggregate(interp: Omit<Interpretation, 'summary'>, noun: string, plural: string): string | undefined {
  let what: string;
  switch (interp.aggregate) {
    case 'current':
      what = interp.metric === 'crowd_density' ? 'crowd density' : `${noun} count`;
      if (interp.level) what = `whether it is ${interp.level} (${what} against capacity)`;
      break;
    case 'minimum':
      what = interp.metric === 'crowd_density' ? 'lowest crowd density' : `lowest ${noun} count`;
      break;
    case 'peak':
      what = interp.metric === 'crowd_density' ? 'peak crowd density' : `peak ${noun} count`;
      if (interp.level) what = `whether it was ${interp.level} (${what} against capacity)`;
      break;
    case 'average':
      what = interp.metric === 'crowd_density' ? 'time-weighted average crowd density' : `time-weighted average ${noun} count`;
      if (interp.level) what = `whether it was ${interp.level} (${what} against capacity)`;
      break;
    case 'arrivals':
      what = `${noun} arrivals`;
      break;
    case 'presence':
      what = interp.expect_empty
        ? `whether it ${interp.from === interp.to ? 'is' : 'was'} empty of ${interp.metric === 'activity' ? 'people and vehicles' : plural}`
        : `whether any ${plural} ${interp.from === interp.to ? 'are' : 'were'} present`;
      break;
    case 'trend':
      if (interp.metric === 'activity') {
        what = `whether the people and vehicle counts ${interp.direction === 'down' ? 'fell' : interp.direction === 'up' ? 'rose' : 'rose or fell'}`;
        break;
      }
      what = `whether the ${noun} count ${interp.direction === 'down' ? 'fell' : interp.direction === 'up' ? 'rose' : 'rose or fell'}`;
      break;
    case 'last_seen':
      what = interp.subtype ? `last ${interp.subtype} person seen` : `last ${interp.metric === 'vehicles' ? 'vehicle' : 'person'} seen`;
      if (interp.expect_empty) what = `last time it was empty of ${plural}`;
      break;
    default:
      return undefined;
  }
  return what;
}

/** What an event question asks: a comparison, first and latest arrivals, a threshold, dwell, a list. */
function describeEventAggregate(interp: Omit<Interpretation, 'summary'>, noun: string, plural: string): string | undefined {
  let what: string;
  switch (interp.aggregate) {
    case 'compare':
      what = `${noun} count compared with ${interp.compare_with ? interp.compare_with.label : 'another time'}`;
      break;
    case 'first_seen':
      what = interp.subtype ? `first ${interp.subtype} person seen` : `first ${interp.metric === 'vehicles' ? 'vehicle' : 'person'} seen`;
      break;
    case 'last_arrival':
      what = `latest ${interp.metric === 'vehicles' ? 'vehicle' : 'person'} arrival`;
      break;
    case 'departures':
      what = `${noun} departures`;
      break;
    case 'last_departure':
      what = `latest ${interp.metric === 'vehicles' ? 'vehicle' : 'person'} departure`;
      break;
    case 'threshold': {
      const t = interp.threshold!;
      const n = t.capacity ? 'capacity' : t.share ? `${t.value}% of capacity` : `${t.value}`;
      if (t.basis === 'first') {
        what = `when the ${noun} count first was ${SYMBOL[t.op]} ${n}`;
        break;
      }
      const basis = { current: `${noun} count`, peak: `peak ${noun} count`, minimum: `lowest ${noun} count`, arrivals: `number of ${noun} arrivals` }[t.basis];
      what = `whether the ${basis} ${interp.from === interp.to && interp.to === interp.asked_at ? 'is' : 'was'} ${SYMBOL[t.op]} ${n}`;
      break;
    }
    case 'dwell':
      what = interp.latest
        ? `how long the last ${interp.subtype ? `${interp.subtype} person` : noun === 'people' ? 'person' : noun} seen stayed (dwell time of the latest stay)`
        : `how long ${plural} stayed (dwell time)`;
      break;
    case 'vs_usual':
      what = `${interp.metric === 'activity' ? 'people and vehicle counts' : `${noun} count`} compared with the same time on the previous ${USUAL_BASELINE_DAYS} days`;
      break;
    case 'summary':
      what = 'activity overview (arrivals, peak, vehicles, anomalies)';
      break;
    case 'only':
      what = 'whether only animals were seen';
      break;
    case 'list': {
      const loiter = `people loitering ${interp.min_dwell_s} s or more`;
      if (interp.subtype && interp.min_dwell_s) what = `${interp.subtype} ${loiter}`;
      else if (interp.subtype) what = `${interp.subtype} people`;
      else if (interp.min_dwell_s) what = loiter;
      else what = `anomalies (unrecognized people or people loitering ${LOITERING_DWELL_S} s or more)`;
      break;
    }
    default:
      return undefined;
  }
  return what;
}

function describeQuestion(interp: Omit<Interpretation, 'summary'>, now: number): string {
  const where = `in ${describeLocation(interp.location)}`;
  const when =
    interp.from === interp.to
      ? `at ${formatMoment(interp.to, interp.time_zone, now)}`
      : `from ${formatMoment(interp.from, interp.time_zone, now)} to ${formatMoment(interp.to, interp.time_zone, now)}`;
  const noun = interp.metric === 'vehicles' ? 'vehicle' : 'people';
  const plural = interp.metric === 'vehicles' ? 'vehicles' : 'people';
  let what: string;
  if (interp.metric === 'objects') return `${describeKindQuestion(interp)} ${where} ${when}`;
  if (interp.metric === 'animals') {
    const animals = interp.subtype ? `${interp.subtype}s` : 'animals (cats and dogs)';
    if (interp.aggregate === 'only') what = `whether only animals and no people were seen (${interp.subtype ? `a ${interp.subtype}` : 'a cat or a dog'})`;
    else if (interp.aggregate === 'arrivals') what = `sightings of ${animals}`;
    else if (interp.aggregate === 'first_seen') what = `the first sighting of ${animals}`;
    else if (interp.aggregate === 'current') what = `${animals} in the cameras' latest reading, and the latest sighting`;
    else if (interp.aggregate === 'dwell') what = `how long the latest of the ${animals} seen has been tracked`;
    else what = `whether any ${animals} were seen`;
    return `${what} ${where} ${when}`;
  }
  what = describeCountAggregate(interp, noun, plural) ?? describeEventAggregate(interp, noun, plural)!;
  return `${what} ${where} ${when}`;
}

function blank(text: string, match: RegExpExecArray, replacement = ''): string {
  return `${text.slice(0, match.index)} ${replacement} ${text.slice(match.index + match[0].length)}`;
}

function numberOf(word: string): number {
  return /^\d+$/.test(word) ? Number(word) : NUMBER_WORDS[word];
}

interface Comparisons {
  text: string;
  threshold?: { op: Comparison; value: number; capacity?: boolean; share?: boolean };
  usual?: { direction?: 'up' | 'down' };
  minDwellS?: number;
}

const UP_WORDS = new Set(['more', 'busier', 'fuller', 'higher', 'bigger', 'heavier', 'busy', 'crowded', 'packed']);
const DOWN_WORDS = new Set(['fewer', 'less', 'quieter', 'emptier', 'calmer', 'lower', 'smaller', 'lighter', 'quiet', 'calm']);
const DWELL_UNITS: Record<string, number> = { second: 1, seconds: 1, minute: 60, minutes: 60, hour: 3600, hours: 3600 };
const DWELL_PATTERN = new RegExp(
  `\\b(?:for\\s+)?(?:longer than|more than|over|at least|upwards of|for)\\s+(${NUMBER.slice(1, -1)}|an?|half an)\\s+(seconds?|minutes?|hours?)\\b`,
);

/**
 * Comparisons are read before the time phrase, so chrono never takes "more than 10 minutes" for a
 * time and "more than 5" never reaches the tokenizer as a stray number.
 */
function extractComparisons(text: string): Comparisons {
  const out: Comparisons = { text };
  const compare = COMPARE_WITH_USUAL.exec(out.text);
  if (compare) {
    // "compare the number of people now with usual": the words between are the question
    out.text = `${out.text.slice(0, compare.index)} ${compare[1]} ${out.text.slice(compare.index + compare[0].length)}`;
    out.usual = {};
  }
  const usual = compare ? null : (USUAL_PATTERN.exec(out.text) ?? LEVEL_FOR_TIME_OF_DAY.exec(out.text));
  if (usual) {
    out.usual = { direction: UP_WORDS.has(usual[1]) ? 'up' : DOWN_WORDS.has(usual[1]) ? 'down' : undefined };
    out.text = blank(out.text, usual, usual[2] ?? '');
  } else {
    const neutral = compare ? null : USUAL_NEUTRAL_PATTERN.exec(out.text);
    if (neutral) {
      out.usual = {};
      out.text = blank(out.text, neutral);
    }
  }
  // "busier than normal for this time of day": usual already is the same time of day
  if (out.usual) out.text = out.text.replace(SAME_TIME_OF_DAY, ' ');
  const dwell = DWELL_PATTERN.exec(out.text);
  if (dwell) {
    const amount = dwell[1] === 'a' || dwell[1] === 'an' ? 1 : dwell[1] === 'half an' ? 0.5 : numberOf(dwell[1]);
    out.minDwellS = amount * DWELL_UNITS[dwell[2]];
    out.text = blank(out.text, dwell);
  }
  for (const [pattern, op] of CAPACITY_PATTERNS) {
    const m = pattern.exec(out.text);
    if (m) {
      out.threshold = { op, value: 0, capacity: true };
      out.text = blank(out.text, m);
      break;
    }
  }
  if (!out.threshold) {
    for (const [pattern, read] of COMPARISON_PATTERNS) {
      const m = pattern.exec(out.text);
      if (m) {
        out.threshold = read(numberOf(m[1]));
        // "over 50%", "more than 80 percent full": a share of capacity, not a head count
        const rest = out.text.slice(m.index + m[0].length);
        const percent = /^\s*(?:percent|per cent)(?:\s+(?:full|of capacity|of its capacity|capacity|occupied|occupancy))?\b/.exec(rest);
        out.text = blank(out.text, m);
        if (percent) {
          out.threshold.share = true;
          out.text = out.text.replace(/\b(?:percent|per cent)(?:\s+(?:full|of capacity|of its capacity|capacity|occupied|occupancy))?\b/, ' ');
        }
        break;
      }
    }
  }
  return out;
}

/** The first few words decide: "is/are/did/any …" asks yes or no, "how/what/when …" asks for a value. */
function isYesNoQuestion(original: string, tokens: Token[]): boolean {
  const words = tokens.map((t) => t.word);
  const first = tokens.find((t) => !(t.roles.has('filler') && !YES_NO_STARTERS.has(t.word)) || YES_NO_STARTERS.has(t.word));
  const opensYesNo = Boolean(first && YES_NO_STARTERS.has(first.word));
  // "has the number of cars gone up?": after "is/has/did …", "the number of" names a count, it does not ask for one
  const namesCount = (w: string, i: number) => opensYesNo && w === 'howmany' && ['the', 'a'].includes(words[i - 1] ?? '');
  if (words.some((w, i) => WH_WORDS.has(w) && !namesCount(w, i))) return false;
  if (words.includes('if') || words.includes('whether')) return true;
  if (opensYesNo) return true;
  return /\?\s*$/.test(original);
}

function metricFor(roles: Set<WordRole>): 'people' | 'vehicles' {
  if (roles.has('vehicles') && roles.has('people')) {
    refuse('The question asks about people and vehicles together; ask about one of them at a time.');
  }
  return roles.has('vehicles') ? 'vehicles' : 'people';
}

interface Range {
  from: number;
  to: number;
  label: string;
  phrase?: string;
  /** the window looked back from now (the request's, or the default): reported in the interpretation */
  fromWindow?: boolean;
}

/**
 * The window a question with no time of its own is answered over when the request gives no
 * `window` (docs/decisions.md, "Scene questions: an optional window"); the interpretation says so.
 */
export const DEFAULT_QUERY_WINDOW_MS = 15 * 60_000;

/** 900_000 → "15m", 7_200_000 → "2h": the request notation of a window. */
export function formatWindow(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${Math.round(ms / 1000)}s`;
}

/** The interpretation's report of the window, when its range is the window. */
function windowReport(range: Range, ctx: QueryContext): Pick<Interpretation, 'window'> {
  return range.fromWindow ? { window: { duration: formatWindow(ctx.windowMs), source: ctx.windowSource ?? 'request' } } : {};
}

/**
 * The read stage: one straight pass over the question. Normalise it, set aside the user's own
 * absence ("while I was out"), read comparisons ("more than 5", "than usual"), then the one time
 * phrase, then classify every remaining word by its roles. Nothing here decides the answer.
 */
type TimePhrase = ReturnType<typeof findTimePhrase>['phrase'];

interface Reading {
  query: string;
  normalised: string;
  absence: RegExpExecArray | null;
  comparisons: Comparisons;
  phrase: TimePhrase;
  /** the text left after comparisons and the time phrase were consumed */
  remainder: string;
  tokens: Token[];
  unknown: string[];
  otherPlaces: string[];
  /** a spot inside the scene that points at one person ("the guy by the gate"), see query-tokenizer.ts */
  landmarks: string[];
  /** a part of the scene's place named ("the boarding lane"), see sub-areas.ts */
  subArea?: string;
  /** a word for a cat or a dog the camera cannot see ("stray"), see animal-modifiers.ts */
  animalModifier?: string;
  roles: Set<WordRole>;
  /** two times compared; `phrase` is then the first of them */
  compared?: ComparisonOfTimes;
  /** "… and when?" after the question: asked of an answer that says when anyway (the peak, the first sighting) */
  alsoWhen: boolean;
  /** "… and how many?" after a "when": asked of an answer that gives the count anyway (the peak, the lowest, a first crossing) */
  alsoCount: boolean;
  /** "per hour", "hourly", "rate": arrivals (or departures) as a rate over the span */
  perHour: boolean;
  /** "this time yesterday": the time phrase is now's clock a day ago, written by the reader, not the user */
  nowClock: boolean;
}

/** "what was the peak today and when?": the time asked along with a figure whose answer gives it. */
const ALSO_WHEN = /\s+and\s+(?:at\s+)?(?:when|what time)(?:\s+(?:was|is|did)\s+(?:it|that|this))?(?:\s+happen)?\s*$/;
/**
 * "when was it busiest today and how many?", "… and how busy", "… and what was the count": the count
 * asked along with a time whose answer gives it (the peak's time and its count are one question).
 */
const ALSO_HOW_MANY =
  /\s+and\s+(?:how\s+many(?:\s+(?:people|persons|vehicles|cars|were\s+there|was\s+that|then))*|how\s+(?:busy|crowded|full|packed)(?:\s+(?:was\s+it|it\s+was|was\s+that|did\s+it\s+get|then))*|(?:what\s+(?:was\s+)?)?the\s+(?:count|number|headcount)(?:\s+(?:was|then))*)\s*$/;
/** "how many cars per hour", "the hourly rate of arrivals": a rate over the span (docs/decisions.md, "Scene questions: round F") */
const PER_HOUR =
  /\b(?:per|each)\s+hour\b|(?<=\b(?:people|persons|cars|vehicles|visitors|customers|arrivals)\s)an?\s+hour\b(?!\s+(?:ago|before|after|earlier|later|back|or))|\bhourly(?:\s+rate)?\b|\b(?:arrival\s+)?rate\s+of\b/g;
/** "per minute", "per day": rates over other units are not given */
const OTHER_RATE = /\b(?:per|each)\s+(?:minute|min|second|day|week)\b|\brate\b/;
/**
 * "the morning drop-off", "the afternoon pick-up", "the evening rush": a busy period named by
 * what happens in it; the day part says when, and the event adds nothing a count can tell apart.
 * Without a day part ("the school run") it is left unread and asked about.
 */
const DAY_PART_EVENT =
  /\b(morning|afternoon|evening|lunchtime)\s+(?:school\s+)?(?:drop\s+offs?|dropoffs?|pick\s+ups?|rush(?:\s+hour)?|school\s+run|commute)\b/g;
/**
 * "what's the dock camera showing?", "what can the camera see?", "what did the feed pick up
 * this morning?": what the camera sees is what is happening there, an overview (the last
 * reading and its time when the camera is offline). Only with "what" asked of the camera itself
 * and nothing counted named before the verb (docs/decisions.md, "Round J: scene questions").
 */
const CAMERA_SHOWS =
  /\bwhat\s+(is|does|did|do|can|could|has)\s+((?:the|this|that|your|our|my)\s+(?:[a-z]+\s+){0,2}?(?:camera|cam|cameras|feed|view|stream)|it)\s+(?:show|showing|shows|shown|see|seeing|sees|saw|seen|picking\s+up|pick\s+up|picked\s+up|looking\s+at|look\s+at)\b/;
/** "how full compared to capacity", "relative to its capacity": the crowd level, which is given against capacity */
const AGAINST_CAPACITY = /\b(?:compared\s+(?:to|with)|relative\s+to|against|versus|vs)\s+(?:the\s+|its\s+)?(?:max(?:imum)?\s+)?capacity\b/g;

/**
 * "over its capacity of 60", "its limit of 60 people": the figure the speaker gives is the one
 * compared with; "more than half full", "three quarters full": that share of capacity
 * (docs/decisions.md, "Round Q: scene questions").
 */
const CAPACITY_OF_NUMBER = /\b(?:its|the|their|our|a)\s+(?:max(?:imum)?\s+)?(?:capacity|limit)\s+of\s+(\d+)(?:\s+(?:people|persons))?\b/g;
const SHARE_WORDS: Record<string, number> = { half: 50, 'a half': 50, 'one half': 50, 'a quarter': 25, 'one quarter': 25, 'three quarters': 75 };
const SHARE_FULL = /\b(a half|one half|half|a quarter|one quarter|three quarters)\s+(?:full|of\s+(?:its\s+|the\s+)?capacity)\b/g;

/**
 * "completely empty", "totally deserted", "absolutely packed": a word that only stresses an end
 * state says nothing more than the state (empty is none at all; full is at capacity). Words that
 * move it ("almost", "nearly", "half", "mostly") are not here and stay as they were read; neither
 * is "fully occupied", which means full, not "occupied" (any people).
 */
const STRESSED_STATE = /\b(?:completely|totally|entirely|utterly|absolutely|wholly)\s+(empty|deserted|vacant|full|packed|rammed|jammed)\b/g;

/**
 * "any cats wander in?", "who popped in this morning", "cars rolled in since 8", "swung by": a way of
 * coming in is coming in, past or present as said. Read before the time phrase, which may take the
 * "in" ("in today"). "drop in" is left out: "a drop in numbers", "numbers dropped in the evening" are a fall.
 */
const MOTION_IN =
  /\b(?:(wandered|strolled|popped|rolled|swung|ambled|sauntered|trickled|wandering|strolling|popping|rolling|swinging|trickling)|wander|stroll|pop|roll|swing|amble|saunter|trickle)\s+(in|into|by)\b/g;

/**
 * "what time did people start arriving", "when did cars begin to come in": the time the first one
 * came, as "first arrive" is read; only asked with when or what time (a count "since they started
 * arriving" has no start the scene defines, and is asked back as before).
 */
const START_ARRIVING = /\b(?:start|started|starting|begin|began|begun)\s+(?:to\s+)?(?=(?:arriv|come|came|coming|show|turn|pull|walk|drive|drove)\w*\b)/g;
const ASKS_WHEN = /^(?:when|what time|at what time|how early)\b/;

/**
 * "anyone walking around the car park right now?", "people wandering about", "anyone roaming the
 * quay": moving about a place is being there, a presence question, never a count of arrivals
 * ("walk" alone is read as coming in). Only in a question not in the past ("were people wandering
 * around at 9" is read as before); ways of coming in ("walking in", "wandered in") are not matched.
 */
const MOTION_AROUND =
  /\b(?:walking|wandering|strolling|roaming|milling|moving|pottering|mooching|ambling|prowling)\s+(?:around|about|round)\b|\b(?:wandering|roaming|prowling)\b(?!\s+(?:in|into|by|out|off|away|past|through|over|up|down|to|from|back|across|onto|on)\b)/g;

const PAST_AUXILIARY = /\b(?:was|were|did|had|been)\b/;

function readMotionIn(text: string): string {
  const moved = (PAST_AUXILIARY.test(text) ? text : text.replace(MOTION_AROUND, 'around')).replace(
    MOTION_IN,
    (_, past: string | undefined, particle: string) =>
      `${past && !past.endsWith('ing') ? 'came' : past ? 'coming' : 'come'}${particle === 'into' ? ' into' : ''}`,
  );
  return ASKS_WHEN.test(moved) ? moved.replace(START_ARRIVING, 'first ') : moved;
}

function readQuestion(query: string, ctx: QueryContext): Reading {
  const { now, timeZone, location } = ctx;
  const said0 = readMotionIn(normaliseQuestion(query, location))
    .replace(DAY_PART_EVENT, '$1')
    .replace(AGAINST_CAPACITY, 'capacity')
    .replace(CAPACITY_OF_NUMBER, '$1 people')
    .replace(SHARE_FULL, (_, share: string) => `${SHARE_WORDS[share]} percent full`)
    .replace(STRESSED_STATE, '$1')
    .replace(CAMERA_SHOWS, 'what $1 $2 happening');
  const perHour = !OTHER_RATE.test(said0.replace(PER_HOUR, ' ')) && PER_HOUR.test(said0);
  PER_HOUR.lastIndex = 0;
  const said = perHour ? said0.replace(PER_HOUR, ' ').replace(/\s+/g, ' ').trim() : said0;
  const alsoWhen = ALSO_WHEN.exec(said);
  const alsoCount = alsoWhen ? null : ALSO_HOW_MANY.exec(said);
  const normalised = alsoWhen ? said.slice(0, alsoWhen.index) : alsoCount ? said.slice(0, alsoCount.index) : said;
  // "while I was out", "since we left": the user's own absence names a time only with a phrase
  // that says when ("while I was out this afternoon"); the clause itself is set aside
  const absence = ABSENCE_PATTERN.exec(normalised);
  const withoutAbsence = absence ? `${normalised.slice(0, absence.index)} ${normalised.slice(absence.index + absence[0].length)}` : normalised;
  const comparisons = extractComparisons(withoutAbsence);
  comparisons.text = rewriteClockPhrases(comparisons.text);
  // "this time yesterday", "the same time yesterday": the moment a day ago, not the whole day
  const THIS_TIME_YESTERDAY = /\b(?:at\s+)?(?:this|the same|same)\s+time\s+yesterday\b|\byesterday\s+(?:at|around)\s+(?:this|the same|same)\s+time\b/;
  const nowClock = THIS_TIME_YESTERDAY.test(comparisons.text);
  // "has foot traffic picked up?": "picked up" at the end of a question is a rise, not a detection
  const prepared = comparisons.text
    .replace(/\bpicked up(?=\s*$)/, 'pickingup')
    // "all night" / "through the night": the night just past, or the one in progress
    .replace(/\b(?:all night(?: long)?|through the night|during the night)\b/, 'overnight')
    // now's clock in the 24-hour form, which the shared reader never moves to the other half of the day
    .replace(THIS_TIME_YESTERDAY, `at ${formatClock(now, timeZone)} yesterday`);
  // "compare this morning with yesterday morning", "busier today than yesterday?": two times
  const compared = readTimeComparison(prepared, { now, timeZone });
  const { phrase, remainder } = compared
    ? {
        phrase: {
          kind: 'range' as const,
          from: compared.first.from,
          to: compared.first.to,
          label: compared.first.label,
          phrase: compared.first.phrase ?? 'now',
        },
        remainder: compared.rest,
      }
    : readOneTime(prepared, now, timeZone);
  // "the first stray dog": a dog all the same, the word set aside and said in the answer (animal-modifiers.ts)
  const animalModifier = readAnimalModifier(remainder);
  const text = animalModifier?.rest ?? remainder;
  const read = tokenizeQuestion(text, location);
  // "how many cars are in the boarding lane": a part of this place, read without its name (sub-areas.ts)
  const subArea = readSubArea(text, location, [...read.unknown, ...read.otherPlaces]);
  const { tokens, unknown, otherPlaces, landmarks } = subArea ? tokenizeQuestion(subArea.rest, location) : read;
  return {
    query,
    normalised,
    absence,
    comparisons,
    phrase,
    remainder,
    tokens,
    unknown,
    otherPlaces,
    landmarks,
    ...(subArea ? { subArea: subArea.name } : {}),
    ...(animalModifier ? { animalModifier: animalModifier.word } : {}),
    roles: readFillSuperlative(collectRoles(tokens), tokens, location),
    compared,
    alsoWhen: alsoWhen !== null,
    alsoCount: alsoCount !== null,
    perHour,
    nowClock,
  };
}

/** The question's time phrase; a part of the day and a clock inside it are one span (day-part-clock.ts). */
function readOneTime(text: string, now: number, timeZone: string): ReturnType<typeof findTimePhrase> {
  const read = (t: string) => readOvernight(t, now, timeZone) ?? readPastDayPart(t, now, timeZone) ?? findTimePhrase(t, { now, timeZone });
  const found = read(text);
  return readDayPartClock(text, found, now, timeZone, read) ?? found;
}

/**
 * "anyone here overnight?": the night part of the day (overnight.ts), not the evening before it.
 * Only when it is the question's one time phrase; "at 2am overnight" is left to the shared reader.
 */
function readOvernight(text: string, now: number, timeZone: string): ReturnType<typeof findTimePhrase> | undefined {
  const m = /\bovernight\b/.exec(text);
  if (!m) return undefined;
  const rest = `${text.slice(0, m.index)}${' '.repeat(m[0].length)}${text.slice(m.index + m[0].length)}`;
  if (findTimePhrase(rest, { now, timeZone }).phrase.kind !== 'none') return undefined;
  const span = overnightSpan(now, timeZone);
  return { phrase: { kind: 'range', from: span.from, to: span.to, label: span.label, phrase: 'overnight' }, remainder: rest };
}

/** What the reading understood, for a refusal that says so (see query-coverage.ts). */
function understoodOf(reading: Reading, location: string): string {
  const { phrase } = reading;
  const label = phrase.kind === 'range' || phrase.kind === 'point' ? phrase.label : undefined;
  return describeUnderstood(reading.roles, describeLocation(location), label);
}

/**
 * The coverage stage: refuse when the question is not one question about this scene's past or
 * present, or when any word that could change the answer was left unread.
 */
function checkCoverage(reading: Reading, location: string): void {
  const { query, normalised, absence, phrase, tokens, unknown, otherPlaces, roles } = reading;
  // two questions in one ("how many came in and when was the last one?"): answering one of them
  // would look like an answer to both
  const questions = query.split('?').filter((part) => /[a-z0-9]/i.test(part));
  if (questions.length > 1 || SECOND_QUESTION.test(normalised)) {
    refuse('That is more than one question; ask them one at a time.');
  }
  if (FOLLOW_UP.test(normalised)) {
    refuse('I answer each question on its own, without the ones before it; ask it in full, e.g. "how many cars are in the lot now?"');
  }
  if (phrase.kind === 'future') {
    refuse(`"${phrase.phrase}" is in the future; I can only answer about what the cameras have already seen.`);
  }
  if (absence && phrase.kind === 'none') {
    refuse(`I do not know when "${absence[0].trim()}" was; name the time, e.g. "between 2 and 5pm" or "this afternoon".`);
  }
  // a word not understood is said before anything read around it is judged ("at half two flurbish
  // yesterday" is not two times, it is a time with a word in it that was not read)
  if (phrase.kind === 'several') {
    const timeWords = new Set(phrase.phrases.flatMap((x) => x.toLowerCase().split(/[^a-z0-9:]+/)));
    const strange = unknown.filter((w) => w !== 'afterhours' && !timeWords.has(w));
    if (strange.length > 0) refuse(notCoveredReason(understoodOf(reading, location), strange));
  }
  if (phrase.kind === 'several') {
    refuse(`The question names more than one time (${quote(phrase.phrases)}); ask about one time span.`);
  }
  if (tokens.length + unknown.length + otherPlaces.length === 0 && phrase.kind === 'none') {
    refuse('I could not find a question there.');
  }
  const first = firstMeaningfulToken(tokens);
  if (first?.roles.has('command')) {
    refuse(`That sounds like an instruction ("${first.word}"); I only answer questions about what the scene saw.`);
  }
  if (roles.has('future')) {
    refuse('That asks about the future; I can only answer about what the cameras have already seen.');
  }
  if (otherPlaces.length > 0) {
    // what was understood first, as every coverage refusal says it (query-coverage.ts)
    refuse(
      `I understood ${understoodOf(reading, location)}, but this scene covers the ${describeLocation(location)}; I cannot answer about ${quote(otherPlaces)}. Query that location's scene instead.`,
    );
  }
  if (unknown.includes('afterhours')) {
    refuse('I do not know this site\'s opening hours; name the time instead, e.g. "since 6pm" or "last night".');
  }
  const commands = tokens.filter((t) => t.roles.has('command') && t.roles.size === 1).map((t) => t.word);
  // "busier than before", "than earlier": read as a change (see resolveQuestion)
  const consumed = new Set<number>();
  tokens.forEach((t, i) => {
    if (t.word === 'than' && (tokens[i + 1]?.word === 'before' || tokens[i + 1]?.word === 'earlier')) {
      consumed.add(i);
      consumed.add(i + 1);
    }
  });
  const leftover = [...unknown, ...commands, ...leftoverActionWords(tokens, roles, consumed)];
  if (leftover.length > 0) refuse(notCoveredReason(understoodOf(reading, location), leftover));
}

function interpretOrThrow(asked: string, ctx: QueryContext): Interpretation {
  if (typeof asked !== 'string' || asked.trim() === '') refuse('The question is empty.');
  // "cuantas... sorry, how many people …": the words taken back are dropped (false-starts.ts)
  // "sorry to bother you, how many …": a politeness before a whole question is filler (polite-leads.ts)
  // "since the peak": from the day's peak to now, read as "today" and found by the answerer (since-peak.ts)
  const since = readSincePeak(dropFalseStart(dropPoliteLead(asked)));
  const query = since.query;
  // "at drop-off", "since opening": a time of day the scene does not define (activity-times.ts)
  const activity = readActivityTime(query, describeLocation(ctx.location));
  if (activity.kind === 'ask') refuse(activity.reason);
  const camera = readCameraQuestion(query, ctx);
  if (camera) return camera;
  const read = readQuestion(activity.query, ctx);
  // "at the drop-off right now": a part of the scene, answered for the whole scene (activity-times.ts)
  const reading = activity.kind === 'part' && !read.subArea ? { ...read, subArea: activity.part } : read;
  // "how many guests checked in?": an act no camera sees, not the arrivals it counts (unseen-acts.ts)
  const act = findUnseenAct(reading.normalised);
  if (act) refuse(describeUnseenActRefusal(act, describeLocation(ctx.location)));
  checkCoverage(reading, ctx.location);
  const interp = withAnimalModifier(reading, withSubArea(reading, withLandmark(reading, resolveQuestion(reading, ctx))));
  return since.sincePeak ? withSincePeak(interp) : interp;
}

/** "is it emptying out since the peak?": a trend of people or vehicles over today, told from the peak (since-peak.ts). */
function withSincePeak(interp: Interpretation): Interpretation {
  if (interp.aggregate !== 'trend' || (interp.metric !== 'people' && interp.metric !== 'vehicles') || interp.range_label !== 'today') {
    refuse('"Since the peak" is asked of a trend today; ask e.g. "is it emptying out since the peak?" or "what was the peak today?"');
  }
  const { trend_wide: _wide, baseline: _baseline, ...rest } = interp;
  return { ...rest, since_peak: true };
}

/**
 * "how many cars are in the boarding lane": the camera counts the whole scene, so a count is
 * answered for it and says so (Interpretation.sub_area); a yes/no, or anything but a count of people
 * or vehicles, is asked back, since the part alone may hold none (sub-areas.ts).
 */
function withSubArea(reading: Reading, interp: Interpretation): Interpretation {
  if (!reading.subArea) return interp;
  const place = describeLocation(interp.location);
  if (interp.yes_no || (interp.metric !== 'people' && interp.metric !== 'vehicles')) {
    refuse(`This camera counts the whole ${place} and does not count the ${reading.subArea} apart; ask about the whole ${place}.`);
  }
  return { ...interp, sub_area: reading.subArea };
}

/** "the first stray dog": answered for every dog, and the answer says so (animal-modifiers.ts); never of anything but animals. */
function withAnimalModifier(reading: Reading, interp: Interpretation): Interpretation {
  if (!reading.animalModifier) return interp;
  if (interp.metric !== 'animals') refuse(`The cameras cannot tell "${reading.animalModifier}" animals from others; ask about cats or dogs on their own.`);
  return { ...interp, animal_modifier: reading.animalModifier };
}

/**
 * "how long has the guy by the gate been here": the camera counts people in the whole scene and
 * does not tell where inside it one stands, so the answer is for the scene and says so; anything
 * but a question about people is asked back (docs/decisions.md, "Round O: scene questions").
 */
function withLandmark(reading: Reading, interp: Interpretation): Interpretation {
  if (reading.landmarks.length === 0) return interp;
  const place = describeLocation(interp.location);
  if (interp.metric !== 'people') {
    refuse(
      `The camera does not tell where in the ${place} someone stands, so I cannot pick out the one by ${quote(reading.landmarks)}; ask about the whole ${place}.`,
    );
  }
  return { ...interp, landmark: reading.landmarks[0] };
}

/**
 * What every step of the resolve stage reads: the reading, the context, and the shape of the
 * question worked out once (yes/no, a span or a moment, a car park with neither count named).
 */
interface Resolving {
  reading: Reading;
  ctx: QueryContext;
  roles: Set<WordRole>;
  tokens: Token[];
  comparisons: Comparisons;
  phrase: TimePhrase;
  yesNo: boolean;
  /** the question is about a span (a range named, or the past tense with no time) */
  rangeish: boolean;
  atVehiclePlace: boolean;
  namesPeople: boolean;
  /** at a car park with neither people nor vehicles named: both counts */
  bothCounts: boolean;
  anomalyWords: boolean;
  /** kinds of vehicle named in a count ("how many trucks"): answered as every vehicle, said so */
  vehicleKinds: string[];
  windowRange(): Range;
  /** a span: the phrase's, "around 4" widened to its hour, or the request window */
  spanRange(what: string): Range;
  /** a moment: the phrase's, or now */
  pointRange(): Range;
}

/** What one resolver decides: the metric, the aggregate, the range and the fields particular to it. */
interface Resolved {
  metric: Metric;
  aggregate: Aggregate;
  range: Range;
  extra: Partial<Interpretation>;
}

/** "different", "unique", "distinct" people: the answer says it counts tracks, not identities. */
const DISTINCT_WORDS = new Set(['different', 'unique', 'distinct', 'separate', 'individual']);

/** "are here", "is there", "are in": said in the present of a span ("how many people are here today"). */
const PRESENT_HERE = /\b(?:are|is)\s+(?:there\s+)?(?:here|there|in|inside|around|about)\b/;

/** Aggregates whose answer gives the count with its time ("when was it busiest and how many?"). */
const ANSWERS_WITH_COUNT = new Set<Aggregate>(['peak', 'minimum']);

/**
 * "how many cars per hour this morning?", "the hourly rate of arrivals since 8": arrivals (or
 * departures) over the span, given as a total and per hour. A count of now has no rate, so a
 * rate with no span named is over the window, which the answer names.
 */
function perHourOf(r: Resolving, resolved: Resolved): Resolved {
  const { aggregate, metric } = resolved;
  if (metric !== 'people' && metric !== 'vehicles')
    refuse('I can give a rate for people or vehicles arriving or leaving; ask e.g. "how many cars per hour since 8am?"');
  if (aggregate === 'arrivals' || aggregate === 'departures') return { ...resolved, extra: { ...resolved.extra, yes_no: false, per_hour: true } };
  if (aggregate === 'current' && r.phrase.kind !== 'point') {
    return { metric, aggregate: 'arrivals', range: r.spanRange('a rate'), extra: { per_hour: true } };
  }
  return refuse('A rate per hour is given for arrivals or departures; ask e.g. "how many people arrived per hour this morning?"');
}

/** Aggregates whose answer already says when ("the peak today and when?"). */
const ANSWERS_WITH_TIME = new Set<Aggregate>(['peak', 'minimum', 'first_seen', 'last_seen', 'last_arrival', 'last_departure']);

/**
 * The resolve stage: metric, aggregate and range from a reading that passed the coverage check,
 * as one straight pass: the words that turn a level into a change, what the cameras cannot tell,
 * the question's shape, then the one resolver its ask words select.
 */
function resolveQuestion(reading: Reading, ctx: QueryContext): Interpretation {
  readChangeWords(reading);
  refuseWhatCamerasCannotTell(reading, ctx.location);
  const r = shapeOf(reading, ctx);
  if (reading.compared) return resolveComparison(r);
  const animalWords = r.tokens.filter((t) => t.roles.has('animals') || t.roles.has('other_animal'));
  if (r.roles.has('only') && animalWords.length === 0) refuse(`I did not understand "only".`);
  if (animalWords.length > 0) return resolveAnimals(r, animalWords);
  if (r.roles.has('objects')) return resolveObjects(r);
  const resolved = resolveByAsk(r);
  if (r.comparisons.minDwellS !== undefined && resolved.extra.min_dwell_s === undefined) {
    refuse('The question names a length of stay I could not tie to the rest; ask e.g. "anyone here longer than 10 minutes?"');
  }
  if (reading.alsoWhen && !ANSWERS_WITH_TIME.has(resolved.aggregate)) refuse('That is more than one question; ask them one at a time.');
  if (reading.alsoCount && !(ANSWERS_WITH_COUNT.has(resolved.aggregate) || resolved.extra.threshold?.basis === 'first')) {
    refuse('That is more than one question; ask them one at a time.');
  }
  if (reading.perHour) return finish(r, perHourOf(r, resolved));
  // "how many different people today?": arrivals count tracks, and the answer says so
  if (resolved.aggregate === 'arrivals' && r.tokens.some((t) => DISTINCT_WORDS.has(t.word))) resolved.extra.distinct = true;
  // "how many people are here today": the people who came in over the day, with the latest count beside them
  if (resolved.aggregate === 'arrivals' && !r.roles.has('arrivals') && !r.roles.has('past') && PRESENT_HERE.test(reading.normalised)) {
    resolved.extra.present_too = true;
  }
  if (r.vehicleKinds.length > 0 && r.yesNo && resolved.aggregate === 'presence' && !resolved.extra.expect_empty) {
    // "any trucks at the dock?": every vehicle counted, never a yes (docs/decisions.md, "Round J: scene questions")
    const moment = resolved.range.from === resolved.range.to;
    return finish(r, { ...resolved, aggregate: moment ? 'current' : 'arrivals', extra: { ...resolved.extra, yes_no: false, any_of_kind: true } });
  }
  if (
    r.vehicleKinds.length > 0 &&
    (resolved.metric !== 'vehicles' ||
      !(COUNTING_AGGREGATES.has(resolved.aggregate) || SIGHTING_AGGREGATES.has(resolved.aggregate) || isUpperBoundThreshold(resolved)))
  ) {
    refuse(`I count vehicles of every kind together and cannot tell ${quote(r.vehicleKinds)} apart from other vehicles; ask how many vehicles there are.`);
  }
  return finish(r, resolved);
}

/** "getting busier", "busier than before", "getting quiet": a change, read as a rise or a fall. */
function readChangeWords(reading: Reading): void {
  const { tokens, roles, remainder, normalised, phrase } = reading;
  // "has it got quieter", "it became busier": the past of getting; "quieter since 5pm": than at
  // 5pm, a change over the span (docs/decisions.md, "Scene questions: round F's causes")
  const comparative = [...WORDS_BY_ROLE.comparative_up, ...WORDS_BY_ROLE.comparative_down].join('|');
  const gotComparative = new RegExp(
    `\\b(?:got|gotten|get|gets|become|became|grew|grown)\\s+(?:(?:a\\s+)?(?:lot|bit|little|much|any|even|way)\\s+)*(?:${comparative})\\b`,
  );
  const sinceSpan = phrase.kind === 'range' && /\bsince\b/.test(normalised);
  const becoming = tokens.some((t) => t.roles.has('becoming')) || /\bthan (?:before|earlier)\b/.test(remainder) || gotComparative.test(remainder) || sinceSpan;
  if (roles.has('comparative_up') || roles.has('comparative_down')) {
    if (!becoming) refuse('Busier or quieter than when? Ask e.g. "is it getting busier?" or "is it busier than usual?"');
    roles.add(roles.has('comparative_up') ? 'trend_up' : 'trend_down');
  }
  tokens.forEach((t, i) => {
    const next = tokens[i + 1];
    if (!t.roles.has('becoming') || !next) return;
    if ([...LEVEL_WORDS.busy, ...LEVEL_WORDS.crowded, ...LEVEL_WORDS.full].includes(next.word)) roles.add('trend_up');
    if (LEVEL_WORDS.quiet.includes(next.word)) roles.add('trend_down');
  });
}

/**
 * Aggregates that give the time of a sighting: for a kind of vehicle the cameras do not tell apart
 * ("the last lorry"), the last (or first) vehicle of any kind is a bound on it, and the answer says so.
 */
const SIGHTING_AGGREGATES = new Set<Aggregate>(['last_seen', 'last_arrival', 'last_departure', 'first_seen']);

/**
 * "more than 10 vans at any point?": every vehicle together bounds the vans from above, so a "no"
 * for all vehicles is a "no" for vans; a "yes" is asked back by the answerer. Only the highest
 * reading of a span: "more than 3 trucks now?" stays asked back (docs/decisions.md, "Round N:
 * scene questions").
 */
function isUpperBoundThreshold(resolved: { aggregate: Aggregate; extra: { threshold?: Threshold } }): boolean {
  const t = resolved.extra.threshold;
  return resolved.aggregate === 'threshold' && t !== undefined && (t.op === '>' || t.op === '>=') && t.basis === 'peak';
}

/** Aggregates that give a count, which may carry "I cannot tell trucks from other vehicles". */
const COUNTING_AGGREGATES = new Set<Aggregate>(['current', 'peak', 'average', 'minimum', 'arrivals', 'compare']);

/**
 * What no answer can honestly carry: a negative question (a yes or no reads either way round),
 * kinds of people the cameras do not tell apart ("kids", "women"), things they do not detect
 * ("bicycles"), and kinds of vehicle outside a plain count (see docs/decisions.md, "Scene
 * questions: kinds the cameras cannot tell").
 */
function refuseWhatCamerasCannotTell(reading: Reading, location: string): void {
  const { tokens } = reading;
  const negation = tokens.find((t) => NEGATIONS.has(t.word));
  if (negation) {
    refuse(
      `The question is asked the negative way ("${negation.word}"), so a yes or no could be read backwards; ask it the plain way, e.g. "is anyone in the ${describeLocation(location)}?"`,
    );
  }
  const roles = findRestrictedRoles(tokens);
  if (roles.length > 0) refuse(describeRoleRefusal(roles, describeLocation(location)));
  const peopleKinds = tokens.filter((t) => t.roles.has('people_kind')).map((t) => t.word);
  if (peopleKinds.length > 0) {
    refuse(`I count people of every age and sex together and cannot tell ${quote(peopleKinds)} apart from other people; ask how many people there are.`);
  }
  // what someone looked like or wore, and devices the cameras are not (an alarm, a sensor): no
  // answer from the counts and tracks is about them (docs/decisions.md, "Scene questions: round D's causes")
  const appearance = tokens.filter((t) => t.roles.has('appearance')).map((t) => (t.word === 'lookslike' ? 'look like' : t.word));
  if (appearance.length > 0) {
    refuse(
      `The cameras count and track people and vehicles; they keep no description of anyone (${quote(appearance)}). Ask e.g. "when was an unrecognized person last seen?" or look at the recording.`,
    );
  }
  const devices = tokens.filter((t) => t.roles.has('device')).map((t) => (t.word === 'alarmsystem' ? 'alarm' : t.word));
  if (devices.length > 0) {
    refuse(
      `I answer from what the camera in the ${describeLocation(location)} saw, and it has no record of ${quote(devices)}; ask e.g. "anything unusual tonight?" or "was anyone here since midnight?"`,
    );
  }
  refuseWhatNoCountTells(reading);
  const undetected = tokens.filter((t) => t.roles.has('undetected_kind')).map((t) => t.word);
  if (undetected.length > 0) {
    refuse(`The cameras detect people, cars, vans, trucks, buses and motorbikes, cats and dogs; they do not report ${quote(undetected)}.`);
  }
}

/** "what was the intruder doing?", "what did the cat do?", "what happened to him?": what someone did */
const WHAT_DONE = /\bwhat\s+(?:did|was|were|is|are|has|have|had)\b.*\b(?:doing|do|done)\b|\bhappen(?:ed|s|ing)?\s+to\b/;
/** "how did the intruder get in?": the way something happened */
const HOW_MANNER =
  /^\s*how\s+(?:did|does|do|could|would|can|was|were)\b.*\b(?:get|got|break|broke|broken|enter|entered|come|came|leave|left|escape|escaped|go|went|manage|managed|open|opened|access|accessed|sneak|snuck)\b/;
/** "was it a man or a woman?", "male or female": the cameras do not tell */
const EITHER_SEX =
  /\b(?:man|woman|men|women|male|female|boy|girl|guy|lady|gentleman)\s+or\s+(?:a\s+|an\s+)?(?:man|woman|men|women|male|female|boy|girl|guy|lady|gentleman)\b/;
/** "what kind of car", "what colour was the van": a description */
const WHAT_KIND = /\b(?:what|which)\s+(?:kind|type|sort|make|model|colou?r|brand)\b/;
const PERSON_FALL = new Set(['fall', 'fell', 'fallen', 'falling', 'falls']);
const PERSON_PRONOUNS = new Set(['anyone', 'anybody', 'someone', 'somebody', 'nobody', 'everyone', 'everybody', 'he', 'she', 'they']);

/**
 * Questions whose answer is not a count, a time or a stay, though every word is known: what
 * someone did or how, which one it was, or whether a person (not the count) fell or rose. Read
 * as the nouns around them they would be answered with a count of those nouns (docs/decisions.md,
 * "Scene questions: round D's causes").
 */
function refuseWhatNoCountTells(reading: Reading): void {
  const { normalised, tokens } = reading;
  if (WHAT_DONE.test(normalised)) {
    refuse(
      'The cameras record where and when people, vehicles and animals were seen and how long they stayed, not what they did; ask e.g. "when was the intruder last seen?" or "how long did the intruder stay?"',
    );
  }
  if (HOW_MANNER.test(normalised) && !reading.compared) {
    refuse('The cameras record when and how many, not how something happened; ask e.g. "when was an unrecognized person first seen tonight?"');
  }
  if (EITHER_SEX.test(normalised)) {
    refuse('I count people of every age and sex together and cannot tell men from women; ask how many people there were.');
  }
  if (WHAT_KIND.test(normalised)) {
    refuse(
      'The cameras count and track people and vehicles; they keep no description of anyone or anything (a kind, a make, a colour). Ask e.g. "when was the last car seen?"',
    );
  }
  tokens.forEach((t, i) => {
    const next = tokens[i + 1];
    if (
      (t.word === 'what' || t.word === 'which') &&
      next &&
      ['people', 'vehicles', 'vehicle_kind', 'unrecognized', 'animals'].some((r) => next.roles.has(r as WordRole)) &&
      !next.roles.has('count')
    ) {
      refuse(
        `The cameras count people and vehicles but do not tell one from another ("${t.word} ${next.word}"); ask e.g. "how many ${next.roles.has('people') || next.roles.has('unrecognized') ? 'people' : 'vehicles'} came in today?"`,
      );
    }
    // "did anyone fall?": a person falling, not the count ("did Sam drop by" is a visit)
    if (PERSON_PRONOUNS.has(t.word) && next && PERSON_FALL.has(next.word)) {
      refuse(
        `That asks what a person did ("${t.word} ${next.word}"); the cameras record where people were, not what they did. To ask about the count, say e.g. "has the number of people fallen since 9?"`,
      );
    }
  });
}

/**
 * "any trucks at the dock?", "were there vans here this morning?", "is there a lorry in?": whether
 * any of a kind the cameras do not tell apart were there. Answered with every vehicle counted and
 * the kind said not to be told apart, never with a yes. A kind named as one already known ("is the
 * van still here?", "the last lorry"), or with "first"/"last", stays refused (docs/decisions.md,
 * "Round J: scene questions").
 */
function asksForAnyOfKind(reading: Reading, yesNo: boolean): boolean {
  const { tokens, roles } = reading;
  if (!yesNo || roles.has('first') || roles.has('last') || roles.has('empty')) return false;
  return tokens.every((t, i) => !t.roles.has('vehicle_kind') || !DEFINITE.has(tokens[i - 1]?.word ?? ''));
}

function shapeOf(reading: Reading, ctx: QueryContext): Resolving {
  const { now, timeZone, windowMs, location } = ctx;
  const { query, comparisons, phrase, tokens, roles } = reading;
  const yesNo = isYesNoQuestion(query, tokens);
  const atVehiclePlace = VEHICLE_PLACES.some((w) => locationWords(location).includes(w));
  const namesPeople = tokens.some((t) => t.roles.has('people') && !PLACE_STATE_WORDS.has(t.word));
  const bothCounts = atVehiclePlace && !namesPeople && !roles.has('vehicles');
  const trendAsked = roles.has('trend_up') || roles.has('trend_down') || roles.has('trend');
  if (bothCounts && !trendAsked && !roles.has('empty') && !comparisons.usual && roles.has('crowd')) {
    // "is the parking lot full?": of cars, most likely, and capacity is counted in people
    refuse(`People or vehicles? Ask e.g. "how many cars are in the ${describeLocation(location)}?" or "how crowded with people is it?"`);
  }
  const pastTense = roles.has('past') && !roles.has('current');
  const rangeish = phrase.kind === 'range' || (phrase.kind === 'none' && pastTense);
  const windowRange = (): Range => ({ from: now - windowMs, to: now, label: `in the last ${describeDuration(windowMs)}`, fromWindow: true });
  const nowRange = (): Range => ({ from: now, to: now, label: `now (${formatClock(now, timeZone)})` });
  const spanRange = (what: string): Range => {
    const halves = askSmallHoursOrAfternoon(phrase, now, timeZone);
    if (halves) refuse(halves);
    if (phrase.kind === 'range') return { from: phrase.from, to: phrase.to, label: phrase.label, phrase: phrase.phrase };
    if (phrase.kind === 'point') {
      if (phrase.around) return { ...phrase.around, phrase: phrase.phrase };
      return refuse(`"${phrase.phrase}" is a moment, and ${what} needs a span, e.g. "since 9am" or "between 2 and 3pm".`);
    }
    return windowRange();
  };
  const pointRange = (): Range => {
    if (phrase.kind === 'range') refuse(`The question asks about now and about "${phrase.phrase}"; ask about one of them.`);
    if (phrase.kind === 'point') return { from: phrase.at, to: phrase.at, label: phrase.label, phrase: phrase.phrase };
    return nowRange();
  };
  // "the most trucks at once", "the fewest vans": a count too (peak, minimum, average)
  const countAsked = (roles.has('count') || roles.has('peak') || roles.has('minimum') || roles.has('average')) && !yesNo;
  const vehicleKinds = tokens.filter((t) => t.roles.has('vehicle_kind')).map((t) => t.word);
  // "when did the last lorry come in": the last vehicle of any kind bounds it (said in the answer)
  // ("first truck this morning?", "last lorry?": said without "when", the question opens with the sighting asked for)
  const opening = tokens.find((t) => !['the', 'a', 'an', 'and', 'so', 'ok', 'okay', 'oh'].includes(t.word));
  const whenAsked = (roles.has('last') || roles.has('first')) && (!yesNo || Boolean(opening && (opening.roles.has('first') || opening.roles.has('last'))));
  if (vehicleKinds.length > 0 && !countAsked && !whenAsked && !asksForAnyOfKind(reading, yesNo)) {
    refuse(`I count vehicles of every kind together and cannot tell ${quote(vehicleKinds)} apart from other vehicles; ask about vehicles or cars.`);
  }
  return {
    reading,
    ctx,
    roles,
    tokens,
    comparisons,
    phrase,
    yesNo,
    rangeish,
    atVehiclePlace,
    namesPeople,
    bothCounts,
    anomalyWords: roles.has('anomaly') || roles.has('unrecognized') || roles.has('loitering'),
    vehicleKinds,
    windowRange,
    spanRange,
    pointRange,
  };
}

/** "any", "anything", "anyone": a question whether anything at all was seen. */
const ANY_WORDS = new Set(['any', 'anything', 'anyone', 'anybody', 'something', 'someone', 'somebody']);

/** The one resolver the question's ask words select, in order of precedence. */
function resolveByAsk(r: Resolving): Resolved {
  const { roles, comparisons, phrase } = r;
  // "how many people are usually here?": with no span named, usual is the same time on earlier days
  const otherAsk = (
    ['dwell', 'last', 'trend', 'trend_up', 'trend_down', 'departures', 'arrivals', 'minimum', 'peak', 'anomaly', 'unrecognized', 'loitering'] as const
  ).some((x) => roles.has(x));
  if (!comparisons.usual && roles.has('usual') && phrase.kind === 'none' && !otherAsk) comparisons.usual = {};
  if (comparisons.usual) return resolveVsUsual(r);
  if (comparisons.threshold) return resolveThreshold(r);
  if (roles.has('first')) return resolveFirstSeen(r);
  if (roles.has('dwell')) return resolveDwell(r);
  if (roles.has('departures') && roles.has('arrivals')) {
    return refuse('The question asks about people coming and going at once; ask how many arrived or how many left.');
  }
  if (roles.has('departures')) return resolveDepartures(r);
  if (roles.has('last')) return resolveLastSeen(r);
  if (roles.has('trend_up') || roles.has('trend_down') || roles.has('trend')) return resolveTrend(r);
  if (roles.has('activity') && !r.anomalyWords && !roles.has('people') && !roles.has('vehicles') && !roles.has('crowd')) {
    // "what happened while I was out this afternoon?", "any activity since 9?"
    const range = r.rangeish || phrase.kind !== 'none' ? r.spanRange('an overview') : r.pointRange();
    // "any movement?", "anything happen since 9?": whether anything was seen, said yes or no; a
    // yes/no without "any…" ("did it go up?") may ask about a rise the overview does not weigh
    const asksAny = r.yesNo && !roles.has('count') && r.tokens.some((t) => ANY_WORDS.has(t.word));
    return { metric: 'activity', aggregate: 'summary', range, extra: asksAny ? { yes_no: true } : {} };
  }
  return resolveCount(r);
}

/** "longest window": "when was the last car seen" with no time named looks back this far. */
function lookbackRange(r: Resolving, what: string): Range {
  const { now } = r.ctx;
  return r.phrase.kind === 'none'
    ? { from: now - LAST_SEEN_LOOKBACK_MS, to: now, label: `in the last ${describeDuration(LAST_SEEN_LOOKBACK_MS)}` }
    : r.spanRange(what);
}

/**
 * A count with neither people nor vehicles named ("how many now", "busier than usual", "compare
 * this morning with yesterday"): both counts side by side where cars park, people elsewhere —
 * the same place list as chooseMetric's count with nothing named.
 */
function unnamedCountIsBoth(r: Resolving): boolean {
  return r.bothCounts && PARKING_PLACES.some((w) => locationWords(r.ctx.location).includes(w));
}

/** "are there more people than usual right now?": now (or the range) against the same time of day before. */
function resolveVsUsual(r: Resolving): Resolved {
  const { roles, comparisons } = r;
  if (r.anomalyWords) refuse('I can compare counts of people or vehicles with usual, not unusual activity.');
  if (comparisons.threshold) refuse('The question compares with usual and with a number at once; ask one of them.');
  // with neither named, "busier than usual" is about both counts where cars park and about
  // people elsewhere (a dock, a road), as for a count with nothing named (unnamedCountIsBoth)
  const metric: Metric = unnamedCountIsBoth(r) ? 'activity' : metricFor(roles);
  const range = r.rangeish ? r.spanRange('a comparison with usual') : r.pointRange();
  if (range.to - range.from > 86_400_000) refuse('I can compare at most one day with usual; ask about a shorter span.');
  const direction = comparisons.usual!.direction;
  return {
    metric,
    aggregate: 'vs_usual',
    range,
    extra: { ...(direction ? { direction } : {}), yes_no: r.yesNo && direction !== undefined, baseline: baselineSpans(range, r.ctx.timeZone) },
  };
}

/** "more than 5 people at any point?": a yes or no against a number or the capacity. */
function resolveThreshold(r: Resolving): Resolved {
  const { roles } = r;
  const t = r.comparisons.threshold!;
  if (r.anomalyWords) refuse('I can compare counts of people or vehicles with a number, not unusual activity.');
  // "when did it first go above 30?", "what time did it first reach capacity?": the first reading
  // of the span (today when none is named) that meets the number
  const askedWhen = r.tokens.some((tok, i) => tok.word === 'when' || (tok.word === 'what' && r.tokens[i + 1]?.word === 'time'));
  const firstCrossing = roles.has('first') && askedWhen && !r.yesNo;
  if (!r.yesNo && !firstCrossing)
    refuse(`Ask it as a yes/no question, e.g. "were there ${SYMBOL[t.op]} ${t.capacity ? 'capacity' : t.value} people at any point in the last hour?"`);
  if (roles.has('peak') || roles.has('average') || roles.has('trend') || roles.has('last') || roles.has('dwell') || (roles.has('first') && !firstCrossing)) {
    refuse('The question compares with a number and asks for something else too; ask one thing at a time.');
  }
  const metric = metricFor(roles);
  if (firstCrossing) {
    if (roles.has('arrivals') || roles.has('departures'))
      refuse('I can tell when the count first went past a number, not when arrivals did; ask e.g. "when did it first go above 30 people today?"');
    if ((t.capacity || t.share) && metric === 'vehicles') refuse('Capacity is set for people, not vehicles.');
    const { now, timeZone } = r.ctx;
    const range =
      r.phrase.kind === 'none'
        ? { from: startOfZonedDay(now, timeZone), to: now, label: 'today' }
        : r.spanRange('a question about when a count first went past a number');
    return { metric, aggregate: 'threshold', range, extra: { threshold: { ...t, basis: 'first' }, yes_no: false } };
  }
  if ((t.capacity || t.share) && metric === 'vehicles') refuse('Capacity is set for people, not vehicles.');
  if (t.share && roles.has('arrivals')) refuse('A share of capacity compares with how many are present, not with arrivals.');
  let basis: Threshold['basis'];
  if (roles.has('arrivals')) basis = 'arrivals';
  else if (r.rangeish || roles.has('any_point')) basis = t.op === '>' || t.op === '>=' ? 'peak' : 'minimum';
  else basis = 'current';
  const range = basis === 'current' ? r.pointRange() : r.spanRange('a question like this');
  return { metric, aggregate: 'threshold', range, extra: { threshold: { ...t, basis }, yes_no: true } };
}

/** "when was the first car seen this morning?", "first person in today": the earliest sighting. */
function resolveFirstSeen(r: Resolving): Resolved {
  const { roles } = r;
  const { now, timeZone } = r.ctx;
  if (roles.has('last')) refuse('The question asks for the first and the last at once; ask for one of them.');
  const other = (['dwell', 'departures', 'peak', 'average', 'minimum', 'trend', 'trend_up', 'trend_down', 'loitering', 'empty', 'crowd'] as const).filter((x) =>
    roles.has(x),
  );
  if (other.length > 0 || (roles.has('anomaly') && !roles.has('unrecognized'))) {
    refuse(`I can tell when the first person or vehicle was seen; ask e.g. "when was the first car seen this morning?"`);
  }
  const metric: Metric = roles.has('unrecognized') ? 'anomalies' : metricFor(roles);
  // with no time named, "the first car" is today's
  const range =
    r.phrase.kind === 'none' ? { from: startOfZonedDay(now, timeZone), to: now, label: 'today' } : r.spanRange('a question about the first sighting');
  return { metric, aggregate: 'first_seen', range, extra: metric === 'anomalies' ? { subtype: 'unrecognized' } : {} };
}

/**
 * "how long has that guy been hanging around", "longest anyone stayed": the stays of tracks.
 * "how long did that unrecognised guy stay" keeps to the unrecognized tracks.
 */
function resolveDwell(r: Resolving): Resolved {
  const { roles, tokens } = r;
  if (roles.has('empty')) refuse('I can tell how long people stayed, not how long the place was empty.');
  // "how long has the intruder been gone?": the time since a stay ended, not the stay
  if (tokens.some((t) => t.word === 'gone'))
    refuse('That asks how long ago someone left, not how long they stayed; ask e.g. "when did the last person leave?"');
  const metric = metricFor(roles);
  if (roles.has('unrecognized') && metric !== 'people') refuse('Unrecognized is said of people, not vehicles.');
  // "how long was the person at 2am here for": the stays around that moment (half an hour either
  // side, as "around 2" is read), since a stay is a span and the moment only says which
  const { phrase } = r;
  const arrival = arrivalStay(r, metric, roles.has('unrecognized'));
  if (arrival) return arrival;
  const range: Range =
    phrase.kind === 'point' && !phrase.around
      ? {
          from: phrase.at - USUAL_MOMENT_SPAN_MS,
          to: Math.min(phrase.at + USUAL_MOMENT_SPAN_MS, r.ctx.now),
          label: phrase.label.replace(/^at\s+/, 'around '),
          phrase: phrase.phrase,
        }
      : r.rangeish || phrase.kind !== 'none'
        ? r.spanRange('a question about how long')
        : r.windowRange();
  const words = new Set(tokens.map((t) => t.word));
  // "how long has he been here" asks about a stay still going on; "how long did/do people stay",
  // "average dwell", "the longest stay" ask about the stays of the range
  const ongoing =
    range.to === r.ctx.now &&
    ['been', 'still', 'is', 'are', 'has', 'have'].some((w) => words.has(w)) &&
    !['did', 'was', 'were', 'had', 'do', 'does', 'longest'].some((w) => words.has(w)) &&
    !roles.has('average') &&
    !roles.has('usual');
  const subtype = roles.has('unrecognized') ? { subtype: 'unrecognized' } : {};
  // "how long did the intruder stay?", "how long was that car here?": one person or vehicle the
  // question takes as known, in the past tense, with no time named. The request window may have
  // begun after that stay ended ("none in the last 15 minutes" would deny what the question
  // presumes), so it is the latest such stay of the last day, and the answer says when it was
  const past = roles.has('past') && !roles.has('current');
  if (!ongoing && past && phrase.kind === 'none' && namesOneKnown(tokens) && !roles.has('average') && !roles.has('usual') && !words.has('longest')) {
    const { now } = r.ctx;
    const lookback: Range = { from: now - LATEST_STAY_LOOKBACK_MS, to: now, label: `in the last ${describeDuration(LATEST_STAY_LOOKBACK_MS)}` };
    return { metric, aggregate: 'dwell', range: lookback, extra: { ongoing: false, latest: true, ...subtype } };
  }
  return { metric, aggregate: 'dwell', range, extra: { ongoing, ...subtype } };
}

/** "came in", "arrived", "got here", "pulled in": the verbs of a relative clause that names who by when they arrived */
const ARRIVAL_VERBS = new Set(['came', 'come', 'arrived', 'arrive', 'got', 'entered', 'walked', 'showed', 'turned', 'pulled', 'drove', 'checked']);

/**
 * "how long has the person who came in at 10:20 been here?": the time names one stay by its
 * arrival, not a span whose stays are summed up. The range runs from a little before that arrival
 * to now (the stay may still be going on); the answerer picks the track that arrived then, and
 * asks when none or several did (docs/decisions.md, "Round H: scene questions").
 */
function arrivalStay(r: Resolving, metric: Metric, unrecognized: boolean): Resolved | undefined {
  const { phrase, tokens } = r;
  if (phrase.kind !== 'point') return undefined;
  const clause = tokens.findIndex((t, i) => ['who', 'that', 'which'].includes(t.word) && ARRIVAL_VERBS.has(tokens[i + 1]?.word ?? ''));
  if (clause < 0) return undefined;
  const { now } = r.ctx;
  const at = Math.min(phrase.at, now);
  const range: Range = { from: at - ARRIVAL_SLACK_MS, to: now, label: `since ${phrase.label.replace(/^(?:at|around|about)\s+/, '')}`, phrase: phrase.phrase };
  return { metric, aggregate: 'dwell', range, extra: { ongoing: true, arrived_at: at, ...(unrecognized ? { subtype: 'unrecognized' } : {}) } };
}

/** how far from the time said an arrival still counts as "the one who came in at" it */
export const ARRIVAL_SLACK_MS = 5 * 60_000;

const DEFINITE = new Set(['the', 'that', 'this']);
const SINGULAR_PRONOUNS = new Set(['he', 'she', 'him', 'her']);

/** "the intruder", "that guy", "this car", "he": one person or vehicle, named as already known. */
function namesOneKnown(tokens: Token[]): boolean {
  return tokens.some((t, i) => {
    if (SINGULAR_PRONOUNS.has(t.word)) return true;
    // "the last person", "that latest car": the word between says the same
    const next = tokens[i + 1]?.roles.has('last') ? tokens[i + 2] : tokens[i + 1];
    if (!DEFINITE.has(t.word) || !next) return false;
    const noun = next.roles.has('people') || next.roles.has('unrecognized') || next.roles.has('vehicles');
    // a singular noun: "the intruder", not "the intruders" or "the people"
    return noun && !/s$/.test(next.word) && !['people', 'folk', 'staff', 'traffic'].includes(next.word);
  });
}

/** "how many people left", "has anyone left", "when did the last car leave". */
function resolveDepartures(r: Resolving): Resolved {
  const { roles, tokens } = r;
  if (r.anomalyWords) refuse('I can count people or vehicles leaving, not unusual activity.');
  if (roles.has('current') || tokens.some((t) => t.word === 'still')) {
    refuse('Do you mean who is still there, or who has left? Ask "is anyone still in the lobby?" or "has anyone left?"');
  }
  const be = tokens.find((t) => t.roles.has('filler') || t.roles.has('past'))?.word;
  if (be === 'is' || be === 'are') {
    refuse('Do you mean who is still there, or who has left? Ask "is anyone still here?" or "has anyone left?"');
  }
  const metric = metricFor(roles);
  if (roles.has('last')) return { metric, aggregate: 'last_departure', range: lookbackRange(r, 'a question about the last departure'), extra: {} };
  return { metric, aggregate: 'departures', range: r.spanRange('a count of departures'), extra: r.yesNo ? { yes_no: true } : {} };
}

/** "when was the last car seen?", "when was the lobby last empty?", "latest arrival". */
function resolveLastSeen(r: Resolving): Resolved {
  const { roles } = r;
  const metric: Metric = roles.has('unrecognized') ? 'anomalies' : metricFor(roles);
  if (roles.has('loitering') || (roles.has('anomaly') && !roles.has('unrecognized'))) {
    refuse('I can tell when a person or vehicle was last seen; for unusual activity ask "anything unusual today?"');
  }
  const aggregate: Aggregate = roles.has('arrivals') && metric !== 'anomalies' ? 'last_arrival' : 'last_seen';
  const extra: Partial<Interpretation> = metric === 'anomalies' ? { subtype: 'unrecognized' } : {};
  // "when was the lobby last empty?": the latest moment the count was zero
  if (roles.has('empty') && aggregate === 'last_seen' && metric !== 'anomalies') {
    if (r.atVehiclePlace && !r.namesPeople && !roles.has('vehicles')) {
      refuse(`Empty of people or of vehicles? Ask "when was the ${describeLocation(r.ctx.location)} last empty of cars?"`);
    }
    extra.expect_empty = true;
  }
  return { metric, aggregate, range: lookbackRange(r, 'a question about the last sighting'), extra };
}

/** "has the crowd been growing?", "has the car park been emptying out?" (both counts there). */
function resolveTrend(r: Resolving): Resolved {
  const { roles } = r;
  if (roles.has('trend_up') && roles.has('trend_down')) refuse('The question asks about rising and falling at once; ask about one.');
  if (r.anomalyWords) refuse('I can tell whether counts of people or vehicles rose or fell, not unusual activity.');
  const direction = roles.has('trend_up') ? 'up' : roles.has('trend_down') ? 'down' : undefined;
  return {
    metric: r.bothCounts ? 'activity' : metricFor(roles),
    aggregate: 'trend',
    range: r.spanRange('a trend'),
    extra: { ...(direction ? { direction } : {}), yes_no: r.yesNo && direction !== undefined },
  };
}

/**
 * "when was it busiest this morning?" where cars park: "busiest" names no count, and a car park's
 * busiest time for cars need not be its busiest for people; the people peak (the blind sets of
 * earlier rounds asked it so) with the vehicles' peak over the same span said beside it
 * (Interpretation.vehicle_peak_too; docs/decisions.md, "Round K: scene questions"). Elsewhere it is
 * the people count alone.
 */
function busiestOfEither(r: Resolving): boolean {
  const peopleWords = r.tokens.filter((t) => t.roles.has('people')).map((t) => t.word);
  if (r.roles.has('vehicles') || peopleWords.length === 0 || peopleWords.some((w) => w !== 'busiest')) return false;
  return PARKING_PLACES.some((w) => locationWords(r.ctx.location).includes(w));
}

/** Counts and presence: now, at a moment, or over a span; crowd levels; anomalies; stays longer than a length. */
function resolveCount(r: Resolving): Resolved {
  const { roles, tokens, phrase, comparisons } = r;
  const { now, timeZone, location } = r.ctx;
  const extra: Partial<Interpretation> = {};
  if (roles.has('empty') && (roles.has('level_crowded') || roles.has('level_full') || roles.has('level_busy'))) {
    refuse('The question asks whether it is empty and crowded at once; ask one of them.');
  }
  if (busiestOfEither(r)) extra.vehicle_peak_too = true;
  let metric = chooseMetric(
    roles,
    location,
    tokens.filter((t) => t.roles.has('crowd') || LEVEL_NOUNS.has(t.word)).map((t) => t.word),
  );
  // "is the lot empty?": empty of everything, people and vehicles
  if (metric === 'people' && r.bothCounts && roles.has('empty')) metric = 'activity';
  let aggregate: Aggregate;
  if ((metric === 'people' || metric === 'activity' || metric === 'vehicles') && roles.has('empty') && !roles.has('count')) {
    aggregate = 'presence';
    extra.expect_empty = true;
    extra.yes_no = true;
    // "was it ever empty this morning", "empty at any point today": a moment of none in the span, not none all along
    if (roles.has('any_point')) {
      if (metric === 'activity') refuse('Ever empty of people, or of vehicles? Ask about one of them, e.g. "was it ever empty of cars this morning?"');
      extra.ever_empty = true;
    }
  } else {
    aggregate = chooseAggregate(metric, roles, tokens, r.rangeish);
  }
  if (metric === 'crowd_density' && r.yesNo) {
    // the adjective itself, not a word sharing its stem ("crowd level?" names no level)
    const levels = (['busy', 'crowded', 'full', 'quiet'] as const).filter((l) => tokens.some((t) => LEVEL_WORDS[l].includes(t.word)));
    if (levels.length > 1) refuse(`The question asks whether it is ${levels.join(' and ')} at once; ask one.`);
    if (levels.length === 1) {
      extra.level = levels[0];
      extra.yes_no = true;
      if (aggregate === 'peak' && levels[0] === 'quiet') aggregate = 'average';
    }
  }
  if (aggregate === 'presence' && metric !== 'anomalies') extra.yes_no = true;
  if (metric === 'anomalies' && r.yesNo) extra.yes_no = true; // "any strangers tonight?"
  if (aggregate === 'arrivals' && r.yesNo && !roles.has('count')) extra.yes_no = true; // "did a car arrive?"
  // "was anyone here around 4": presence over the half hour either side, not at 4 sharp
  const around = phrase.kind === 'point' && phrase.around !== undefined;
  const pointAggregate = aggregate === 'current' || (aggregate === 'presence' && !r.rangeish && !around);
  let range: Range;
  if (pointAggregate) {
    range = r.pointRange();
    const other =
      (aggregate === 'current' && metric !== 'crowd_density') || aggregate === 'presence'
        ? otherClockReading(phrase, now, timeZone, r.reading.nowClock)
        : undefined;
    if (other) {
      extra.other_reading = other;
      extra.baseline = [{ from: other.at, to: other.at }];
    }
  } else if (aggregate === 'arrivals' && phrase.kind === 'point' && !around) {
    range = arrivalMinuteRange(r, phrase);
    Object.assign(extra, arrivalMinuteExtra(r, phrase));
  } else {
    range = r.spanRange(RANGE_AGGREGATES.get(aggregate) ?? 'a question like this');
  }
  if (comparisons.minDwellS !== undefined) {
    // "anyone here longer than 10 minutes?": the people who stayed that long
    if (metric !== 'anomalies' && metric !== 'people') refuse('I track how long people stay; ask about people.');
    return { metric: 'anomalies', aggregate: 'list', range: r.spanRange('a question like this'), extra: { ...extra, min_dwell_s: comparisons.minDwellS } };
  }
  return { metric, aggregate, range, extra };
}

/**
 * "how many vans pulled in at ten to one": the clock minute said, 12:50:00 to 12:50:59. The answer
 * says the count's rise in it; no rise in it is asked back (docs/decisions.md, "Before round R:
 * scene questions").
 */
function arrivalMinuteRange(r: Resolving, phrase: Extract<TimePhrase, { kind: 'point' }>): Range {
  return { from: phrase.at, to: Math.min(phrase.at + 59_999, r.ctx.now), label: phrase.label, phrase: phrase.phrase };
}

/** The same minute in the other half of the day when it has passed too ("at 12:50": 00:50), loaded as `baseline[0]`. */
function arrivalMinuteExtra(r: Resolving, phrase: Extract<TimePhrase, { kind: 'point' }>): Partial<Interpretation> {
  const other = otherClockReading(phrase, r.ctx.now, r.ctx.timeZone, r.reading.nowClock);
  if (!other) return { arrival_minute: true };
  return { arrival_minute: true, other_reading: other, baseline: [{ from: other.at, to: Math.min(other.at + 59_999, r.ctx.now) }] };
}

/** The interpretation a resolver's decision makes, with its summary. */
function finish(r: Resolving, resolved: Resolved): Interpretation {
  const { metric, aggregate, range, extra } = resolved;
  const { now, timeZone, location } = r.ctx;
  if (range.to - range.from > MAX_WINDOW_MS) refuse('History questions can cover at most 30 days.');
  const base: Omit<Interpretation, 'summary'> = {
    metric,
    aggregate,
    from: range.from,
    to: range.to,
    location,
    time_zone: timeZone,
    range_label: range.label,
    asked_at: now,
    ...extra,
  };
  if (metric === 'anomalies' && aggregate === 'list') {
    if (r.roles.has('unrecognized')) base.subtype = 'unrecognized';
    if (r.roles.has('loitering') && base.min_dwell_s === undefined) base.min_dwell_s = LOITERING_DWELL_S;
  }
  if (r.vehicleKinds.length > 0) base.vehicle_kinds = r.vehicleKinds;
  if (range.phrase) base.time_phrase = range.phrase;
  Object.assign(base, lateEndOf(base, r.ctx));
  return withWindow({ ...base, summary: describeQuestion(base, now) }, range, r.ctx);
}

/**
 * Parts of a day whose end is read at the first hour (the shared day parts) and is as often meant
 * at the second (a watch's parts, PART_HOURS in src/platform/language/time/watch-window.ts).
 */
const LATE_PART_ENDS: Record<string, [number, number]> = { afternoon: [17, 18], evening: [21, 23] };

/** "more than 40 at any point this afternoon?" asked after 17:00: the span to the later end too (Interpretation.late_end). */
function lateEndOf(interp: Omit<Interpretation, 'summary'>, ctx: QueryContext): Pick<Interpretation, 'late_end' | 'baseline'> {
  const verdict = interp.aggregate === 'threshold' || interp.aggregate === 'peak' || (interp.yes_no === true && interp.aggregate === 'presence');
  if (interp.baseline || !interp.time_phrase || !verdict || !['people', 'vehicles'].includes(interp.metric)) return {};
  const phrase = interp.time_phrase.toLowerCase();
  const part = Object.keys(LATE_PART_ENDS).find((w) => new RegExp(`\\b${w}\\b`).test(phrase));
  if (!part || interp.to >= ctx.now) return {};
  const [end, late] = LATE_PART_ENDS[part];
  const wall = toWallClock(interp.to, ctx.timeZone);
  if (wall.hour !== end || wall.minute !== 0) return {};
  const span = { from: interp.from, to: Math.min(interp.to + (late - end) * 3_600_000, ctx.now) };
  return { late_end: span, baseline: [span] };
}

/** The window, when it set the range, in the interpretation and its summary; a default is said to be one. */
function withWindow(interp: Interpretation, range: Range, ctx: QueryContext): Interpretation {
  const report = windowReport(range, ctx);
  if (!report.window) return interp;
  const said =
    report.window.source === 'default'
      ? ` (the question named no time and the request no window: the default window, ${report.window.duration})`
      : ` (the request's window, ${report.window.duration})`;
  return { ...interp, ...report, ...dayPeakOf(interp, ctx), ...trendWideOf(interp), summary: `${interp.summary}${said}` };
}

/** "what was the most bikes at once?" over the window: today so far too, when today began before the window (Interpretation.day_peak). */
function dayPeakOf(interp: Interpretation, ctx: QueryContext): Pick<Interpretation, 'day_peak' | 'baseline'> {
  if (interp.aggregate !== 'peak' || interp.baseline || !['people', 'vehicles', 'objects'].includes(interp.metric)) return {};
  const day = { from: startOfZonedDay(ctx.now, ctx.timeZone), to: interp.to };
  return day.from < interp.from ? { day_peak: day, baseline: [day] } : {};
}

/** How far back a trend over a window too short for the scene's counts may look (Interpretation.trend_wide). */
const TREND_WIDE_LOOKBACK_MS = 6 * 3_600_000;

/** "is the car park filling up?" over the window: the last hours too, for scenes counted less often than the window (Interpretation.trend_wide). */
function trendWideOf(interp: Interpretation): Pick<Interpretation, 'trend_wide' | 'baseline'> {
  if (interp.aggregate !== 'trend' || interp.baseline || !['people', 'vehicles', 'activity'].includes(interp.metric)) return {};
  const wide = { from: interp.to - TREND_WIDE_LOOKBACK_MS, to: interp.to };
  return wide.from < interp.from ? { trend_wide: wide, baseline: [wide] } : {};
}

/** Cats and dogs: whether any were seen, how many sightings, whether it was only animals. */
function resolveAnimals(r: Resolving, animalWords: Token[]): Interpretation {
  const { now, timeZone, location } = r.ctx;
  const lookback = { from: now - ANIMAL_WHEN_LOOKBACK_MS, to: now, label: `in the last ${describeDuration(ANIMAL_WHEN_LOOKBACK_MS)}` };
  const a = interpretAnimalQuestion(r.tokens, r.roles, animalWords, r.comparisons, r.phrase.kind, r.rangeish, r.spanRange, location, lookback, {
    from: startOfZonedDay(now, timeZone),
    to: now,
    label: 'today',
    seen: r.ctx.animalsSeen,
  });
  const base: Omit<Interpretation, 'summary'> = {
    ...a.interpretation,
    from: a.range.from,
    to: a.range.to,
    location,
    time_zone: timeZone,
    range_label: a.range.label,
    asked_at: now,
  };
  if (a.range.phrase) base.time_phrase = a.range.phrase;
  return withWindow({ ...base, summary: describeQuestion(base, now) }, a.range, r.ctx);
}

/** "the first bike" with no time named is today's, "the last bike" looks back as far as for a car; a time named is that span. */
function kindSightingRange(r: Resolving, aggregate: Aggregate): Range {
  const { now, timeZone } = r.ctx;
  if (aggregate === 'last_seen') return lookbackRange(r, 'a question about the last sighting');
  return r.phrase.kind === 'none' ? { from: startOfZonedDay(now, timeZone), to: now, label: 'today' } : r.spanRange('a question about the first sighting');
}

/** Bicycles and the other counted kinds of the table of detection kinds (query-kinds.ts). */
function resolveObjects(r: Resolving): Interpretation {
  const { now, timeZone, location } = r.ctx;
  // "the most bikes at once?" in the present tense with no time: a peak over a span (the window), not the count now
  const peakAsked = r.roles.has('peak') && r.phrase.kind === 'none';
  const sighting = r.roles.has('first') || r.roles.has('last');
  const kind = interpretKindQuestion(r.tokens, r.roles, { moment: !r.rangeish && !peakAsked && !sighting }, refuse);
  if (r.comparisons.threshold || r.comparisons.usual) {
    // "more than 5 bikes?": not a count's yes or no this reader makes (a count now would answer the wrong question)
    refuse(
      `For ${kind.kind}s I can tell how many there are and the most at once, not compare them with a number or with usual; ask e.g. "how many are there?"`,
    );
  }
  // "any bikes here now?": the count now, said after a yes or no
  const k = kind.aggregate === 'current' && r.yesNo ? { ...kind, yes_no: true } : kind;
  const range = k.aggregate === 'current' ? r.pointRange() : sighting ? kindSightingRange(r, k.aggregate) : r.spanRange(`a question about ${k.kind}s`);
  const base: Omit<Interpretation, 'summary'> = {
    ...k,
    from: range.from,
    to: range.to,
    location,
    time_zone: timeZone,
    range_label: range.label,
    asked_at: now,
  };
  if (range.phrase) base.time_phrase = range.phrase;
  return withWindow({ ...base, summary: describeQuestion(base, now) }, range, r.ctx);
}

/** "compare this morning with yesterday morning", "busier at noon than now": the two times' counts side by side. */
function resolveComparison(r: Resolving): Interpretation {
  const { roles, tokens, reading } = r;
  const c = reading.compared!;
  const { now, timeZone, location } = r.ctx;
  const others = (
    ['anomaly', 'unrecognized', 'loitering', 'animals', 'other_animal', 'dwell', 'last', 'first', 'departures', 'trend', 'trend_up', 'trend_down'] as const
  ).filter((x) => roles.has(x));
  if (others.length > 0 || reading.comparisons.threshold || reading.comparisons.usual) {
    refuse('I can compare how many people or vehicles there were at two times; ask e.g. "compare the number of people this morning with yesterday morning".');
  }
  if (c.first.to > now || c.second.to > now) refuse('One of the two times is in the future; I can only compare what the cameras have already seen.');
  // a count at two times: with neither named, both counts side by side where cars park, people
  // elsewhere, as for a count at one time (chooseMetric)
  const metric: Metric = unnamedCountIsBoth(r) ? 'activity' : metricFor(roles);
  const base: Omit<Interpretation, 'summary'> = {
    metric,
    aggregate: 'compare',
    from: c.first.from,
    to: c.first.to,
    location,
    time_zone: timeZone,
    range_label: c.first.label,
    asked_at: now,
    compare_with: { from: c.second.from, to: c.second.to, label: c.second.label },
    baseline: [{ from: c.second.from, to: c.second.to }],
    ...(c.direction ? { direction: c.direction, yes_no: r.yesNo || tokens.length === 0 } : {}),
  };
  if (r.vehicleKinds.length > 0) base.vehicle_kinds = r.vehicleKinds;
  if (c.first.phrase) base.time_phrase = c.first.phrase;
  // "was yesterday's peak higher than today's?": the figure named decides, not both (docs/decisions.md, "Round K: scene questions")
  if (roles.has('peak') !== roles.has('average')) base.compare_by = roles.has('peak') ? 'peak' : 'average';
  return { ...base, summary: describeQuestion(base, now) };
}

/** "just" before these reads as "only" ("just the cat"); before a verb it is "recently". */
const JUST_ONLY_BEFORE = new Set(['the', 'a', 'an', 'my', 'our', 'your', 'that', 'this', 'some']);

/** Ask-words an animal question cannot carry: the cameras report sightings of cats and dogs, not counts over time. */
const NOT_FOR_ANIMALS: WordRole[] = [
  'peak',
  'average',
  'minimum',
  'trend',
  'trend_up',
  'trend_down',
  'comparative_up',
  'comparative_down',
  'dwell',
  'departures',
  'last',
  'first',
  'crowd',
  'usual',
  'empty',
  'level_busy',
  'level_crowded',
  'level_full',
  'level_quiet',
  'activity',
];

type AnimalReading = { interpretation: Pick<Interpretation, 'metric' | 'aggregate' | 'yes_no' | 'subtype' | 'ongoing'>; range: Range };

/**
 * "how long has the cat been hanging around?": the stay of the latest cat or dog still being seen,
 * from its track, over the last day. Only a stay going on with no time named: "how long did the
 * dog stay?" is still asked back.
 */
function animalStay(tokens: Token[], roles: Set<WordRole>, phraseKind: string, lookback: Range): AnimalReading | undefined {
  const words = new Set(tokens.map((t) => t.word));
  const howLong = tokens.some((t) => t.roles.has('dwell'));
  const ongoing =
    ['been', 'still', 'is', 'are', 'has', 'have'].some((w) => words.has(w)) && !['did', 'was', 'were', 'had', 'do', 'does'].some((w) => words.has(w));
  if (!howLong || !ongoing || phraseKind !== 'none' || roles.has('average') || roles.has('peak') || roles.has('count')) return undefined;
  const kinds = new Set(tokens.map((t) => (t.roles.has('animals') ? readAnimalWord(t.word) : undefined)).filter((k) => k === 'cat' || k === 'dog'));
  const subtype = kinds.size === 1 ? [...kinds][0] : undefined;
  return { interpretation: { metric: 'animals', aggregate: 'dwell', yes_no: false, ongoing: true, ...(subtype ? { subtype } : {}) }, range: lookback };
}

/** "any foxes?" on a scene that holds no fox detections: the detector labels cats and dogs only; the caller may look for the animals and ask again. */
function refuseOtherAnimals(others: string[], examples: string): never {
  const error = new NotUnderstood(`The cameras recognise cats and dogs only, so I cannot tell about ${quote(others)}; ${examples}`);
  error.animals = [...new Set(others.map(otherAnimalSubtype))];
  throw error;
}

/**
 * Questions about cats and dogs (detection type animal): whether any were seen, how many
 * sightings, and whether it was only animals ("was it just the cat?": no person in the span).
 * Each tracked animal is a sighting; the cameras do not tell one dog from another, so counts are
 * sightings, and anything beyond these three asks is refused with an example.
 */
function interpretAnimalQuestion(
  tokens: Token[],
  roles: Set<WordRole>,
  animalWords: Token[],
  comparisons: Comparisons,
  phraseKind: string,
  rangeish: boolean,
  spanRange: (what: string) => Range,
  location: string,
  /** "when was the cat seen?" with no time named looks back this far */
  lookback: Range,
  /** "when was the cat first seen?" with no time named: today; `seen`: QueryContext.animalsSeen */
  firstLookback: Range & { seen?: readonly string[] },
): AnimalReading {
  const place = describeLocation(location);
  const examples = `ask e.g. "any animals in the ${place} today?", "how many dogs were seen since 9am?" or "was it just the cat?"`;
  const others = animalWords.filter((t) => t.roles.has('other_animal')).map((t) => t.word);
  // "when did the goats get in": answered from the scene's goat detections, refused only when it holds none (other-animals.ts)
  const catOrDog = animalWords.some((t) => t.roles.has('animals'));
  const other = others.length > 0 ? readOtherAnimal(others, catOrDog, firstLookback.seen) : undefined;
  if (others.length > 0 && !other) refuseOtherAnimals(others, examples);
  const stay = animalStay(tokens, roles, phraseKind, lookback);
  if (stay) return other ? { ...stay, interpretation: { ...stay.interpretation, subtype: other } } : stay;
  if (roles.has('anomaly') || roles.has('unrecognized') || roles.has('loitering')) {
    refuse(`Unusual activity is tracked for people; ask about animals on their own, e.g. "any animals in the ${place} today?"`);
  }
  if (tokens.some((t) => t.roles.has('people') || t.roles.has('vehicles'))) {
    refuse(`The question asks about animals and people or vehicles together; ask about one at a time, e.g. "was it just the cat?"`);
  }
  // "what time was the cat seen?", "when was the dog last seen?": the sightings and the latest one;
  // "last time a cat was seen" asks when as well
  const askedWhen = tokens.some(
    (t, i) => t.word === 'when' || t.word === 'lasttime' || t.word === 'firsttime' || (t.word === 'what' && tokens[i + 1]?.word === 'time'),
  );
  const unsupported = tokens
    .filter((t) => NOT_FOR_ANIMALS.some((r) => t.roles.has(r)) && !t.roles.has('filler') && !(askedWhen && (t.roles.has('last') || t.roles.has('first'))))
    .map((t) => t.word);
  if (unsupported.length > 0 || comparisons.threshold || comparisons.usual || comparisons.minDwellS !== undefined) {
    refuse(
      `For cats and dogs I can tell whether any were seen, how many sightings there were, and whether it was only animals${unsupported.length ? `, not ${quote(unsupported)}` : ''}; ${examples}`,
    );
  }
  const kinds = new Set(animalWords.map((t) => readAnimalWord(t.word)).filter((k) => k === 'cat' || k === 'dog'));
  const subtype = other ?? (kinds.size === 1 && !animalWords.some((t) => readAnimalWord(t.word) === 'animal') ? [...kinds][0] : undefined);
  // "just the cat", "just a dog", "just animals" mean only; "did the dog just come in" means recently
  const only =
    roles.has('only') ||
    tokens.some((t, i) => t.word === 'just' && tokens[i + 1] !== undefined && (JUST_ONLY_BEFORE.has(tokens[i + 1].word) || tokens[i + 1].roles.has('animals')));
  // "was it just the cat?" / "is it only the dog?" are asked about what set something off: the
  // span asked about, or the request window; "is the dog in the yard now" would need to know the
  // animal is still there, which a sighting does not say
  const around = phraseKind === 'point' ? spanRange('a question about animals') : undefined;
  if (askedWhen && !only && !roles.has('count')) {
    // "when was the cat first seen?": the earliest sighting, never the latest; with no time
    // named, "first" is today's (as for people and vehicles)
    if (roles.has('first') && roles.has('last')) refuse('The question asks for the first and the last at once; ask for one of them.');
    const first = roles.has('first');
    const range = phraseKind === 'none' ? (first ? firstLookback : lookback) : (around ?? spanRange('a question about animals'));
    return { interpretation: { metric: 'animals', aggregate: first ? 'first_seen' : 'presence', yes_no: false, ...(subtype ? { subtype } : {}) }, range };
  }
  if (!only && !rangeish && !around && (roles.has('current') || phraseKind === 'none')) {
    // "is the dog in the yard now?", "how many cats are here?": the latest sighting against the
    // cameras' latest reading, never more than a sighting says (docs/decisions.md, "Before round L: scene questions")
    if (roles.has('past') && !roles.has('current')) {
      refuse(
        `I can tell whether cats or dogs were seen over a span or are in the latest reading; ask e.g. "was the dog in the ${place} in the last 15 minutes?"`,
      );
    }
    return { interpretation: { metric: 'animals', aggregate: 'current', yes_no: !roles.has('count'), ...(subtype ? { subtype } : {}) }, range: lookback };
  }
  const range = around ?? spanRange('a question about animals');
  const aggregate: Aggregate = only ? 'only' : roles.has('count') ? 'arrivals' : 'presence';
  return { interpretation: { metric: 'animals', aggregate, yes_no: aggregate !== 'arrivals', ...(subtype ? { subtype } : {}) }, range };
}

const HALF_DAY_MS = 12 * 3_600_000;
/** Words that say which half of the day a clock time is in. */
const HALF_OF_DAY = /(?:\b|(?<=\d))(?:am|pm)\b|\b(?:morning|afternoon|evening|night|tonight|noon|midnight|lunch|lunchtime)\b/;

/**
 * "at 8:30 yesterday", "at 7:45 on Monday": a clock time from 1 to 12 said without morning or
 * evening could be either. When the other reading (twelve hours away, the same day) has passed
 * too, the answer gives both rather than pick one.
 */
function otherClockReading(phrase: TimePhrase, now: number, timeZone: string, nowClock: boolean): { at: number; label: string } | undefined {
  if (phrase.kind !== 'point' || phrase.around || HALF_OF_DAY.test(phrase.phrase)) return undefined;
  const clock = /\b(\d{1,2})(?::(\d{2}))?\b/.exec(phrase.phrase);
  if (!clock || /\b(?:ago|minutes?|hours?)\b/.test(phrase.phrase)) return undefined;
  // "03:20", "00:30": a leading zero says the half of the day (the 24-hour form), so there is no other reading
  if (clock[1].length === 2 && clock[1].startsWith('0')) return undefined;
  // "this time yesterday" is now's clock a day ago: there is no other reading
  if (nowClock) return undefined;
  const hour = Number(clock[1]);
  if (hour < 1 || hour > 12) return undefined;
  const local = Number(formatClock(phrase.at, timeZone).slice(0, 2));
  const at = local < 12 ? phrase.at + HALF_DAY_MS : phrase.at - HALF_DAY_MS;
  if (at > now) return undefined;
  return { at, label: formatMoment(at, timeZone, now) };
}

/**
 * "between 2 and 4" asked in the morning: the small hours just gone (02:00 to 04:00 today) or yesterday
 * afternoon (14:00 to 16:00); both have passed and neither is the likelier, so it is asked back, never
 * picked (a moment said so is answered with both: otherClockReading).
 */
function askSmallHoursOrAfternoon(phrase: TimePhrase, now: number, timeZone: string): string | undefined {
  if (phrase.kind !== 'range' || HALF_OF_DAY.test(phrase.phrase) || /\b(?:today|ago|since|minutes?|mins?|hours?|hrs?)\b/.test(phrase.phrase)) return undefined;
  const hours = [...phrase.phrase.matchAll(/\b(\d{1,2})(?::\d{2})?\b/g)].map((m) => m[1]);
  if (hours.length !== 2 || hours.some((h) => h.startsWith('0') || Number(h) < 1 || Number(h) > 12)) return undefined;
  if (toWallClock(phrase.from, timeZone).hour >= 6) return undefined;
  const [from, to] = [phrase.from - HALF_DAY_MS, phrase.to - HALF_DAY_MS];
  const [a, b] = [formatMoment(from, timeZone, now), formatMoment(to, timeZone, now)];
  return `Do you mean ${phrase.label} in the small hours, or in the afternoon, between ${a} and ${b}? Say "am" or "pm" (e.g. "between ${hours[0]} and ${hours[1]}pm").`;
}

/** The same local span on each of the previous days ("usual" for this time of day). */
function baselineSpans(range: Range, timeZone: string): Array<{ from: number; to: number }> {
  const from = range.from === range.to ? range.from - USUAL_MOMENT_SPAN_MS : range.from;
  const to = range.from === range.to ? range.to + USUAL_MOMENT_SPAN_MS : range.to;
  const spans: Array<{ from: number; to: number }> = [];
  for (let d = 1; d <= USUAL_BASELINE_DAYS; d++) {
    spans.push({ from: addZonedDays(from, -d, timeZone), to: addZonedDays(to, -d, timeZone) });
  }
  return spans;
}

/**
 * Understand a natural-language scene question, or say plainly that it was not understood.
 * Throws RangeError for a bad context (unknown time zone, non-positive window): those are the
 * caller's bugs, not the user's question.
 */
export function interpretQuery(query: string, ctx: QueryContext): InterpretResult {
  if (!isValidTimeZone(ctx.timeZone)) throw new RangeError(`unknown time zone: ${ctx.timeZone}`);
  if (!(ctx.windowMs > 0) || !Number.isFinite(ctx.now)) throw new RangeError('windowMs must be positive and now finite');
  try {
    return { ok: true, interpretation: interpretOrThrow(query, ctx) };
  } catch (error) {
    if (error instanceof NotUnderstood) {
      return { ok: false, reason: error.message, examples: buildExamples(ctx.location), ...(error.animals ? { animals: error.animals } : {}) };
    }
    throw error;
  }
}
