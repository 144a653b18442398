import type { DatabaseHandle } from '../../platform/db/index.ts';
import type { Principal } from '../../platform/identity/index.ts';
import { formatClock, formatMoment, toIso, type Clock } from '../../platform/time/index.ts';
import { ALERT_TYPES, EVENT_LOG_KINDS, OBSERVATION_TYPES, type EventService, type EventView } from '../events/index.ts';
import type { HouseholdService } from '../household/index.ts';
import { capitalize, describeSensorName, type SensorRow } from '../directory/index.ts';
import { WATCHED_KINDS } from '../../platform/kinds/index.ts';
import { pastAnswerRepository, type SensorDetectionRow } from './past-answer.repository.ts';

/**
 * Honest answers about the past (docs/decisions.md, "Household: honest past answers"): "what
 * happened in the backyard last night", "has anyone been at the front door today". The answer
 * comes from every recorded detection of the place's sensors in the period, not only from watch
 * events, and says its coverage: which sensors had readings for which part of the period, from
 * when data exists, and which were muted, left alone or offline. A sensor that was not looking is
 * said as such, never as "nothing happened"; nothing from a place left alone is ever shown, and
 * from a muted sensor nothing of the time it was muted.
 */

export interface PastQuestion {
  /** ISO start of the period; none: the last 24 hours */
  since?: string;
  /** ISO end of the period; none: now */
  until?: string;
  room?: string;
  sensor_id?: string;
  /** a watch condition (person, vehicle, door_open, motion, animal, …) or an event-log kind (alert, observation) */
  kind?: string;
  watch_id?: string;
  /** the watch's sensors, when the question is about a watch */
  watch_sensor_ids?: string[];
  limit?: number;
}

export interface PastAnswerDeps {
  database: DatabaseHandle;
  clock: Clock;
  household: HouseholdService;
  events: EventService;
}

export interface PastAnswer {
  text: string;
  action: Record<string, unknown>;
  /** sensors whose content the answer shows */
  revealed: string[];
}

/** With no time named, the answer covers this much (and says so). */
export const DEFAULT_PAST_SPAN_MS = 24 * 3_600_000;
/** A sensor whose first reading came this long after the household's first is named on its own. */
const LATE_START_MS = 15 * 60_000;

/** Detection types a watch condition word stands for ("has anyone been…" → person). */
const TYPES_OF_CONDITION: Record<string, { types: readonly string[]; subtype?: string }> = {
  person: { types: ['person', 'person_count'] },
  unrecognized_person: { types: ['person'], subtype: 'unrecognized' },
  recognized_person: { types: ['person'], subtype: 'recognized' },
  loitering: { types: ['person'] },
  door_open: { types: ['door_open'] },
  motion: { types: ['motion'] },
  // vehicle, animal, bicycle, …: the table of detection kinds' watches
  ...Object.fromEntries(WATCHED_KINDS.map((k) => [k.watch!.condition, { types: [k.type] }])),
};

/** Event types a watch condition word stands for, for the watch events listed with the sightings. */
const EVENT_TYPES_OF_CONDITION: Record<string, readonly string[]> = {
  person: ['person_detected', 'person_recognized', 'unrecognized_person', 'loitering'],
  unrecognized_person: ['unrecognized_person'],
  recognized_person: ['person_recognized'],
  door_open: ['door_opened', 'door_opened_while_away'],
  motion: ['motion', 'motion_at_night', 'motion_while_away'],
  loitering: ['loitering'],
  ...Object.fromEntries(WATCHED_KINDS.map((k) => [k.watch!.condition, [k.watch!.event]])),
};

type GapReason = 'no_data' | 'muted' | 'left_alone' | 'offline';
interface Span {
  from: number;
  to: number;
}
interface Gap extends Span {
  why: GapReason;
  /** still in force at the end of the period */
  open: boolean;
}

/** Where and when each sensor was not looking, within the period. */
interface SensorCoverage {
  sensor: SensorRow;
  /** left alone now: nothing of it is shown, whenever recorded */
  leftAloneNow: boolean;
  first: number | null;
  gaps: Gap[];
  covered: Span[];
}

function clip(span: Span, period: Span): Span | undefined {
  const from = Math.max(span.from, period.from);
  const to = Math.min(span.to, period.to);
  return to > from ? { from, to } : undefined;
}

/** The period minus the gaps, as the spans a sensor was looking. */
function subtract(period: Span, gaps: Span[]): Span[] {
  let spans: Span[] = [period];
  for (const g of gaps) {
    spans = spans.flatMap((s) => {
      if (g.to <= s.from || g.from >= s.to) return [s];
      return [...(g.from > s.from ? [{ from: s.from, to: g.from }] : []), ...(g.to < s.to ? [{ from: g.to, to: s.to }] : [])];
    });
  }
  return spans;
}

function parseData(data: string | null): Record<string, unknown> {
  if (!data) return {};
  try {
    return JSON.parse(data) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** The spans a sensor was muted, from the log's mute and unmute changes (and its state now). */
function mutedSpans(sensor: SensorRow, changes: Array<{ type: string; data: string | null; occurred_at: string }>, end: number): Span[] {
  const spans: Span[] = [];
  let since: number | undefined;
  for (const c of changes) {
    if (parseData(c.data).sensor_id !== sensor.id) continue;
    const at = Date.parse(c.occurred_at);
    if (c.type === 'sensor.muted') since ??= at;
    else if (since !== undefined) {
      spans.push({ from: since, to: at });
      since = undefined;
    }
  }
  if (sensor.muted === 1) since ??= sensor.muted_at ? Date.parse(sensor.muted_at) : Number.NEGATIVE_INFINITY;
  if (since !== undefined) spans.push({ from: since, to: end });
  return spans;
}

function coverageOf(
  sensor: SensorRow,
  period: Span,
  state: { first: number | null; status: string; lastFrameAt: string | null } | undefined,
  boundaries: Array<{ room_id: string | null; sensor_id: string | null; set_at: string; cleared_at: string | null }>,
  changes: Array<{ type: string; data: string | null; occurred_at: string }>,
): SensorCoverage {
  const mine = boundaries.filter((b) => b.sensor_id === sensor.id || (!b.sensor_id && b.room_id === sensor.room_id));
  const leftAloneNow = mine.some((b) => b.cleared_at === null);
  const gaps: Gap[] = [];
  const add = (span: Span, why: GapReason, open: boolean) => {
    const c = clip(span, period);
    if (c) gaps.push({ ...c, why, open });
  };
  const first = state?.first ?? null;
  if (leftAloneNow) add(period, 'left_alone', true);
  for (const b of mine.filter((x) => x.cleared_at !== null)) add({ from: Date.parse(b.set_at), to: Date.parse(b.cleared_at!) }, 'left_alone', false);
  for (const m of mutedSpans(sensor, changes, period.to)) add(m, 'muted', m.to >= period.to);
  if (first === null) add(period, 'no_data', true);
  else if (first > period.from) add({ from: period.from, to: first }, 'no_data', false);
  if (state && state.status !== 'live' && state.lastFrameAt) add({ from: Date.parse(state.lastFrameAt), to: period.to }, 'offline', true);
  return { sensor, leftAloneNow, first, gaps, covered: subtract(period, gaps) };
}

function label(s: SensorRow): string {
  return describeSensorName(s.name);
}

function times(n: number): string {
  return n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`;
}

/** "at 22:14" for one, "the first at 22:14, the last at 02:15" for several. */
function when(ats: number[], moment: (t: number) => string): string {
  if (ats.length === 1) return `at ${moment(ats[0])}`;
  return `the first at ${moment(ats[0])}, the last at ${moment(ats[ats.length - 1])}`;
}

/** Tracks (or untracked sightings) of one type: each track is one visit. */
function visits(rows: SensorDetectionRow[]): Array<{ at: number; subtype: string | null }> {
  const seen = new Map<string, { at: number; subtype: string | null }>();
  const out: Array<{ at: number; subtype: string | null }> = [];
  for (const r of rows) {
    if (!r.track_id) out.push({ at: r.at, subtype: r.subtype });
    else if (!seen.has(r.track_id)) {
      const v = { at: r.at, subtype: r.subtype };
      seen.set(r.track_id, v);
      out.push(v);
    } else if (r.subtype && !seen.get(r.track_id)!.subtype) seen.get(r.track_id)!.subtype = r.subtype;
  }
  return out.sort((a, b) => a.at - b.at);
}

/** What one sensor recorded in its covered spans, in words; undefined when nothing. */
function describeSightings(s: SensorRow, rows: SensorDetectionRow[], moment: (t: number) => string): string | undefined {
  if (rows.length === 0) return undefined;
  const name = label(s);
  const of = (type: string) => rows.filter((r) => r.type === type);
  if (s.kind === 'contact') {
    const opens = of('door_open');
    return opens.length
      ? `${name} opened ${times(opens.length)} (${when(
          opens.map((r) => r.at),
          moment,
        )})`
      : undefined;
  }
  if (s.kind === 'motion') {
    const motion = of('motion');
    return motion.length
      ? `${name} saw motion ${times(motion.length)} (${when(
          motion.map((r) => r.at),
          moment,
        )})`
      : undefined;
  }
  const parts: string[] = [];
  const people = visits(of('person'));
  if (people.length) {
    const strangers = people.filter((p) => p.subtype === 'unrecognized').length;
    const note = strangers
      ? `; ${strangers === people.length ? (people.length === 1 ? 'not recognized' : 'none recognized') : `${strangers} not recognized`}`
      : '';
    parts.push(
      `a person ${times(people.length)} (${when(
        people.map((p) => p.at),
        moment,
      )}${note})`,
    );
  } else {
    const counts = of('person_count').filter((r) => (r.value ?? 0) > 0);
    if (counts.length) {
      const most = Math.max(...counts.map((r) => r.value ?? 0));
      parts.push(
        `people, up to ${most} at once (${when(
          counts.map((r) => r.at),
          moment,
        )})`,
      );
    }
  }
  const vehicles = of('vehicle').filter((r) => (r.count ?? 1) > 0);
  if (vehicles.length) {
    const most = Math.max(...vehicles.map((r) => r.count ?? 1));
    parts.push(
      `${most === 1 ? 'a vehicle' : `vehicles, up to ${most} at once`} (${when(
        vehicles.map((r) => r.at),
        moment,
      )})`,
    );
  }
  const animals = visits(of('animal'));
  for (const kind of [...new Set(animals.map((a) => a.subtype ?? 'animal'))]) {
    const these = animals.filter((a) => (a.subtype ?? 'animal') === kind);
    parts.push(
      `a ${kind} ${times(these.length)} (${when(
        these.map((a) => a.at),
        moment,
      )})`,
    );
  }
  if (parts.length === 0) return undefined;
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `${name} saw ${list}`;
}

/** One sensor's coverage in words, or undefined when it covered the whole period. */
function describeGaps(c: SensorCoverage, period: Span, moment: (t: number) => string, readingsSince: number | null): string | undefined {
  const name = label(c.sensor);
  if (c.leftAloneNow) return `${name} is left alone, so I don't look at it`;
  const parts: string[] = [];
  for (const g of c.gaps) {
    switch (g.why) {
      case 'no_data':
        if (c.first === null) parts.push('has no readings yet');
        // the household-wide "I have readings since" already says a start close to this one
        else if (readingsSince === null || g.to - readingsSince > LATE_START_MS || readingsSince <= period.from)
          parts.push(`has readings only from ${moment(g.to)}`);
        break;
      case 'muted':
        parts.push(
          g.open
            ? `${g.from <= period.from ? 'was muted all that time' : `was muted from ${moment(g.from)}`}, so I can't say what happened there${g.from <= period.from ? '' : ' after that'}`
            : `was muted from ${moment(g.from)} to ${moment(g.to)}`,
        );
        break;
      case 'left_alone':
        parts.push(`was left alone from ${moment(g.from)} to ${moment(g.to)}`);
        break;
      case 'offline':
        parts.push(`has been offline since ${moment(g.from)}`);
        break;
    }
  }
  return parts.length ? `${name} ${parts.join(' and ')}` : undefined;
}

function join(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join('; ')}; and ${items[items.length - 1]}`;
}

/**
 * Answers a question about the past from every recorded detection of the place's sensors, with
 * the watch events of the period and the coverage said.
 */
export async function answerPast(deps: PastAnswerDeps, principal: Principal, timeZone: string, q: PastQuestion): Promise<PastAnswer> {
  const now = deps.clock.now();
  const home = await deps.household.snapshot(principal.tenantId);
  const to = q.until ? Math.min(Date.parse(q.until), now) : now;
  const from = q.since ? Date.parse(q.since) : to - DEFAULT_PAST_SPAN_MS;
  const period: Span = { from: Math.min(from, to), to };
  const sensors = pickSensors(home.sensors, q);
  const { condition, events } = await listPeriodEvents(deps, principal, q, period, sensors);
  const coverage = await readCoverage(deps.database, principal, sensors, period);
  // from when data exists, over the sensors whose past may be shown (a muted one's, from before it was muted)
  const firsts = coverage.filter((c) => !c.leftAloneNow && c.first !== null).map((c) => c.first!);
  const readingsSince = firsts.length ? Math.min(...firsts) : null;
  const looking = coverage.filter((c) => !c.leftAloneNow && c.covered.length > 0);
  const rows = await pastAnswerRepository.detectionsBetween(
    deps.database.db,
    looking.map((c) => c.sensor.id),
    period.from,
    period.to,
  );
  const wanted = condition ? TYPES_OF_CONDITION[condition] : undefined;
  const moment = (t: number) => formatMoment(t, timeZone, now);

  const { sightings, total } = collectSightings(looking, rows, wanted, moment);

  const place = q.room ? `in the ${q.room}` : q.sensor_id && sensors[0] ? `at the ${label(sensors[0]).replace(/^the /, '')}` : 'at home';
  const span = q.since && q.until ? `from ${moment(period.from)} to ${moment(period.to)}` : q.since ? `since ${moment(period.from)}` : 'in the last 24 hours';
  const gaps = coverage.map((c) => describeGaps(c, period, moment, readingsSince)).filter((x): x is string => Boolean(x));
  const parts: string[] = [describeSeen({ q, period, coverage, looking, sightings, condition, place, span, moment })];
  if (events.length) {
    const shown = events.slice(0, 5).map((e) => `${formatClock(Date.parse(e.occurred_at), timeZone)} ${e.summary}`);
    parts.push(`Watch events, newest first: ${shown.join(' ')}${events.length > 5 ? ` …and ${events.length - 5} earlier.` : ''}`);
  }
  if (readingsSince === null) parts.push('I have no readings from there yet.');
  else if (readingsSince > period.from) parts.push(`I have readings since ${moment(readingsSince)}.`);
  if (gaps.length) parts.push(`${capitalize(join(gaps))}.`);
  return {
    text: parts.join(' '),
    action: {
      count: events.length,
      sightings: total,
      since: toIso(period.from),
      ...(q.until ? { until: toIso(period.to) } : {}),
      ...(q.kind ? { kind: q.kind } : {}),
      readings_since: readingsSince === null ? null : toIso(readingsSince),
      not_looking: coverage.filter((c) => c.gaps.some((g) => g.why !== 'no_data')).map((c) => c.sensor.id),
    },
    revealed: [...new Set([...looking.map((c) => c.sensor.id), ...events.map((e: EventView) => e.sensor_id).filter((x): x is string => Boolean(x))])],
  };
}

/**
 * The watch events of the period (the event log hides a place left alone, and refuses a question
 * only about one), and the watch condition the question names, if it names one.
 */
async function listPeriodEvents(
  deps: PastAnswerDeps,
  principal: Principal,
  q: PastQuestion,
  period: Span,
  sensors: { id: string }[],
): Promise<{ condition: string | undefined; events: EventView[] }> {
  const sensorIds = q.sensor_id || q.room ? sensors.map((s) => s.id) : undefined;
  const condition = q.kind && TYPES_OF_CONDITION[q.kind] ? q.kind : undefined;
  const eventKind = q.kind && !condition && (EVENT_LOG_KINDS as readonly string[]).includes(q.kind) ? q.kind : undefined;
  const types = condition ? [...EVENT_TYPES_OF_CONDITION[condition]] : eventKind ? undefined : [...OBSERVATION_TYPES, ...ALERT_TYPES];
  const page = await deps.events.list(principal, {
    limit: q.limit ?? 20,
    since: toIso(period.from),
    watch_id: q.watch_id,
    kind: eventKind,
    types,
    sensor_ids: sensorIds,
  });
  return { condition, events: page.data.filter((e) => Date.parse(e.occurred_at) <= period.to) };
}

/** Each sensor's coverage of the period: its readings, the boundaries and the mutes that kept it from looking. */
async function readCoverage(database: DatabaseHandle, principal: Principal, sensors: SensorRow[], period: Span): Promise<ReturnType<typeof coverageOf>[]> {
  const db = database.db;
  const [states, boundaries, changes] = await Promise.all([
    pastAnswerRepository.sensorStates(
      db,
      sensors.map((s) => s.id),
    ),
    pastAnswerRepository.boundariesDuring(db, principal.tenantId, toIso(period.from), toIso(period.to)),
    pastAnswerRepository.muteChanges(db, principal.tenantId, toIso(period.to)),
  ]);
  return sensors.map((s) => coverageOf(s, period, states.get(s.id), boundaries, changes));
}

/** What the looking sensors saw at the place in the period, or that they saw nothing, or that none was looking. */
function describeSeen(said: {
  q: PastQuestion;
  period: Span;
  coverage: ReturnType<typeof coverageOf>[];
  looking: ReturnType<typeof coverageOf>[];
  sightings: string[];
  condition: string | undefined;
  place: string;
  span: string;
  moment: (t: number) => string;
}): string {
  const { q, period, coverage, looking, sightings, condition, place, span, moment } = said;
  if (sightings.length) return `${capitalize(span)} ${place}: ${sightings.join('; ')}.`;
  // no sensor was looking at any moment of the period: that is not "nothing happened"
  if (looking.length === 0) return `I can't say what happened ${place} ${span}: no sensor there was looking.`;
  const what = condition ? describeCondition(condition) : 'activity';
  // only the part of the period some sensor was looking is said to have been quiet
  const union = subtract(
    period,
    subtract(
      period,
      looking.flatMap((c) => c.covered),
    ),
  );
  const whole = union.length === 1 && union[0].from === period.from && union[0].to === period.to;
  const part = whole
    ? span
    : union.length === 1
      ? `from ${moment(union[0].from)} to ${moment(union[0].to)}, the only part of ${q.since ? 'that time' : 'the last 24 hours'} I was looking`
      : `${span}, in the parts of it I was looking`;
  return `I saw no ${what} ${place} ${part}${looking.length < coverage.length ? ' with the sensors that were looking' : ''}.`;
}

/** The sensors a question is about: one sensor, a watch's, a room's, or every one. */
function pickSensors<S extends { id: string; room: string }>(all: S[], q: PastQuestion): S[] {
  return q.sensor_id
    ? all.filter((s) => s.id === q.sensor_id)
    : q.watch_sensor_ids
      ? all.filter((s) => q.watch_sensor_ids!.includes(s.id))
      : q.room
        ? all.filter((s) => s.room.toLowerCase() === q.room!.toLowerCase())
        : all;
}

/** What each looking sensor recorded in the parts of the period it was looking, in words, and how many. */
function collectSightings(
  looking: ReturnType<typeof coverageOf>[],
  rows: Awaited<ReturnType<typeof pastAnswerRepository.detectionsBetween>>,
  wanted: (typeof TYPES_OF_CONDITION)[string] | undefined,
  moment: (t: number) => string,
): { sightings: string[]; total: number } {
  const sightings: string[] = [];
  let total = 0;
  for (const c of looking) {
    const mine = rows.filter(
      (r) =>
        r.stream_id === c.sensor.id &&
        c.covered.some((s) => r.at >= s.from && r.at <= s.to) &&
        (!wanted || (wanted.types.includes(r.type) && (!wanted.subtype || r.subtype === wanted.subtype))),
    );
    total += mine.length;
    const said = describeSightings(c.sensor, mine, moment);
    if (said) sightings.push(said);
  }
  return { sightings, total };
}

function describeCondition(condition: string): string {
  return (
    (
      {
        person: 'one',
        unrecognized_person: 'stranger',
        recognized_person: 'one I recognize',
        loitering: 'one',
        vehicle: 'vehicle',
        door_open: 'door opening',
        motion: 'motion',
        animal: 'animal',
      } as Record<string, string>
    )[condition] ?? 'activity'
  );
}
