import { findTimePhrase } from './time-phrase.ts';
import { normaliseQuestion, tokenizeQuestion, type Token } from './query-tokenizer.ts';
import type { WordRole } from './query-vocabulary.ts';
import { MAX_WINDOW_MS, describeDuration } from './query-window.ts';
import { formatClock, formatMoment, isValidTimeZone } from '../../lib/zoned-time.ts';
import type { Aggregate, Interpretation, InterpretResult, Metric, QueryContext } from './query.types.ts';

/**
 * Understands a scene question (issue 2 §5 "Query"): which metric (people, vehicles, crowd
 * density, anomalies), which aggregate (now, peak, average, arrivals, presence, list) and which
 * time range. Words vote for intents by role; anything the vocabulary does not cover, any
 * contradiction (people *and* vehicles, peak *and* average) and any future time makes the
 * question "not understood" with examples, never a best guess.
 */

/** Loitering: a tracked person present this long (issue 2 §5 anomalies). */
export const LOITERING_DWELL_S = 300;

const RANGE_AGGREGATES = new Set<Aggregate>(['peak', 'average', 'arrivals', 'list']);
const AUXILIARY_VERBS = new Set(['is', 'are', 'was', 'were', 'did', 'does', 'do', 'has', 'have', 'had']);

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

class NotUnderstood extends Error {}

function refuse(reason: string): never {
  throw new NotUnderstood(reason);
}

function quote(words: string[]): string {
  return words.map((w) => `"${w}"`).join(', ');
}

function collectRoles(tokens: Token[]): Set<WordRole> {
  const roles = new Set<WordRole>();
  for (const token of tokens) for (const role of token.roles) roles.add(role);
  return roles;
}

/** The first word that is not politeness ("please", "can you") decides whether this is an instruction. */
function firstMeaningfulToken(tokens: Token[]): Token | undefined {
  return tokens.find((t) => !(t.roles.size === 1 && t.roles.has('filler')));
}

function chooseMetric(roles: Set<WordRole>, location: string): Metric {
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
  if (roles.has('crowd')) return 'crowd_density';
  if (roles.has('people')) return 'people';
  return refuse(
    `I could not tell what to count: ask about people, vehicles, how crowded the ${describeLocation(location)} is, or anything unusual.`,
  );
}

function chooseAggregate(metric: Metric, roles: Set<WordRole>, tokens: Token[], rangeish: boolean): Aggregate {
  if (metric === 'anomalies') return 'list';
  const asked = (['peak', 'average', 'arrivals'] as const).filter((a) => roles.has(a));
  if (asked.length > 1) refuse(`The question asks for ${asked.join(' and ')} at once; ask for one of them.`);
  if (metric === 'crowd_density') {
    if (asked[0] === 'arrivals') refuse('Crowd density has no arrivals; ask how many people arrived instead.');
    if (asked.length === 1) return asked[0];
    return rangeish && !roles.has('current') ? 'peak' : 'current';
  }
  if (asked.length === 1) return asked[0];
  if (roles.has('presence') && !roles.has('count')) return 'presence';
  if (roles.has('current')) return 'current';
  if (roles.has('count')) return rangeish ? 'arrivals' : 'current';
  if (AUXILIARY_VERBS.has(tokens[0]?.word ?? '')) return 'presence'; // "are people in the lobby?"
  return rangeish ? 'arrivals' : 'current';
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
  switch (interp.aggregate) {
    case 'current':
      what = interp.metric === 'crowd_density' ? 'crowd density' : `${noun} count`;
      break;
    case 'peak':
      what = interp.metric === 'crowd_density' ? 'peak crowd density' : `peak ${noun} count`;
      break;
    case 'average':
      what = interp.metric === 'crowd_density' ? 'time-weighted average crowd density' : `time-weighted average ${noun} count`;
      break;
    case 'arrivals':
      what = `${noun} arrivals`;
      break;
    case 'presence':
      what = `whether any ${plural} ${interp.from === interp.to ? 'are' : 'were'} present`;
      break;
    case 'list': {
      const loiter = `people loitering ${interp.min_dwell_s} s or more`;
      if (interp.subtype && interp.min_dwell_s) what = `${interp.subtype} ${loiter}`;
      else if (interp.subtype) what = `${interp.subtype} people`;
      else if (interp.min_dwell_s) what = loiter;
      else what = `anomalies (unrecognized people or people loitering ${LOITERING_DWELL_S} s or more)`;
      break;
    }
  }
  return `${what} ${where} ${when}`;
}

function interpretOrThrow(query: string, ctx: QueryContext): Interpretation {
  if (typeof query !== 'string' || query.trim() === '') refuse('The question is empty.');
  const { now, timeZone, windowMs, location } = ctx;
  const normalised = normaliseQuestion(query, location);
  const { phrase, remainder } = findTimePhrase(normalised, { now, timeZone });
  if (phrase.kind === 'future') {
    refuse(`"${phrase.phrase}" is in the future; I can only answer about what the cameras have already seen.`);
  }
  if (phrase.kind === 'several') {
    refuse(`The question names more than one time (${quote(phrase.phrases)}); ask about one time span.`);
  }

  const { tokens, unknown, otherPlaces } = tokenizeQuestion(remainder, location);
  if (tokens.length + unknown.length + otherPlaces.length === 0 && phrase.kind === 'none') {
    refuse('I could not find a question there.');
  }
  const roles = collectRoles(tokens);
  const first = firstMeaningfulToken(tokens);
  if (first?.roles.has('command')) {
    refuse(`That sounds like an instruction ("${first.word}"); I only answer questions about what the scene saw.`);
  }
  if (roles.has('future')) {
    refuse('That asks about the future; I can only answer about what the cameras have already seen.');
  }
  if (otherPlaces.length > 0) {
    refuse(
      `This scene covers the ${describeLocation(location)}; I cannot answer about ${quote(otherPlaces)}. Query that location's scene instead.`,
    );
  }
  if (unknown.length > 0) refuse(`I did not understand ${quote(unknown)}.`);
  const commands = tokens.filter((t) => t.roles.has('command') && t.roles.size === 1);
  if (commands.length > 0) refuse(`I did not understand ${quote(commands.map((t) => t.word))}.`);

  const metric = chooseMetric(roles, location);
  const pastTense = roles.has('past') && !roles.has('current');
  const rangeish = phrase.kind === 'range' || (phrase.kind === 'none' && pastTense);
  const aggregate = chooseAggregate(metric, roles, tokens, rangeish);
  const pointAggregate = aggregate === 'current' || (aggregate === 'presence' && !rangeish);

  let from: number;
  let to: number;
  let rangeLabel: string;
  if (pointAggregate) {
    if (phrase.kind === 'range') {
      refuse(`The question asks about now and about "${phrase.phrase}"; ask about one of them.`);
    }
    to = phrase.kind === 'point' ? phrase.at : now;
    from = to;
    rangeLabel = phrase.kind === 'point' ? phrase.label : `now (${formatClock(now, timeZone)})`;
  } else if (phrase.kind === 'range') {
    ({ from, to } = phrase);
    rangeLabel = phrase.label;
  } else if (phrase.kind === 'point') {
    return refuse(
      `"${phrase.phrase}" is a moment, and a ${RANGE_AGGREGATES.has(aggregate) ? aggregate : 'question like this'} needs a span, e.g. "since 9am" or "between 2 and 3pm".`,
    );
  } else {
    from = now - windowMs;
    to = now;
    rangeLabel = `in the last ${describeDuration(windowMs)}`;
  }
  if (to - from > MAX_WINDOW_MS) refuse('History questions can cover at most 30 days.');

  const base: Omit<Interpretation, 'summary'> = {
    metric,
    aggregate,
    from,
    to,
    location,
    time_zone: timeZone,
    range_label: rangeLabel,
  };
  if (metric === 'anomalies' && roles.has('unrecognized')) base.subtype = 'unrecognized';
  if (metric === 'anomalies' && roles.has('loitering')) base.min_dwell_s = LOITERING_DWELL_S;
  if (phrase.kind === 'range' || phrase.kind === 'point') base.time_phrase = phrase.phrase;
  return { ...base, summary: describeQuestion(base, now) };
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
      return { ok: false, reason: error.message, examples: buildExamples(ctx.location) };
    }
    throw error;
  }
}
