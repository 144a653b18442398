import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../platform/http/index.ts';
import { withErrors } from '../../platform/http/index.ts';
import type { SnapshotService } from './snapshot.service.ts';

const DetectionIdParams = Type.Object({ id: Type.String({ description: 'det_…' }) });

export const snapshotRoutes = (snapshots: SnapshotService): FastifyPluginAsyncTypebox => async (app) => {
  app.get('/v1/detections/:id/snapshot', {
    config: { surface: 'organization', capability: 'streams:read' },
    schema: {
      tags: ['Streams'], security: [{ bearerAuth: [] }], operationId: 'getDetectionSnapshot', summary: 'The camera frame a detection was made on',
      description: 'JPEG of the whole frame at detect size, kept for person and vehicle detections of real video (RTSP, HTTP, phone frames) for as long as the detection history. 404 for detections without one (counts, sandbox).',
      params: DetectionIdParams,
      response: withErrors({
        200: Type.Unsafe<Buffer>({
          description: 'the frame as JPEG',
          content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
        }),
      }),
    },
  }, async (req, reply) => reply.type('image/jpeg').header('cache-control', 'private, max-age=86400').send(await snapshots.getJpeg(principalOf(req), req.params.id)));
};
