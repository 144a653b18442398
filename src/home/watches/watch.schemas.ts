import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, ListOf, ListQuery } from '../../platform/http/index.ts';
import { RECURRENCES, WATCH_CONDITIONS } from '../agent/index.ts';

export const WatchIdParams = Type.Object({ id: Type.String({ description: 'wat_…' }) });

export const WatchSchema = Type.Object(
  {
    id: Type.String({ description: 'wat_…' }),
    object: Type.Literal('watch'),
    subject: Type.String({ description: 'what is watched, in the words of the request', examples: ['back door'] }),
    sensor_ids: Type.Array(Type.String(), { description: 'the sensors (stream_…) under observation' }),
    window: Type.String({ description: 'the window in words', examples: ['sunset to sunrise'] }),
    starts_at: IsoTime,
    ends_at: IsoTime,
    recurrence: Type.Union(RECURRENCES.map((r) => Type.Literal(r))),
    conditions: Type.Union([Type.Array(Type.Union(WATCH_CONDITIONS.map((c) => Type.Literal(c)))), Type.Null()], {
      description: 'what raises events; null = everything the sensors report',
    }),
    person_ids: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: 'only these known people (GET /v1/people), recognized by face on cameras; null = anyone',
    }),
    status: Type.Union([Type.Literal('active'), Type.Literal('stood_down')]),
    observing: Type.Boolean({ description: 'true while a window of the watch is open' }),
    next_window: Type.Union([Type.Object({ starts_at: IsoTime, ends_at: IsoTime }), Type.Null()], {
      description: 'the window open now, or the next one; null when none is left or the watch is stood down',
    }),
    conversation_id: Type.Union([Type.String(), Type.Null()]),
    created_at: IsoTime,
    updated_at: IsoTime,
    stood_down_at: Type.Union([IsoTime, Type.Null()]),
  },
  { $id: 'Watch' },
);
export type WatchView = Static<typeof WatchSchema>;

export const WatchList = ListOf(Type.Ref('Watch'));
export const WatchListQuery = Type.Composite(
  [ListQuery, Type.Object({ status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('stood_down')], { default: 'active' })) })],
  { additionalProperties: false },
);
export type WatchListQueryT = Static<typeof WatchListQuery>;
