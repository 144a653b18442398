/**
 * The lobby the scene-query unit tests ask about: New York, Tuesday 10 March 2026 at 10:14 (EDT,
 * UTC-4), and detections of one stream there.
 */
import type { DetectionRecord, DetectionType } from '../../src/platform/kinds/index.ts';

export const TZ = 'America/New_York';
export const NOW = Date.parse('2026-03-10T10:14:00-04:00');
export const MIN = 60_000;

/** "09:42" (on 10 March unless another day is given) as epoch ms in New York. */
export function ny(time: string, day = '2026-03-10'): number {
  return Date.parse(`${day}T${time}:00-04:00`);
}

let nextId = 0;
/** A stored detection of the lobby's stream at `at`. */
export function makeDetection(type: DetectionType, at: number, fields: Partial<DetectionRecord> = {}): DetectionRecord {
  nextId += 1;
  return {
    id: `det_${String(nextId).padStart(5, '0')}`,
    tenant_id: 'org_1',
    stream_id: 'stream_1',
    scene_id: 'scene_1',
    location: 'lobby',
    type,
    confidence: 0.9,
    at,
    ...fields,
  };
}
