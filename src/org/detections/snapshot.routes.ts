import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf, withErrors } from '../../platform/http/index.ts';
import type { SnapshotService } from './snapshot.service.ts';

const DetectionIdParams = Type.Object({ id: Type.String({ description: 'det_…' }) });
const StreamIdParams = Type.Object({ id: Type.String({ description: 'stream_…' }) });
const Jpeg = Type.Unsafe<Buffer>({
  description: 'the frame as JPEG',
  content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
});

export const snapshotRoutes =
  (snapshots: SnapshotService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v1/detections/:id/snapshot',
      {
        config: { surface: 'organization', capability: 'streams:read' },
        schema: {
          tags: ['Streams'],
          security: [{ bearerAuth: [] }],
          operationId: 'getDetectionSnapshot',
          summary: 'The camera frame a detection was made on',
          description:
            'JPEG of the whole frame at detect size, kept for person and vehicle detections of real video (RTSP, HTTP, phone frames) for as long as the detection history. 404 for detections without one (counts, sandbox).',
          params: DetectionIdParams,
          response: withErrors({ 200: Jpeg }),
        },
      },
      async (req, reply) =>
        reply
          .type('image/jpeg')
          .header('cache-control', 'private, max-age=86400')
          .send(await snapshots.getJpeg(principalOf(req), req.params.id)),
    );

    app.get(
      '/v1/streams/:id/snapshot',
      {
        config: { surface: 'organization', capability: 'streams:read' },
        schema: {
          tags: ['Streams'],
          security: [{ bearerAuth: [] }],
          operationId: 'getStreamSnapshot',
          summary: 'The latest camera frame of a stream',
          description:
            "JPEG of the stream's most recent frame that produced a person, animal or vehicle detection (real video: RTSP, HTTP, phone frames, WebRTC), e.g. to draw zones and motion masks on. `Last-Modified` is the frame's time. 404 while the stream has none (sandbox streams never do).",
          params: StreamIdParams,
          response: withErrors({ 200: Jpeg }),
        },
      },
      async (req, reply) => {
        const { jpeg, at } = await snapshots.latestForStream(principalOf(req), req.params.id);
        // the latest frame changes: a cache may keep it only while it revalidates
        return reply.type('image/jpeg').header('cache-control', 'private, no-cache').header('last-modified', new Date(at).toUTCString()).send(jpeg);
      },
    );
  };
