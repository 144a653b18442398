import { Type } from '@sinclair/typebox';

import { DETECTION_KINDS } from './kinds.ts';

/**
 * A Detection, as openapi.json's `Detection` schema describes it.
 * person_count carries `value`; counted kinds (vehicle, …) carry `count`; person may carry `subtype`
 * (e.g. "unrecognized"). door_open and motion come from household contact/motion sensors.
 * animal is one tracked cat or dog (like person): `subtype` names which (ANIMAL_KINDS).
 *
 * The detection types are the kinds of the table in kinds.ts (docs/decisions.md, 'One table of
 * detection kinds'): the Detection view, the sandbox injection body and the webhook payload use
 * DetectionTypeSchema / DetectionType.
 */
export const DETECTION_TYPES: readonly string[] = DETECTION_KINDS.map((k) => k.type);
export type DetectionType = string;

/** The animals the detector tells apart (COCO classes it already sees); an animal detection's subtype. */
export const ANIMAL_KINDS: readonly string[] = DETECTION_KINDS.find((k) => k.type === 'animal')?.subtypes ?? [];
export type AnimalKind = string;

export const DetectionTypeSchema = Type.Union(
  DETECTION_TYPES.map((t) => Type.Literal(t)),
  { description: DETECTION_KINDS.map((k) => `${k.type} (${k.description})`).join(' | ') },
);

/**
 * Where a tracked object is in its frame: left, top, width, height, each a fraction 0..1 of the
 * frame (normalised, so it holds for the snapshot at any size). Only real video knows one.
 */
export type DetectionBox = [x: number, y: number, w: number, h: number];

// an array of four (as the stream's zone points), not a JSON Schema tuple: OpenAPI tools and both
// generated clients read it as a plain list of numbers
export const DetectionBoxSchema = Type.Array(Type.Number({ minimum: 0, maximum: 1 }), {
  minItems: 4,
  maxItems: 4,
  description: 'the object in its snapshot: [x, y, w, h], left, top, width and height as fractions 0..1 of the frame; real video only',
  examples: [[0.31, 0.12, 0.18, 0.74]],
});

/** A box rounded to 4 decimals (a tenth of a pixel at 1000 px) and clamped into the frame. */
export function normalizeBox(box: readonly number[]): DetectionBox {
  const c = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 10_000) / 10_000;
  const x = c(box[0]);
  const y = c(box[1]);
  return [x, y, Math.min(c(box[2]), c(1 - x)), Math.min(c(box[3]), c(1 - y))];
}

/** What a source (sandbox, video pipeline, phone frames) produces. */
export interface DetectionInput {
  type: DetectionType;
  subtype?: string | null;
  /** person_count: number of people present */
  value?: number | null;
  /** a counted kind (vehicle, …): the number present */
  count?: number | null;
  /** 0..1 */
  confidence: number;
  /** epoch milliseconds */
  at: number;
  /** tracked-object id when the source tracks objects (video pipeline, sandbox) */
  track_id?: string | null;
  /** seconds the tracked object has been present (loitering) */
  dwell_s?: number | null;
  /** zone inside the camera view, when zones are configured */
  zone?: string | null;
  /** where the object is in its frame (video pipeline); sandbox detections have none */
  box?: DetectionBox | null;
  /** person with subtype 'recognized': the enrolled person whose face matched */
  person_id?: string | null;
  /**
   * Real video: every object tracked in the frame this detection came from (not only the ones the
   * frame reported), for drawing the frame whole on the live wall. Not stored in the history.
   */
  frame_objects?: FrameObject[] | null;
}

/** One tracked object in a frame of real video. */
export interface FrameObject {
  /** a tracked kind's detection type (person, animal, …) or a counted one's (vehicle, …) */
  type: DetectionType;
  subtype?: string;
  person_id?: string;
  track_id: string;
  box: DetectionBox;
}

/** A stored detection (history row). */
export interface DetectionRecord extends DetectionInput {
  id: string; // det_...
  tenant_id: string;
  stream_id: string;
  scene_id: string;
  location: string;
}
