import { Type, type Static } from '@sinclair/typebox';
import { IsoTime } from '../../platform/http/index.ts';


export const RevokedPublishToken = Type.Object({
  object: Type.Literal('publish_token'),
  stream_id: Type.String(),
  revoked: Type.Literal(true),
  /** whether a live publisher was disconnected by the revocation */
  ended_session: Type.Boolean({ description: 'true when a publisher was live and has been disconnected' }),
});

export const WhipSessionParams = Type.Object({ id: Type.String({ description: 'stream_…' }), session: Type.String({ description: 'whip_…' }) });
