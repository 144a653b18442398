import { FaceEngineOverloadedError, MIN_FACE_PX, type FaceEngine } from './face-engine.ts';
import { cropRgb } from './face-image.ts';
import { cosineSimilarity, MATCH_THRESHOLD } from './face-match.ts';
import type { EnrolledFace, NormalizedBox, RgbFrame } from './face.types.ts';

/**
 * What recognition says about one tracked person. Absent (undefined) means no usable face has
 * been seen on the track yet: nothing can be said, and that is not "unrecognized".
 */
export type FaceVerdict =
  | { status: 'recognized'; personId: string; similarity: number; frame: number }
  | { status: 'unrecognized'; /** best similarity to anyone enrolled, null when nobody is */ similarity: number | null; frame: number };

export interface TrackRecognizerOptions {
  /**
   * Compute a descriptor for a track at most once every this many frames; default 5 (once a
   * second at the pipeline's 5 fps): a face that turns towards the camera is recognized within
   * a second, and an unrecognized person in view costs one descriptor a second.
   */
  everyNFrames?: number;
  /** smallest face side (frame pixels) used; default MIN_FACE_PX */
  minFacePx?: number;
  /** default MATCH_THRESHOLD */
  threshold?: number;
  /**
   * Descriptors a recognized track needs before its identity is settled and it is no longer
   * described; default SETTLE_AFTER. Until then every descriptor joins the vote.
   */
  settleAfter?: number;
}

/** A track's identity is settled on this many descriptors (about 3 s of a face at the live rate). */
export const SETTLE_AFTER = 3;

/** The vote looks at a track's last this many descriptors. */
export const VOTE_WINDOW = 8;

/**
 * How much one descriptor counts in a track's vote: its face's side in pixels, up to the 224 px
 * FaceRes looks at (a larger face carries no more detail). A face at the 56 px floor counts a
 * quarter of a close-up: small faces drift towards a generic face (face-engine.ts, MIN_FACE_PX).
 */
export function faceWeight(sizePx: number): number {
  return Math.max(1, Math.min(sizePx, 224));
}

/** One descriptor of a track, kept for the vote. */
interface Sighting {
  descriptor: Float32Array;
  weight: number;
}

/**
 * The identity a track's sightings vote for: for each enrolled person, the face-size weighted mean
 * of each sighting's similarity to them (their best enrolled face); the person with the highest
 * mean is recognized when that mean reaches `threshold`. One large clear face outweighs several
 * small blurred ones, and one frame's lucky (or unlucky) match does not decide alone. See
 * docs/decisions.md, 'Faces: identity over several frames'.
 */
export function voteIdentity(
  sightings: readonly Sighting[],
  enrolled: readonly EnrolledFace[],
  threshold: number,
): { personId: string | null; similarity: number | null } {
  if (!sightings.length || !enrolled.length) return { personId: null, similarity: null };
  const people = new Map<string, number>();
  let total = 0;
  for (const s of sightings) {
    total += s.weight;
    const best = new Map<string, number>();
    for (const e of enrolled) {
      const sim = cosineSimilarity(s.descriptor, e.descriptor);
      if (sim > (best.get(e.personId) ?? -Infinity)) best.set(e.personId, sim);
    }
    for (const [person, sim] of best) people.set(person, (people.get(person) ?? 0) + sim * s.weight);
  }
  let top: { personId: string; similarity: number } | null = null;
  for (const [personId, sum] of people) {
    const similarity = sum / total;
    if (!top || similarity > top.similarity) top = { personId, similarity };
  }
  if (!top) return { personId: null, similarity: null };
  return top.similarity >= threshold ? top : { personId: null, similarity: top.similarity };
}

interface TrackState {
  /** frame of the last descriptor attempt (face or not), -Infinity before the first */
  lastAttempt: number;
  verdict: FaceVerdict | undefined;
  /** an attempt is running: a frame arriving meanwhile does not start another */
  busy: boolean;
  /** descriptors computed for this track (for stats and tests) */
  descriptors: number;
  /** the last VOTE_WINDOW descriptors with their weights */
  sightings: Sighting[];
}

/**
 * Where to look for a person's face, given their body box from the object detector in an image
 * of `image`'s size. A standing person's box has the head in its top sixth: the top half is
 * searched (less area keeps the face large in the detector's 256×256 input). A box about as wide
 * as it is tall is a close-up (head and shoulders at a door camera, or the head alone, which is
 * what CenterNet boxes when a face fills the view): all of it is searched. Widened by 15% each
 * side and 10% upwards, because the head leans out of a walking person's box and the face
 * detector needs a margin around a face.
 */
export function faceSearchRegion(personBox: NormalizedBox, image: { width: number; height: number }): NormalizedBox {
  const [x, y, w, h] = personBox;
  const widthPx = w * image.width;
  const heightPx = h * image.height;
  // down to 1.25 box widths below the top, at least half the box, at most all of it
  const depthPx = Math.min(heightPx, Math.max(heightPx / 2, widthPx * 1.25));
  const left = Math.max(0, x - w * 0.15);
  const top = Math.max(0, y - h * 0.1);
  const right = Math.min(1, x + w * 1.15);
  const bottom = Math.min(1, y + depthPx / image.height);
  return [left, top, right - left, bottom - top];
}

/**
 * Per-track face recognition cache for one stream (key tracks by stream and track id if shared).
 * Each track gets a descriptor at most every N frames, and its identity is the vote of its
 * recent descriptors weighted by face size (voteIdentity). Once recognized on `settleAfter`
 * descriptors a track keeps its identity and is never described again; until then, and while
 * unrecognized, it is described every N frames (the face may turn or come closer).
 */
export class TrackRecognizer {
  private readonly tracks = new Map<string, TrackState>();
  private readonly every: number;
  private readonly minFacePx: number;
  private readonly threshold: number;
  private readonly settleAfter: number;

  constructor(
    private readonly engine: Pick<FaceEngine, 'describeFaces'>,
    o: TrackRecognizerOptions = {},
  ) {
    this.every = Math.max(1, Math.floor(o.everyNFrames ?? 5));
    this.minFacePx = o.minFacePx ?? MIN_FACE_PX;
    this.threshold = o.threshold ?? MATCH_THRESHOLD;
    this.settleAfter = Math.max(1, Math.floor(o.settleAfter ?? SETTLE_AFTER));
  }

  /** The track's verdict so far, without computing anything. */
  verdict(trackId: string): FaceVerdict | undefined {
    return this.tracks.get(trackId)?.verdict;
  }

  /** Whether observe() on this frame would compute a descriptor for the track. */
  due(trackId: string, frame: number): boolean {
    const t = this.tracks.get(trackId);
    if (!t) return true;
    const settled = t.verdict?.status === 'recognized' && t.descriptors >= this.settleAfter;
    return !t.busy && !settled && frame - t.lastAttempt >= this.every;
  }

  /**
   * One sighting of a tracked person on a frame. When the track is due, looks for a face inside
   * `searchBox` (for a body box from the object detector: `faceSearchRegion(box, image)`), describes the
   * largest one and matches it against `enrolled`. Returns the track's verdict after this frame.
   */
  async observe(
    trackId: string,
    frame: number,
    image: RgbFrame,
    searchBox: NormalizedBox,
    enrolled: readonly EnrolledFace[],
    /** the face model's threshold, when it is known only now (default: the constructor's) */
    threshold = this.threshold,
  ): Promise<FaceVerdict | undefined> {
    let t = this.tracks.get(trackId);
    if (!t) {
      t = { lastAttempt: -Infinity, verdict: undefined, busy: false, descriptors: 0, sightings: [] };
      this.tracks.set(trackId, t);
    }
    if (!this.due(trackId, frame)) return t.verdict;
    t.lastAttempt = frame;
    t.busy = true;
    try {
      const region = cropRgb(image, searchBox);
      let faces;
      try {
        faces = await this.engine.describeFaces(region);
      } catch (err) {
        // more people in view than the engine keeps up with: skip this attempt, retry in N frames
        if (err instanceof FaceEngineOverloadedError) return t.verdict;
        throw err;
      }
      // crop pixels are frame pixels, so the size limit holds in the frame
      const face = faces.find((f) => f.size >= this.minFacePx);
      if (!face) return t.verdict;
      t.descriptors++;
      // the track may have been forgotten (it ended, or its person was erased) while we worked
      if (this.tracks.get(trackId) !== t) return undefined;
      t.sightings.push({ descriptor: face.descriptor, weight: faceWeight(face.size) });
      if (t.sightings.length > VOTE_WINDOW) t.sightings.shift();
      const vote = voteIdentity(t.sightings, enrolled, threshold);
      t.verdict = vote.personId
        ? { status: 'recognized', personId: vote.personId, similarity: vote.similarity!, frame }
        : { status: 'unrecognized', similarity: vote.similarity, frame };
      return t.verdict;
    } finally {
      t.busy = false;
    }
  }

  /** Descriptors computed for a track so far. */
  descriptorCount(trackId: string): number {
    return this.tracks.get(trackId)?.descriptors ?? 0;
  }

  /** Drop a track that ended. */
  forget(trackId: string): void {
    this.tracks.delete(trackId);
  }

  /**
   * A person was deleted (right to erasure) or lost a face: tracks recognized as them start over,
   * so the same face is looked at again and becomes "unrecognized".
   */
  forgetPerson(personId: string): void {
    for (const [id, t] of this.tracks) {
      if (t.verdict?.status === 'recognized' && t.verdict.personId === personId) this.tracks.delete(id);
    }
  }

  get size(): number {
    return this.tracks.size;
  }
}
