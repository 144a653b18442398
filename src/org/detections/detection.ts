import { Type } from '@sinclair/typebox';

/**
 * A Detection as the spec's Resources table names it (spec: "Detection").
 * person_count carries `value`, vehicle carries `count`, person may carry `subtype`
 * (e.g. "unrecognized"). door_open and motion come from household contact/motion sensors.
 * animal is one tracked cat or dog (like person): `subtype` names which (ANIMAL_KINDS).
 *
 * This list is the one place a detection type is defined: the Detection view, the sandbox
 * injection body and the webhook payload use DetectionTypeSchema / DetectionType.
 */
export const DETECTION_TYPES = ['person_count', 'vehicle', 'person', 'door_open', 'motion', 'animal'] as const;
export type DetectionType = (typeof DETECTION_TYPES)[number];

/** The animals the detector tells apart (COCO classes it already sees); an animal detection's subtype. */
export const ANIMAL_KINDS = ['cat', 'dog'] as const;
export type AnimalKind = (typeof ANIMAL_KINDS)[number];

export const DetectionTypeSchema = Type.Union(
  DETECTION_TYPES.map((t) => Type.Literal(t)),
  { description: 'person_count | vehicle | person | door_open | motion | animal (a cat or dog; subtype says which)' },
);

/** What a source (sandbox, video pipeline, phone frames) produces. */
export interface DetectionInput {
  type: DetectionType;
  subtype?: string | null;
  /** person_count: number of people present */
  value?: number | null;
  /** vehicle: number of vehicles present */
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
}

/** A stored detection (history row). */
export interface DetectionRecord extends DetectionInput {
  id: string; // det_...
  tenant_id: string;
  stream_id: string;
  scene_id: string;
  location: string;
}
