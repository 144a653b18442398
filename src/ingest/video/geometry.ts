import pointInPolygon from 'point-in-polygon';
import type { NormalizedBox, Point, Polygon, Zone } from './video.types.ts';

/** Intersection over union of two boxes (0 when they do not overlap). */
export function computeIou(a: NormalizedBox, b: NormalizedBox): number {
  const x1 = Math.max(a[0], b[0]);
  const y1 = Math.max(a[1], b[1]);
  const x2 = Math.min(a[0] + a[2], b[0] + b[2]);
  const y2 = Math.min(a[1] + a[3], b[1] + b[3]);
  const inter = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  const union = a[2] * a[3] + b[2] * b[3] - inter;
  return union > 0 ? inter / union : 0;
}

/**
 * Where an object stands: the bottom-centre of its box (Frigate's convention), so a person is
 * placed by their feet rather than by their head, which may overlap a neighbouring zone.
 */
export function anchorPoint(box: NormalizedBox): Point {
  return [box[0] + box[2] / 2, box[1] + box[3]];
}

export function isPointInPolygon(point: Point, polygon: Polygon): boolean {
  return pointInPolygon(point, polygon);
}

/** The first configured zone that contains the box's anchor point, or null. */
export function findZone(box: NormalizedBox, zones: readonly Zone[]): string | null {
  const p = anchorPoint(box);
  for (const zone of zones) if (isPointInPolygon(p, zone.polygon)) return zone.name;
  return null;
}

/** Problems with a polygon given by a user (zones, motion masks); empty when it is usable. */
export function describePolygonProblems(polygon: unknown): string[] {
  if (!Array.isArray(polygon)) return ['must be an array of [x, y] points'];
  if (polygon.length < 3) return ['needs at least 3 points'];
  const problems: string[] = [];
  polygon.forEach((p, i) => {
    const ok = Array.isArray(p) && p.length === 2 && p.every((v) => typeof v === 'number' && v >= 0 && v <= 1);
    if (!ok) problems.push(`point ${i} must be [x, y] with both in 0..1`);
  });
  return problems;
}
