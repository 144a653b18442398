import type { DetectionBox } from '../../platform/kinds/index.ts';

/** The stored form of a box (migration 012): JSON text, null when the detection has none. */
export function boxToColumn(box: DetectionBox | null | undefined): string | null {
  return box ? JSON.stringify(box) : null;
}

/** A row's box, or a record's (already parsed); null when it has none. */
export function boxOf(d: { box?: string | DetectionBox | null }): DetectionBox | null {
  if (d.box == null) return null;
  return typeof d.box === 'string' ? (JSON.parse(d.box) as DetectionBox) : d.box;
}
