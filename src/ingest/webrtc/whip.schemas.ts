import { Type, type Static } from '@sinclair/typebox';
import { IsoTime } from '../../platform/http/common.schemas.ts';

/** A webrtc stream's publish credentials, shown once: at creation and at each rotation (issue 15). */
export const PublishInfoSchema = Type.Object({
  object: Type.Literal('publish_token'),
  stream_id: Type.String(),
  token: Type.String({ description: 'vpt_… publish token for this stream\'s WHIP endpoint; shown only now, stored hashed. It is not an API key and can do nothing else.' }),
  token_preview: Type.String({ description: 'the token\'s first and last characters, for telling tokens apart later' }),
  whip_url: Type.String({ description: 'WHIP endpoint (RFC 9725): POST an SDP offer with Authorization: Bearer <token>' }),
  publish_url: Type.String({ description: 'page that publishes the camera of the phone or browser that opens it (it carries the token: share it like one)' }),
  created_at: IsoTime,
});
export type PublishInfo = Static<typeof PublishInfoSchema>;

export const RevokedPublishToken = Type.Object({
  object: Type.Literal('publish_token'),
  stream_id: Type.String(),
  revoked: Type.Literal(true),
  /** whether a live publisher was disconnected by the revocation */
  ended_session: Type.Boolean({ description: 'true when a publisher was live and has been disconnected' }),
});

export const WhipSessionParams = Type.Object({ id: Type.String({ description: 'stream_…' }), session: Type.String({ description: 'whip_…' }) });
