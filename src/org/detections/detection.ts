// The detection type lives in the kernel (platform/kinds, docs/decisions.md 'One table of detection
// kinds'); this file keeps the old path for tests, benches and scripts that import it directly.
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
} from '../../platform/kinds/index.ts';
