import { Type } from '@sinclair/typebox';

export const RevokedPublishToken = Type.Object({
  object: Type.Literal('publish_token'),
  stream_id: Type.String(),
  revoked: Type.Literal(true),
  /** whether a live publisher was disconnected by the revocation */
  ended_session: Type.Boolean({ description: 'true when a publisher was live and has been disconnected' }),
});

export const WhipSessionParams = Type.Object({ id: Type.String({ description: 'stream_…' }), session: Type.String({ description: 'whip_…' }) });

/**
 * How the WHIP endpoint is described in openapi.json (RFC 9725): SDP in and out, not JSON, and a
 * publish token instead of an API key. `x-vigil-client: false` keeps it out of the generated
 * clients: WebRTC stacks and WHIP clients (OBS, GStreamer, browsers, the publish page) speak it.
 */
export const WhipDoc = {
  tags: ['Streams'],
  security: [{ publishToken: [] }],
  'x-vigil-client': false,
} as const;
export const WhipPublishQuery = Type.Object(
  {
    takeover: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        description: 'true: disconnect the stream\'s live publisher, if any, and take its place (the publish page\'s "Take over")',
      }),
    ),
  },
  { additionalProperties: false },
);
export const WhipStreamParams = Type.Object({ id: Type.String({ description: 'stream_… (a webrtc stream)' }) });
/** Any body: the route's own parser takes it as text, and a wrong content type is answered 415 by the route, not by validation. */
export const SdpOffer = Type.Unsafe<string>({
  description: 'the SDP offer (RFC 8866) as text, at most 64 KiB, with ICE credentials; Content-Type: application/sdp',
});
export const TrickleFragment = Type.Unsafe<string>({
  description: 'an SDP fragment with ICE candidates (RFC 8840); Content-Type: application/trickle-ice-sdpfrag; If-Match: the session ETag',
});
export const SdpAnswer = Type.Unsafe<Buffer>({
  description:
    'the SDP answer. Location: the session URL (PATCH to trickle, DELETE to end); ETag: the session tag for If-Match; Link: ICE servers (rel="ice-server") when configured',
  content: { 'application/sdp': { schema: { type: 'string' } } },
});
export const NoContent = Type.Unsafe<void>({ description: 'candidates taken' });
export const SessionEnded = Type.Unsafe<void>({ description: 'the session ended and the publisher disconnected' });
