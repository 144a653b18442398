import type { Clock } from '../../platform/time/index.ts';
import { normalizeBox } from '../../org/detections/index.ts';
import type { Detector } from './detector-pool.ts';
import { findZone } from './geometry.ts';
import { encodeJpeg } from './jpeg-codec.ts';
import { MotionGate } from './motion-gate.ts';
import { ObjectTracker, type Track, type TrackerOptions } from './object-tracker.ts';
import { RateMeter } from './rate-meter.ts';
import type { DetectedObject, ObjectLabel, Polygon, RgbFrame, TrackFaces, TrackIdentity, VideoDetection, Zone } from './video.types.ts';

export interface FramePipelineOptions {
  detector: Detector;
  clock: Clock;
  zones?: Zone[];
  motionMasks?: Polygon[];
  /** false sends every frame the detector can take (benchmarks, tests of the gate's value) */
  motionGate?: boolean;
  /** while objects are tracked, the detector runs at least this often without motion, so a
   * person standing still stays counted; default 2 s */
  keepAliveMs?: number;
  /** with nothing tracked, the slower pace of runs without motion (a safety net for what the
   * gate misses); default 30 s */
  idleKeepAliveMs?: number;
  /** a lingering person (or animal) is re-reported with its dwell this often; default 10 s */
  dwellReportMs?: number;
  /** person_count and vehicle are repeated unchanged this often, so a scene never goes stale; default 60 s */
  heartbeatMs?: number;
  tracker?: TrackerOptions;
  /** per-class score an object needs to be tracked; default person 0.45, vehicle 0.33, cat and dog 0.4 */
  minScore?: Partial<Record<ObjectLabel, number>>;
  /**
   * Live face recognition (issue 14): tracked people get `subtype` recognized (+ person_id) or
   * unrecognized once their face was seen; without it (or with no face seen) a person has no subtype.
   */
  faces?: TrackFaces;
  onDetections(batch: VideoDetection[]): void;
}

export type OfferOutcome = 'detecting' | 'no_motion' | 'busy';

export interface PipelineCounters {
  frames_in: number;
  frames_detected: number;
  frames_skipped_no_motion: number;
  frames_dropped_busy: number;
}

/**
 * motion gate → detector → tracker → zones → Detection records, for one stream. Frames arrive
 * through offer() (camera: never waits, drops frames while the detector is busy so a slow
 * detector never backs up ffmpeg) or process() (phone: waits for its frame's result).
 */
export class FramePipeline {
  private readonly gate: MotionGate;
  private readonly tracker: ObjectTracker;
  private readonly clock: Clock;
  private readonly gateOn: boolean;
  private readonly keepAliveMs: number;
  private readonly idleKeepAliveMs: number;
  private readonly dwellReportMs: number;
  private readonly heartbeatMs: number;
  private zones: Zone[];
  private readonly minScore: Record<ObjectLabel, number>;
  private inFlight: Promise<void> | null = null;
  private motionPending = false;
  private lastDetectAt = -Infinity;
  private lastPersonCount: number | null = null;
  private lastVehicleCount: number | null = null;
  private lastCountAt = -Infinity;
  /** per track: when it was last reported, in which zone, as whom (identityKey) */
  private reported = new Map<string, { at: number; zone: string | null; identity: string }>();
  private stopped = false;
  readonly fpsIn: RateMeter;
  readonly detectorFps: RateMeter;
  readonly counters: PipelineCounters = { frames_in: 0, frames_detected: 0, frames_skipped_no_motion: 0, frames_dropped_busy: 0 };
  /** last detector or consumer failure, cleared by the next good detection */
  error: string | null = null;
  lastFrameAt: number | null = null;

  constructor(private readonly o: FramePipelineOptions) {
    this.clock = o.clock;
    this.gate = new MotionGate({ masks: o.motionMasks });
    this.tracker = new ObjectTracker(o.tracker);
    this.gateOn = o.motionGate ?? true;
    this.keepAliveMs = o.keepAliveMs ?? 2000;
    this.idleKeepAliveMs = o.idleKeepAliveMs ?? 30_000;
    this.dwellReportMs = o.dwellReportMs ?? 10_000;
    this.heartbeatMs = o.heartbeatMs ?? 60_000;
    this.zones = o.zones ?? [];
    // measured on vtest.avi: real people score 0.45–0.75, background clutter up to ~0.35; small
    // parked vehicles score 0.33–0.45. The darknet dog photos (fixtures dog.jpg, person.jpg) score
    // 0.42–0.43 as dog; 40 frames of vtest.avi give no cat or dog candidate even at 0.1
    this.minScore = { person: 0.45, vehicle: 0.33, cat: 0.4, dog: 0.4, ...o.minScore };
    this.fpsIn = new RateMeter(o.clock);
    this.detectorFps = new RateMeter(o.clock);
  }

  setZones(zones: Zone[]): void {
    this.zones = zones;
  }

  setMotionMasks(masks: Polygon[]): void {
    this.gate.setMasks(masks);
  }

  /** Takes a camera frame without waiting: it is detected, skipped (no motion) or dropped (busy). */
  offer(frame: RgbFrame, at = this.clock.now()): OfferOutcome {
    const run = this.admit(frame, at);
    if (run === 'busy' || run === 'no_motion') return run;
    this.inFlight = run.finally(() => {
      this.inFlight = null;
    });
    return 'detecting';
  }

  /** Runs one frame through the pipeline and resolves once its detections were emitted. */
  async process(frame: RgbFrame, at = this.clock.now()): Promise<OfferOutcome> {
    while (this.inFlight) await this.inFlight;
    const outcome = this.offer(frame, at);
    if (outcome === 'detecting') await this.inFlight;
    return outcome;
  }

  /** Stops emitting; waits for a detection in flight to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.inFlight;
    this.o.faces?.close();
  }

  private admit(frame: RgbFrame, at: number): Promise<void> | 'busy' | 'no_motion' {
    this.counters.frames_in++;
    this.lastFrameAt = at;
    this.fpsIn.mark();
    // the gate sees every frame so its background stays current, even ones we then drop
    const { motion } = this.gate.check(frame);
    if (motion) this.motionPending = true;
    this.emitHeartbeat(at);
    if (this.inFlight || this.stopped) {
      this.counters.frames_dropped_busy++;
      return 'busy';
    }
    // nothing enters an empty view without moving, so an empty still view needs few runs
    const keepAlive = this.tracker.hasTracks() ? this.keepAliveMs : this.idleKeepAliveMs;
    const due = !this.gateOn || this.motionPending || at - this.lastDetectAt >= keepAlive;
    if (!due) {
      this.counters.frames_skipped_no_motion++;
      return 'no_motion';
    }
    this.motionPending = false;
    this.lastDetectAt = at;
    return this.o.detector.detect(frame).then(
      (objects) => this.interpret(frame, at, objects),
      (err: unknown) => {
        this.error = `detector: ${(err as Error)?.message ?? String(err)}`;
      },
    );
  }

  /** Tracker update → the detections this frame changed. */
  private async interpret(frame: RgbFrame, at: number, found: DetectedObject[]): Promise<void> {
    if (this.stopped) return;
    const objects = found.filter((o) => o.score >= this.minScore[o.label]);
    this.counters.frames_detected++;
    this.detectorFps.mark();
    this.error = null;
    const update = this.tracker.update(objects, at);
    const entered = new Set(update.entered);
    const identities = await this.identify(frame, update.seen);
    if (this.stopped) return;
    const out: Array<VideoDetection & { needsSnapshot?: boolean }> = [];

    // people and animals are reported one by one (an animal's subtype says cat or dog); vehicles as a count below
    for (const t of update.seen) {
      if (t.label === 'vehicle') continue;
      const zone = findZone(t.box, this.zones);
      const last = this.reported.get(t.id);
      const fresh = entered.has(t);
      const identity = identities.get(t.id);
      const key = identityKey(identity);
      // a face seen (or a person recognized) is reported at once, not at the next dwell report
      if (!fresh && last && last.zone === zone && last.identity === key && at - last.at < this.dwellReportMs) continue;
      this.reported.set(t.id, { at, zone, identity: key });
      if (t.label === 'person') {
        // no face seen: no subtype (we cannot say whether we know them)
        const who = identity ? { subtype: identity.subtype, ...(identity.personId ? { person_id: identity.personId } : {}) } : { subtype: null };
        out.push({ ...this.describeTrack(t, 'person', at, zone), ...who, needsSnapshot: true });
      } else {
        out.push({ ...this.describeTrack(t, 'animal', at, zone), subtype: t.label, needsSnapshot: true });
      }
    }
    for (const t of update.exited) {
      this.reported.delete(t.id);
      if (t.label === 'person') this.o.faces?.forget(t.id);
    }

    const people = update.present.filter((t) => t.label === 'person');
    if (people.length !== this.lastPersonCount) {
      const rejected = found.filter((o) => o.label === 'person' && o.score < this.minScore.person).reduce((m, o) => Math.max(m, o.score), 0);
      out.push(this.countDetection('person_count', people, at, rejected));
    }

    const vehicles = update.present.filter((t) => t.label === 'vehicle');
    if (vehicles.length !== this.lastVehicleCount) {
      const arrived = update.entered.filter((t) => t.label === 'vehicle');
      const left = update.exited.filter((t) => t.label === 'vehicle');
      const det = this.countDetection('vehicle', vehicles, at, 0);
      // like the sandbox: a vehicle detection names the vehicle when exactly one came or went
      const changed = arrived.length + left.length === 1 ? (arrived[0] ?? left[0]) : null;
      if (changed) {
        det.track_id = changed.id;
        det.dwell_s = arrived.length ? 0 : Math.round((changed.lastSeen - changed.firstSeen) / 1000);
        det.zone = findZone(changed.box, this.zones);
      }
      const box = arrived.at(-1)?.box ?? changed?.box;
      out.push({ ...det, ...(box ? { box: normalizeBox(box) } : {}), needsSnapshot: true });
    }

    if (!out.length) return;
    const snapshot = out.some((d) => d.needsSnapshot) ? await encodeJpeg(frame) : undefined;
    if (this.stopped) return;
    const batch: VideoDetection[] = out.map(({ needsSnapshot, ...d }) => (needsSnapshot ? { ...d, snapshot } : d));
    this.emit(batch, at);
  }

  /**
   * The identity of each person seen on this frame (face recognition decides per track whether a
   * descriptor is due; the others answer from its cache). A failure of the face engine leaves the
   * person without identity on this frame and is shown as the stream's error, never lost detections.
   */
  private async identify(frame: RgbFrame, seen: Track[]): Promise<Map<string, TrackIdentity>> {
    const out = new Map<string, TrackIdentity>();
    const faces = this.o.faces;
    if (!faces) return out;
    const people = seen.filter((t) => t.label === 'person');
    const frameNo = this.counters.frames_in;
    await Promise.all(
      people.map(async (t) => {
        try {
          const id = await faces.observe(t.id, frameNo, frame, t.box);
          if (id) out.set(t.id, id);
        } catch (err) {
          this.error = `face recognition: ${(err as Error)?.message ?? String(err)}`;
        }
      }),
    );
    return out;
  }

  private describeTrack(t: Track, type: 'person' | 'animal', at: number, zone: string | null): VideoDetection {
    return {
      type,
      confidence: roundScore(t.score),
      at,
      track_id: t.id,
      dwell_s: Math.round((at - t.firstSeen) / 1000),
      zone,
      box: normalizeBox(t.box),
    };
  }

  /**
   * Counts are objects present (tracks), not boxes in this frame. Confidence is the mean score
   * of the counted objects; for an empty scene, how far the best uncounted candidate was from
   * being counted.
   */
  private countDetection(type: 'person_count' | 'vehicle', tracks: Track[], at: number, bestRejected: number): VideoDetection {
    const confidence = tracks.length ? tracks.reduce((s, t) => s + t.score, 0) / tracks.length : 1 - bestRejected;
    const det: VideoDetection = { type, subtype: null, confidence: roundScore(confidence), at, track_id: null, dwell_s: null, zone: null };
    if (type === 'person_count') det.value = tracks.length;
    else det.count = tracks.length;
    return det;
  }

  /** Repeats the current counts when nothing changed for heartbeatMs. */
  private emitHeartbeat(at: number): void {
    if (this.lastPersonCount === null || at - this.lastCountAt < this.heartbeatMs) return;
    const present = this.tracker.present();
    const people = present.filter((t) => t.label === 'person');
    const vehicles = present.filter((t) => t.label === 'vehicle');
    this.emit([this.countDetection('person_count', people, at, 0), this.countDetection('vehicle', vehicles, at, 0)], at);
  }

  private emit(batch: VideoDetection[], at: number): void {
    for (const d of batch) {
      if (d.type === 'person_count') {
        this.lastPersonCount = d.value ?? 0;
        this.lastCountAt = at;
      }
      if (d.type === 'vehicle') this.lastVehicleCount = d.count ?? 0;
    }
    try {
      this.o.onDetections(batch);
    } catch (err) {
      this.error = `onDetections: ${(err as Error)?.message ?? String(err)}`;
    }
  }
}

function identityKey(id: TrackIdentity | undefined): string {
  if (!id) return '';
  return id.subtype === 'recognized' ? `recognized:${id.personId}` : 'unrecognized';
}

function roundScore(v: number): number {
  return Math.round(Math.min(1, Math.max(0, v)) * 100) / 100;
}
