import type { DetectionRecord } from '../detections/index.ts';
import { kindOf } from '../../platform/kinds/index.ts';
import type { SceneRow } from './scene.repository.ts';

/** How long an anomaly (unrecognized person, loitering) keeps a scene flagged after it was last seen. */
export const ANOMALY_HOLD_MS = 5 * 60_000;
/** A tracked person present this long counts as loitering. */
export const LOITERING_DWELL_S = 300;

/**
 * How a scene's streams combine into its counts (docs/decisions.md, "One location, several
 * cameras"): `max` of overlapping views (default: a person two cameras see is one person), `sum`
 * for cameras that watch disjoint areas.
 */
export const STREAM_COMBINE_MODES = ['max', 'sum'] as const;
export type StreamCombine = (typeof STREAM_COMBINE_MODES)[number];

export function streamCombineOf(raw: string | null | undefined): StreamCombine {
  return raw === 'sum' ? 'sum' : 'max';
}

/** The scene's count from its streams' latest counts. */
export function combineCounts(values: Iterable<number>, mode: StreamCombine): number {
  let out = 0;
  for (const v of values) out = mode === 'sum' ? out + v : Math.max(out, v);
  return out;
}

type CountRecord = { type: string; stream_id: string; at: number; value: number | null; count: number | null };

/**
 * A scene's history (ascending by time) as the scene counted it: each person_count and counted
 * kind's (vehicle, …) reading becomes the scene's combined count at that moment (each stream's latest reading,
 * combined max or sum), so "how many now", peaks and averages over several cameras are the
 * scene's, not one camera's. `original` maps a combined reading back to the stored one (the
 * detections an answer cites are stored rows, with their own values). One stream: unchanged.
 */
export function combineHistory<T extends CountRecord>(records: readonly T[], mode: StreamCombine): { records: T[]; original: Map<T, T> } {
  const original = new Map<T, T>();
  // people, and every counted kind of the table of detection kinds (vehicle, …)
  const counted = (type: string) => kindOf(type)?.detector?.report === 'count';
  const streams = new Set(records.filter((r) => r.type === 'person_count' || counted(r.type)).map((r) => r.stream_id));
  if (streams.size < 2) return { records: [...records], original };
  const people = new Map<string, number>();
  const byKind = new Map<string, Map<string, number>>();
  const out = records.map((r) => {
    if (r.type === 'person_count' && r.value != null) {
      people.set(r.stream_id, r.value);
      const c = { ...r, value: combineCounts(people.values(), mode) };
      original.set(c, r);
      return c;
    }
    if (r.count != null && counted(r.type)) {
      const perStream = byKind.get(r.type) ?? new Map<string, number>();
      byKind.set(r.type, perStream);
      perStream.set(r.stream_id, r.count);
      const c = { ...r, count: combineCounts(perStream.values(), mode) };
      original.set(c, r);
      return c;
    }
    return r;
  });
  return { records: out, original };
}

/** One stream's latest readings: people, and objects present of each counted kind. */
export interface StreamReadings {
  people: number;
  vehicles: number;
  counts: Record<string, number>;
}

export interface SceneState {
  id: string;
  tenantId: string;
  location: string;
  capacity: number;
  timeZone: string;
  people: number;
  vehicles: number;
  /**
   * Objects present of each counted kind of the table of detection kinds (vehicle, …; see
   * docs/decisions.md, 'One table of detection kinds'), the streams combined; `vehicles` is
   * counts.vehicle, kept as the scene row stores it.
   */
  counts: Record<string, number>;
  crowdDensity: number;
  activeAnomalies: number;
  lastDetectionAt: number | null;
  createdAt: string;
  /** how the streams' readings combine into people and vehicles */
  combine: StreamCombine;
  /** each stream's latest readings; the scene combines them (max or sum) */
  perStream: Map<string, StreamReadings>;
  /** anomaly key (track or detection id) → held until */
  anomalyUntil: Map<string, number>;
  /**
   * No entry of anomalyUntil runs out before this (a lower bound: raising an entry's time leaves
   * it as it was, which only makes the next look earlier). Until then nothing can expire, so
   * applying a detection does not walk the held anomalies, which a busy scene holds by the
   * thousand over the five-minute hold.
   */
  anomalyNextExpiry: number;
  dirty: boolean;
}

export function isAnomalous(d: Pick<DetectionRecord, 'type' | 'subtype' | 'dwell_s'>): boolean {
  // a recognized person (staff at the reception desk all day) is never an anomaly; a
  // person whose face was not seen can still be loitering
  return d.type === 'person' && d.subtype !== 'recognized' && (d.subtype === 'unrecognized' || (d.dwell_s ?? 0) >= LOITERING_DWELL_S);
}

/**
 * The in-memory scene state of every location (docs/design.md "Data flow": "scene state, in memory +
 * persisted"). Applying a detection is synchronous and allocation-light: it is on the hot path
 * whose p95 bench/ measures.
 */
export class SceneEngine {
  private scenes = new Map<string, SceneState>();

  register(row: SceneRow): SceneState {
    const existing = this.scenes.get(row.id);
    if (existing) {
      existing.capacity = row.capacity;
      existing.timeZone = row.time_zone;
      const combine = streamCombineOf(row.stream_combine);
      if (combine !== existing.combine) {
        existing.combine = combine;
        if (existing.perStream.size) this.sumStreams(existing);
      }
      existing.crowdDensity = density(existing.people, existing.capacity);
      return existing;
    }
    const state: SceneState = {
      id: row.id,
      tenantId: row.tenant_id,
      location: row.location,
      capacity: row.capacity,
      timeZone: row.time_zone,
      people: row.people,
      vehicles: row.vehicles,
      counts: { vehicle: row.vehicles },
      crowdDensity: row.crowd_density,
      activeAnomalies: 0,
      lastDetectionAt: row.last_detection_at ? Date.parse(row.last_detection_at) : null,
      createdAt: row.created_at,
      combine: streamCombineOf(row.stream_combine),
      perStream: new Map(),
      anomalyUntil: new Map(),
      anomalyNextExpiry: Number.POSITIVE_INFINITY,
      dirty: false,
    };
    this.scenes.set(row.id, state);
    return state;
  }

  get(id: string): SceneState | undefined {
    return this.scenes.get(id);
  }

  apply(rec: DetectionRecord): SceneState {
    const s = this.scenes.get(rec.scene_id);
    if (!s) throw new Error(`scene ${rec.scene_id} is not registered with the engine`);
    let per = s.perStream.get(rec.stream_id);
    if (!per) {
      per = { people: 0, vehicles: 0, counts: {} };
      s.perStream.set(rec.stream_id, per);
    }
    if (rec.type === 'person_count' && rec.value != null) per.people = rec.value;
    else if (rec.count != null && kindOf(rec.type)?.detector?.report === 'count') {
      per.counts[rec.type] = rec.count;
      if (rec.type === 'vehicle') per.vehicles = rec.count;
    }
    if (isAnomalous(rec)) {
      const until = rec.at + ANOMALY_HOLD_MS;
      s.anomalyUntil.set(rec.track_id ?? rec.id, until);
      if (until < s.anomalyNextExpiry) s.anomalyNextExpiry = until;
    }
    this.recompute(s, rec.at);
    s.lastDetectionAt = Math.max(s.lastDetectionAt ?? 0, rec.at);
    s.dirty = true;
    return s;
  }

  /** Sets a stream's contribution from stored readings (server start). */
  restoreStream(sceneId: string, streamId: string, readings: { people: number | null; vehicles: number | null; counts?: Record<string, number> }): void {
    const s = this.scenes.get(sceneId);
    if (!s || (readings.people === null && readings.vehicles === null && !Object.keys(readings.counts ?? {}).length)) return;
    const counts = { ...readings.counts, ...(readings.vehicles !== null ? { vehicle: readings.vehicles } : {}) };
    s.perStream.set(streamId, { people: readings.people ?? 0, vehicles: readings.vehicles ?? 0, counts });
    this.sumStreams(s);
  }

  /** A deleted stream no longer contributes to its scene. */
  removeStream(sceneId: string, streamId: string, now: number): void {
    const s = this.scenes.get(sceneId);
    if (!s || !s.perStream.delete(streamId)) return;
    this.recompute(s, now);
    s.dirty = true;
  }

  /** Current view, with anomalies that have run out dropped. */
  snapshot(id: string, now: number): SceneState | undefined {
    const s = this.scenes.get(id);
    if (s) this.expireAnomalies(s, now);
    return s;
  }

  /** Scenes changed since the last takeDirty, left marked. */
  dirtyScenes(): SceneState[] {
    return [...this.scenes.values()].filter((s) => s.dirty);
  }

  takeDirty(): SceneState[] {
    const out: SceneState[] = [];
    for (const s of this.scenes.values()) {
      if (s.dirty) {
        s.dirty = false;
        out.push(s);
      }
    }
    return out;
  }

  private recompute(s: SceneState, now: number) {
    this.sumStreams(s);
    this.expireAnomalies(s, now);
  }

  /** The scene's counts from its streams' latest readings, combined as the scene says (max or sum). */
  private sumStreams(s: SceneState) {
    let people = 0;
    let vehicles = 0;
    const counts: Record<string, number> = {};
    const sum = s.combine === 'sum';
    for (const v of s.perStream.values()) {
      people = sum ? people + v.people : Math.max(people, v.people);
      vehicles = sum ? vehicles + v.vehicles : Math.max(vehicles, v.vehicles);
      for (const k in v.counts) counts[k] = sum ? (counts[k] ?? 0) + v.counts[k] : Math.max(counts[k] ?? 0, v.counts[k]);
    }
    s.people = people;
    s.vehicles = vehicles;
    s.counts = { ...counts, vehicle: vehicles };
    s.crowdDensity = density(people, s.capacity);
  }

  private expireAnomalies(s: SceneState, now: number) {
    if (now > s.anomalyNextExpiry) {
      let next = Number.POSITIVE_INFINITY;
      // forEach, not for…of: no [key, value] array per entry; deleting while iterating is defined for Maps
      s.anomalyUntil.forEach((until, k) => {
        if (until < now) s.anomalyUntil.delete(k);
        else if (until < next) next = until;
      });
      s.anomalyNextExpiry = next;
    }
    s.activeAnomalies = s.anomalyUntil.size;
  }
}

export function density(people: number, capacity: number): number {
  return capacity > 0 ? Math.round((people / capacity) * 1000) / 1000 : 0;
}
