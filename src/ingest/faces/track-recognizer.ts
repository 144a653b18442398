import { FaceEngineOverloadedError, MIN_FACE_PX, type FaceEngine } from './face-engine.ts';
import { cropRgb } from './face-image.ts';
import { MATCH_THRESHOLD, match } from './face-match.ts';
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
}

interface TrackState {
  /** frame of the last descriptor attempt (face or not), -Infinity before the first */
  lastAttempt: number;
  verdict: FaceVerdict | undefined;
  /** an attempt is running: a frame arriving meanwhile does not start another */
  busy: boolean;
  /** descriptors computed for this track (for stats and tests) */
  descriptors: number;
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
 * Each track gets a descriptor at most every N frames; a recognized track keeps its identity
 * and is never described again; an unrecognized one is retried every N frames (the face may
 * turn or come closer) and may still become recognized.
 */
export class TrackRecognizer {
  private readonly tracks = new Map<string, TrackState>();
  private readonly every: number;
  private readonly minFacePx: number;
  private readonly threshold: number;

  constructor(
    private readonly engine: Pick<FaceEngine, 'describeFaces'>,
    o: TrackRecognizerOptions = {},
  ) {
    this.every = Math.max(1, Math.floor(o.everyNFrames ?? 5));
    this.minFacePx = o.minFacePx ?? MIN_FACE_PX;
    this.threshold = o.threshold ?? MATCH_THRESHOLD;
  }

  /** The track's verdict so far, without computing anything. */
  verdict(trackId: string): FaceVerdict | undefined {
    return this.tracks.get(trackId)?.verdict;
  }

  /** Whether observe() on this frame would compute a descriptor for the track. */
  due(trackId: string, frame: number): boolean {
    const t = this.tracks.get(trackId);
    if (!t) return true;
    return !t.busy && t.verdict?.status !== 'recognized' && frame - t.lastAttempt >= this.every;
  }

  /**
   * One sighting of a tracked person on a frame. When the track is due, looks for a face inside
   * `searchBox` (for a body box from the object detector: `faceSearchRegion(box, image)`), describes the
   * largest one and matches it against `enrolled`. Returns the track's verdict after this frame.
   */
  async observe(trackId: string, frame: number, image: RgbFrame, searchBox: NormalizedBox, enrolled: readonly EnrolledFace[]): Promise<FaceVerdict | undefined> {
    let t = this.tracks.get(trackId);
    if (!t) {
      t = { lastAttempt: -Infinity, verdict: undefined, busy: false, descriptors: 0 };
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
      const found = match(face.descriptor, enrolled, this.threshold);
      if (found) {
        t.verdict = { status: 'recognized', personId: found.personId, similarity: found.similarity, frame };
      } else if (t.verdict?.status !== 'recognized') {
        t.verdict = { status: 'unrecognized', similarity: bestSimilarity(face.descriptor, enrolled), frame };
      }
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

function bestSimilarity(descriptor: Float32Array, enrolled: readonly EnrolledFace[]): number | null {
  const best = match(descriptor, enrolled, -Infinity);
  return best ? best.similarity : null;
}
