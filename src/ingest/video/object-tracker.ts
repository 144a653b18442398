import { munkres } from 'munkres';
import { monotonicFactory } from 'ulid';
import { computeIou } from './geometry.ts';
import { OBJECT_LABELS, type DetectedObject, type NormalizedBox, type ObjectLabel } from './video.types.ts';

export interface TrackerOptions {
  /** detections a new object needs before it counts (filters one-frame false positives) */
  minHits?: number;
  /** detector runs without a match before a confirmed object is considered gone... */
  maxMisses?: number;
  /** ...and at least this long since it was last seen (keep-alive runs are sparse) */
  minLostMs?: number;
  /** below this IoU a pair is matched by centroid distance instead */
  iouThreshold?: number;
}

export interface Track {
  id: string;
  label: ObjectLabel;
  box: NormalizedBox;
  score: number;
  /** epoch ms of the first and the latest detection */
  firstSeen: number;
  lastSeen: number;
  hits: number;
  misses: number;
  confirmed: boolean;
  /** centre velocity in normalised units per ms, from its last two detections (smoothed); 0 until seen twice */
  vx: number;
  vy: number;
}

export interface TrackUpdate {
  /** objects confirmed in this update (counted from now on) */
  entered: Track[];
  /** confirmed objects given up on in this update; lastSeen is their exit time */
  exited: Track[];
  /** confirmed objects currently present, including briefly occluded ones */
  present: Track[];
  /** present objects matched to a detection in this frame */
  seen: Track[];
}

const nextUlid = monotonicFactory();

function centre(b: NormalizedBox): [number, number] {
  return [b[0] + b[2] / 2, b[1] + b[3] / 2];
}

/** how far ahead a velocity is trusted: past a second, where someone walks is a guess */
const PREDICT_MAX_MS = 1000;

/**
 * Where the track's box would be at `at` if it kept its velocity (the pipeline judges
 * whether motion between detector runs is the tracked object's own by this, not its last box
 * alone), at most PREDICT_MAX_MS ahead of its last sighting.
 */
export function predictBox(t: Track, at: number): NormalizedBox {
  const dt = Math.min(PREDICT_MAX_MS, Math.max(0, at - t.lastSeen));
  return [t.box[0] + t.vx * dt, t.box[1] + t.vy * dt, t.box[2], t.box[3]];
}

/**
 * True when the track is on its way out of the view: its predicted centre is already outside, or
 * its box is within its own width (height) of an edge and its velocity points out through it.
 */
export function leavingView(t: Track, at: number): boolean {
  const [cx, cy] = centre(predictBox(t, at));
  if (cx < 0 || cx > 1 || cy < 0 || cy > 1) return true;
  const [x, y, w, h] = t.box;
  return (x + 2 * w >= 1 && t.vx > 0) || (x <= w && t.vx < 0) || (y + 2 * h >= 1 && t.vy > 0) || (y <= h && t.vy < 0);
}

function isInside([x, y]: [number, number], r: NormalizedBox): boolean {
  return x >= r[0] && x <= r[0] + r[2] && y >= r[1] && y <= r[1] + r[3];
}

/**
 * Frame-to-frame association (the "SORT without Kalman" variant): per class, an optimal
 * assignment (Hungarian algorithm, `munkres`) on 1 − IoU, with a centroid-distance fallback for
 * objects that moved further than their own size between two detector runs (the motion gate
 * can leave seconds between runs). Counts come from tracks, so a person is counted once however
 * many frames they appear in.
 */
export class ObjectTracker {
  private readonly minHits: number;
  private readonly maxMisses: number;
  private readonly minLostMs: number;
  private readonly iouThreshold: number;
  private list: Track[] = [];

  constructor(o: TrackerOptions = {}) {
    this.minHits = o.minHits ?? 2;
    this.maxMisses = o.maxMisses ?? 5;
    this.minLostMs = o.minLostMs ?? 1500;
    this.iouThreshold = o.iouThreshold ?? 0.2;
  }

  /** true while anything is tracked, confirmed or not */
  hasTracks(): boolean {
    return this.list.length > 0;
  }

  present(): Track[] {
    return this.list.filter((t) => t.confirmed);
  }

  /** every track, confirmed or not (read-only use) */
  tracks(): readonly Track[] {
    return this.list;
  }

  /**
   * Folds one detector run's objects into the tracks. `searched` (normalised boxes) says the run
   * looked only there (motion regions): a track whose centre lies outside all of them was not
   * looked for, so it neither counts a miss nor ages; it is carried as it was.
   */
  update(objects: DetectedObject[], at: number, searched?: readonly NormalizedBox[]): TrackUpdate {
    const entered: Track[] = [];
    const exited: Track[] = [];
    const seen: Track[] = [];
    const matchedTracks = new Set<Track>();
    const lookedFor = (t: Track) => !searched || searched.some((r) => isInside(centre(t.box), r));
    for (const label of OBJECT_LABELS) {
      const tracks = this.list.filter((t) => t.label === label);
      const dets = objects.filter((o) => o.label === label);
      const pairs = this.assign(tracks, dets);
      const matchedDets = new Set<number>();
      for (const [ti, di] of pairs) {
        const track = tracks[ti];
        const det = dets[di];
        matchedDets.add(di);
        matchedTracks.add(track);
        if (at > track.lastSeen) {
          const [ox, oy] = centre(track.box);
          const [nx, ny] = centre(det.box);
          const dt = at - track.lastSeen;
          // a first estimate is taken as is; later ones are averaged with the last (detections jitter)
          const k = track.hits > 1 ? 0.5 : 1;
          track.vx = (1 - k) * track.vx + (k * (nx - ox)) / dt;
          track.vy = (1 - k) * track.vy + (k * (ny - oy)) / dt;
        }
        track.box = det.box;
        track.score = det.score;
        track.lastSeen = at;
        track.hits++;
        track.misses = 0;
        if (!track.confirmed && track.hits >= this.minHits) {
          track.confirmed = true;
          entered.push(track);
        }
        if (track.confirmed) seen.push(track);
      }
      dets.forEach((det, di) => {
        if (matchedDets.has(di)) return;
        const track: Track = {
          id: `trk_${nextUlid(at).toLowerCase()}`,
          label,
          box: det.box,
          score: det.score,
          firstSeen: at,
          lastSeen: at,
          hits: 1,
          misses: 0,
          confirmed: this.minHits <= 1,
          vx: 0,
          vy: 0,
        };
        this.list.push(track);
        matchedTracks.add(track);
        if (track.confirmed) {
          entered.push(track);
          seen.push(track);
        }
      });
    }
    this.list = this.list.filter((t) => {
      if (matchedTracks.has(t) || !lookedFor(t)) return true;
      t.misses++;
      // someone walking out of the view is gone at the second run that looks and misses them, not
      // the fifth (docs/decisions.md, 'Tracks that leave the view')
      const leaving = t.confirmed && leavingView(t, at);
      const gone = t.confirmed ? (leaving ? t.misses >= 2 : t.misses >= this.maxMisses && at - t.lastSeen >= this.minLostMs) : t.misses >= 2;
      if (gone && t.confirmed) exited.push(t);
      return !gone;
    });
    return { entered, exited, present: this.present(), seen };
  }

  private assign(tracks: Track[], dets: DetectedObject[]): Array<[number, number]> {
    if (!tracks.length || !dets.length) return [];
    const cost = tracks.map((t) => dets.map((d) => this.matchCost(t.box, d.box)));
    return munkres(cost).filter(([ti, di]) => Number.isFinite(cost[ti][di]));
  }

  /** 1 − IoU for overlapping boxes; 1 + distance for near misses; Infinity when unrelated. */
  private matchCost(a: NormalizedBox, b: NormalizedBox): number {
    const iou = computeIou(a, b);
    if (iou >= this.iouThreshold) return 1 - iou;
    const dx = a[0] + a[2] / 2 - (b[0] + b[2] / 2);
    const dy = a[1] + a[3] / 2 - (b[1] + b[3] / 2);
    const dist = Math.hypot(dx, dy);
    // a walker covers about one body height in 2 s; further than that is someone else
    const reach = Math.max(a[3], b[3]);
    const similarSize = Math.min(a[3], b[3]) / Math.max(a[3], b[3], 1e-6) > 0.5;
    return similarSize && dist < reach ? 1 + dist : Infinity;
  }
}
