/**
 * Greedy non-maximum suppression, as TensorFlow's (and so tfjs's) NonMaxSuppressionV3 does it:
 * candidates by descending score (stable), a candidate is dropped when its IoU with one already
 * kept exceeds `iou`; at most `max` kept. Boxes are [x1, y1, x2, y2] in any one unit.
 */
export function nonMaxSuppression(boxes: ArrayLike<number>[], scores: ArrayLike<number>, max: number, iou: number): number[] {
  const order = Array.from({ length: scores.length }, (_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
  const kept: number[] = [];
  for (const i of order) {
    if (kept.length >= max) break;
    if (!kept.some((k) => overlap(boxes[k], boxes[i]) > iou)) kept.push(i);
  }
  return kept;
}

function overlap(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const ax1 = Math.min(a[0], a[2]), ay1 = Math.min(a[1], a[3]), ax2 = Math.max(a[0], a[2]), ay2 = Math.max(a[1], a[3]);
  const bx1 = Math.min(b[0], b[2]), by1 = Math.min(b[1], b[3]), bx2 = Math.max(b[0], b[2]), by2 = Math.max(b[1], b[3]);
  const areaA = (ax2 - ax1) * (ay2 - ay1);
  const areaB = (bx2 - bx1) * (by2 - by1);
  if (areaA <= 0 || areaB <= 0) return 0;
  const w = Math.max(0, Math.min(ax2, bx2) - Math.max(ax1, bx1));
  const h = Math.max(0, Math.min(ay2, by2) - Math.max(ay1, by1));
  const inter = w * h;
  return inter / (areaA + areaB - inter);
}
