import { computeIou } from '../geometry.ts';
import type { DetectedObject, NormalizedBox } from '../video.types.ts';

/**
 * One object seen by two overlapping regions: keep one box, preferring a view where the region's
 * edge does not cut the object, then the better score.
 */
export function mergeOverlaps(objects: Array<DetectedObject & { cut: boolean }>): DetectedObject[] {
  const sorted = [...objects].sort((a, b) => Number(a.cut) - Number(b.cut) || b.score - a.score);
  const kept: DetectedObject[] = [];
  for (const { cut: _cut, ...o } of sorted) {
    const dup = kept.some((k) => k.label === o.label && (computeIou(k.box, o.box) > 0.4 || overlapOfSmaller(k.box, o.box) > 0.7));
    if (!dup) kept.push(o);
  }
  return kept;
}

function overlapOfSmaller(a: NormalizedBox, b: NormalizedBox): number {
  const w = Math.max(0, Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]));
  const h = Math.max(0, Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]));
  const smaller = Math.min(a[2] * a[3], b[2] * b[3]);
  return smaller > 0 ? (w * h) / smaller : 0;
}

