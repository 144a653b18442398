import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, ListOf, ListQuery, Location, prefixedId } from '../http/common.schemas.ts';

export const SOURCE_TYPES = ['rtsp', 'webrtc', 'mobile', 'sandbox'] as const;
export const STREAM_STATUSES = ['connecting', 'live', 'reconnecting', 'offline'] as const;

export const StreamIdParams = Type.Object({ id: Type.String({ description: 'stream_…' }) });

export const CreateStreamBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, examples: ['North lobby camera'] }),
    source_type: Type.Union(
      SOURCE_TYPES.map((s) => Type.Literal(s)),
      { description: 'rtsp camera, webrtc (WHIP) publisher, mobile phone pushing frames, or sandbox synthetic scene' },
    ),
    source_url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'rtsp://… for cameras; sandbox://<name>?scenario=<scenario>&seed=<int> for synthetic scenes',
      examples: ['sandbox://lobby?scenario=lobby&seed=7'],
    }),
    location: Location,
  },
  { additionalProperties: false },
);
export type CreateStreamBodyT = Static<typeof CreateStreamBody>;

export const UpdateStreamBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    source_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    location: Type.Optional(Location),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateStreamBodyT = Static<typeof UpdateStreamBody>;

export const StreamSchema = Type.Object(
  {
    id: prefixedId('stream'),
    object: Type.Literal('stream'),
    name: Type.String(),
    source_type: Type.String(),
    source_url: Type.String({ description: 'with any password masked' }),
    location: Type.String(),
    scene_id: prefixedId('scene'),
    status: Type.Union(STREAM_STATUSES.map((s) => Type.Literal(s))),
    sandbox: Type.Boolean({ description: 'true when the stream produces synthetic sandbox data' }),
    error: Type.Union([Type.String(), Type.Null()]),
    last_frame_at: Type.Union([IsoTime, Type.Null()]),
    created_at: IsoTime,
    updated_at: IsoTime,
  },
  { $id: 'Stream' },
);
export type StreamView = Static<typeof StreamSchema>;

export const StreamList = ListOf(Type.Ref('Stream'));
export const StreamListQuery = Type.Composite([
  ListQuery,
  Type.Object({ location: Type.Optional(Location) }),
], { additionalProperties: false });

export const DeletedStream = Type.Object({
  id: Type.String(),
  object: Type.Literal('stream'),
  deleted: Type.Literal(true),
});
