import { answerKindQuestion, kindNouns } from './query-kinds.ts';
import type { DetectionRecord } from '../../detections/index.ts';
import { BUSY_SHARE, CROWDED_SHARE, LOITERING_DWELL_S, QUIET_SHARE, USUAL_BASELINE_DAYS, ARRIVAL_SLACK_MS, describeLocation } from './query-interpreter.ts';
import { formatClock, formatMoment, sayAgo } from '../../../platform/time/index.ts';
import type { Comparison, Interpretation, QueryAnswer, SceneSnapshot } from './query.types.ts';
import { animalPlural } from './other-animals.ts';

/**
 * Answers an interpreted scene question from detection history.
 *
 * History the caller must load: every row of the scene's location with `at` in [from, to], plus,
 * for each count type (person_count and vehicle), the latest row with `at` < from — the state at a
 * moment is the most recent reading at or before it, so peak, average, presence and "now" need
 * the reading that was in force when the range began. Nothing older is needed.
 */

/** Live sources repeat an unchanged count every 60 s (video frame pipeline); twice that is fresh. */
const READING_FRESH_MS = 2 * 60_000;

/** A tracked object last seen this close to the end of the range is taken as still there. */
const STILL_PRESENT_MS = 2 * 60_000;

/** The detections a scene question's answer cites (QueryResult's `detections`, src/org/scenes/scene.schemas.ts) are capped so one answer stays a small payload. */
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

/**
 * A count holds at a later moment for at most this long without a newer reading of its kind
 * (docs/decisions.md, "Scene questions: round C"). Live cameras repeat their counts every minute,
 * so this only matters for sparse sources; a reading from yesterday morning says nothing about
 * what is there now, or about what was there when this morning began.
 */
export const COUNT_HOLD_MS = 12 * 3_600_000;

/** The latest reading at or before `t`, however old. */
function lastReadingBefore(readings: Reading[], t: number): Reading | undefined {
  let found: Reading | undefined;
  for (const r of readings) {
    if (r.at > t) break;
    found = r;
  }
  return found;
}

/** The reading in force at `t`: the most recent one at or before it, while it still holds (COUNT_HOLD_MS). */
function readingAt(readings: Reading[], t: number): Reading | undefined {
  const found = lastReadingBefore(readings, t);
  return found && t - found.at <= COUNT_HOLD_MS ? found : undefined;
}

/** A reading before `t` too old to hold at `t` (see COUNT_HOLD_MS). */
function expiredAt(readings: Reading[], t: number): Reading | undefined {
  const found = lastReadingBefore(readings, t);
  return found && t - found.at > COUNT_HOLD_MS ? found : undefined;
}

/**
 * The count at `t`: the reading in force; 0 when the last reading is too old to hold (nothing has
 * been counted since); the scene's live value only when there is no reading at all.
 */
function valueAt(readings: Reading[], t: number, fallback: number | undefined): number | undefined {
  const r = readingAt(readings, t);
  if (r) return r.value;
  if (expiredAt(readings, t)) return 0;
  return fallback;
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
  // as the scene engine counts anomalies: a recognized person never is one
  return d.type === 'person' && d.subtype !== 'recognized' && (isUnrecognized(d) || dwellOf(d) >= LOITERING_DWELL_S);
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
  /** the range ends now (no time phrase, or one that runs up to now) */
  isNowRange: boolean;
}

function phrasingOf(interp: Interpretation): Phrasing {
  return {
    place: `the ${describeLocation(interp.location)}`,
    when: interp.range_label,
    moment: (t) => formatMoment(t, interp.time_zone, interp.to),
    isNow: interp.from === interp.to && !interp.time_phrase,
    isNowRange: interp.to === interp.asked_at || (!interp.time_phrase && interp.to === interp.from),
  };
}

interface CountAnswer {
  answer: string;
  supporting: DetectionRecord[];
  /** people present at the moment the answer is about, for crowd_density */
  people?: number;
  /** arrivals: how many */
  total?: number;
  /** set when the data cannot pick what the question names (none or several match): asked back, not answered */
  ask?: string;
}

/** "There are 4 people in the lobby now (10:14)." / "There were 2 vehicles in the lot at 09:30." */
function answerCurrent(interp: Interpretation, readings: Reading[], snapshotValue: number, p: Phrasing): CountAnswer & { value?: number; expired?: Reading } {
  const reading = readingAt(readings, interp.to);
  const [one, many] = interp.metric === 'vehicles' ? ['vehicle', 'vehicles'] : ['person', 'people'];
  const expired = reading ? undefined : expiredAt(readings, interp.to);
  if (expired) {
    // the last count is too old to hold (COUNT_HOLD_MS): nothing has been counted since, said with its time
    const was = expired.value === 1 ? `1 ${one} was` : `${expired.value} ${many} were`;
    return {
      answer: `No ${many} have been seen in ${p.place} since ${p.moment(expired.at)} (${sayAgo(interp.to - expired.at)}), when ${was} counted; ${p.when} there is no newer count.`,
      supporting: [expired.record],
      value: 0,
      expired,
    };
  }
  const value = reading ? reading.value : p.isNow ? snapshotValue : undefined;
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

/** "when was it quietest today?": the lowest reading in force during the range. */
function answerMinimum(interp: Interpretation, readings: Reading[], scene: SceneSnapshot, p: Phrasing): CountAnswer {
  const [one, many] = interp.metric === 'vehicles' ? ['vehicle', 'vehicles'] : ['person', 'people'];
  const span = readingsOver(readings, interp.from, interp.to);
  if (span.length === 0) return { answer: `No ${one} counts were recorded in ${p.place} ${p.when}.`, supporting: [] };
  const low = span.reduce((best, r) => (r.value < best.value ? r : best));
  const at = p.moment(Math.max(low.at, interp.from));
  if (interp.metric === 'crowd_density') {
    const share = scene.capacity > 0 ? `, ${Math.round((low.value / scene.capacity) * 100)}% of its capacity of ${scene.capacity}` : '';
    return {
      answer: `${capitalise(p.place)} was least crowded at ${at} with ${plural(low.value, 'person', 'people')}${share}, ${p.when}.`,
      supporting: [low.record],
      people: low.value,
    };
  }
  const answer =
    low.value === 0
      ? `${capitalise(p.place)} had no ${many} at ${at}, the fewest ${p.when}.`
      : `The fewest ${many} in ${p.place} ${p.when} was ${low.value}, at ${at}.`;
  return { answer, supporting: [low.record], people: interp.metric === 'people' ? low.value : undefined };
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
  const events = detections.filter((d) => inRange(d, interp.from, interp.to) && (vehicles ? d.type === 'vehicle' && d.track_id : d.type === 'person'));
  let total: number;
  let supporting: DetectionRecord[];
  // the tracks are the figure unless the count itself shows more arrived than were tracked (it
  // rose from where it began by more than that: a camera that tracks only some of what it counts);
  // then the count's rises are, and the answer says so — never a figure the counts contradict
  // (docs/decisions.md, "Scene questions: round F")
  const span = readingsOver(readings, interp.from, interp.to);
  const rises = increasesOf(span);
  const tracked = events.length > 0 ? firstPerTrack(events) : [];
  const fromTracks = tracked.length > 0 && tracked.length >= netRiseOf(span);
  let note = '';
  if (fromTracks) {
    supporting = tracked;
    total = tracked.length;
  } else {
    ({ total, records: supporting } = rises);
    if (tracked.length > 0) note = ` (from the rises of the ${one} count; ${tracked.length} of them ${tracked.length === 1 ? 'was' : 'were'} tracked)`;
  }
  let answer = total === 0 ? `No ${many} arrived in ${p.place} ${p.when}.` : `${plural(total, one, many)} arrived in ${p.place} ${p.when}${note}.`;
  if (interp.yes_no) answer = total === 0 ? `No, no ${many} arrived in ${p.place} ${p.when}.` : `Yes, ${answer}`;
  if (interp.per_hour) answer = `${answer.replace(/\.$/, '')}${ratePerHour(total, interp, many)}.`;
  if (interp.distinct) {
    answer += fromTracks
      ? ` That counts tracks, not identities: the cameras do not recognise people, so someone who left and came back is counted again.`
      : ` That counts rises of the ${one} count, not identities: someone who left and came back is counted again.`;
  }
  return { answer: capitalise(answer), supporting, total };
}

/** Vehicle readings further apart than this do not show every arrival between them. */
const DENSE_VEHICLE_GAP_MS = 20 * 60_000;

/**
 * "how many vehicles came through in the last hour?" with untracked vehicle readings minutes or hours
 * apart (or none at the span's start, or a single one long after the reading before it): their rises are not the arrivals, so the answer gives what the readings
 * in the span show, the most at once with its time, and says so. Undefined when tracks or dense readings
 * carry the arrivals (docs/decisions.md, "Round S: scene questions").
 */
function answerSparseVehicles(interp: Interpretation, detections: DetectionRecord[], readings: Reading[], p: Phrasing): CountAnswer | undefined {
  if (interp.metric !== 'vehicles' || interp.per_hour || interp.distinct) return undefined;
  if (detections.some((d) => inRange(d, interp.from, interp.to) && d.type === 'vehicle' && d.track_id)) return undefined;
  const span = readingsOver(readings, interp.from, interp.to);
  const inside = span.filter((r) => r.at >= interp.from);
  if (inside.length === 0) return undefined;
  // no reading at the start; readings in the span far apart; or one alone, long after the reading before it
  const gap = (rs: Reading[]) => rs.some((r, i) => i > 0 && r.at - rs[i - 1].at > DENSE_VEHICLE_GAP_MS);
  const gapped = span[0].at > interp.from || gap(span.slice(1)) || (span.length === 2 && gap(span));
  if (!gapped) return undefined;
  const most = inside.reduce((a, b) => (b.value > a.value ? b : a));
  const caveat = 'the vehicle readings are too far apart to tell how many arrived';
  if (most.value === 0) {
    const none = `no vehicles were seen in ${p.place} ${p.when} (every reading showed 0)`;
    return { answer: interp.yes_no ? `No, ${none}.` : `${capitalise(none)}.`, supporting: inside.map((r) => r.record), total: 0 };
  }
  const seen = `${plural(most.value, 'vehicle', 'vehicles')} ${most.value === 1 ? 'was' : 'were'} seen in ${p.place} ${p.when}, the most at once, at ${p.moment(most.at)}; ${caveat}`;
  return { answer: interp.yes_no ? `Yes, ${seen}.` : `${capitalise(seen)}.`, supporting: [most.record], total: most.value };
}

/**
 * "how many vans pulled in at ten to one": the rises of the count within that clock minute, with the
 * reading before and after said, and when that reading before was long ago the span the rise covers.
 * No rise in the minute (or one in the same minute of the other half of the day too) is asked back
 * for a span (docs/decisions.md, "Before round R: scene questions").
 */
function answerArrivalMinute(interp: Interpretation, readings: Reading[], otherReadings: Reading[], p: Phrasing): CountAnswer {
  const [one, many] = interp.metric === 'vehicles' ? ['vehicle', 'vehicles'] : ['person', 'people'];
  // from just before the minute, so a reading at 12:50:00 is a rise within it, not where the span starts
  const span = readingsOver(readings, interp.from - 1, interp.to);
  const { total, records } = increasesOf(span);
  const other = interp.other_reading;
  const otherRise = other ? increasesOf(readingsOver(otherReadings, other.at - 1, other.at + 59_999)).total : 0;
  const spanAsk = `"${interp.time_phrase ?? interp.range_label}" is a moment, and a count of arrivals needs a span, e.g. "between 2 and 3pm" or "in the 10 minutes before"`;
  if (total === 0) return { answer: '', supporting: [], ask: `I saw no rise of the ${one} count ${p.when} itself. ${spanAsk}.` };
  if (other && otherRise > 0)
    return { answer: '', supporting: [], ask: `The ${one} count rose both ${p.when} and at ${other.label}; which do you mean? ${spanAsk}.` };
  const before = span[0];
  const last = span[span.length - 1];
  const none = other ? ` The count did not rise at ${other.label}.` : '';
  const arrived = plural(total, one, many);
  const answer =
    interp.from - before.at > 5 * 60_000
      ? `The ${one} count in ${p.place} went from ${before.value} to ${last.value} ${p.when}: ${arrived} arrived since the reading before, at ${p.moment(before.at)}, so not necessarily in that minute.${none}`
      : `${arrived} arrived in ${p.place} ${p.when}: the ${one} count went from ${before.value} to ${last.value} in that minute.${none}`;
  return { answer: interp.yes_no ? `Yes: ${lowerFirst(answer)}` : capitalise(answer), supporting: records, total };
}

/** How far the count rose above where the span began: at least that many arrived. */
function netRiseOf(span: Reading[]): number {
  if (span.length === 0) return 0;
  return Math.max(0, Math.max(...span.map((r) => r.value)) - span[0].value);
}

/** The largest fall of the count from an earlier reading of the span: at least that many left. */
function netFallOf(span: Reading[]): number {
  let high = -Infinity;
  let fall = 0;
  for (const r of span) {
    high = Math.max(high, r.value);
    fall = Math.max(fall, high - r.value);
  }
  return fall;
}

/** ", about 4.2 per hour over those 3 h 20 min": a total over the range as an hourly rate. */
function ratePerHour(total: number, interp: Interpretation, many: string): string {
  const ms = interp.to - interp.from;
  if (!(ms > 0)) return '';
  const perHour = total / (ms / 3_600_000);
  const minutes = Math.round(ms / 60_000);
  const span = minutes >= 60 ? `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}` : `${minutes} min`;
  return `, about ${formatNumber(perHour)} ${many} per hour over those ${span}`;
}

/**
 * "was the hall ever empty this morning?": yes when a reading in the span counted none (the first
 * such is said), no with the fewest counted at once when every reading counted some.
 */
function answerEverEmpty(interp: Interpretation, readings: Reading[], p: Phrasing): CountAnswer {
  const vehicles = interp.metric === 'vehicles';
  const over = readingsOver(readings, interp.from, interp.to);
  if (over.length === 0) return { answer: `I cannot tell whether ${p.place} was ever empty ${p.when}: there are no readings in that time.`, supporting: [] };
  const zeros = over.filter((r) => r.value === 0);
  if (zeros.length > 0) {
    const first = Math.max(zeros[0].at, interp.from);
    const nobody = vehicles ? 'no vehicles were' : 'no one was';
    return { answer: `Yes, ${p.place} was empty at some point ${p.when}: ${nobody} counted at ${p.moment(first)}.`, supporting: zeros.map((z) => z.record) };
  }
  const low = over.reduce((a, b) => (b.value < a.value ? b : a));
  const many = vehicles ? 'vehicles' : 'people';
  return {
    answer: `No, ${p.place} was never empty ${p.when}: the fewest ${many} counted at once was ${low.value}, at ${p.moment(Math.max(low.at, interp.from))}.`,
    supporting: [low.record],
  };
}

function answerPresence(interp: Interpretation, detections: DetectionRecord[], readings: Reading[], snapshotValue: number, p: Phrasing): CountAnswer {
  const vehicles = interp.metric === 'vehicles';
  const [one, many] = vehicles ? ['vehicle', 'vehicles'] : ['person', 'people'];
  const nobody = vehicles ? 'no vehicles' : 'no one';
  if (interp.from === interp.to) {
    const current = answerCurrent(interp, readings, snapshotValue, p);
    if (current.value === undefined) return current;
    if (current.expired) {
      // "is it free of vehicles?" with the last one counted yesterday: none seen since, said so
      const last = current.expired;
      const since = `no ${many} have been seen in ${p.place} since ${p.moment(last.at)} (${sayAgo(interp.to - last.at)}), when ${last.value === 1 ? `1 ${one} was` : `${last.value} ${many} were`} counted`;
      return { answer: `${interp.expect_empty ? 'Yes' : 'No'}, ${since}.`, supporting: current.supporting };
    }
    const n = current.value;
    const be = p.isNow ? (n === 1 ? 'is' : 'are') : n === 1 ? 'was' : 'were';
    const people = `${plural(n, one, many)} ${be} in ${p.place} ${p.when}`;
    const none = `${nobody} ${vehicles ? (p.isNow ? 'are' : 'were') : p.isNow ? 'is' : 'was'} in ${p.place} ${p.when}`;
    // "is the lobby empty?" asks the other way round: yes means nobody is there
    const answer = interp.expect_empty
      ? n > 0
        ? `No, ${people}.`
        : `Yes, ${p.place} ${p.isNow ? 'is' : 'was'} empty ${p.when}: ${none}.`
      : n > 0
        ? `Yes, ${people}.`
        : `No, ${none}.`;
    return { answer, supporting: current.supporting };
  }
  if (interp.expect_empty && interp.ever_empty) return answerEverEmpty(interp, readings, p);
  // A reading from before the range is evidence of presence during it only while fresh: live
  // sources repeat unchanged counts every minute, so an older one that was not repeated says
  // nothing about the range ("any cars in the last 10 minutes?" with a car counted 16 minutes ago).
  const carried = lastReadingBefore(readings, interp.from);
  const staleCarried = carried && carried.at < interp.from && interp.from - carried.at > READING_FRESH_MS ? carried : undefined;
  const span = readingsOver(readings, interp.from, interp.to).filter((r) => r.value > 0 && r !== staleCarried);
  const events = detections.filter(
    (d) => inRange(d, interp.from, interp.to) && d.type === (vehicles ? 'vehicle' : 'person') && (vehicles ? d.count !== 0 : true),
  );
  const seen = [...span.map((r) => r.record), ...events];
  if (seen.length === 0 && staleCarried && staleCarried.value > 0) {
    const last = `the last reading, at ${p.moment(staleCarried.at)}, showed ${plural(staleCarried.value, one, many)}`;
    return {
      answer: interp.expect_empty
        ? `I cannot tell whether ${p.place} was empty ${p.when}: there are no readings in that time, and ${last}.`
        : `No, no ${many} were seen in ${p.place} ${p.when}; ${last}.`,
      supporting: [staleCarried.record],
    };
  }
  if (seen.length === 0) {
    const noReadings = readingsOver(readings, interp.from, interp.to).length === 0;
    if (interp.expect_empty) {
      return {
        answer: noReadings
          ? `Nothing recorded shows ${many} in ${p.place} ${p.when}, but there are no readings to prove it was empty.`
          : `Yes, ${p.place} was empty ${p.when}: ${nobody} ${vehicles ? 'were' : 'was'} seen.`,
        supporting: [],
      };
    }
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
    answer: `${interp.expect_empty ? 'No' : 'Yes'}, ${many} were in ${p.place} ${p.when}${most}, last seen at ${p.moment(lastSeen)}.`,
    supporting: seen,
  };
}

const LEVEL_TEST: Record<NonNullable<Interpretation['level']>, (share: number) => boolean> = {
  busy: (share) => share >= BUSY_SHARE,
  crowded: (share) => share >= CROWDED_SHARE,
  full: (share) => share >= 1,
  quiet: (share) => share <= QUIET_SHARE,
};

/** "is the lobby crowded?": yes or no against capacity, then the figures that decide it. */
function answerCrowdLevel(interp: Interpretation, readings: Reading[], scene: SceneSnapshot, p: Phrasing): CountAnswer {
  const level = interp.level!;
  const figures = answerCrowd({ ...interp, level: undefined }, readings, scene, p);
  if (figures.people === undefined) return figures;
  if (!(scene.capacity > 0)) {
    return {
      ...figures,
      answer: `I cannot say whether ${p.place} ${p.isNow ? 'is' : 'was'} ${level}: its capacity is not set. ${figures.answer.replace(/ \(its capacity is not set, so density cannot be computed\)/, '')}`,
    };
  }
  const share = figures.people / scene.capacity;
  const rule =
    level === 'full'
      ? 'Full means at capacity'
      : level === 'crowded' || level === 'busy'
        ? `${level === 'busy' ? 'Busy' : 'Crowded'} means ${Math.round((level === 'busy' ? BUSY_SHARE : CROWDED_SHARE) * 100)}% of capacity or more`
        : `Quiet means ${Math.round(QUIET_SHARE * 100)}% of capacity or less`;
  const yes = LEVEL_TEST[level](share);
  return { ...figures, answer: `${yes ? 'Yes' : 'No'}, ${lowerFirst(figures.answer)} ${rule}.` };
}

function lowerFirst(s: string): string {
  if (/^No /.test(s)) return `no ${s.slice(3)}`;
  return /^The /.test(s) ? `the ${s.slice(4)}` : s;
}

function answerCrowd(interp: Interpretation, readings: Reading[], scene: SceneSnapshot, p: Phrasing): CountAnswer {
  if (interp.level) return answerCrowdLevel(interp, readings, scene, p);
  const capacityNote = scene.capacity > 0 ? '' : ' (its capacity is not set, so density cannot be computed)';
  const percent = (people: number) => (scene.capacity > 0 ? `${Math.round((people / scene.capacity) * 100)}% of its capacity of ${scene.capacity}` : '');
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
  if (current.expired) return { answer: current.answer, supporting: current.supporting, people: 0 };
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
  answer = capitalise(answer);
  // "any strangers tonight?": yes or no first, then what was seen
  if (interp.yes_no) answer = `${people.length > 0 ? 'Yes' : 'No'}, ${answer.charAt(0).toLowerCase()}${answer.slice(1)}`;
  return { answer, supporting: found };
}

function nouns(interp: Interpretation): [string, string] {
  return interp.metric === 'vehicles' ? ['vehicle', 'vehicles'] : ['person', 'people'];
}

const COMPARE: Record<Comparison, (a: number, b: number) => boolean> = {
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
};
const COMPARISON_WORDS: Record<Comparison, string> = { '>': 'more than', '>=': 'at least', '<': 'fewer than', '<=': 'at most' };

/** "were there more than 5 people at any point in the last hour?": yes or no, then the figure that decides it. */
function answerThreshold(
  interp: Interpretation,
  detections: DetectionRecord[],
  readings: Reading[],
  scene: SceneSnapshot,
  snapshotValue: number,
  p: Phrasing,
): CountAnswer {
  const t = interp.threshold!;
  const [one, many] = nouns(interp);
  if (t.capacity && !(scene.capacity > 0)) {
    return { answer: `I cannot compare with capacity: the capacity of ${p.place} is not set.`, supporting: [] };
  }
  if (t.share && !(scene.capacity > 0)) {
    return { answer: `I cannot compare with a share of capacity: the capacity of ${p.place} is not set.`, supporting: [] };
  }
  const limit = t.capacity ? scene.capacity : t.share ? (t.value / 100) * scene.capacity : t.value;
  const limitText = t.capacity
    ? `its capacity of ${scene.capacity}`
    : t.share
      ? `${t.value}% of its capacity of ${scene.capacity} (${formatNumber(limit)} people)`
      : String(limit);
  const asked = `${COMPARISON_WORDS[t.op]} ${limitText}`;
  let value: number;
  let figure: string;
  let supporting: DetectionRecord[];
  switch (t.basis) {
    case 'current': {
      const current = answerCurrent(interp, readings, snapshotValue, p);
      if (current.value === undefined) return current;
      value = current.value;
      const be = p.isNow ? (value === 1 ? 'is' : 'are') : value === 1 ? 'was' : 'were';
      // a count too old to hold is said as what it is, never as the present (COUNT_HOLD_MS)
      figure = current.expired ? lowerFirst(current.answer.replace(/\.$/, '')) : `${plural(value, one, many)} ${be} in ${p.place} ${p.when}`;
      supporting = current.supporting;
      break;
    }
    case 'peak':
    case 'minimum': {
      const span = readingsOver(readings, interp.from, interp.to);
      if (span.length === 0) return { answer: `I have no ${one} counts for ${p.place} ${p.when}, so I cannot say.`, supporting: [] };
      const pick = span.reduce((best, r) => ((t.basis === 'peak' ? r.value > best.value : r.value < best.value) ? r : best));
      value = pick.value;
      const at = p.moment(Math.max(pick.at, interp.from));
      figure = t.basis === 'peak' ? `the most at once ${p.when} was ${value} (at ${at})` : `the fewest at once ${p.when} was ${value} (at ${at})`;
      supporting = [pick.record];
      break;
    }
    case 'first':
      return answerThresholdFirst(interp, readings, limit, asked, p);
    case 'arrivals': {
      const arrivals = answerArrivals({ ...interp, yes_no: false }, detections, readings, p);
      value = arrivals.total ?? 0;
      figure = lowerFirst(arrivals.answer.replace(/\.$/, ''));
      supporting = arrivals.supporting;
      break;
    }
  }
  const yes = COMPARE[t.op](value, limit);
  return { answer: `${yes ? 'Yes' : 'No'}, ${figure}, ${yes ? '' : 'not '}${asked}.`, supporting };
}

/** A threshold question on the 'first' basis: when the count first met the number in the span. */
function answerThresholdFirst(interp: Interpretation, readings: Reading[], limit: number, asked: string, p: Phrasing): CountAnswer {
  const t = interp.threshold!;
  const [one, many] = nouns(interp);
  // the reading in force when the span began, then each reading in it: the first that meets the number
  const span = readingsOver(readings, interp.from, interp.to);
  if (span.length === 0) return { answer: `I have no ${one} counts for ${p.place} ${p.when}, so I cannot say.`, supporting: [] };
  const hit = span.find((r) => COMPARE[t.op](r.value, limit));
  const be = (n: number) => (n === 1 ? `1 ${one}` : `${n} ${many}`);
  if (!hit) {
    const pick = span.reduce((best, r) => ((t.op === '>' || t.op === '>=' ? r.value > best.value : r.value < best.value) ? r : best));
    const extreme = t.op === '>' || t.op === '>=' ? 'the most at once was' : 'the fewest at once was';
    return {
      answer: `${capitalise(p.place)} never had ${t.capacity || t.share ? asked : `${asked} ${many}`} ${p.when}: ${extreme} ${pick.value} (at ${p.moment(Math.max(pick.at, interp.from))}).`,
      supporting: [pick.record],
    };
  }
  const askedOf = t.capacity || t.share ? asked : `${asked} ${many}`;
  if (hit.at <= interp.from) {
    return {
      answer: `${capitalise(p.place)} already had ${askedOf} when ${p.when} began: ${be(hit.value)} at ${p.moment(interp.from)}.`,
      supporting: [hit.record],
    };
  }
  if (hit === span[0]) {
    // the first count of the span already met it: when it began to is before what was recorded
    return {
      answer: `${capitalise(p.place)}'s first ${one} count ${p.when}, at ${p.moment(hit.at)}, already had ${askedOf}: ${be(hit.value)}; nothing was counted before it.`,
      supporting: [hit.record],
    };
  }
  return { answer: `${capitalise(p.place)} first had ${askedOf} at ${p.moment(hit.at)} ${p.when}: ${be(hit.value)}.`, supporting: [hit.record] };
}

/**
 * "has the crowd been growing?": the count at the start against the end of the range, and the
 * average of the first half against the second, so one spike does not make a trend.
 */
/** "is the hall emptying out since the peak?": the trend from the time of the span's peak to its end (Interpretation.since_peak). */
function answerTrendSincePeak(interp: Interpretation, readings: Reading[], p: Phrasing): CountAnswer {
  const peak = peakOf(readingsOver(readings, interp.from, interp.to), interp.from);
  if (!peak || peak.value === 0) return answerTrend(interp, readings, p);
  const fromPeak = { ...interp, from: peak.at };
  const trend = answerTrend(fromPeak, readings, { ...p, when: `since the peak of ${peak.value} at ${p.moment(peak.at)}` });
  return { ...trend, supporting: [peak.reading.record, ...trend.supporting] };
}

function answerTrend(interp: Interpretation, readings: Reading[], p: Phrasing): CountAnswer & { direction?: 'up' | 'down' | 'flat'; sentence?: string } {
  const [one, many] = nouns(interp);
  const span = readingsOver(readings, interp.from, interp.to);
  if (span.length === 0) return { answer: `I have no ${one} counts for ${p.place} ${p.when}, so I cannot tell a trend.`, supporting: [] };
  // only the part of the range the readings cover: time before the first reading is unknown
  const from = Math.max(interp.from, span[0].at);
  // a trend compares real readings: a window shorter than the counts' interval holds too few of them, and
  // a held count at its start is not a reading then (docs/decisions.md, "Round S: scene questions")
  const real = span.filter((r) => r.at >= interp.from).length;
  if (interp.to - from < (interp.to - interp.from) / 4 || span.length < 2 || real < 2) {
    return { answer: `I have too few ${one} counts for ${p.place} ${p.when} to tell a trend.`, supporting: span.map((r) => r.record) };
  }
  const mid = from + (interp.to - from) / 2;
  const firstHalf = timeWeightedAverage(readingsOver(readings, from, mid), from, mid) ?? 0;
  const secondHalf = timeWeightedAverage(readingsOver(readings, mid, interp.to), mid, interp.to) ?? 0;
  const start = readingAt(readings, from) ?? span[0];
  const end = readingAt(readings, interp.to) ?? span[span.length - 1];
  const change = secondHalf - firstHalf;
  // a small change either way is noise; the halves and the ends must agree on the direction
  const tolerance = Math.max(0.25, 0.05 * Math.max(firstHalf, secondHalf));
  const direction = change > tolerance && end.value > start.value ? 'up' : change < -tolerance && end.value < start.value ? 'down' : 'flat';
  const movement = direction === 'up' ? 'has been rising' : direction === 'down' ? 'has been falling' : 'has held about steady';
  const startAt = p.moment(Math.max(start.at, from));
  const detail = `from ${plural(start.value, one, many)} at ${startAt} to ${end.value} at ${p.moment(end.at)}; on average ${formatNumber(firstHalf)} in the first half and ${formatNumber(secondHalf)} in the second`;
  const sentence = `the number of ${many} in ${p.place} ${movement} ${p.when}, ${detail}`;
  let answer: string;
  if (interp.direction && interp.yes_no) answer = `${direction === interp.direction ? 'Yes' : 'No'}, ${sentence}.`;
  else answer = `${capitalise(sentence)}.`;
  return { answer, supporting: [start.record, end.record], direction, sentence };
}

/** How many of the latest counts a widened trend is read from (Interpretation.trend_wide). */
const WIDE_TREND_COUNTS = 3;

/**
 * A trend over a window too short for the scene's counts: read from the last few counts instead,
 * and the answer says from when (Interpretation.trend_wide). None when the history has no more.
 */
function widenedTrend(interp: Interpretation, history: DetectionRecord[]): CountAnswer | undefined {
  const wide = interp.trend_wide!;
  const people = readingsOver(readingsOf(history, 'person_count'), wide.from, wide.to);
  const vehicles = readingsOver(readingsOf(history, 'vehicle'), wide.from, wide.to);
  const counted = interp.metric === 'people' ? people : interp.metric === 'vehicles' ? vehicles : [...people, ...vehicles];
  const times = [...new Set(counted.map((r) => r.at).filter((t) => t >= wide.from && t <= wide.to))].sort((a, b) => a - b);
  if (times.length < WIDE_TREND_COUNTS) return undefined;
  const from = times[times.length - WIDE_TREND_COUNTS];
  if (from >= interp.from) return undefined;
  const p0 = phrasingOf(interp);
  const label = `since ${p0.moment(from)}`;
  const wider: Interpretation = { ...interp, from, range_label: label };
  const p = { ...p0, when: label };
  const r = interp.metric === 'activity' ? answerBothTrends(wider, people, vehicles, p) : answerTrend(wider, interp.metric === 'people' ? people : vehicles, p);
  if (/^I have (too few|no) /.test(r.answer)) return undefined;
  const window = interp.range_label.replace(/^in /, '');
  return { ...r, answer: `${r.answer} (${capitalise(window)} hold too few counts to tell a trend, so this reads the last ${WIDE_TREND_COUNTS} counts.)` };
}

/**
 * "has it been getting quieter?" at a car park, with neither people nor vehicles named: both
 * counts. Yes or no only when they agree (or only one has readings); otherwise both, plainly.
 */
function answerBothTrends(interp: Interpretation, people: Reading[], vehicles: Reading[], p: Phrasing): CountAnswer {
  const a = answerTrend({ ...interp, metric: 'people' }, people, p);
  const b = answerTrend({ ...interp, metric: 'vehicles' }, vehicles, p);
  const known = [a, b].filter((t) => t.direction !== undefined);
  if (known.length === 0) return { answer: `I have too few counts for ${p.place} ${p.when} to tell a trend.`, supporting: [] };
  const supporting = [...a.supporting, ...b.supporting];
  const sentences = known.map((t) => t.sentence!).join('; and ');
  const verdict =
    interp.direction && interp.yes_no
      ? verdictOfBoth(
          interp.direction,
          known.map((t) => t.direction!),
        )
      : undefined;
  if (verdict) return { answer: `${verdict}, ${sentences}.`, supporting };
  return {
    answer: `${interp.direction && interp.yes_no ? 'Partly: ' : ''}${interp.direction && interp.yes_no ? sentences : capitalise(sentences)}.`,
    supporting,
  };
}

/** "is the garage empty?" with neither people nor vehicles named: empty means neither. */
function answerEmptyOfAll(
  interp: Interpretation,
  detections: DetectionRecord[],
  people: Reading[],
  vehicles: Reading[],
  scene: SceneSnapshot,
  p: Phrasing,
): CountAnswer {
  const be = (n: number) => (p.isNow ? (n === 1 ? 'is' : 'are') : n === 1 ? 'was' : 'were');
  if (interp.from === interp.to) {
    const n = valueAt(people, interp.to, p.isNow ? scene.people : undefined);
    const v = valueAt(vehicles, interp.to, p.isNow ? scene.vehicles : undefined);
    if (n === undefined && v === undefined) return { answer: `I have no readings for ${p.place} ${p.when}.`, supporting: [] };
    const present = [n ? plural(n, 'person', 'people') : '', v ? plural(v, 'vehicle', 'vehicles') : ''].filter(Boolean);
    const supporting = [readingAt(people, interp.to)?.record, readingAt(vehicles, interp.to)?.record].filter((d): d is DetectionRecord => Boolean(d));
    if (present.length === 0) {
      return { answer: `Yes, ${p.place} ${p.isNow ? 'is' : 'was'} empty ${p.when}: no people and no vehicles.`, supporting };
    }
    const total = (n ?? 0) + (v ?? 0);
    return { answer: `No, ${present.join(' and ')} ${be(total)} in ${p.place} ${p.when}.`, supporting };
  }
  const seenPeople = answerPresence({ ...interp, metric: 'people', expect_empty: false }, detections, people, scene.people, p);
  const seenVehicles = answerPresence({ ...interp, metric: 'vehicles', expect_empty: false }, detections, vehicles, scene.vehicles, p);
  const yes = (a: CountAnswer) => a.answer.startsWith('Yes');
  const known =
    readingsOver(people, interp.from, interp.to).length + readingsOver(vehicles, interp.from, interp.to).length > 0 ||
    detections.some((d) => inRange(d, interp.from, interp.to));
  if (!known) return { answer: `I have no readings for ${p.place} ${p.when}, so I cannot tell whether it was empty.`, supporting: [] };
  if (!yes(seenPeople) && !yes(seenVehicles)) {
    return { answer: `Yes, ${p.place} was empty ${p.when}: no people or vehicles were seen.`, supporting: [] };
  }
  const parts = [yes(seenPeople) ? 'people' : '', yes(seenVehicles) ? 'vehicles' : ''].filter(Boolean).join(' and ');
  return { answer: `No, ${parts} were seen in ${p.place} ${p.when}.`, supporting: [...seenPeople.supporting, ...seenVehicles.supporting] };
}

/**
 * "when was the last car seen?": present now, or the latest sighting (a tracked detection or a
 * count above zero) and when the count went back to zero.
 */
function answerLastSeen(interp: Interpretation, detections: DetectionRecord[], readings: Reading[], snapshotValue: number, p: Phrasing): CountAnswer {
  const vehicles = interp.metric === 'vehicles';
  const [one, many] = interp.subtype ? [`${interp.subtype} person`, `${interp.subtype} people`] : nouns(interp);
  const current = readingAt(readings, interp.to);
  const atEnd = valueAt(readings, interp.to, p.isNowRange ? snapshotValue : 0) ?? 0;
  if (interp.expect_empty) {
    if (p.isNowRange && atEnd === 0) {
      return { answer: `${capitalise(p.place)} is empty now (${p.moment(current?.at ?? interp.to)}).`, supporting: current ? [current.record] : [] };
    }
    const empties = readings.filter((r) => r.value === 0 && r.at >= interp.from && r.at <= interp.to);
    const lastEmpty = empties[empties.length - 1];
    if (!lastEmpty) return { answer: `No reading ${p.when} shows ${p.place} empty of ${many}.`, supporting: [] };
    const ended = readings.find((r) => r.at > lastEmpty.at && r.value > 0);
    const until = ended ? `, until ${p.moment(ended.at)}` : '';
    return {
      answer: `${capitalise(p.place)} was last empty of ${many} at ${p.moment(lastEmpty.at)} (${sayAgo(interp.to - lastEmpty.at)})${until}.`,
      supporting: [lastEmpty.record, ...(ended ? [ended.record] : [])],
    };
  }
  if (!interp.subtype && atEnd > 0 && p.isNowRange) {
    const be = atEnd === 1 ? 'is' : 'are';
    return {
      answer: `${capitalise(plural(atEnd, one, many))} ${be} in ${p.place} now (${p.moment(current?.at ?? interp.to)}), so the latest sighting is current.`,
      supporting: current ? [current.record] : [],
    };
  }
  const sightings = detections.filter(
    (d) =>
      inRange(d, interp.from, interp.to) &&
      (interp.subtype
        ? d.type === 'person' && d.subtype === interp.subtype
        : vehicles
          ? d.type === 'vehicle' && (d.count ?? 1) > 0
          : d.type === 'person' || (d.type === 'person_count' && (d.value ?? 0) > 0)),
  );
  if (sightings.length === 0) {
    return { answer: `No ${one} has been seen in ${p.place} ${p.when}.`, supporting: [] };
  }
  const last = sightings.reduce((a, b) => (b.at > a.at ? b : a));
  const cleared = readings.find((r) => r.at > last.at && r.value === 0);
  const until = !interp.subtype && cleared ? `; the count went back to zero at ${p.moment(cleared.at)}` : '';
  return {
    answer: `The last ${one} was seen in ${p.place} at ${p.moment(last.at)} (${sayAgo(interp.to - last.at)})${until}.`,
    supporting: [last],
  };
}

/**
 * "when was the first car seen this morning?": the earliest sighting in the range (a tracked
 * detection, or a count above zero). Anyone already there when the range began is said so, with
 * the first arrival after that, so the answer never makes a later arrival the first one seen.
 */
function answerFirstSeen(interp: Interpretation, detections: DetectionRecord[], readings: Reading[], p: Phrasing): CountAnswer {
  const vehicles = interp.metric === 'vehicles';
  const [one, many] = interp.subtype ? [`${interp.subtype} person`, `${interp.subtype} people`] : nouns(interp);
  const events = detections.filter(
    (d) =>
      inRange(d, interp.from, interp.to) &&
      (interp.subtype
        ? d.type === 'person' && d.subtype === interp.subtype
        : vehicles
          ? d.type === 'vehicle' && d.track_id && (d.count ?? 1) > 0
          : d.type === 'person'),
  );
  // a tracked object whose stay began before the range was already there
  const arrivedAt = (d: DetectionRecord) => d.at - dwellOf(d) * 1000;
  const tracks = firstPerTrack(events);
  const carriedTrack = tracks.find((d) => arrivedAt(d) < interp.from);
  const carried = interp.subtype ? undefined : readingAt(readings, interp.from);
  const carriedCount = carried && carried.at < interp.from && carried.value > 0 ? carried : undefined;
  const positive = interp.subtype ? [] : readingsOver(readings, interp.from, interp.to).filter((r) => r.at >= interp.from && r.value > 0);
  const candidates = [
    ...tracks.filter((d) => arrivedAt(d) >= interp.from).map((d) => ({ at: d.at, record: d })),
    ...positive.map((r) => ({ at: r.at, record: r.record })),
  ].sort((a, b) => a.at - b.at);
  const trackedArrival = tracks.find((d) => arrivedAt(d) >= interp.from);
  const firstAfter = carriedCount ? (trackedArrival ?? increasesOf(readingsOver(readings, interp.from, interp.to)).records[0]) : candidates[0]?.record;
  if (carriedCount || carriedTrack) {
    const already = carriedCount
      ? `${plural(carriedCount.value, one, many)} ${carriedCount.value === 1 ? 'was' : 'were'} already in ${p.place} when that began (counted at ${p.moment(carriedCount.at)})`
      : `a ${one} was already in ${p.place} when that began (there since ${p.moment(arrivedAt(carriedTrack!))})`;
    // the first reading inside the range is said too when it comes before the first rise, so the
    // answer always gives what the range's own readings show first
    const inside = carriedCount ? positive[0] : undefined;
    const firstInside =
      inside && (!firstAfter || inside.at < firstAfter.at)
        ? `; the first count inside it, at ${p.moment(inside.at)}, showed ${plural(inside.value, one, many)}`
        : '';
    const next = firstAfter ? `; the first to arrive after that came at ${p.moment(firstAfter.at)}` : '';
    const supporting = [carriedCount?.record ?? carriedTrack!, ...(inside && firstInside ? [inside.record] : []), ...(firstAfter ? [firstAfter] : [])];
    return { answer: `${capitalise(p.when)}, ${already}${firstInside}${next}.`, supporting };
  }
  // a count from long before the range (COUNT_HOLD_MS) says nothing about what was there when it
  // began: the first sighting is the first inside it, and the old count is said as what it is
  const old = interp.subtype ? undefined : expiredAt(readings, interp.from);
  const before =
    old && old.value > 0
      ? `; the last count before that, at ${p.moment(old.at)}, showed ${plural(old.value, one, many)}, too long before to tell what was there when it began`
      : '';
  if (!firstAfter) return { answer: `No ${one} was seen in ${p.place} ${p.when}${before}.`, supporting: old && before ? [old.record] : [] };
  return {
    answer: `The first ${one} ${p.when} was seen in ${p.place} at ${p.moment(firstAfter.at)} (${sayAgo(interp.asked_at - firstAfter.at)})${before}.`,
    supporting: [firstAfter],
  };
}

/** "when did someone last come in": the latest tracked arrival, or the latest rise of the counter. */
function answerLastArrival(interp: Interpretation, detections: DetectionRecord[], readings: Reading[], p: Phrasing): CountAnswer {
  const vehicles = interp.metric === 'vehicles';
  const [one] = nouns(interp);
  const events = detections.filter((d) => inRange(d, interp.from, interp.to) && (vehicles ? d.type === 'vehicle' && d.track_id : d.type === 'person'));
  let arrival: DetectionRecord | undefined;
  if (events.length > 0) {
    const firsts = firstPerTrack(events);
    arrival = firsts[firsts.length - 1];
  } else {
    const { records } = increasesOf(readingsOver(readings, interp.from, interp.to));
    arrival = records[records.length - 1];
    // a counter shows an arrival only as a rise; one that came as another left, or between sparse
    // readings, does not show: a later sighting is said too, so the answer is never older than one
    const sighted = readings.filter((r) => r.at >= interp.from && r.at <= interp.to && r.value > 0).pop();
    if (sighted && (!arrival || sighted.at > arrival.at)) {
      const rise = arrival
        ? `; the count last rose, the latest arrival it shows for certain, at ${p.moment(arrival.at)} (${sayAgo(interp.to - arrival.at)})`
        : '';
      return {
        answer: `The latest ${one} sighting in ${p.place} was at ${p.moment(sighted.at)} (${sayAgo(interp.to - sighted.at)})${rise}.`,
        supporting: [sighted.record, ...(arrival ? [arrival] : [])],
      };
    }
  }
  if (!arrival) return { answer: `No ${one} arrived in ${p.place} ${p.when}.`, supporting: [] };
  return {
    answer: `The latest ${one} arrived in ${p.place} at ${p.moment(arrival.at)} (${sayAgo(interp.to - arrival.at)}).`,
    supporting: [arrival],
  };
}

/** Falls in a count between consecutive readings: the departures a counter implies. */
function decreasesOf(readings: Reading[]): { total: number; records: DetectionRecord[] } {
  let total = 0;
  const records: DetectionRecord[] = [];
  for (let i = 1; i < readings.length; i++) {
    const fall = readings[i - 1].value - readings[i].value;
    if (fall > 0) {
      total += fall;
      records.push(readings[i].record);
    }
  }
  return { total, records };
}

/** Tracked objects whose last sighting in range is well before its end: they left, at that sighting. */
function trackedDepartures(interp: Interpretation, detections: DetectionRecord[]): DetectionRecord[] | undefined {
  const vehicles = interp.metric === 'vehicles';
  const events = detections.filter((d) => (vehicles ? d.type === 'vehicle' && d.track_id : d.type === 'person' && d.track_id));
  if (events.length === 0) return undefined;
  const last = new Map<string, DetectionRecord>();
  for (const d of [...events].sort((a, b) => a.at - b.at)) last.set(d.track_id!, d);
  return [...last.values()].filter((d) => inRange(d, interp.from, interp.to) && interp.asked_at - d.at > STILL_PRESENT_MS);
}

/** "how many people left since 9?", "has anyone left?" */
function answerDepartures(interp: Interpretation, detections: DetectionRecord[], readings: Reading[], p: Phrasing): CountAnswer {
  const [one, many] = nouns(interp);
  const tracked = trackedDepartures(interp, detections);
  const span = readingsOver(readings, interp.from, interp.to);
  // as for arrivals: the count's falls are departures too, so fewer tracks than falls is not the figure
  const falls = decreasesOf(span);
  let total: number;
  let supporting: DetectionRecord[];
  if (tracked && tracked.length >= netFallOf(span)) {
    total = tracked.length;
    supporting = tracked;
  } else {
    if (span.length === 0) return { answer: `I have no ${one} counts for ${p.place} ${p.when}, so I cannot say who left.`, supporting: [] };
    ({ total, records: supporting } = falls);
  }
  const sentence =
    (total === 0 ? `no ${many} left ${p.place} ${p.when}` : `${plural(total, one, many)} left ${p.place} ${p.when}`) +
    (interp.per_hour ? ratePerHour(total, interp, many) : '');
  const answer = interp.yes_no ? `${total > 0 ? 'Yes' : 'No'}, ${sentence}.` : `${capitalise(sentence)}.`;
  return { answer, supporting };
}

/** "when did the last car leave?": the latest fall of the counter, or the latest tracked object that left. */
function answerLastDeparture(interp: Interpretation, detections: DetectionRecord[], readings: Reading[], p: Phrasing): CountAnswer {
  const [one] = nouns(interp);
  const tracked = trackedDepartures(interp, detections);
  const { records } = decreasesOf(readingsOver(readings, interp.from, interp.to));
  const candidates = [...(tracked ?? []), ...records];
  if (candidates.length === 0) return { answer: `No ${one} left ${p.place} ${p.when}.`, supporting: [] };
  const latest = candidates.reduce((a, b) => (b.at > a.at ? b : a));
  return {
    answer: `The latest ${one} left ${p.place} at ${p.moment(latest.at)} (${sayAgo(interp.to - latest.at)}).`,
    supporting: [latest],
  };
}

/** Per tracked object in range: first and last sighting and the longest dwell reported. */
function staysOf(detections: DetectionRecord[], interp: Interpretation): Array<{ first: number; last: number; dwell: number; record: DetectionRecord }> {
  const vehicles = interp.metric === 'vehicles';
  const byTrack = new Map<string, { first: number; last: number; dwell: number; record: DetectionRecord }>();
  for (const d of detections) {
    if (!inRange(d, interp.from, interp.to) || d.type !== (vehicles ? 'vehicle' : 'person') || !d.track_id) continue;
    if (interp.subtype && d.subtype !== interp.subtype) continue;
    const stay = byTrack.get(d.track_id);
    const dwell = Math.max(dwellOf(d), stay ? (d.at - stay.first) / 1000 : 0);
    if (!stay) byTrack.set(d.track_id, { first: d.at - dwellOf(d) * 1000, last: d.at, dwell, record: d });
    else {
      stay.last = Math.max(stay.last, d.at);
      if (dwell >= stay.dwell) {
        stay.dwell = dwell;
        stay.record = d;
      }
    }
  }
  return [...byTrack.values()];
}

/**
 * "how long has that guy been hanging around": the stay of whoever has been there longest.
 * Every figure agrees with the scene's own count: a track is still there only when it was seen in
 * the last two minutes and no count since has fallen to zero, and how many are there now is the
 * count, never the number of recent tracks. A single sighting without a reported dwell says
 * nothing about a stay (it is not a stay of 0 seconds).
 */
function answerDwell(interp: Interpretation, detections: DetectionRecord[], readings: Reading[], snapshotValue: number, p: Phrasing): CountAnswer {
  const [one, many] = interp.subtype ? [`${interp.subtype} person`, `${interp.subtype} people`] : nouns(interp);
  const stays = staysOf(detections, interp);
  const nowReading = readingAt(readings, interp.to);
  const countNow = valueAt(readings, interp.to, p.isNowRange ? snapshotValue : undefined);
  const present = stays.filter((s) => interp.to - s.last <= STILL_PRESENT_MS && !readings.some((r) => r.at > s.last && r.at <= interp.to && r.value === 0));
  const presentNow = countNow === 0 ? [] : present;
  const measured = stays.filter((s) => s.dwell > 0);
  const longest = (list: typeof stays) => list.reduce((a, b) => (b.dwell > a.dwell ? b : a));
  const thereNow = (n: number) => `${plural(n, one, many)} ${n === 1 ? 'is' : 'are'} in ${p.place} now`;
  if (interp.arrived_at !== undefined) return answerArrivalStay(interp.arrived_at, stays, presentNow, [one, many], p);
  if (interp.ongoing && countNow === 0 && measured.length === 0) {
    // "how long has the person at the gate been there?" with nobody there: say so, never a stay
    const nobody = interp.metric === 'vehicles' ? `no ${many} are` : 'no one is';
    return {
      answer: `${capitalise(nobody)} in ${p.place} now (${p.moment(interp.to)}), so no stay is going on.`,
      supporting: nowReading ? [nowReading.record] : [],
    };
  }
  if (measured.length === 0) {
    const span = readingsOver(readings, interp.from, interp.to);
    const peak = peakOf(span, interp.from);
    const why = stays.length === 0 ? `no ${one} was tracked` : `no stay was tracked long enough to measure`;
    if (peak && peak.value > 0) {
      const now =
        interp.ongoing && countNow !== undefined
          ? ` ${capitalise(countNow === 0 ? `no ${many === 'people' ? 'one is' : `${many} are`} in ${p.place} now` : thereNow(countNow))}.`
          : '';
      return {
        answer: `The count shows ${many} in ${p.place} ${p.when} (up to ${peak.value} at once), but ${why}, so I cannot say how long anyone stayed.${now}`,
        supporting: [peak.reading.record],
      };
    }
    return { answer: `No tracked ${many} in ${p.place} ${p.when}, so I have no length of stay to report.`, supporting: [] };
  }
  if (interp.latest && measured.length > 0) {
    // "how long did the intruder stay?": the stay of the one seen last; still going on if the
    // track was seen in the last two minutes and the count has not fallen to zero since
    const s = measured.reduce((a, b) => (b.last > a.last ? b : a));
    const going = presentNow.includes(s);
    return {
      answer: going
        ? `The last ${one} tracked in ${p.place} ${p.when} has been there ${formatDwell(s.dwell)} so far (since ${p.moment(s.first)}, last seen at ${p.moment(s.last)}).`
        : `The last ${one} tracked in ${p.place} ${p.when} stayed ${formatDwell(s.dwell)} (from ${p.moment(s.first)} to ${p.moment(s.last)}).`,
      supporting: [s.record],
    };
  }
  if (interp.ongoing && presentNow.length > 0) {
    const s = longest(presentNow);
    // how many are there is the count when there is one, never more tracks than it shows
    const others = presentNow.length > 1 ? ` ${capitalise(thereNow(countNow ?? presentNow.length))}.` : '';
    return {
      answer: `The ${one} who has been in ${p.place} longest has been there ${formatDwell(s.dwell)} (since ${p.moment(s.first)}, last seen at ${p.moment(s.last)}).${others}`,
      supporting: [s.record],
    };
  }
  const s = longest(measured);
  const average = measured.reduce((sum, x) => sum + x.dwell, 0) / measured.length;
  const lead = !interp.ongoing
    ? ''
    : countNow === 0
      ? `${interp.metric === 'vehicles' ? `No ${many} are` : 'No one is'} in ${p.place} now, so no stay is going on. `
      : `No tracked ${one} is in ${p.place} now. `;
  return {
    answer: `${lead}${capitalise(plural(measured.length, `tracked ${one}`, `tracked ${many}`))} stayed in ${p.place} ${p.when}: on average ${formatDwell(average)}, the longest ${formatDwell(s.dwell)} (until ${p.moment(s.last)}).`,
    supporting: [s.record],
  };
}

/**
 * "how long has the person who came in at 10:20 been here?": the stay of the one track that arrived
 * then (give or take ARRIVAL_SLACK_MS), so far when it is still there. None or several arrivals
 * then is a question back, never a figure about other stays (docs/decisions.md, "Round H: scene questions").
 */
function answerArrivalStay(
  at: number,
  stays: ReturnType<typeof staysOf>,
  presentNow: ReturnType<typeof staysOf>,
  [one, many]: [string, string],
  p: Phrasing,
): CountAnswer {
  const then = stays.filter((s) => Math.abs(s.first - at) <= ARRIVAL_SLACK_MS);
  if (then.length !== 1) {
    const nearby = stays
      .filter((s) => s.first >= at - 60 * 60_000)
      .map((s) => p.moment(s.first))
      .slice(0, 5);
    const others = nearby.length ? ` Tracked arrivals near then: ${nearby.join(', ')}.` : '';
    const what =
      then.length === 0
        ? `No tracked ${one} arrived in ${p.place} at about ${p.moment(at)}`
        : `${capitalise(plural(then.length, `tracked ${one}`, `tracked ${many}`))} arrived in ${p.place} at about ${p.moment(at)}`;
    return { answer: '', supporting: [], ask: `${what}, so I cannot tell whose stay you mean.${others} Which arrival do you mean?` };
  }
  const s = then[0]!;
  const going = presentNow.includes(s);
  return {
    answer: going
      ? `The ${one} who arrived at ${p.moment(s.first)} has been in ${p.place} ${formatDwell(s.dwell)} so far (last seen at ${p.moment(s.last)}).`
      : `The ${one} who arrived at ${p.moment(s.first)} stayed in ${p.place} ${formatDwell(s.dwell)} (until ${p.moment(s.last)}) and is no longer there.`,
    supporting: [s.record],
  };
}

/**
 * "are there more people than usual right now?": now (or the range's average) against the
 * time-weighted average of the same time of day on the previous days that have readings.
 */
function answerVsUsual(
  interp: Interpretation,
  readings: Reading[],
  baseline: DetectionRecord[][],
  snapshotValue: number,
  p: Phrasing,
): CountAnswer & { direction?: 'up' | 'down' | 'flat'; sentence?: string } {
  const [one, many] = nouns(interp);
  const type = interp.metric === 'vehicles' ? 'vehicle' : 'person_count';
  const spans = interp.baseline ?? [];
  const usualValues: number[] = [];
  spans.forEach((span, i) => {
    const rs = readingsOf(baseline[i] ?? [], type);
    const avg = timeWeightedAverage(readingsOver(rs, span.from, span.to), span.from, span.to);
    if (avg !== undefined && rs.some((r) => r.at <= span.to)) usualValues.push(avg);
  });
  let value: number;
  let supporting: DetectionRecord[];
  let figure: string;
  if (interp.from === interp.to) {
    const current = answerCurrent(interp, readings, snapshotValue, p);
    if (current.value === undefined || current.expired) return current;
    value = current.value;
    supporting = current.supporting;
    figure = `${plural(value, one, many)} ${p.isNow ? (value === 1 ? 'is' : 'are') : value === 1 ? 'was' : 'were'} in ${p.place} ${p.when}`;
  } else {
    const span = readingsOver(readings, interp.from, interp.to);
    const avg = timeWeightedAverage(span, interp.from, interp.to);
    if (avg === undefined) return { answer: `I have no ${one} counts for ${p.place} ${p.when} to compare with usual.`, supporting: [] };
    value = avg;
    supporting = span.map((r) => r.record);
    figure = `on average ${formatNumber(avg)} ${many} were in ${p.place} ${p.when}`;
  }
  if (usualValues.length === 0) {
    return {
      answer: `I cannot say what is usual: there are no readings for ${p.place} at this time of day on the previous ${USUAL_BASELINE_DAYS} days. ${capitalise(figure)}.`,
      supporting,
    };
  }
  const usual = usualValues.reduce((a, b) => a + b, 0) / usualValues.length;
  const tolerance = Math.max(0.5, 0.1 * usual);
  const direction = value - usual > tolerance ? 'up' : usual - value > tolerance ? 'down' : 'same';
  const days = usualValues.length === 1 ? 'on the 1 earlier day with readings' : `over the ${usualValues.length} earlier days with readings`;
  const relation = direction === 'up' ? `more than usual` : direction === 'down' ? `fewer than usual` : 'about the usual number';
  const basis = `usual at this time of day is ${formatNumber(usual)} (the time-weighted average ${days} of the last ${USUAL_BASELINE_DAYS})`;
  const sentence = `${figure}, ${relation}: ${basis}`;
  const moved = direction === 'same' ? 'flat' : direction;
  if (interp.direction && interp.yes_no)
    return { answer: `${direction === interp.direction ? 'Yes' : 'No'}, ${sentence}.`, supporting, direction: moved, sentence };
  return { answer: `${capitalise(sentence)}.`, supporting, direction: moved, sentence };
}

/**
 * The yes or no of a question about both counts ("has the car park been emptying out?", "is it
 * busier than normal?" at a car park): yes when at least one count moved the way asked and none
 * the other way; no when none moved the way asked; otherwise no yes or no, both said plainly.
 */
function verdictOfBoth(asked: 'up' | 'down', moved: Array<'up' | 'down' | 'flat'>): 'Yes' | 'No' | undefined {
  const against = asked === 'up' ? 'down' : 'up';
  if (moved.includes(asked) && !moved.includes(against)) return 'Yes';
  if (!moved.includes(asked)) return 'No';
  return undefined;
}

/** "is it busier than normal for this time of day?" at a car park with neither named: both counts against usual. */
function answerBothVsUsual(
  interp: Interpretation,
  people: Reading[],
  vehicles: Reading[],
  baseline: DetectionRecord[][],
  scene: SceneSnapshot,
  p: Phrasing,
): CountAnswer {
  const a = answerVsUsual({ ...interp, metric: 'people' }, people, baseline, scene.people, p);
  const b = answerVsUsual({ ...interp, metric: 'vehicles' }, vehicles, baseline, scene.vehicles, p);
  const known = [a, b].filter((x) => x.direction !== undefined);
  const supporting = [...a.supporting, ...b.supporting];
  if (known.length === 0) return { answer: `${a.answer} ${b.answer}`, supporting };
  const sentences = known.map((x) => x.sentence!).join('; and ');
  const verdict =
    interp.direction && interp.yes_no
      ? verdictOfBoth(
          interp.direction,
          known.map((x) => x.direction!),
        )
      : undefined;
  if (verdict) return { answer: `${verdict}, ${sentences}.`, supporting };
  return {
    answer: `${interp.direction && interp.yes_no ? 'Partly: ' : ''}${interp.direction && interp.yes_no ? sentences : capitalise(sentences)}.`,
    supporting,
  };
}

/** "what happened this afternoon?": arrivals, the peak, vehicles and anything unusual, in one sentence. */
function answerSummary(
  interp: Interpretation,
  detections: DetectionRecord[],
  people: Reading[],
  vehicles: Reading[],
  scene: SceneSnapshot,
  p: Phrasing,
): CountAnswer {
  const supporting: DetectionRecord[] = [];
  const parts: string[] = [];
  if (interp.from === interp.to) {
    const n = valueAt(people, interp.to, p.isNow ? scene.people : undefined);
    const v = valueAt(vehicles, interp.to, p.isNow ? scene.vehicles : undefined);
    if (n === undefined && v === undefined) return { answer: `I have no readings for ${p.place} ${p.when}.`, supporting: [] };
    if (n !== undefined) parts.push(n === 0 ? 'no people' : plural(n, 'person', 'people'));
    if (v !== undefined && (v > 0 || vehicles.length > 0)) parts.push(v === 0 ? 'no vehicles' : plural(v, 'vehicle', 'vehicles'));
    const anomalies = p.isNow && scene.active_anomalies > 0 ? `; ${plural(scene.active_anomalies, 'anomaly is', 'anomalies are')} active` : '; nothing unusual';
    const seen = (n ?? 0) > 0 || (v ?? 0) > 0 || (p.isNow && scene.active_anomalies > 0);
    return { answer: withVerdict(interp, seen, `${capitalise(p.place)} ${p.isNow ? 'has' : 'had'} ${parts.join(' and ')} ${p.when}${anomalies}.`), supporting };
  }
  const peopleInterp = { ...interp, metric: 'people' as const };
  const arrivals = answerArrivals(peopleInterp, detections, people, p);
  const peak = peakOf(readingsOver(people, interp.from, interp.to), interp.from);
  const anyRecord = detections.some((d) => inRange(d, interp.from, interp.to));
  if (!peak && !anyRecord) return { answer: `I have no readings for ${p.place} ${p.when}, so I cannot say what happened.`, supporting: [] };
  let seen = (arrivals.total ?? 0) > 0 || (peak?.value ?? 0) > 0;
  parts.push(`${arrivals.total === 0 ? 'no people' : plural(arrivals.total ?? 0, 'person', 'people')} arrived`);
  if (peak && peak.value > 0) parts.push(`at most ${peak.value} at once (at ${p.moment(peak.at)})`);
  supporting.push(...arrivals.supporting);
  const vehicleSpan = readingsOver(vehicles, interp.from, interp.to);
  const sparseCars = vehicleSpan.length > 0 ? sparseVehiclesInSummary(interp, detections, vehicles, p) : undefined;
  if (sparseCars) {
    parts.push(sparseCars.text);
    seen ||= sparseCars.seen;
    supporting.push(...sparseCars.supporting);
  } else if (vehicleSpan.length > 0) {
    const cars = answerArrivals({ ...interp, metric: 'vehicles' }, detections, vehicles, p);
    parts.push(`${cars.total === 0 ? 'no vehicles' : plural(cars.total ?? 0, 'vehicle', 'vehicles')} came in`);
    seen ||= (cars.total ?? 0) > 0 || vehicleSpan.some((r) => r.value > 0);
    supporting.push(...cars.supporting);
  }
  const unusual = answerAnomalies({ ...interp, metric: 'anomalies', aggregate: 'list' }, detections, p);
  supporting.push(...unusual.supporting);
  const anomalyText =
    unusual.supporting.length === 0 ? 'nothing unusual' : lowerFirst(unusual.answer.replace(/\.$/, '').replace(` in ${p.place} ${p.when}`, ''));
  seen ||= unusual.supporting.length > 0;
  return { answer: withVerdict(interp, seen, `${capitalise(p.when)} in ${p.place}: ${parts.join(', ')}; ${anomalyText}.`), supporting };
}

/**
 * The summary's vehicles from untracked readings too far apart to show arrivals (answerSparseVehicles):
 * the most seen at once with its time, never a count of arrivals from the rises (docs/decisions.md,
 * "Before round T: scene questions"). Undefined when tracks or dense readings carry the arrivals.
 */
function sparseVehiclesInSummary(
  interp: Interpretation,
  detections: DetectionRecord[],
  vehicles: Reading[],
  p: Phrasing,
): { text: string; seen: boolean; supporting: DetectionRecord[] } | undefined {
  const sparse = answerSparseVehicles({ ...interp, metric: 'vehicles', yes_no: false }, detections, vehicles, p);
  if (!sparse) return undefined;
  const most = sparse.total ?? 0;
  if (most === 0) return { text: 'no vehicles seen (every vehicle reading showed 0)', seen: false, supporting: sparse.supporting };
  const at = sparse.supporting[0].at;
  return {
    text: `at most ${plural(most, 'vehicle', 'vehicles')} at once (at ${p.moment(at)}; the vehicle readings are too far apart to tell how many came in)`,
    seen: true,
    supporting: sparse.supporting,
  };
}

/** "any movement?", "anything happen since 9?": the overview after a yes (anyone or anything seen) or a no. */
function withVerdict(interp: Interpretation, seen: boolean, answer: string): string {
  // the sentence opens with a place or a time said as a phrase ("Since 09:00 in …", "Today in …"), never a name
  return interp.yes_no ? `${seen ? 'Yes' : 'No'}, ${answer.charAt(0).toLowerCase()}${answer.slice(1)}` : answer;
}

/** A tracked animal (or person): its first and last detection; an untracked detection is its own. */
interface Sighting {
  first: DetectionRecord;
  last: DetectionRecord;
}

function tracksOf(records: DetectionRecord[]): Sighting[] {
  const tracks = new Map<string, { first: DetectionRecord; last: DetectionRecord }>();
  for (const d of [...records].sort((a, b) => a.at - b.at)) {
    const key = d.track_id ? `track:${d.track_id}` : `det:${d.id}`;
    const t = tracks.get(key);
    if (t) t.last = d;
    else tracks.set(key, { first: d, last: d });
  }
  return [...tracks.values()];
}

/** "3 dog sightings", "4 animal sightings (3 dog, 1 cat)" */
function describeSightings(tracks: Sighting[], noun: string): string {
  const byKind = new Map<string, number>();
  for (const t of tracks) byKind.set(t.first.subtype ?? 'animal', (byKind.get(t.first.subtype ?? 'animal') ?? 0) + 1);
  const split = byKind.size > 1 ? ` (${[...byKind].map(([k, n]) => `${n} ${k}`).join(', ')})` : '';
  const only = byKind.size === 1 ? [...byKind.keys()][0] : noun;
  return `${plural(tracks.length, `${only} sighting`, `${only} sightings`)}${split}`;
}

function atOnce(tracks: Sighting[]): number {
  // a detection that counts its animals ("4 reindeer": a sandbox injection or another source) is that many at once
  const many = (t: Sighting) => Math.max(1, t.first.count ?? 1, t.last.count ?? 1);
  const edges = tracks
    .flatMap(
      (t) =>
        [
          [t.first.at, many(t)],
          [t.last.at, -many(t)],
        ] as const,
    )
    .sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let now = 0;
  let most = 0;
  for (const [, delta] of edges) most = Math.max(most, (now += delta));
  return most;
}

function latest(tracks: Sighting[]): number {
  return Math.max(...tracks.map((t) => t.last.at));
}

/**
 * Cats and dogs (metric animals). Each tracked animal is one sighting; the cameras do not tell
 * one dog from another, so "how many" is answered in sightings, with the most seen at once as
 * the floor on how many animals there were. "Was it just the cat?" is yes only when an animal
 * (of the kind named) was seen and no person was, by tracking or by the people count.
 */
function answerAnimals(interp: Interpretation, detections: DetectionRecord[], people: Reading[], p: Phrasing): CountAnswer {
  if (interp.aggregate === 'current') return answerAnimalsNow(interp, detections, p);
  if (interp.aggregate === 'dwell') return answerAnimalStay(interp, detections, p);
  const inSpan = detections.filter((d) => inRange(d, interp.from, interp.to));
  const kind = interp.subtype;
  const allAnimals = inSpan.filter((d) => d.type === 'animal');
  const asked = allAnimals.filter((d) => !kind || d.subtype === kind);
  const sightings = tracksOf(asked);
  const one = kind ?? 'animal';
  const supporting = asked;

  if (interp.aggregate === 'only') {
    const persons = inSpan.filter((d) => d.type === 'person');
    const counted = readingsOver(people, interp.from, interp.to).filter((r) => r.value > 0 && r.at >= interp.from - READING_FRESH_MS);
    const peopleSeen = persons.length > 0 || counted.length > 0;
    const mostPeople = Math.max(tracksOf(persons).length, ...counted.map((r) => r.value));
    const peopleText = `${plural(mostPeople, 'person was', 'people were')} seen too`;
    const evidence = [...persons, ...counted.map((r) => r.record)];
    if (sightings.length === 0) {
      const otherKind = tracksOf(allAnimals);
      const what = otherKind.length > 0 ? `, only ${describeSightings(otherKind, 'animal')}` : '';
      return {
        answer: `No, no ${one} was seen in ${p.place} ${p.when}${what}${peopleSeen ? `; ${peopleText}` : inSpan.length === 0 ? ': nothing was recorded' : ''}.`,
        supporting: [...allAnimals, ...evidence],
      };
    }
    if (peopleSeen) {
      return {
        answer: `No, not only animals: ${describeSightings(sightings, 'animal')} in ${p.place} ${p.when}, and ${peopleText}.`,
        supporting: [...supporting, ...evidence],
      };
    }
    return {
      answer: `Yes, only animals were seen in ${p.place} ${p.when}: ${describeSightings(sightings, 'animal')}, the latest at ${p.moment(latest(sightings))}, and no people.`,
      supporting,
    };
  }

  if (sightings.length === 0) {
    const none =
      inSpan.length === 0
        ? `nothing recorded shows ${kind ? `a ${kind}` : 'animals'} in ${p.place} ${p.when}`
        : `no ${kind ? animalPlural(kind) : 'animals'} were seen in ${p.place} ${p.when}`;
    return { answer: interp.yes_no ? `No, ${none}.` : capitalise(`${none}.`), supporting: [] };
  }
  const most = atOnce(sightings);
  const told = `${describeSightings(sightings, 'animal')} in ${p.place} ${p.when} (at most ${plural(most, one, kind ? animalPlural(kind) : 'animals')} at once), the latest at ${p.moment(latest(sightings))}`;
  if (interp.yes_no) return { answer: `Yes, there ${sightings.length === 1 ? 'was' : 'were'} ${told}.`, supporting };
  if (interp.aggregate === 'first_seen') {
    // "when was the cat first seen?": the earliest sighting, never the latest
    const earliest = Math.min(...sightings.map((t) => t.first.at));
    return {
      answer: `The first ${one} sighting in ${p.place} ${p.when} was at ${p.moment(earliest)} (${describeSightings(sightings, 'animal')} in all, the latest at ${p.moment(latest(sightings))}).`,
      supporting,
    };
  }
  if (interp.aggregate === 'presence') {
    // "what time was the cat seen?": the latest sighting first
    return {
      answer: `The latest ${one} sighting in ${p.place} ${p.when} was at ${p.moment(latest(sightings))} (${describeSightings(sightings, 'animal')} in all).`,
      supporting,
    };
  }
  // a count: the same animal coming back is a new sighting
  return {
    answer: `There ${sightings.length === 1 ? 'was' : 'were'} ${told}; the cameras do not tell one ${one === 'animal' ? 'animal' : one} from another, so the same one coming back counts again.`,
    supporting,
  };
}

/** A sighting this close before the cameras' latest reading is too recent to say the animal left. */
const RECENT_SIGHTING_MS = 30 * 60_000;

/** "a cat", "2 dogs", "1 animal (1 cat)", "3 animals (2 dog, 1 cat)". */
function animalsText(tracks: Sighting[], kind: string | undefined, article: boolean): string {
  const one = kind ?? 'animal';
  if (tracks.length === 1 && article) return `a ${kind ?? tracks[0].first.subtype ?? 'animal'}`;
  const byKind = new Map<string, number>();
  for (const t of tracks) byKind.set(t.first.subtype ?? 'animal', (byKind.get(t.first.subtype ?? 'animal') ?? 0) + 1);
  const split = !kind ? ` (${[...byKind].map(([k, n]) => `${n} ${k}`).join(', ')})` : '';
  return `${plural(tracks.length, one, `${one}s`)}${split}`;
}

/**
 * "is the dog in the yard now?", "how many cats are here?": the cameras' latest reading (the latest
 * detection of the scene) and the latest sighting. Yes only when the animal is in a reading that is
 * current; a sighting before the latest reading does not say the animal is still there, and one too
 * recent to say it left is said as such (docs/decisions.md, "Before round L: scene questions").
 */
function answerAnimalsNow(interp: Interpretation, detections: DetectionRecord[], p: Phrasing): CountAnswer {
  const now = interp.to;
  const upTo = detections.filter((d) => d.at <= now);
  const kind = interp.subtype;
  const one = kind ?? 'animal';
  const many = kind ? animalPlural(kind) : 'animals';
  const counting = !interp.yes_no;
  if (upTo.length === 0) {
    return { answer: `I can't tell: nothing has been recorded in ${p.place} ${p.when}, so there is no reading to go by.`, supporting: [] };
  }
  const reading = Math.max(...upTo.map((d) => d.at));
  const readingText = `the cameras' latest reading is from ${p.moment(reading)} (${sayAgo(now - reading)})`;
  const fresh = now - reading <= READING_FRESH_MS;
  const asked = upTo.filter((d) => d.type === 'animal' && (!kind || d.subtype === kind));
  const sightings = tracksOf(asked);
  if (sightings.length === 0) {
    return counting
      ? { answer: `There are 0 ${many} in the cameras' latest reading of ${p.place}, and none was seen ${p.when}; ${readingText}.`, supporting: [] }
      : { answer: `No ${one} has been seen in ${p.place} ${p.when}; ${readingText}.`, supporting: [] };
  }
  if (!fresh) {
    // no current reading (tests/heldout/scene-animals.json asks these back): asked, with what is known
    const seen = sightings.length ? `; the latest ${one} sighting was at ${p.moment(latest(sightings))}, ${sayAgo(now - latest(sightings))}` : '';
    return {
      answer: '',
      ask: `The cameras' latest reading of ${p.place} is from ${p.moment(reading)} (${sayAgo(now - reading)}), so I can't tell about now${seen}. Ask about a span, e.g. "was the ${one} seen in the last hour?"`,
      supporting: [],
    };
  }
  const inReading = sightings.filter((t) => reading - t.last.at <= STILL_PRESENT_MS);
  const supporting = newestFirst(inReading.length ? inReading.map((t) => t.last) : asked).slice(0, 1);
  const last = latest(sightings);
  if (inReading.length > 0) {
    const who = animalsText(inReading, kind, !counting);
    const verb = inReading.length === 1 ? 'is' : 'are';
    return {
      answer: `${counting ? capitalise(who) : `Yes, ${who}`} ${verb} in the cameras' latest reading of ${p.place}, at ${p.moment(reading)} (${sayAgo(now - reading)}).`,
      supporting: newestFirst(inReading.map((t) => t.last)),
    };
  }
  const seen = `the latest ${one} sighting was at ${p.moment(last)}, ${sayAgo(now - last)}`;
  if (reading - last <= RECENT_SIGHTING_MS) {
    return {
      answer: `${capitalise(one === 'animal' ? 'an animal' : `a ${one}`)} was last seen in ${p.place} at ${p.moment(last)}, ${sayAgo(now - last)}; I can't tell ${counting ? `how many ${many} are there now` : 'whether it is still there'} (${readingText}).`,
      supporting,
    };
  }
  return counting
    ? { answer: `There are 0 ${many} in the cameras' latest reading of ${p.place}; ${seen}, and ${readingText}.`, supporting }
    : { answer: `No ${one} has been seen in ${p.place} since ${p.moment(last)} (${seen}); ${readingText}.`, supporting };
}

/**
 * "how long has the cat been hanging around?": the latest tracked animal's stay as its tracker
 * counts it (dwell_s), with when it began; untracked sightings say only the first and the last in
 * the span, said as such, never a stay the data does not show.
 */
function answerAnimalStay(interp: Interpretation, detections: DetectionRecord[], p: Phrasing): CountAnswer {
  const now = interp.to;
  const kind = interp.subtype;
  const one = kind ?? 'animal';
  const asked = detections.filter((d) => d.type === 'animal' && d.at <= now && d.at >= interp.from && (!kind || d.subtype === kind));
  if (asked.length === 0) return { answer: `No ${one} has been seen in ${p.place} ${p.when}, so there is no stay to tell.`, supporting: [] };
  const sightings = tracksOf(asked);
  const reading = Math.max(...detections.filter((d) => d.at <= now).map((d) => d.at));
  const track = sightings.reduce((a, b) => (b.last.at > a.last.at ? b : a));
  const still = reading - track.last.at <= STILL_PRESENT_MS && now - reading <= READING_FRESH_MS;
  const tail = still ? '' : `; nothing says whether it is still there (the cameras' latest reading is from ${p.moment(reading)})`;
  const what = `the ${kind ?? track.first.subtype ?? 'animal'}`;
  if (track.last.track_id && dwellOf(track.last) > 0) {
    const since = track.last.at - dwellOf(track.last) * 1000;
    return {
      answer: `${capitalise(what)} seen at ${p.moment(track.last.at)} (${sayAgo(now - track.last.at)}) had been tracked for ${formatDwell(dwellOf(track.last))}, since ${p.moment(since)}${tail}.`,
      supporting: [track.last],
    };
  }
  const first = Math.min(...sightings.map((t) => t.first.at));
  return {
    answer:
      `${capitalise(one === 'animal' ? 'animals were' : `${one}s were`)} first seen in ${p.place} ${p.when} at ${p.moment(first)} and last at ${p.moment(track.last.at)}; ` +
      `the sightings do not say it stayed in between${tail}.`,
    supporting: newestFirst(asked).slice(0, MAX_ANSWER_DETECTIONS),
  };
}

/**
 * "how many cars were there at 8:30 yesterday?": the other half of the day too, since the
 * question did not say which (see the interpreter's otherClockReading).
 */
function withOtherReading(interp: Interpretation, answer: string, history: DetectionRecord[], _p: Phrasing): string {
  const other = interp.other_reading!;
  const type = interp.metric === 'vehicles' ? 'vehicle' : 'person_count';
  const reading = readingAt(readingsOf(history, type), other.at);
  const [one, many] = nouns(interp);
  const value = reading ? plural(reading.value, one, many) : `no ${one} count`;
  return `${answer.replace(/\.$/, '')}; at ${other.label}, the other time of day you may mean, ${reading ? `there were ${value}` : 'there is no count'}.`;
}

/**
 * Which way two sides of a comparison went, and the figures that say so: the figure the question
 * names (Interpretation.compare_by) decides alone; with none named the average and the peak must
 * agree (docs/decisions.md, "Round K: scene questions").
 */
function compareDirection(
  interp: Interpretation,
  a: { value: number; peak?: number },
  b: { value: number; peak?: number },
): { direction: 'up' | 'down' | 'same' | 'mixed'; measure: string } {
  const dir = (x: number, y: number, tolerance: number): 'up' | 'down' | 'same' => (x - y > tolerance ? 'up' : y - x > tolerance ? 'down' : 'same');
  let direction: 'up' | 'down' | 'same' | 'mixed';
  let measure: string;
  if (a.peak === undefined || b.peak === undefined) {
    direction = dir(a.value, b.value, 0.5);
    measure = '';
  } else {
    // a figure the question names is compared as it is (a difference of one counts); unnamed, both must agree within a tenth
    const named = interp.compare_by;
    const byAverage = dir(a.value, b.value, named === 'average' ? 0.05 : Math.max(0.5, 0.1 * Math.max(a.value, b.value)));
    const byPeak = dir(a.peak, b.peak, named === 'peak' ? 0.5 : Math.max(0.5, 0.1 * Math.max(a.peak, b.peak)));
    direction = named
      ? named === 'peak'
        ? byPeak
        : byAverage
      : byAverage === byPeak
        ? byAverage
        : byAverage === 'same'
          ? byPeak
          : byPeak === 'same'
            ? byAverage
            : 'mixed';
    const avg = `on average ${formatNumber(a.value)} against ${formatNumber(b.value)}`;
    const most = `at most ${a.peak} at once against ${b.peak}`;
    measure = named
      ? named === 'peak'
        ? ` by the most at once (${most}; ${avg})`
        : ` on average (${avg}; ${most})`
      : direction === 'mixed'
        ? ` (${avg}, but ${most})`
        : byAverage === byPeak
          ? ` (${avg}; ${most})`
          : byAverage === 'same'
            ? ` by the most at once (${most}; ${avg}, about the same)`
            : ` on average (${avg}; ${most}, about the same)`;
  }
  return { direction, measure };
}

/**
 * "compare this morning with yesterday morning": each time's figures side by side, the average
 * (time-weighted) and the most at once for a span, the count for a moment, and which is higher.
 * The measure that decides is said (docs/decisions.md, "Scene questions: round C"): for a moment,
 * the counts (any difference is one); for spans, the average and the peak, each against its own
 * threshold (the average: 10% or half a person or vehicle, the noise of a time-weighted mean; the
 * peak: 10% and at least one). When one is about the same, the other decides; when they point
 * opposite ways, there is no yes or no.
 */
function answerCompare(
  interp: Interpretation,
  readings: Reading[],
  otherReadings: Reading[],
  p: Phrasing,
): CountAnswer & { direction?: 'up' | 'down' | 'flat'; sentence?: string } {
  const [one, many] = nouns(interp);
  const other = interp.compare_with!;
  type Side = { value: number; peak?: number; text: string; records: DetectionRecord[] };
  const figures = (rs: Reading[], from: number, to: number, label: string): Side | undefined => {
    if (from === to) {
      const r = readingAt(rs, to);
      return r ? { value: r.value, text: `${label}: ${plural(r.value, one, many)}`, records: [r.record] } : undefined;
    }
    const span = readingsOver(rs, from, to);
    const average = timeWeightedAverage(span, from, to);
    const peak = peakOf(span, from);
    if (average === undefined || !peak) return undefined;
    return {
      value: average,
      peak: peak.value,
      text: `${label}: on average ${formatNumber(average)} ${many}, at most ${peak.value} at once (at ${formatMoment(peak.at, interp.time_zone, interp.asked_at)})`,
      records: [peak.reading.record],
    };
  };
  const a = figures(readings, interp.from, interp.to, capitalise(p.when));
  const b = figures(otherReadings, other.from, other.to, other.label);
  if (!a || !b) {
    const missing = !a ? p.when : other.label;
    return {
      answer: `I cannot compare: there are no ${one} counts for ${p.place} ${missing}.${a ? ` ${a.text}.` : b ? ` ${capitalise(b.text)}.` : ''}`,
      supporting: [...(a?.records ?? []), ...(b?.records ?? [])],
    };
  }
  const { direction, measure } = compareDirection(interp, a, b);
  const verdict =
    direction === 'up'
      ? `more ${many} ${p.when}${measure}`
      : direction === 'down'
        ? `fewer ${many} ${p.when}${measure}`
        : direction === 'mixed'
          ? `neither clearly more nor fewer${measure}`
          : `about the same${measure}`;
  const sentence = `${a.text}; ${b.text} — ${verdict}`;
  const moved = direction === 'same' || direction === 'mixed' ? 'flat' : direction;
  if (interp.yes_no && interp.direction) {
    if (direction === 'mixed') return { answer: `Partly: ${sentence}.`, supporting: [...a.records, ...b.records], sentence: `in ${p.place}: ${sentence}` };
    return {
      answer: `${direction === interp.direction ? 'Yes' : 'No'}. ${sentence}.`,
      supporting: [...a.records, ...b.records],
      direction: moved,
      sentence: `in ${p.place}: ${sentence}`,
    };
  }
  return {
    answer: `In ${p.place}: ${sentence}.`,
    supporting: [...a.records, ...b.records],
    ...(direction === 'mixed' ? {} : { direction: moved }),
    sentence: `in ${p.place}: ${sentence}`,
  };
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** "compare this morning with yesterday" asked of people and vehicles both. */
function answerBothCompare(interp: Interpretation, people: Reading[], vehicles: Reading[], baseline: DetectionRecord[][], p: Phrasing): CountAnswer {
  // "compare this morning with yesterday" at a car park: people and vehicles both
  const parts = (['people', 'vehicles'] as const).map((metric) =>
    answerCompare(
      { ...interp, metric, yes_no: false },
      metric === 'vehicles' ? vehicles : people,
      readingsOf(baseline[0] ?? [], metric === 'vehicles' ? 'vehicle' : 'person_count'),
      p,
    ),
  );
  const supporting = parts.flatMap((r) => r.supporting);
  // "was it busier …?" there: yes or no only when the two counts agree (as for trends)
  const known = parts.filter((r) => r.sentence !== undefined);
  const moved = parts.map((r) => r.direction).filter((d): d is 'up' | 'down' | 'flat' => d !== undefined);
  const verdict = interp.direction && interp.yes_no && known.length > 0 && moved.length === known.length ? verdictOfBoth(interp.direction, moved) : undefined;
  return verdict
    ? { answer: `${verdict}, ${known.map((r) => r.sentence).join('; and ')}.`, supporting }
    : interp.direction && interp.yes_no && known.length > 0
      ? { answer: `Partly: ${known.map((r) => r.sentence).join('; and ')}.`, supporting }
      : { answer: parts.map((r) => r.answer).join(' '), supporting };
}

/** A question about one count (people or vehicles, or both for "activity"), by its aggregate. */
function answerCountAggregate(
  interp: Interpretation,
  detections: DetectionRecord[],
  counted: Reading[],
  people: Reading[],
  vehicles: Reading[],
  baseline: DetectionRecord[][],
  scene: SceneSnapshot,
  snapshotValue: number,
  p: Phrasing,
): CountAnswer {
  let result: CountAnswer;
  switch (interp.aggregate) {
    case 'minimum':
      result = answerMinimum(interp, counted, scene, p);
      break;
    case 'threshold':
      result = answerThreshold(interp, detections, counted, scene, snapshotValue, p);
      break;
    case 'last_seen':
      result = answerLastSeen(interp, detections, counted, snapshotValue, p);
      break;
    case 'first_seen':
      result = answerFirstSeen(interp, detections, counted, p);
      break;
    case 'last_arrival':
      result = answerLastArrival(interp, detections, counted, p);
      break;
    case 'departures':
      result = answerDepartures(interp, detections, counted, p);
      break;
    case 'last_departure':
      result = answerLastDeparture(interp, detections, counted, p);
      break;
    case 'dwell':
      result = answerDwell(interp, detections, counted, snapshotValue, p);
      break;
    case 'vs_usual':
      result =
        interp.metric === 'activity'
          ? answerBothVsUsual(interp, people, vehicles, baseline, scene, p)
          : answerVsUsual(interp, counted, baseline, snapshotValue, p);
      break;
    case 'summary':
      result = answerSummary(interp, detections, people, vehicles, scene, p);
      break;
    case 'presence':
      result =
        interp.metric === 'activity'
          ? answerEmptyOfAll(interp, detections, people, vehicles, scene, p)
          : answerPresence(interp, detections, counted, snapshotValue, p);
      break;
    case 'trend':
      result =
        interp.metric === 'activity'
          ? answerBothTrends(interp, people, vehicles, p)
          : interp.since_peak
            ? answerTrendSincePeak(interp, counted, p)
            : answerTrend(interp, counted, p);
      if (interp.trend_wide && /^I have (too few|no) /.test(result.answer)) result = widenedTrend(interp, baseline[0] ?? []) ?? result;
      break;
    case 'peak': {
      const r = answerPeak(interp, counted, p);
      result = { ...r, people: interp.metric === 'people' ? r.value : undefined };
      if (interp.vehicle_peak_too) result = withVehiclePeak(interp, result, vehicles, p);
      break;
    }
    case 'average': {
      const r = answerAverage(interp, counted, p);
      result = { ...r, people: interp.metric === 'people' ? r.value : undefined };
      break;
    }
    case 'arrivals':
      result = interp.arrival_minute
        ? answerArrivalMinute(interp, counted, readingsOf(baseline[0] ?? [], interp.metric === 'vehicles' ? 'vehicle' : 'person_count'), p)
        : (answerSparseVehicles(interp, detections, counted, p) ?? answerArrivals(interp, detections, counted, p));
      break;
    case 'compare':
      result = answerCompare(interp, counted, readingsOf(baseline[0] ?? [], interp.metric === 'vehicles' ? 'vehicle' : 'person_count'), p);
      break;
    default: {
      const r = answerCurrent(interp, counted, snapshotValue, p);
      result = { ...r, people: interp.metric === 'people' ? r.value : undefined };
    }
  }
  return result;
}

/**
 * "how many trucks": what the answer says of the vehicle kinds the cameras cannot tell apart; also
 * said after the last reading of an offline camera (src/org/scenes/scene.service.ts).
 */
export function vehicleKindsNote(interp: Pick<Interpretation, 'aggregate' | 'vehicle_kinds'>): string {
  // "how many trucks": the count is of every vehicle, and the answer says so (docs/decisions.md, "Scene questions: the second round")
  const kinds = interp.vehicle_kinds!.map((k) => `"${k}"`).join(' and ');
  const bound =
    interp.aggregate === 'first_seen'
      ? `so that is the first vehicle of any kind: the first ${kinds} came then or later`
      : interp.aggregate === 'last_seen' || interp.aggregate === 'last_arrival'
        ? `so that is the last vehicle of any kind: the last ${kinds} came then or earlier`
        : interp.aggregate === 'last_departure'
          ? `so that is the last vehicle of any kind to leave: the last ${kinds} left then or earlier`
          : interp.aggregate === 'threshold'
            ? `so the ${kinds} alone were never more than that figure of every vehicle`
            : 'so that figure is every vehicle';
  return `The cameras count vehicles of every kind together and cannot tell ${kinds} from other vehicles, ${bound}.`;
}

/** "the guy by the gate": the camera does not tell where in the scene one person stands (Interpretation.landmark). */
function landmarkNote(interp: Interpretation): string {
  const place = describeLocation(interp.location);
  return `The camera does not tell where in the ${place} a person stands, so this is for everyone in the ${place}, not only by the ${interp.landmark}.`;
}

/**
 * "how many people are here today": the arrivals over the day, said as what was counted, and the
 * latest count with its time (not "now", which a camera gone quiet could not claim).
 */
function presentTooNote(interp: Interpretation, readings: Reading[], p: Phrasing): string {
  const [many, who] = interp.metric === 'vehicles' ? ['vehicles', 'one that'] : ['people', 'someone who'];
  const counted = `That counts ${many} coming in over that time (${who} came in twice counts twice)`;
  const last = lastReadingBefore(readings, interp.to);
  return last && last.at >= interp.from ? `${counted}; the latest count, at ${p.moment(last.at)}, was ${last.value}.` : `${counted}.`;
}

/** "the boarding lane": the camera counts the whole scene, not a part of it (Interpretation.sub_area). */
export function subAreaNote(interp: Pick<Interpretation, 'location' | 'sub_area'>): string {
  const place = describeLocation(interp.location);
  return `This is for the whole ${place}: the camera does not count the ${interp.sub_area} apart.`;
}

/**
 * "the first stray dog": the camera tells a dog, not a stray one (Interpretation.animal_modifier); a
 * "no" carries over to the strays, a "yes" does not, so it is asked back with the figure.
 */
function withAnimalModifier(interp: Interpretation, result: CountAnswer): CountAnswer {
  const kind = interp.subtype ?? 'animal';
  const cannot = `The camera cannot tell a ${interp.animal_modifier} ${kind} from any other ${kind}`;
  if (/^Yes\b/.test(result.answer)) {
    const figure = result.answer.replace(/^Yes,\s*/, '').replace(/\.$/, '');
    return { ...result, ask: `For every ${kind} seen: ${figure}. ${cannot}, so I cannot say whether it was a ${interp.animal_modifier} one.` };
  }
  return { ...result, answer: `${result.answer} ${cannot}, so this is for every ${kind} seen.` };
}

/** An answer that counted no vehicles at the moment or span asked about (not a count gone stale). */
const NO_VEHICLES = /^(There (are|were) no vehicles in |No vehicles arrived in )/;

function withVehicleKinds(interp: Interpretation, result: CountAnswer): CountAnswer {
  if (interp.aggregate === 'threshold' && !result.ask && !/^No\b/.test(result.answer)) return vehicleKindsThresholdAsk(interp, result);
  // "any buses at the stand now?" with no vehicles counted: no vehicle of any kind, so no bus either
  const none = interp.any_of_kind && !result.ask && NO_VEHICLES.test(result.answer);
  const answer = none ? `No, ${result.answer[0].toLowerCase()}${result.answer.slice(1)}` : result.answer;
  return { ...result, answer: `${answer} ${vehicleKindsNote(interp)}` };
}

/**
 * "more than 10 vans?" where vehicles of every kind went over it: only the "no" carries over to the
 * kind, so anything else is asked back with the figure (docs/decisions.md, "Round N: scene questions").
 */
function vehicleKindsThresholdAsk(interp: Interpretation, result: CountAnswer): CountAnswer {
  const kinds = interp.vehicle_kinds!.map((k) => `"${k}"`).join(' and ');
  const figure = result.answer.replace(/^Yes,\s*/, '').replace(/\.$/, '');
  return {
    ...result,
    ask: `For vehicles of every kind together: ${figure}. I cannot tell ${kinds} from other vehicles, so I cannot say whether the ${kinds} alone did; ask how many vehicles there were.`,
  };
}

/** "busiest" where cars park: the vehicles' peak over the same span, beside the people's (Interpretation.vehicle_peak_too). */
function withVehiclePeak(interp: Interpretation, result: CountAnswer, vehicles: Reading[], p: Phrasing): CountAnswer {
  const peak = peakOf(readingsOver(vehicles, interp.from, interp.to), interp.from);
  if (!peak) return { ...result, answer: `${result.answer} No vehicle counts were recorded then.` };
  const said = peak.value === 0 ? 'there were no vehicles' : `the most at once were ${peak.value}, at ${p.moment(peak.at)}`;
  return { ...result, answer: `${result.answer} Of vehicles, ${said}.`, supporting: [...result.supporting, peak.reading.record] };
}

/** The count readings a peak is taken from: people, vehicles, or the counted kind asked about. */
function peakReadingsOf(interp: Interpretation, detections: DetectionRecord[]): Reading[] {
  if (interp.metric !== 'objects') return readingsOf(detections, interp.metric === 'vehicles' ? 'vehicle' : 'person_count');
  return detections
    .filter((d) => d.type === interp.kind && typeof d.count === 'number')
    .map((d) => ({ at: d.at, value: d.count!, record: d }))
    .sort((a, b) => a.at - b.at);
}

/**
 * A peak over the window with no time of its own: today's so far is said too when it is higher,
 * with its own span, so "the most bikes at once" is never only the last 15 minutes' (Interpretation.day_peak).
 */
function withDayPeak(interp: Interpretation, result: CountAnswer, detections: DetectionRecord[], today: DetectionRecord[], p: Phrasing): CountAnswer {
  const day = interp.day_peak!;
  const inWindow = peakOf(readingsOver(peakReadingsOf(interp, detections), interp.from, interp.to), interp.from);
  const sofar = peakOf(readingsOver(peakReadingsOf(interp, today), day.from, day.to), day.from);
  if (!sofar || sofar.value <= (inWindow?.value ?? 0)) return result;
  const [one, many] = interp.metric === 'objects' ? kindNouns(interp) : nouns(interp);
  return {
    ...result,
    answer: `${result.answer} Today so far the most at once was ${plural(sofar.value, one, many)}, at ${p.moment(sofar.at)}.`,
    supporting: [...result.supporting, sofar.reading.record],
  };
}

function verdictOf(answer: string): string {
  return /^(Yes|No)\b/.exec(answer)?.[1] ?? '';
}

/** The figures of an answer without its clock times and dates ("Yes, 41 (at 17:30) …" → "yes 41"). */
function figuresOf(answer: string): string {
  const verdict = verdictOf(answer);
  const numbers =
    answer
      .replace(/\b\d{1,2}:\d{2}\b/g, '')
      .replace(/\b[A-Z][a-z]{2} \d{1,2}\b/g, '')
      .match(/\d+(?:\.\d+)?/g) ?? [];
  return `${verdict} ${numbers.join(' ')}`;
}

/**
 * "more than 40 at any point this afternoon?" asked after 17:00: the afternoon read to 17:00 and to
 * 18:00 (Interpretation.late_end). When the yes or no, or the figures, differ, the question is asked
 * back with both, since either end is what people mean (docs/decisions.md, "Round L: scene questions").
 */
function withLateEnd(interp: Interpretation, result: CountAnswer, late: DetectionRecord[], scene: SceneSnapshot): CountAnswer {
  const span = interp.late_end!;
  const end = (t: number) => formatClock(t, interp.time_zone);
  const range_label = interp.range_label.replace(`to ${end(interp.to)}`, `to ${end(span.to)}`);
  const wide = answerQuery({ ...interp, late_end: undefined, baseline: undefined, from: span.from, to: span.to, range_label }, late, scene);
  // a yes or no decides by itself; a figure asked for (a peak) by its figures
  const same = interp.yes_no ? verdictOf(wide.answer) === verdictOf(result.answer) : figuresOf(wide.answer) === figuresOf(result.answer);
  // no figures over the longer span (its history not given): nothing to weigh
  const told = interp.yes_no ? verdictOf(wide.answer) : figuresOf(wide.answer).trim();
  if (wide.ask || !told || same) return result;
  const phrase = interp.time_phrase ?? 'that part of the day';
  return {
    ...result,
    ask: `The answer depends on when "${phrase}" ends: to ${end(interp.to)}, ${result.answer} To ${end(span.to)}, ${wide.answer} Ask with the hours, e.g. "between ${end(interp.from)} and ${end(span.to)}".`,
  };
}

/** detections = the history rows of the scene's location in [from - lookback, to] as the service loads them (ascending by at). Pure function. */
export function answerQuery(
  interp: Interpretation,
  detections: DetectionRecord[],
  scene: SceneSnapshot,
  /** vs_usual: the history of each of interp.baseline's spans, in the same order */
  baseline: DetectionRecord[][] = [],
): QueryAnswer {
  const p = phrasingOf(interp);
  const people = readingsOf(detections, 'person_count');
  const vehicles = readingsOf(detections, 'vehicle');
  const counted = interp.metric === 'vehicles' ? vehicles : people;
  const snapshotValue = interp.metric === 'vehicles' ? scene.vehicles : scene.people;

  let result: CountAnswer;
  if (interp.metric === 'activity' && interp.aggregate === 'compare') {
    result = answerBothCompare(interp, people, vehicles, baseline, p);
  } else
    switch (interp.metric) {
      case 'anomalies':
        result =
          interp.aggregate === 'last_seen'
            ? answerLastSeen(interp, detections, people, 0, p)
            : interp.aggregate === 'first_seen'
              ? answerFirstSeen(interp, detections, people, p)
              : answerAnomalies(interp, detections, p);
        break;
      case 'animals':
        result = answerAnimals(interp, detections, people, p);
        break;
      case 'objects':
        result = answerKindQuestion(interp, detections, scene, p);
        break;
      case 'crowd_density':
        result = interp.aggregate === 'minimum' ? answerMinimum(interp, people, scene, p) : answerCrowd(interp, people, scene, p);
        break;
      default:
        result = answerCountAggregate(interp, detections, counted, people, vehicles, baseline, scene, snapshotValue, p);
    }

  if (interp.other_reading && (interp.aggregate === 'current' || interp.aggregate === 'presence')) {
    result = { ...result, answer: withOtherReading(interp, result.answer, baseline[0] ?? [], p) };
  }

  if (interp.vehicle_kinds?.length) result = withVehicleKinds(interp, result);
  if (interp.landmark && !result.ask) result = { ...result, answer: `${result.answer} ${landmarkNote(interp)}` };
  if (interp.sub_area && !result.ask) result = { ...result, answer: `${result.answer} ${subAreaNote(interp)}` };
  if (interp.present_too && !result.ask) result = { ...result, answer: `${result.answer} ${presentTooNote(interp, counted, p)}` };
  if (interp.animal_modifier && !result.ask) result = withAnimalModifier(interp, result);
  if (interp.day_peak) result = withDayPeak(interp, result, detections, baseline[0] ?? [], p);
  if (interp.late_end && !result.ask) result = withLateEnd(interp, result, baseline[0] ?? [], scene);

  // Density at the moment the answer is about; otherwise at the end of the range.
  const peopleAtEnd = valueAt(people, interp.to, p.isNow ? scene.people : 0) ?? 0;
  const crowdDensity = roundDensity(result.people ?? peopleAtEnd, scene.capacity);
  const anomalyFlag = detections.some((d) => inRange(d, interp.from, interp.to) && isAnomalousPerson(d)) || (p.isNow && scene.active_anomalies > 0);

  return {
    answer: result.answer,
    detections: newestFirst(result.supporting),
    crowd_density: crowdDensity,
    anomaly_flag: anomalyFlag,
    ...(result.ask ? { ask: result.ask } : {}),
  };
}
