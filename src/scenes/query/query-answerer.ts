import type { DetectionRecord } from '../../domain/detection.ts';
import { LOITERING_DWELL_S, describeLocation } from './query-interpreter.ts';
import { formatMoment } from '../../lib/zoned-time.ts';
import type { Interpretation, QueryAnswer, SceneSnapshot } from './query.types.ts';

/**
 * Answers an interpreted scene question from detection history (issue 2 §5 "Query").
 *
 * History the caller must load: every row of the scene's location with `at` in [from, to], plus,
 * for each count type (person_count and vehicle), the latest row with `at` < from — the state at a
 * moment is the most recent reading at or before it, so peak, average, presence and "now" need
 * the reading that was in force when the range began. Nothing older is needed.
 */

/** Spec: Query response `detections` — we cap it so one answer stays a small payload. */
export const MAX_ANSWER_DETECTIONS = 50;

interface Reading {
  at: number;
  value: number;
  record: DetectionRecord;
}

type CountType = 'person_count' | 'vehicle';

function readingsOf(detections: DetectionRecord[], type: CountType): Reading[] {
  const readings: Reading[] = [];
  for (const d of detections) {
    if (d.type !== type) continue;
    const value = type === 'person_count' ? d.value : d.count;
    if (typeof value === 'number' && Number.isFinite(value)) readings.push({ at: d.at, value, record: d });
  }
  return readings.sort((a, b) => a.at - b.at);
}

/** The reading in force at `t`: the most recent one at or before it. */
function readingAt(readings: Reading[], t: number): Reading | undefined {
  let found: Reading | undefined;
  for (const r of readings) {
    if (r.at > t) break;
    found = r;
  }
  return found;
}

/** The reading in force when the range began, then every reading inside it. */
function readingsOver(readings: Reading[], from: number, to: number): Reading[] {
  const first = readingAt(readings, from);
  const inside = readings.filter((r) => r.at > from && r.at <= to);
  return first ? [first, ...inside] : inside;
}

function peakOf(readings: Reading[], from: number): { value: number; at: number; reading: Reading } | undefined {
  let best: Reading | undefined;
  for (const r of readings) if (!best || r.value > best.value) best = r;
  return best && { value: best.value, at: Math.max(best.at, from), reading: best };
}

/**
 * Time-weighted mean of the step function the readings describe over [from, to]. Time before
 * the first known reading is left out rather than counted as zero: no reading is no knowledge.
 */
function timeWeightedAverage(readings: Reading[], from: number, to: number): number | undefined {
  if (readings.length === 0) return undefined;
  let weighted = 0;
  let covered = 0;
  readings.forEach((r, i) => {
    const start = Math.max(r.at, from);
    const end = i + 1 < readings.length ? readings[i + 1].at : to;
    if (end > start) {
      weighted += r.value * (end - start);
      covered += end - start;
    }
  });
  return covered > 0 ? weighted / covered : readings[readings.length - 1].value;
}

/** Rises in a count between consecutive readings: the arrivals a counter implies. */
function increasesOf(readings: Reading[]): { total: number; records: DetectionRecord[] } {
  let total = 0;
  const records: DetectionRecord[] = [];
  for (let i = 1; i < readings.length; i++) {
    const rise = readings[i].value - readings[i - 1].value;
    if (rise > 0) {
      total += rise;
      records.push(readings[i].record);
    }
  }
  return { total, records };
}

function inRange(d: DetectionRecord, from: number, to: number): boolean {
  return d.at >= from && d.at <= to;
}

/** One record per tracked object (the first seen); untracked records each count once. */
function firstPerTrack(records: DetectionRecord[]): DetectionRecord[] {
  const seen = new Set<string>();
  const out: DetectionRecord[] = [];
  for (const d of [...records].sort((a, b) => a.at - b.at)) {
    const key = d.track_id ? `track:${d.track_id}` : `det:${d.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}

function isUnrecognized(d: DetectionRecord): boolean {
  return d.subtype === 'unrecognized';
}

function dwellOf(d: DetectionRecord): number {
  return typeof d.dwell_s === 'number' ? d.dwell_s : 0;
}

function isAnomalousPerson(d: DetectionRecord): boolean {
  return d.type === 'person' && (isUnrecognized(d) || dwellOf(d) >= LOITERING_DWELL_S);
}

function newestFirst(records: DetectionRecord[]): DetectionRecord[] {
  const unique = [...new Map(records.map((d) => [d.id, d])).values()];
  return unique.sort((a, b) => b.at - a.at).slice(0, MAX_ANSWER_DETECTIONS);
}

function roundDensity(people: number, capacity: number): number {
  if (!(capacity > 0) || !(people > 0)) return 0;
  return Math.round((people / capacity) * 100) / 100;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function formatNumber(n: number): string {
  return String(Math.round(n * 10) / 10);
}

function formatDwell(seconds: number): string {
  if (seconds < 60) return plural(Math.round(seconds), 'second', 'seconds');
  return plural(Math.floor(seconds / 60), 'minute', 'minutes');
}

/** Everything a sentence needs about where and when, precomputed once. */
interface Phrasing {
  place: string;
  when: string;
  moment: (t: number) => string;
  isNow: boolean;
}

function phrasingOf(interp: Interpretation): Phrasing {
  return {
    place: `the ${describeLocation(interp.location)}`,
    when: interp.range_label,
    moment: (t) => formatMoment(t, interp.time_zone, interp.to),
    isNow: interp.from === interp.to && !interp.time_phrase,
  };
}

interface CountAnswer {
  answer: string;
  supporting: DetectionRecord[];
  /** people present at the moment the answer is about, for crowd_density */
  people?: number;
}

/** "There are 4 people in the lobby now (10:14)." / "There were 2 vehicles in the lot at 09:30." */
function answerCurrent(interp: Interpretation, readings: Reading[], snapshotValue: number, p: Phrasing): CountAnswer & { value?: number } {
  const reading = readingAt(readings, interp.to);
  const value = reading ? reading.value : p.isNow ? snapshotValue : undefined;
  const [one, many] = interp.metric === 'vehicles' ? ['vehicle', 'vehicles'] : ['person', 'people'];
  if (value === undefined) {
    return { answer: `There is no ${one} count for ${p.place} ${p.when}: no readings by then.`, supporting: [] };
  }
  const verb = p.isNow ? (value === 1 ? 'is' : 'are') : value === 1 ? 'was' : 'were';
  const answer =
    value === 0
      ? `There ${p.isNow ? 'are' : 'were'} no ${many} in ${p.place} ${p.when}.`
      : `There ${verb} ${plural(value, one, many)} in ${p.place} ${p.when}.`;
  return { answer, supporting: reading ? [reading.record] : [], value };
}

function answerPeak(interp: Interpretation, readings: Reading[], p: Phrasing): CountAnswer & { value?: number } {
  const span = readingsOver(readings, interp.from, interp.to);
  const peak = peakOf(span, interp.from);
  const [one, many] = interp.metric === 'vehicles' ? ['vehicle', 'vehicles'] : ['person', 'people'];
  if (!peak) return { answer: `No ${one} counts were recorded in ${p.place} ${p.when}.`, supporting: [] };
  if (peak.value === 0) {
    return { answer: `There were no ${many} in ${p.place} at any point ${p.when}.`, supporting: [peak.reading.record], value: 0 };
  }
  return {
    answer: `Peak of ${plural(peak.value, one, many)} in ${p.place} at ${p.moment(peak.at)}, ${p.when}.`,
    supporting: [peak.reading.record],
    value: peak.value,
  };
}

function answerAverage(interp: Interpretation, readings: Reading[], p: Phrasing): CountAnswer & { value?: number } {
  const span = readingsOver(readings, interp.from, interp.to);
  const average = timeWeightedAverage(span, interp.from, interp.to);
  const many = interp.metric === 'vehicles' ? 'vehicles' : 'people';
  if (average === undefined) {
    return { answer: `No ${interp.metric === 'vehicles' ? 'vehicle' : 'person'} counts were recorded in ${p.place} ${p.when}.`, supporting: [] };
  }
  return {
    answer: `On average ${formatNumber(average)} ${many} were in ${p.place} ${p.when} (time-weighted).`,
    supporting: span.map((r) => r.record),
    value: average,
  };
}

function answerArrivals(interp: Interpretation, detections: DetectionRecord[], readings: Reading[], p: Phrasing): CountAnswer {
  const vehicles = interp.metric === 'vehicles';
  const [one, many] = vehicles ? ['vehicle', 'vehicles'] : ['person', 'people'];
  // Tracked events name each arrival; a bare counter only shows them as rises.
  const events = detections.filter(
    (d) => inRange(d, interp.from, interp.to) && (vehicles ? d.type === 'vehicle' && d.track_id : d.type === 'person'),
  );
  let total: number;
  let supporting: DetectionRecord[];
  if (events.length > 0) {
    supporting = firstPerTrack(events);
    total = supporting.length;
  } else {
    ({ total, records: supporting } = increasesOf(readingsOver(readings, interp.from, interp.to)));
  }
  const answer =
    total === 0
      ? `No ${many} arrived in ${p.place} ${p.when}.`
      : `${plural(total, one, many)} arrived in ${p.place} ${p.when}.`;
  return { answer: capitalise(answer), supporting };
}

function answerPresence(interp: Interpretation, detections: DetectionRecord[], readings: Reading[], snapshotValue: number, p: Phrasing): CountAnswer {
  const vehicles = interp.metric === 'vehicles';
  const [one, many] = vehicles ? ['vehicle', 'vehicles'] : ['person', 'people'];
  const nobody = vehicles ? 'no vehicles' : 'no one';
  if (interp.from === interp.to) {
    const current = answerCurrent(interp, readings, snapshotValue, p);
    if (current.value === undefined) return current;
    const n = current.value;
    const answer =
      n > 0
        ? `Yes, ${plural(n, one, many)} ${p.isNow ? (n === 1 ? 'is' : 'are') : n === 1 ? 'was' : 'were'} in ${p.place} ${p.when}.`
        : `No, ${nobody} ${p.isNow ? 'is' : 'was'} in ${p.place} ${p.when}.`;
    return { answer, supporting: current.supporting };
  }
  const span = readingsOver(readings, interp.from, interp.to).filter((r) => r.value > 0);
  const events = detections.filter(
    (d) => inRange(d, interp.from, interp.to) && d.type === (vehicles ? 'vehicle' : 'person') && (vehicles ? d.count !== 0 : true),
  );
  const seen = [...span.map((r) => r.record), ...events];
  if (seen.length === 0) {
    const noReadings = readingsOver(readings, interp.from, interp.to).length === 0;
    return {
      answer: noReadings
        ? `No, nothing recorded shows ${many} in ${p.place} ${p.when}.`
        : `No, ${nobody} ${vehicles ? 'were' : 'was'} in ${p.place} ${p.when}.`,
      supporting: [],
    };
  }
  const peak = peakOf(span, interp.from);
  const lastSeen = Math.max(...seen.map((d) => Math.max(d.at, interp.from)));
  const most = peak ? `, up to ${peak.value} at once` : '';
  return {
    answer: `Yes, ${many} were in ${p.place} ${p.when}${most}, last seen at ${p.moment(lastSeen)}.`,
    supporting: seen,
  };
}

function answerCrowd(interp: Interpretation, readings: Reading[], scene: SceneSnapshot, p: Phrasing): CountAnswer {
  const capacityNote = scene.capacity > 0 ? '' : ' (its capacity is not set, so density cannot be computed)';
  const percent = (people: number) =>
    scene.capacity > 0 ? `${Math.round((people / scene.capacity) * 100)}% of its capacity of ${scene.capacity}` : '';
  if (interp.aggregate === 'peak') {
    const peak = peakOf(readingsOver(readings, interp.from, interp.to), interp.from);
    if (!peak) return { answer: `No people counts were recorded in ${p.place} ${p.when}.`, supporting: [] };
    const share = scene.capacity > 0 ? `, ${percent(peak.value)}` : capacityNote;
    return {
      answer: `${capitalise(p.place)} was most crowded at ${p.moment(peak.at)} with ${plural(peak.value, 'person', 'people')}${share}, ${p.when}.`,
      supporting: [peak.reading.record],
      people: peak.value,
    };
  }
  if (interp.aggregate === 'average') {
    const span = readingsOver(readings, interp.from, interp.to);
    const average = timeWeightedAverage(span, interp.from, interp.to);
    if (average === undefined) return { answer: `No people counts were recorded in ${p.place} ${p.when}.`, supporting: [] };
    const share = scene.capacity > 0 ? `, ${percent(average)}` : capacityNote;
    return {
      answer: `On average ${formatNumber(average)} people were in ${p.place} ${p.when}${share} (time-weighted).`,
      supporting: span.map((r) => r.record),
      people: average,
    };
  }
  const current = answerCurrent({ ...interp, metric: 'people' }, readings, scene.people, p);
  if (current.value === undefined) return current;
  const share = scene.capacity > 0 ? `, ${percent(current.value)}` : capacityNote;
  return {
    answer: `${capitalise(p.place)} ${p.isNow ? 'has' : 'had'} ${plural(current.value, 'person', 'people')} ${p.when}${share}.`,
    supporting: current.supporting,
    people: current.value,
  };
}

function answerAnomalies(interp: Interpretation, detections: DetectionRecord[], p: Phrasing): CountAnswer {
  const minDwell = interp.min_dwell_s;
  const matches = (d: DetectionRecord): boolean => {
    if (d.type !== 'person') return false;
    if (interp.subtype || minDwell !== undefined) {
      return (!interp.subtype || d.subtype === interp.subtype) && (minDwell === undefined || dwellOf(d) >= minDwell);
    }
    return isAnomalousPerson(d);
  };
  const found = detections.filter((d) => inRange(d, interp.from, interp.to) && matches(d));
  // One entry per tracked person: the latest sighting, which carries the longest dwell.
  const latest = new Map<string, DetectionRecord>();
  for (const d of [...found].sort((a, b) => a.at - b.at)) latest.set(d.track_id ? `track:${d.track_id}` : `det:${d.id}`, d);
  const people = [...latest.values()];
  const newest = people.reduce((m, d) => Math.max(m, d.at), 0);
  const longest = people.reduce((m, d) => Math.max(m, dwellOf(d)), 0);
  const loiterPhrase = `for ${formatDwell(minDwell ?? LOITERING_DWELL_S)} or more`;

  let answer: string;
  if (interp.subtype && minDwell !== undefined) {
    answer =
      people.length === 0
        ? `No ${interp.subtype} people loitered in ${p.place} ${loiterPhrase} ${p.when}.`
        : `${plural(people.length, `${interp.subtype} person`, `${interp.subtype} people`)} loitered in ${p.place} ${loiterPhrase} ${p.when} (longest ${formatDwell(longest)}, latest at ${p.moment(newest)}).`;
  } else if (interp.subtype) {
    answer =
      people.length === 0
        ? `No ${interp.subtype} people were seen in ${p.place} ${p.when}.`
        : `${plural(people.length, `${interp.subtype} person was`, `${interp.subtype} people were`)} seen in ${p.place} ${p.when}, the latest at ${p.moment(newest)}.`;
  } else if (minDwell !== undefined) {
    answer =
      people.length === 0
        ? `No one loitered in ${p.place} ${loiterPhrase} ${p.when}.`
        : `${plural(people.length, 'person', 'people')} loitered in ${p.place} ${loiterPhrase} ${p.when} (longest ${formatDwell(longest)}, latest at ${p.moment(newest)}).`;
  } else if (people.length === 0) {
    answer = `Nothing unusual in ${p.place} ${p.when}: no unrecognized people and no one loitering.`;
  } else {
    const unrecognized = people.filter(isUnrecognized).length;
    const loitering = people.filter((d) => dwellOf(d) >= LOITERING_DWELL_S).length;
    const parts = [
      unrecognized > 0 ? plural(unrecognized, 'unrecognized person', 'unrecognized people') : '',
      loitering > 0 ? `${plural(loitering, 'person', 'people')} loitering (longest ${formatDwell(longest)})` : '',
    ].filter(Boolean);
    answer = `${plural(people.length, 'anomaly', 'anomalies')} in ${p.place} ${p.when}: ${parts.join(' and ')}, the latest at ${p.moment(newest)}.`;
  }
  return { answer: capitalise(answer), supporting: found };
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** detections = the history rows of the scene's location in [from - lookback, to] as the service loads them (ascending by at). Pure function. */
export function answerQuery(interp: Interpretation, detections: DetectionRecord[], scene: SceneSnapshot): QueryAnswer {
  const p = phrasingOf(interp);
  const people = readingsOf(detections, 'person_count');
  const vehicles = readingsOf(detections, 'vehicle');
  const counted = interp.metric === 'vehicles' ? vehicles : people;
  const snapshotValue = interp.metric === 'vehicles' ? scene.vehicles : scene.people;

  let result: CountAnswer;
  switch (interp.metric) {
    case 'anomalies':
      result = answerAnomalies(interp, detections, p);
      break;
    case 'crowd_density':
      result = answerCrowd(interp, people, scene, p);
      break;
    default:
      switch (interp.aggregate) {
        case 'peak': {
          const r = answerPeak(interp, counted, p);
          result = { ...r, people: interp.metric === 'people' ? r.value : undefined };
          break;
        }
        case 'average': {
          const r = answerAverage(interp, counted, p);
          result = { ...r, people: interp.metric === 'people' ? r.value : undefined };
          break;
        }
        case 'arrivals':
          result = answerArrivals(interp, detections, counted, p);
          break;
        case 'presence':
          result = answerPresence(interp, detections, counted, snapshotValue, p);
          break;
        default: {
          const r = answerCurrent(interp, counted, snapshotValue, p);
          result = { ...r, people: interp.metric === 'people' ? r.value : undefined };
        }
      }
  }

  // Density at the moment the answer is about; otherwise at the end of the range.
  const peopleAtEnd = readingAt(people, interp.to)?.value ?? (p.isNow ? scene.people : 0);
  const crowdDensity = roundDensity(result.people ?? peopleAtEnd, scene.capacity);
  const anomalyFlag =
    detections.some((d) => inRange(d, interp.from, interp.to) && isAnomalousPerson(d)) ||
    (p.isNow && scene.active_anomalies > 0);

  return {
    answer: result.answer,
    detections: newestFirst(result.supporting),
    crowd_density: crowdDensity,
    anomaly_flag: anomalyFlag,
  };
}
