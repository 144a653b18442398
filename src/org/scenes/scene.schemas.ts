import { Type, type Static } from '@sinclair/typebox';
import { DetectionBoxSchema, DetectionTypeSchema } from '../detections/index.ts';
import { IsoTime, ListOf, ListQuery, Location, Name, Text, prefixedId, MAX_TIME_ZONE_CHARS } from '../../platform/http/index.ts';

/** The longest scene question. */
const MAX_QUERY_CHARS = 1000;

/** How a scene's streams combine into its counts (docs/decisions.md, "One location, several cameras"). */
export const StreamCombineSchema = Type.Union([Type.Literal('max'), Type.Literal('sum')], {
  description:
    'how the streams of the location combine into its counts: max (default) when their views overlap, so a person two cameras see counts once; sum when they watch disjoint areas',
});

/** When a stated count is from, and whether it is current (docs/decisions.md, "Freshness"). */
export const FreshnessProperties = {
  as_of: Type.Union([IsoTime, Type.Null()], {
    description: 'when the counts are from: the time of reading while a stream of the scene is live, else its last reading (null: no reading yet)',
  }),
  sources_live: Type.Boolean({ description: 'at least one stream of the scene is live' }),
  stale: Type.Boolean({
    description: 'no stream has been live for longer than the silence threshold (30 s): the counts are the last reading at as_of, not the present',
  }),
};

export const SceneIdParams = Type.Object({ scene_id: Type.String({ description: 'scene_…' }) });

export const SceneSchema = Type.Object(
  {
    id: prefixedId('scene'),
    object: Type.Literal('scene'),
    location: Type.String(),
    people_count: Type.Integer({ description: 'people present at as_of, the location’s streams combined as stream_combine says' }),
    vehicle_count: Type.Integer(),
    object_counts: Type.Object(
      {},
      {
        additionalProperties: Type.Integer({ minimum: 0 }),
        description: 'objects present of each counted detection type (vehicle, and any other counted kind a stream has reported), the streams combined',
        examples: [{ vehicle: 2 }],
      },
    ),
    crowd_density: Type.Number({ description: 'people ÷ capacity, a fraction' }),
    capacity: Type.Integer(),
    time_zone: Type.String(),
    anomaly_flag: Type.Boolean(),
    active_anomalies: Type.Integer(),
    stream_ids: Type.Array(Type.String()),
    stream_combine: StreamCombineSchema,
    last_detection_at: Type.Union([IsoTime, Type.Null()]),
    ...FreshnessProperties,
    created_at: IsoTime,
    updated_at: IsoTime,
  },
  { $id: 'Scene' },
);
export type SceneView = Static<typeof SceneSchema>;

export const SceneList = ListOf(Type.Ref('Scene'));
export const SceneListQuery = Type.Composite([ListQuery, Type.Object({ location: Type.Optional(Location) })], {
  additionalProperties: false,
});

export const StreamIdParams = Type.Object({ id: Type.String({ description: 'stream_…' }) });
export const StreamDetectionsQuery = Type.Composite(
  [
    ListQuery,
    Type.Object({
      type: Type.Optional(DetectionTypeSchema),
      from: Type.Optional(Type.String({ format: 'date-time', description: 'only detections at or after this time (RFC 3339)' })),
      to: Type.Optional(Type.String({ format: 'date-time', description: 'only detections at or before this time (RFC 3339)' })),
    }),
  ],
  { additionalProperties: false },
);
export type StreamDetectionsQueryT = Static<typeof StreamDetectionsQuery>;
export const DetectionList = ListOf(Type.Ref('Detection'));
export type DetectionListT = { object: 'list'; data: DetectionView[]; has_more: boolean };

export const UpdateSceneBody = Type.Object(
  {
    capacity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'people the location holds; crowd_density = people ÷ capacity' })),
    time_zone: Type.Optional(
      Name({ maxLength: MAX_TIME_ZONE_CHARS, description: 'IANA time zone used to read time phrases in queries', examples: ['Europe/Lisbon'] }),
    ),
    stream_combine: Type.Optional(StreamCombineSchema),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateSceneBodyT = Static<typeof UpdateSceneBody>;

export const DetectionSchema = Type.Object(
  {
    id: prefixedId('det'),
    type: DetectionTypeSchema,
    subtype: Type.Optional(
      Type.String({
        description:
          'person: recognized (the face matched an enrolled person, see person_id) or unrecognized (a face was seen and matched nobody); absent when no face was seen. animal: cat or dog',
        examples: ['unrecognized'],
      }),
    ),
    value: Type.Optional(Type.Number({ description: 'with person_count: people present' })),
    count: Type.Optional(Type.Number({ description: 'with vehicle: vehicles present' })),
    location: Type.String(),
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    timestamp: IsoTime,
    stream_id: Type.String(),
    track_id: Type.Optional(Type.String()),
    dwell_s: Type.Optional(Type.Number()),
    zone: Type.Optional(Type.String()),
    box: Type.Optional(DetectionBoxSchema),
    person_id: Type.Optional(prefixedId('person', 'subtype recognized: the enrolled person (GET /v1/people/{id}); may name a person since erased')),
  },
  { $id: 'Detection' },
);
export type DetectionView = Static<typeof DetectionSchema>;

export const QueryBody = Type.Object(
  {
    stream_id: Type.String({ minLength: 1, description: 'a stream of this scene' }),
    query: Text({ maxLength: MAX_QUERY_CHARS, examples: ['How many people are in the lobby right now?'] }),
    window: Type.Optional(
      Name({
        maxLength: 16,
        description:
          'duration looked back from now: an integer followed by s, m, h or d (e.g. 15m), up to 30d. Optional: a time in the question ("since 9am") sets the span itself; a question with no time and a request with no window is answered over the last 15m, and `interpretation.window` says that default was used',
        examples: ['15m'],
      }),
    ),
  },
  { additionalProperties: false },
);
export type QueryBodyT = Static<typeof QueryBody>;

export const QueryResult = Type.Object({
  stream_id: Type.String(),
  query: Type.String(),
  answered_at: IsoTime,
  detections: Type.Array(Type.Ref('Detection')),
  crowd_density: Type.Number(),
  anomaly_flag: Type.Boolean(),
  answer: Type.String({ description: 'one plain sentence; a question about now on a stale scene is answered with the last reading and its time, never "now"' }),
  ...FreshnessProperties,
  interpretation: Type.Object({
    metric: Type.String(),
    aggregate: Type.String(),
    from: IsoTime,
    to: IsoTime,
    summary: Type.String(),
    time_phrase: Type.Optional(Type.String()),
    window: Type.Optional(
      Type.Object(
        {
          duration: Type.String({ description: 'the window in the request notation, e.g. 15m', examples: ['15m'] }),
          source: Type.Union([Type.Literal('request'), Type.Literal('default')], {
            description: "request: the request's `window`; default: the request gave none and the question named no time",
          }),
        },
        { description: "present when the answer's span is the window looked back from now (the question named no time of its own)" },
      ),
    ),
  }),
});
export type QueryResultT = Static<typeof QueryResult>;
