import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf, requireBinaryBody, withErrors } from '../../platform/http/index.ts';
import { VigilError } from '../../platform/lib/index.ts';
import { MAX_JPEG_BYTES } from '../../ingest/video/index.ts';
import type { StreamService } from './stream.service.ts';
import { FrameResult, StreamIdParams } from './stream.schemas.ts';

/**
 * Phones push JPEG frames. Its own plugin, because it is the one route whose
 * body is not JSON: the image/jpeg parser and the 2 MiB limit stay inside it, and every other
 * Content-Type is 415 here.
 */
/** Body "validation" for the frame: JSON Schema has nothing to say about JPEG bytes. */
const acceptDecodedLater = () => true;

export const streamFrameRoutes =
  (streams: StreamService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('image/jpeg', { parseAs: 'buffer', bodyLimit: MAX_JPEG_BYTES }, (_req, body, done) => done(null, body));
    // Fastify's own body errors, worded for this route; the app's handler turns VigilErrors into problems
    app.setErrorHandler((err: { code?: string }) => {
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        throw new VigilError('payload_too_large', `A frame may be at most ${MAX_JPEG_BYTES} bytes (2 MiB).`, { param: 'body' });
      }
      if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
        throw new VigilError('unsupported_media_type', 'Send the frame as Content-Type: image/jpeg.', { param: 'Content-Type' });
      }
      throw err;
    });

    app.post(
      '/v1/streams/:id/frames',
      {
        config: { surface: 'organization', capability: 'streams:write' },
        schema: {
          tags: ['Streams'],
          security: [{ bearerAuth: [] }],
          operationId: 'pushStreamFrame',
          summary: 'Push a phone camera frame',
          description:
            'For streams with source_type mobile: one JPEG frame (≤ 2 MiB, EXIF orientation applied) goes through the motion gate, the object detector and the tracker ' +
            'and answers once its detections are stored. The stream is live while frames arrive and offline after 30 s without one.',
          params: StreamIdParams,
          // OpenAPI's way of saying "raw bytes" (what generated clients key on); the parsed body is a
          // Buffer, so the validator compiler below does not hold it to `type: string`
          body: Type.Unsafe<Buffer>({
            description: 'the frame as JPEG bytes',
            content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
          }),
          response: withErrors({ 200: FrameResult }),
        },
        // the bytes are checked by the JPEG decoder (invalid_image), not by JSON Schema; params as usual
        validatorCompiler: (req) => (req.httpPart === 'body' ? acceptDecodedLater : app.validatorCompiler!(req)),
        preValidation: requireBinaryBody('the frame', 'image/jpeg', 'invalid_image'),
      },
      async (req) => streams.pushFrame(principalOf(req), req.params.id, req.body),
    );

    // cluster mode: a frame another node received for a stream this node runs (signed by that node;
    // docs/deployment.md, "Forwarding to a stream's owner"); not part of the public API
    app.post<{ Params: { id: string } }>('/internal/v1/streams/:id/frames', { schema: { hide: true, params: StreamIdParams } }, async (req) =>
      streams.pushForwardedFrame(
        { method: req.method, url: req.url, headers: req.headers, body: Buffer.isBuffer(req.body) ? req.body : undefined },
        req.params.id,
        req.body,
      ),
    );
  };
