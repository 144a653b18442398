import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, ListOf, ListQuery } from '../../platform/http/index.ts';

export const SCENE_HISTORY_RANGES = { '1h': { ms: 3600_000, bucketMs: 60_000 }, '24h': { ms: 86_400_000, bucketMs: 15 * 60_000 } } as const;
export type SceneHistoryRange = keyof typeof SCENE_HISTORY_RANGES;

export const SceneHistoryParams = Type.Object({ scene_id: Type.String({ description: 'scene_…' }) });
export const SceneHistoryQuery = Type.Object(
  {
    range: Type.Optional(
      Type.Union([Type.Literal('1h'), Type.Literal('24h')], {
        default: '1h',
        description: 'the last hour (1-minute points) or the last day (15-minute points)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SceneHistoryQueryT = Static<typeof SceneHistoryQuery>;

export const SceneHistorySchema = Type.Object({
  object: Type.Literal('scene_history'),
  scene_id: Type.String(),
  location: Type.String(),
  range: Type.Union([Type.Literal('1h'), Type.Literal('24h')]),
  bucket_s: Type.Integer(),
  from: IsoTime,
  to: IsoTime,
  points: Type.Array(
    Type.Object({
      at: IsoTime,
      people: Type.Integer({
        description: 'people in the interval starting at `at`: the sum of each stream’s peak count in it (a count holds until the stream’s next reading)',
      }),
    }),
  ),
});
export type SceneHistoryView = Static<typeof SceneHistorySchema>;

/** GET /v1/scenes/history: a page of scenes as GET /v1/scenes pages them, each with its chart. */
export const SceneHistoryListQuery = Type.Object(
  {
    range: SceneHistoryQuery.properties.range,
    limit: ListQuery.properties.limit,
    starting_after: Type.Optional(Type.String({ description: 'Cursor: scenes after this scene id, as GET /v1/scenes pages them' })),
    ending_before: Type.Optional(Type.String({ description: 'Cursor: scenes before this scene id' })),
  },
  { additionalProperties: false },
);
export const SceneHistoryList = ListOf(SceneHistorySchema);
