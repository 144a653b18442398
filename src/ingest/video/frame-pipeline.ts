import type { Clock } from '../../platform/time/index.ts';
import { COUNTED_KINDS, TRACK_MIN_SCORE, kindOfClass, normalizeBox, type DetectionKind, type FrameObject } from '../../platform/kinds/index.ts';
import type { Detector } from './detector-pool.ts';
import { findZone } from './geometry.ts';
import { encodeJpeg } from './jpeg-codec.ts';
import { MotionGate } from './motion-gate.ts';
import { ObjectTracker, predictBox, type Track, type TrackerOptions } from './object-tracker.ts';
import { planRegions, toPixels, type Region, type RegionOptions } from './regions.ts';
import { RateMeter } from './rate-meter.ts';
import type { DetectedObject, NormalizedBox, ObjectLabel, Polygon, RgbFrame, TrackFaces, TrackIdentity, VideoDetection, Zone } from './video.types.ts';

export interface FramePipelineOptions {
  detector: Detector;
  clock: Clock;
  zones?: Zone[];
  motionMasks?: Polygon[];
  /** false sends every frame the detector can take (benchmarks, tests of the gate's value) */
  motionGate?: boolean;
  /** while objects are tracked, the detector runs at least this often without motion, so a
   * person standing still stays counted; default 2 s. With regions on, it looks at the tracked
   * objects' regions (and any motion), not the whole frame */
  keepAliveMs?: number;
  /** with regions on and objects tracked, the whole frame is still detected at least this often
   * (a safety net for what neither the gate nor the tracked regions show); default 10 s */
  wholeFrameEveryMs?: number;
  /** with nothing tracked, the slower pace of runs without motion (a safety net for what the
   * gate misses); default 30 s */
  idleKeepAliveMs?: number;
  /** a lingering person (or animal) is re-reported with its dwell this often; default 10 s */
  dwellReportMs?: number;
  /** person_count and the counted kinds (vehicle, …) are repeated unchanged this often, so a scene never goes stale; default 60 s */
  heartbeatMs?: number;
  tracker?: TrackerOptions;
  /**
   * Run the detector on motion regions (regions.ts: motion boxes clustered into squares, each at
   * its own input size) instead of the whole frame; the whole frame is still detected on the first
   * frame, at each keep-alive, on a scene-wide change and when regions would cover most of the
   * view. Needs a detector that takes regions (the pool does). Default true.
   */
  regions?: boolean;
  regionOptions?: RegionOptions;
  /** how whole frames meet the model (DetectOptions); default the detector's own (the pool: 'aspect') */
  wholeFrame?: 'aspect' | 'square';
  /**
   * While motion stays inside objects already tracked (their boxes widened by trackMargin), the
   * tracker carries them and the detector runs only on every Nth frame; motion anywhere else is
   * detected at once. 1 detects every frame with motion. Default 3 (docs/decisions.md).
   */
  detectEvery?: number;
  /** how far around a tracked box motion still belongs to that object, as a share of the box's size; default 0.5 */
  trackMargin?: number;
  /** per-class score an object needs to be tracked; default the table of detection kinds' (platform/kinds: person 0.45, vehicle 0.33, cat and dog 0.4, …) */
  minScore?: Partial<Record<ObjectLabel, number>>;
  /**
   * Live face recognition: tracked people get `subtype` recognized (+ person_id) or
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
  private readonly wholeFrameEveryMs: number;
  private readonly idleKeepAliveMs: number;
  private readonly dwellReportMs: number;
  private readonly heartbeatMs: number;
  private zones: Zone[];
  private readonly minScore: Record<ObjectLabel, number>;
  private inFlight: Promise<void> | null = null;
  private motionPending = false;
  /** motion boxes (normalised) seen since the last detector run, frames dropped while busy included */
  private pendingBoxes: NormalizedBox[] = [];
  /** frames offered since the last detector run */
  private framesSinceDetect = 0;
  /** motion boxes the last detector run looked at: motion there again is not new (a swaying tree, a person scoring too low to track) */
  private examined: NormalizedBox[] = [];
  private readonly regionsOn: boolean;
  private readonly detectEvery: number;
  private readonly trackMargin: number;
  /** frames not detected because the tracker carried the objects whose motion they showed */
  framesCarried = 0;
  /** detector runs on regions rather than the whole frame */
  framesOnRegions = 0;
  /** of those, runs on new motion only while the tracked objects were carried */
  framesPartial = 0;
  private lastDetectAt = -Infinity;
  private lastWholeAt = -Infinity;
  private lastPersonCount: number | null = null;
  /** per counted kind (vehicle, …): the count last reported; absent until reported */
  private lastCounts = new Map<string, number>();
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
    this.regionsOn = o.regions ?? true;
    this.detectEvery = Math.max(1, Math.floor(o.detectEvery ?? 3));
    this.trackMargin = o.trackMargin ?? 0.5;
    this.keepAliveMs = o.keepAliveMs ?? 2000;
    this.wholeFrameEveryMs = o.wholeFrameEveryMs ?? 10_000;
    this.idleKeepAliveMs = o.idleKeepAliveMs ?? 30_000;
    this.dwellReportMs = o.dwellReportMs ?? 10_000;
    this.heartbeatMs = o.heartbeatMs ?? 60_000;
    this.zones = o.zones ?? [];
    // the table of detection kinds says what each class needs (with the measurements behind it)
    this.minScore = { ...TRACK_MIN_SCORE, ...o.minScore } as Record<ObjectLabel, number>;
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
    this.observe(frame, at);
    if (this.inFlight || this.stopped) {
      this.counters.frames_dropped_busy++;
      return 'busy';
    }
    // nothing enters an empty view without moving, so an empty still view needs few runs
    const keepAlive = this.tracker.hasTracks() ? this.keepAliveMs : this.idleKeepAliveMs;
    const keepAliveDue = at - this.lastDetectAt >= keepAlive;
    const due = !this.gateOn || this.motionPending || keepAliveDue;
    if (!due) {
      this.counters.frames_skipped_no_motion++;
      return 'no_motion';
    }
    // the keep-alive looks at the tracked objects' regions; the whole frame only on the
    // first frame, with nothing tracked (the idle keep-alive) and every wholeFrameEveryMs
    const whole = !this.gateOn || (keepAliveDue && (!this.regionsOn || !this.tracker.hasTracks() || at - this.lastWholeAt >= this.wholeFrameEveryMs));
    // motion only where tracked objects already are → the tracker carries them for up to N−1 frames
    const carrying = !whole && !keepAliveDue && this.framesSinceDetect < this.detectEvery;
    const fresh = carrying ? this.motionOutsideTracks(this.pendingBoxes, at) : null;
    if (fresh?.length === 0) {
      this.framesCarried++;
      this.counters.frames_skipped_no_motion++;
      return 'no_motion';
    }
    // new motion while the tracked objects are still carried: only the new motion (and objects
    // seen once) is looked at now; the tracked objects' own motion stays pending for their run
    // on the Nth frame (on a busy view most runs were for one newcomer, yet looked at everyone)
    const partialRegions = fresh && this.regionsOn && fresh.length < this.pendingBoxes.length ? this.regionsFor(frame, fresh) : null;
    const partial = partialRegions !== null;
    const regions = partialRegions ?? (whole || !this.regionsOn ? null : this.regionsFor(frame, this.pendingBoxes, keepAliveDue));
    if (partial && fresh) {
      this.examined = [...this.examined, ...fresh];
      this.pendingBoxes = this.pendingBoxes.filter((b) => !fresh.includes(b));
      this.motionPending = this.pendingBoxes.length > 0;
      this.framesOnRegions++;
      this.framesPartial++;
    } else {
      // a whole-view box (first frame, scene-wide change) examined nothing in particular
      this.examined = this.pendingBoxes.filter((b) => b[2] < 0.999 || b[3] < 0.999);
      this.motionPending = false;
      this.pendingBoxes = [];
      this.framesSinceDetect = 0;
      this.lastDetectAt = at;
      if (regions) this.framesOnRegions++;
      else this.lastWholeAt = at;
    }
    return this.detect(frame, at, regions, partial);
  }

  /** Every frame offered: counted, and seen by the motion gate (its motion boxes wait for the next run). */
  private observe(frame: RgbFrame, at: number): void {
    this.counters.frames_in++;
    this.lastFrameAt = at;
    this.fpsIn.mark();
    this.framesSinceDetect++;
    // the gate sees every frame so its background stays current, even ones we then drop
    const { motion, boxes } = this.gate.check(frame);
    if (motion) {
      this.motionPending = true;
      // bounded: past a few dozen boxes the regions cover the view anyway
      if (this.pendingBoxes.length < 64) this.pendingBoxes.push(...boxes);
    }
    this.emitHeartbeat(at);
  }

  /** Runs the detector on the regions (or the whole frame when null); its objects go to interpret. */
  private detect(frame: RgbFrame, at: number, regions: Region[] | null, partial: boolean): Promise<void> {
    const detected = regions
      ? this.o.detector.detect(frame, regions)
      : this.o.wholeFrame
        ? this.o.detector.detect(frame, undefined, { wholeFrame: this.o.wholeFrame })
        : this.o.detector.detect(frame);
    const searched = regions?.map((r) => [r.x / frame.width, r.y / frame.height, r.size / frame.width, r.size / frame.height] as NormalizedBox);
    // N frames count from the run's result, not its start: frames that arrive while the detector
    // works are dropped anyway, and counting them would make every result due at once again on a
    // busy machine (a run slower than N frames would leave nothing to carry)
    const settled = () => {
      if (!partial) this.framesSinceDetect = 0;
    };
    return detected.then(
      (objects) => {
        settled();
        return this.interpret(frame, at, objects, searched);
      },
      (err: unknown) => {
        settled();
        this.error = `detector: ${(err as Error)?.message ?? String(err)}`;
      },
    );
  }

  /**
   * The motion boxes that are new, or null when the tracker cannot carry anything (no motion boxes,
   * nothing tracked or examined, detectEvery 1). Motion is not new when the box lies within the
   * span of a tracked object's box from where it was last seen to where its velocity puts it now,
   * or within motion the last run already looked at, each widened by trackMargin; motion anywhere
   * else (someone entering, or stepping out of their path) is. An empty list: nothing new moves.
   * (Without the velocity, a walker at 5 fps left their last box's margin within two frames and
   * most runs on a busy view were for people already tracked.)
   */
  private motionOutsideTracks(boxes: NormalizedBox[], at: number): NormalizedBox[] | null {
    if (!boxes.length || this.detectEvery <= 1) return null;
    const tracked = this.tracker.tracks().map((t) => union(t.box, predictBox(t, at)));
    const known = [...tracked, ...this.examined].map((b) => widen(b, this.trackMargin));
    if (!known.length) return null;
    return boxes.filter((b) => !known.some((k) => contains(k, b)));
  }

  /**
   * Regions to detect, or null for the whole frame: the motion boxes plus the box of every
   * tracked object that moved (so the object is seen whole, not only the part that moved) and of
   * every object not yet confirmed; at a keep-alive, the box of every tracked object.
   */
  private regionsFor(frame: RgbFrame, motion: NormalizedBox[], allTracks = false): Region[] | null {
    if (motion.some((b) => b[2] >= 0.999 && b[3] >= 0.999)) return null;
    // objects seen once are looked at again wherever they are, so they get counted
    const moving = this.tracker.tracks().filter((t) => allTracks || !t.confirmed || motion.some((m) => overlaps(widen(t.box, this.trackMargin), m)));
    if (!motion.length && !moving.length) return null;
    const boxes = [...motion, ...moving.map((t) => t.box)].map((b) => toPixels(b, frame.width, frame.height));
    const plan = planRegions(boxes, frame.width, frame.height, this.o.regionOptions);
    return plan.kind === 'regions' ? plan.regions : null;
  }

  /** Tracker update → the detections this frame changed. */
  private async interpret(frame: RgbFrame, at: number, found: DetectedObject[], searched?: NormalizedBox[]): Promise<void> {
    if (this.stopped) return;
    const objects = found.filter((o) => o.score >= (this.minScore[o.label] ?? 1));
    this.counters.frames_detected++;
    this.detectorFps.mark();
    this.error = null;
    // after a run on regions, objects outside them were not looked for: the tracker keeps them as they were
    const update = this.tracker.update(objects, at, searched);
    const entered = new Set(update.entered);
    const identities = await this.identify(frame, update.seen);
    if (this.stopped) return;
    const out: Array<VideoDetection & { needsSnapshot?: boolean }> = [];

    // tracked kinds (people, animals, …) are reported one by one (an animal's subtype says cat or
    // dog); counted kinds (vehicles, …) as a count below
    for (const t of update.seen) {
      const kind = kindOfClass(t.label);
      if (kind?.detector?.report !== 'track') continue;
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
        out.push({ ...this.describeTrack(t, kind.type, at, zone), subtype: kind.subtypes?.includes(t.label) ? t.label : null, needsSnapshot: true });
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

    for (const kind of COUNTED_KINDS) {
      const ofKind = (t: Track) => kindOfClass(t.label) === kind;
      const present = update.present.filter(ofKind);
      if (present.length === (this.lastCounts.get(kind.type) ?? (kind.detector?.countFromStart ? null : 0))) continue;
      const arrived = update.entered.filter(ofKind);
      const left = update.exited.filter(ofKind);
      const det = this.countDetection(kind.type, present, at, 0);
      // like the sandbox: a count detection (vehicle, …) names the object when exactly one came or went
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
    // the snapshot's frame with every object tracked in it, not only those this frame reported
    const frameObjects = snapshot ? this.frameObjects(update.present, identities) : undefined;
    const batch: VideoDetection[] = out.map(({ needsSnapshot, ...d }) => (needsSnapshot ? { ...d, snapshot, frame_objects: frameObjects } : d));
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

  /** Every present track as the live wall draws it (a person's identity when this frame's recognition gave one). */
  private frameObjects(present: readonly Track[], identities: Map<string, TrackIdentity>): FrameObject[] {
    return present.map((t) => {
      const kind = kindOfClass(t.label) as DetectionKind;
      const identity = identities.get(t.id);
      return {
        type: kind.type,
        ...(kind.subtypes?.includes(t.label)
          ? { subtype: t.label }
          : identity
            ? { subtype: identity.subtype, ...(identity.personId ? { person_id: identity.personId } : {}) }
            : {}),
        track_id: t.id,
        box: normalizeBox(t.box),
      };
    });
  }

  private describeTrack(t: Track, type: string, at: number, zone: string | null): VideoDetection {
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
  private countDetection(type: string, tracks: Track[], at: number, bestRejected: number): VideoDetection {
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
    const counts = COUNTED_KINDS.filter((k) => k.detector?.countFromStart || this.lastCounts.has(k.type)).map((k) =>
      this.countDetection(
        k.type,
        present.filter((t) => kindOfClass(t.label) === k),
        at,
        0,
      ),
    );
    this.emit([this.countDetection('person_count', people, at, 0), ...counts], at);
  }

  private emit(batch: VideoDetection[], at: number): void {
    for (const d of batch) {
      if (d.type === 'person_count') {
        this.lastPersonCount = d.value ?? 0;
        this.lastCountAt = at;
      } else if (d.count != null && COUNTED_KINDS.some((k) => k.type === d.type)) this.lastCounts.set(d.type, d.count);
    }
    try {
      this.o.onDetections(batch);
    } catch (err) {
      this.error = `onDetections: ${(err as Error)?.message ?? String(err)}`;
    }
  }
}

/** The box grown by `margin` of its own width and height on every side (not clamped: used for containment only). */
function widen(b: NormalizedBox, margin: number): NormalizedBox {
  return [b[0] - b[2] * margin, b[1] - b[3] * margin, b[2] * (1 + 2 * margin), b[3] * (1 + 2 * margin)];
}

function contains(outer: NormalizedBox, inner: NormalizedBox): boolean {
  return inner[0] >= outer[0] && inner[1] >= outer[1] && inner[0] + inner[2] <= outer[0] + outer[2] && inner[1] + inner[3] <= outer[1] + outer[3];
}

function union(a: NormalizedBox, b: NormalizedBox): NormalizedBox {
  const x = Math.min(a[0], b[0]);
  const y = Math.min(a[1], b[1]);
  return [x, y, Math.max(a[0] + a[2], b[0] + b[2]) - x, Math.max(a[1] + a[3], b[1] + b[3]) - y];
}

function overlaps(a: NormalizedBox, b: NormalizedBox): boolean {
  return a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
}

function identityKey(id: TrackIdentity | undefined): string {
  if (!id) return '';
  return id.subtype === 'recognized' ? `recognized:${id.personId}` : 'unrecognized';
}

function roundScore(v: number): number {
  return Math.round(Math.min(1, Math.max(0, v)) * 100) / 100;
}
