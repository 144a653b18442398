/**
 * ROC of a face embedder on a labelled set: how often the same person is matched (true accept
 * rate, TAR) against how often two different people are (false accept rate, FAR), for every
 * threshold. The match threshold is calibrated from it (face-match.ts, MATCH_THRESHOLD; for your
 * own embedder, scripts/face-roc.ts). See docs/decisions.md, 'Faces: the threshold from a
 * measured ROC'.
 */
import { cosineSimilarity } from './face-match.ts';

export interface LabelledDescriptor {
  /** who this is */
  person: string;
  /** where it came from (a photo, a variant of one); two faces of one person from one source are one face, and not paired */
  source: string;
  descriptor: Float32Array;
}

export interface RocPoint {
  threshold: number;
  tar: number;
  far: number;
}

export interface Roc {
  genuine: number;
  impostor: number;
  /** the highest different-person similarity */
  impostorMax: number;
  /** the lowest same-person similarity */
  genuineMin: number;
  /** the lowest threshold with no false accept on the set (just above impostorMax), and the TAR there */
  atFar0: RocPoint;
  /** the lowest threshold with at most 1% false accepts, and the TAR there */
  atFar1: RocPoint;
  /** TAR and FAR at fixed thresholds */
  at(threshold: number): RocPoint;
}

/** Same-person and different-person similarities of every pair in the set. */
export function pairSimilarities(
  set: readonly LabelledDescriptor[],
  keep: (a: LabelledDescriptor, b: LabelledDescriptor) => boolean = () => true,
): { genuine: number[]; impostor: number[] } {
  const genuine: number[] = [];
  const impostor: number[] = [];
  for (let i = 0; i < set.length; i++) {
    for (let j = i + 1; j < set.length; j++) {
      const a = set[i];
      const b = set[j];
      if ((a.person === b.person && a.source === b.source) || !keep(a, b)) continue;
      (a.person === b.person ? genuine : impostor).push(cosineSimilarity(a.descriptor, b.descriptor));
    }
  }
  return { genuine, impostor };
}

/** The smallest step above a similarity, at the precision thresholds are written with. */
const above = (s: number) => Math.floor(s * 1000 + 1e-9) / 1000 + 0.001;

/** The ROC of same-person (`genuine`) and different-person (`impostor`) similarities. */
export function roc(genuine: readonly number[], impostor: readonly number[]): Roc {
  if (!genuine.length || !impostor.length) throw new Error('an ROC needs same-person and different-person pairs');
  const g = [...genuine].sort((a, b) => a - b);
  const imp = [...impostor].sort((a, b) => b - a);
  const at = (threshold: number): RocPoint => ({
    threshold,
    tar: g.filter((s) => s >= threshold).length / g.length,
    far: imp.filter((s) => s >= threshold).length / imp.length,
  });
  // at most floor(1% of the impostor pairs) may be accepted: the threshold sits above the next one
  const allowed = Math.floor(imp.length * 0.01);
  return {
    genuine: g.length,
    impostor: imp.length,
    impostorMax: imp[0],
    genuineMin: g[0],
    atFar0: at(above(imp[0])),
    atFar1: at(above(imp[Math.min(allowed, imp.length - 1)])),
    at,
  };
}
