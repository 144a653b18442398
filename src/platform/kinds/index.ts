// The module's public face: what other modules may import (docs/architecture.md).
// The kernel of detections: the detection type and the one table of detection kinds, below
// ingest and org (docs/decisions.md, 'One table of detection kinds').
export {
  ANIMAL_KINDS,
  DETECTION_TYPES,
  DetectionBoxSchema,
  DetectionTypeSchema,
  normalizeBox,
  type AnimalKind,
  type DetectionBox,
  type DetectionInput,
  type DetectionRecord,
  type DetectionType,
  type FrameObject,
} from './detection.ts';
export {
  ALERT_CONDITIONS,
  COUNTED_KINDS,
  DETECTION_KINDS,
  DETECTOR_LABEL_CLASSES,
  KIND_WORDS,
  TRACK_CLASSES,
  TRACK_MIN_SCORE,
  WATCHED_KINDS,
  WATCH_CONDITION_WORDS,
  alertConditionOf,
  kindOf,
  kindOfClass,
  type AlertCondition,
  type DetectionKind,
  type DetectorSpec,
  type SceneReading,
  type WatchSpec,
} from './kinds.ts';
