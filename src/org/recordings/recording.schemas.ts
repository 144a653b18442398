import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, Text, MAX_SHORT_TEXT_CHARS } from '../../platform/http/index.ts';

export const RangeQuery = Type.Object(
  {
    from: Type.String({ format: 'date-time', description: 'start of the range (RFC 3339)' }),
    to: Type.String({ format: 'date-time', description: 'end of the range (RFC 3339); after from, at most VIGIL_CLIP_MAX_SECONDS (default 3600 s) later' }),
  },
  { additionalProperties: false },
);
export type RangeQueryT = Static<typeof RangeQuery>;

export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const SegmentSchema = Type.Object(
  {
    id: Type.String({ description: 'rseg_…' }),
    kind: Type.Union([Type.Literal('video'), Type.Literal('still')], { description: 'about 10 s of video, or one phone still' }),
    start: IsoTime,
    end: IsoTime,
    duration_ms: Type.Integer(),
    bytes: Type.Integer(),
    sha256: Type.String({ description: 'SHA-256 of the segment file, as sealed in its audit entry' }),
    audit_id: Type.String({ description: 'the recording.segment_closed audit entry that sealed it' }),
  },
  { $id: 'RecordingSegment' },
);

export const RecordingList = Type.Object({
  stream_id: Type.String(),
  from: IsoTime,
  to: IsoTime,
  recorded_ms: Type.Integer({ description: 'how much of the range is recorded' }),
  segments: Type.Array(Type.Ref('RecordingSegment')),
  gaps: Type.Array(Type.Object({ from: IsoTime, to: IsoTime }), { description: 'parts of the range with no recording (longer than 1.5 s)' }),
});

export const HoldBody = Type.Object(
  { reason: Type.Optional(Text({ maxLength: MAX_SHORT_TEXT_CHARS, description: 'why the recordings are held (a claim, a police request)' })) },
  { additionalProperties: false },
);
export const HoldView = Type.Object({ incident_id: Type.String(), held: Type.Boolean(), reason: Type.Union([Type.String(), Type.Null()]), set_at: IsoTime });

export const Video = Type.Unsafe<Buffer>({
  description: 'the clip: MP4 (H.264, index first) or WebM (VP8 from a WHIP publisher); honours Range',
  content: { 'video/mp4': { schema: { type: 'string', format: 'binary' } }, 'video/webm': { schema: { type: 'string', format: 'binary' } } },
});
export const Zip = Type.Unsafe<Buffer>({
  description: 'the evidence bundle (zip): segments, clip, snapshots, incident.json, manifest.json, audit/chain.ndjson, audit/checkpoint.json',
  content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
});

export const DeletedRange = Type.Object({
  stream_id: Type.String(),
  from: IsoTime,
  to: IsoTime,
  deleted: Type.Integer({ description: 'segments deleted' }),
  kept_held: Type.Integer({ description: 'segments kept because an open incident or a legal hold holds them' }),
});
