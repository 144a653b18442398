import { Type, type Static } from '@sinclair/typebox';
import { DetectionTypeSchema } from '../detections/index.ts';
import { COUNTED_KINDS, DETECTION_KINDS } from '../../platform/kinds/index.ts';
import { Name, MAX_LABEL_CHARS } from '../../platform/http/index.ts';
import { LOITERING_DWELL_S } from '../scenes/index.ts';

export const InjectDetectionBody = Type.Object(
  {
    stream_id: Type.String({ minLength: 1, description: 'a sandbox stream of this tenant' }),
    type: DetectionTypeSchema,
    subtype: Type.Optional(
      Name({
        maxLength: 64,
        description: `person: recognized (with person_id) or unrecognized (a face seen that matched nobody), absent when no face was seen; ${DETECTION_KINDS.filter(
          (k) => k.subtypes,
        )
          .map((k) => `${k.type} (required): ${k.subtypes!.join(' or ')}`)
          .join('; ')}`,
        examples: ['unrecognized'],
      }),
    ),
    person_id: Type.Optional(Type.String({ pattern: '^person_', description: 'person, subtype recognized: a known person of this tenant (POST /v1/people)' })),
    value: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, description: 'person_count: people present' })),
    count: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, description: `${COUNTED_KINDS.map((k) => k.type).join(', ')}: the number present` })),
    confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 0.9 })),
    dwell_s: Type.Optional(Type.Number({ minimum: 0, maximum: 86_400, description: `person: seconds present (${LOITERING_DWELL_S} or more is loitering)` })),
    track_id: Type.Optional(Name({ maxLength: MAX_LABEL_CHARS })),
  },
  { additionalProperties: false },
);
export type InjectDetectionBodyT = Static<typeof InjectDetectionBody>;
