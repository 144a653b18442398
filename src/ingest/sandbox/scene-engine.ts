/**
 * The machinery every sandbox scenario shares. Time is cut into one-hour buckets; each bucket's
 * activity (who arrives, how long they stay, doors, motion) is drawn from a random stream seeded by
 * (seed, scenario, source, bucket). A stay may run past its bucket, so answering an interval also
 * generates a bounded look-back of earlier buckets. Detections are then derived from that activity
 * for exactly the asked interval, so the answer never depends on how time was sliced or on what was
 * asked before (the small bucket cache only saves work).
 */
import type { DetectionInput, DetectionType } from '../../platform/kinds/index.ts';
import { addDays, formatDateKey, isWeekend, type LocalDate } from '../../platform/time/index.ts';
import { LocalSpan, LocalTime } from './local-time.ts';
import { hashKey, hashUnit, Rng } from './seeded-random.ts';
import type { ScenarioGenerator, ScenarioName } from './scenario-types.ts';

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;

/** One person, vehicle or animal (cat, dog) in view from arriveAt (inclusive) to leaveAt (exclusive). */
export interface Visit {
  trackId: string;
  kind: 'person' | 'vehicle' | 'animal';
  arriveAt: number;
  leaveAt: number;
  /**
   * person: 'recognized' for someone the tenant knows (staff: named as one of its enrolled people
   * when it is run, nothing when it has none), 'unrecognized' for strangers, null when the face is
   * not seen (passers-by); animal: 'cat' or 'dog'
   */
  subtype: string | null;
  /** base detection confidence for this track */
  confidence: number;
  /** whether it is part of the scene's person_count / vehicle count */
  counted: boolean;
  /** person and animal: ms between repeated sightings while present (dwell grows); 0 = arrival only */
  sightEveryMs: number;
}

export interface BucketActivity {
  visits: Visit[];
  /** detections that are not derived from visits (door contacts, motion) */
  points: DetectionInput[];
}

export interface BucketContext {
  index: number;
  startMs: number;
  endMs: number;
  local: LocalSpan;
  time: LocalTime;
  /** A random stream private to one activity source in this bucket. */
  rng(source: string): Rng;
  /** A track id unique within the generator: the n-th track `source` starts in this bucket. */
  trackId(source: string, n: number): string;
  /** Prefix of every track id of this generator (differs per seed, so streams do not share ids). */
  trackPrefix: string;
  /** The same for every bucket of this generator: seed + scenario. */
  seedKey: string;
}

export interface SceneSpec {
  /**
   * Upper bound on how long after its bucket starts anything drawn in that bucket can still
   * happen (longest stay plus the bucket). Bounds the look-back; activity beyond it is cut off.
   */
  lookbackMs: number;
  /** emit person_count on every change and on each heartbeat */
  countsPersons: boolean;
  /** emit vehicle (with count) on every change and on each heartbeat */
  countsVehicles: boolean;
  generateBucket(ctx: BucketContext): BucketActivity;
}

/** A count detection on every whole minute keeps a quiet scene from looking stale. */
export const HEARTBEAT_MS = MINUTE_MS;

/** Arrivals per hour at each local hour (index 0 = 00:00–01:00), weekdays and weekends. */
export interface RateCurve {
  weekday: readonly number[];
  weekend: readonly number[];
}

/** Same curve every day of the week. */
export function everyDay(perHour: readonly number[]): RateCurve {
  return { weekday: perHour, weekend: perHour };
}

/**
 * Arrivals per hour at an instant. Each table entry is the rate at the middle of its hour and we
 * interpolate between them, so activity ramps up and down rather than jumping on the hour.
 */
export function rateAt(local: LocalSpan, curve: RateCurve, ms: number): number {
  const table = isWeekend(local.dateAt(ms)) ? curve.weekend : curve.weekday;
  const x = local.hourOfDayAt(ms) - 0.5;
  const i = Math.floor(x);
  const f = x - i;
  return table[(i + 24) % 24] * (1 - f) + table[(i + 25) % 24] * f;
}

/** Arrival instants in the bucket: an inhomogeneous Poisson process sampled by thinning. */
export function sampleArrivals(ctx: BucketContext, rng: Rng, curve: RateCurve): number[] {
  const maxPerHour = Math.max(...curve.weekday, ...curve.weekend);
  const arrivals: number[] = [];
  if (maxPerHour <= 0) return arrivals;
  const maxPerMs = maxPerHour / HOUR_MS;
  for (let t = ctx.startMs + rng.exponential(maxPerMs); t < ctx.endMs; t += rng.exponential(maxPerMs)) {
    if (rng.next() * maxPerHour < rateAt(ctx.local, curve, t)) arrivals.push(Math.floor(t));
  }
  return arrivals;
}

export function roundConfidence(c: number): number {
  return Math.round(Math.min(0.99, Math.max(0.6, c)) * 1000) / 1000;
}

/** A visit with a stay of at least a second and a realistic confidence. */
export function createVisit(v: Visit): Visit {
  return { ...v, leaveAt: Math.max(v.leaveAt, v.arriveAt + SECOND_MS), confidence: roundConfidence(v.confidence) };
}

/** A population that arrives by a rate curve and stays a while (shoppers, commuters, strangers). */
export interface VisitorProfile {
  kind?: Visit['kind'];
  curve: RateCurve;
  /** stay drawn log-uniformly from [min, max) ms: mostly short, some long */
  stayMs: readonly [number, number];
  sightEveryMs?: number;
  subtype?: string | null;
  confidence: readonly [number, number];
  counted?: boolean;
}

/** The visits one source starts in this bucket. */
export function drawVisitors(ctx: BucketContext, source: string, profile: VisitorProfile): Visit[] {
  const rng = ctx.rng(source);
  return sampleArrivals(ctx, rng, profile.curve).map((arriveAt, n) =>
    createVisit({
      trackId: ctx.trackId(source, n),
      kind: profile.kind ?? 'person',
      arriveAt,
      leaveAt: arriveAt + Math.round(rng.logUniform(profile.stayMs[0], profile.stayMs[1])),
      subtype: profile.subtype ?? null,
      confidence: rng.uniform(profile.confidence[0], profile.confidence[1]),
      counted: profile.counted ?? true,
      sightEveryMs: profile.sightEveryMs ?? 0,
    }),
  );
}

export function createPersonDetection(at: number, trackId: string, confidence: number, subtype: string | null = null, dwellS = 0): DetectionInput {
  return { type: 'person', subtype, confidence: roundConfidence(confidence), at, track_id: trackId, dwell_s: dwellS };
}

/** A tracked person or animal seen at `at`; an animal's subtype says cat or dog. */
function createSighting(v: Visit, at: number, confidence: number, dwellS: number): DetectionInput {
  const d = createPersonDetection(at, v.trackId, confidence, v.subtype, dwellS);
  return v.kind === 'animal' ? { ...d, type: 'animal' } : d;
}

/** Contact sensors are binary: the door was opened, with certainty. */
export function createDoorOpenDetection(at: number): DetectionInput {
  return { type: 'door_open', subtype: null, confidence: 1, at, track_id: null, dwell_s: null };
}

export function createMotionDetection(at: number, confidence: number): DetectionInput {
  return { type: 'motion', subtype: null, confidence: roundConfidence(confidence), at, track_id: null, dwell_s: null };
}

export interface DayContext {
  time: LocalTime;
  /** A random stream private to one source on one local date. */
  rng(source: string, date: LocalDate): Rng;
  trackId(n: number): string;
}

/**
 * Visits that follow a daily routine (a baby's bedtime, a nightly intruder, the family cars).
 * `plan(date)` returns that local date's visits, which must arrive within [date 00:00, date+2 00:00)
 * local; this bucket keeps the ones arriving inside it, so each visit belongs to exactly one bucket.
 */
export function collectDailyVisits(ctx: BucketContext, source: string, plan: (date: LocalDate, day: DayContext) => Visit[]): Visit[] {
  const first = ctx.local.dateAt(ctx.startMs);
  const last = ctx.local.dateAt(ctx.endMs - 1);
  const dates = [addDays(first, -1), first];
  if (formatDateKey(last) !== formatDateKey(first)) dates.push(last);
  const visits: Visit[] = [];
  for (const date of dates) {
    const key = formatDateKey(date);
    const day: DayContext = {
      time: ctx.time,
      rng: (s, d) => new Rng(ctx.seedKey, 'day', s, formatDateKey(d)),
      trackId: (n) => `${ctx.trackPrefix}_${source}_${key}_${n}`,
    };
    for (const v of plan(date, day)) {
      if (v.arriveAt >= ctx.startMs && v.arriveAt < ctx.endMs) visits.push(v);
    }
  }
  return visits;
}

const TYPE_ORDER: Record<DetectionType, number> = { person: 0, vehicle: 1, person_count: 2, door_open: 3, motion: 4, animal: 5 };

function compareDetections(a: DetectionInput, b: DetectionInput): number {
  return a.at - b.at || TYPE_ORDER[a.type] - TYPE_ORDER[b.type] || (a.track_id ?? '').localeCompare(b.track_id ?? '') || (a.dwell_s ?? 0) - (b.dwell_s ?? 0);
}

/** Bucket activity is cached per generator; enough entries to cover the longest look-back plus a day. */
const BUCKET_CACHE_SIZE = 64;
/** Date's range is ±8.64e15 ms; stay a day inside it so look-backs and local offsets stay valid. */
const MAX_ABS_MS = 8.64e15 - 2 * 24 * HOUR_MS;

interface CountChange {
  at: number;
  delta: number;
  visit: Visit;
}

export class SceneGenerator implements ScenarioGenerator {
  private readonly cache = new Map<number, BucketActivity>();
  private readonly seedKey: string;
  private readonly trackPrefix: string;

  constructor(
    readonly name: ScenarioName,
    private readonly spec: SceneSpec,
    seed: number,
    private readonly time: LocalTime,
  ) {
    this.seedKey = `${seed}|${name}`;
    this.trackPrefix = `trk_${hashKey(this.seedKey).toString(36)}`;
  }

  detectionsBetween(fromMs: number, toMs: number): DetectionInput[] {
    for (const [label, ms] of [
      ['fromMs', fromMs],
      ['toMs', toMs],
    ] as const) {
      if (!Number.isFinite(ms) || Math.abs(ms) > MAX_ABS_MS) {
        throw new RangeError(`${label} must be a finite epoch-ms instant within the Date range (got ${ms})`);
      }
    }
    if (!(toMs > fromMs)) return [];

    const firstBucket = Math.floor((fromMs - this.spec.lookbackMs) / HOUR_MS);
    const lastBucket = Math.floor(toMs / HOUR_MS);
    const inRange = (at: number) => at > fromMs && at <= toMs;
    const out: DetectionInput[] = [];
    const visits: Visit[] = [];
    for (let b = firstBucket; b <= lastBucket; b++) {
      const activity = this.getBucket(b);
      for (const p of activity.points) if (inRange(p.at)) out.push(p);
      visits.push(...activity.visits);
    }
    for (const v of visits) if (v.kind === 'person' || v.kind === 'animal') this.emitSightings(v, fromMs, toMs, out);
    if (this.spec.countsPersons) this.emitCounts('person', visits, fromMs, toMs, out);
    if (this.spec.countsVehicles) this.emitCounts('vehicle', visits, fromMs, toMs, out);
    return out.sort(compareDetections);
  }

  private getBucket(index: number): BucketActivity {
    const hit = this.cache.get(index);
    if (hit) {
      // refresh recency
      this.cache.delete(index);
      this.cache.set(index, hit);
      return hit;
    }
    const activity = this.generateBucket(index);
    this.cache.set(index, activity);
    if (this.cache.size > BUCKET_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as number);
    return activity;
  }

  private generateBucket(index: number): BucketActivity {
    const startMs = index * HOUR_MS;
    const endMs = startMs + HOUR_MS;
    const horizon = startMs + this.spec.lookbackMs;
    const ctx: BucketContext = {
      index,
      startMs,
      endMs,
      local: new LocalSpan(this.time, startMs, endMs),
      time: this.time,
      seedKey: this.seedKey,
      trackPrefix: this.trackPrefix,
      rng: (source) => new Rng(this.seedKey, source, index),
      trackId: (source, n) => `${this.trackPrefix}_${source}_${index.toString(36)}_${n}`,
    };
    const raw = this.spec.generateBucket(ctx);
    // The look-back is only correct if nothing outlives it; enforce rather than trust every scenario.
    return {
      visits: raw.visits.filter((v) => v.arriveAt >= startMs && v.arriveAt < horizon).map((v) => (v.leaveAt > horizon ? { ...v, leaveAt: horizon } : v)),
      points: raw.points.filter((p) => p.at >= startMs && p.at <= horizon),
    };
  }

  private emitSightings(v: Visit, fromMs: number, toMs: number, out: DetectionInput[]): void {
    if (v.sightEveryMs <= 0) {
      if (v.arriveAt > fromMs && v.arriveAt <= toMs) {
        out.push(createSighting(v, v.arriveAt, v.confidence, 0));
      }
      return;
    }
    const end = Math.min(toMs, v.leaveAt - 1);
    for (let k = Math.max(0, Math.floor((fromMs - v.arriveAt) / v.sightEveryMs) + 1); ; k++) {
      const at = v.arriveAt + k * v.sightEveryMs;
      if (at > end) break;
      // a tracker's confidence wobbles from frame to frame around the track's level
      const jitter = (hashUnit(v.trackId, k) - 0.5) * 0.06;
      out.push(createSighting(v, at, v.confidence + jitter, Math.round((at - v.arriveAt) / SECOND_MS)));
    }
  }

  /**
   * person_count / vehicle: one detection whenever the number present changes, plus a heartbeat on
   * every whole minute carrying the current number. Changes at the same instant are merged.
   */
  private emitCounts(kind: Visit['kind'], visits: Visit[], fromMs: number, toMs: number, out: DetectionInput[]): void {
    let present = 0;
    const changes: CountChange[] = [];
    for (const v of visits) {
      if (!v.counted || v.kind !== kind) continue;
      if (v.arriveAt <= fromMs && v.leaveAt > fromMs) present++;
      if (v.arriveAt > fromMs && v.arriveAt <= toMs) changes.push({ at: v.arriveAt, delta: 1, visit: v });
      if (v.leaveAt > fromMs && v.leaveAt <= toMs) changes.push({ at: v.leaveAt, delta: -1, visit: v });
    }
    changes.sort((a, b) => a.at - b.at || a.visit.trackId.localeCompare(b.visit.trackId));

    let i = 0;
    let heartbeat = (Math.floor(fromMs / HEARTBEAT_MS) + 1) * HEARTBEAT_MS;
    while (i < changes.length || heartbeat <= toMs) {
      const nextChange = i < changes.length ? changes[i].at : Infinity;
      if (heartbeat <= toMs && heartbeat < nextChange) {
        out.push(this.createCount(kind, heartbeat, present, null));
        heartbeat += HEARTBEAT_MS;
        continue;
      }
      const group: CountChange[] = [];
      while (i < changes.length && changes[i].at === nextChange) group.push(changes[i++]);
      const net = group.reduce((sum, c) => sum + c.delta, 0);
      present += net;
      if (net !== 0) out.push(this.createCount(kind, nextChange, present, group.length === 1 ? group[0] : null));
      if (heartbeat === nextChange) {
        if (net === 0) out.push(this.createCount(kind, heartbeat, present, null));
        heartbeat += HEARTBEAT_MS;
      }
    }
  }

  private createCount(kind: Visit['kind'], at: number, present: number, change: CountChange | null): DetectionInput {
    const confidence = roundConfidence(0.85 + 0.12 * hashUnit(this.seedKey, kind, at));
    if (kind === 'person') {
      return { type: 'person_count', subtype: null, value: present, confidence, at, track_id: null, dwell_s: null };
    }
    // A vehicle detection names the vehicle that arrived or left when exactly one did.
    const v = change?.visit;
    const dwellS = !change || !v ? null : change.delta > 0 ? 0 : Math.round((v.leaveAt - v.arriveAt) / SECOND_MS);
    return { type: 'vehicle', subtype: null, count: present, confidence, at, track_id: v?.trackId ?? null, dwell_s: dwellS };
  }
}
