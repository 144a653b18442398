import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf, principalOf, withErrors } from '../../platform/http/index.ts';
import { InjectDetectionBody } from './sandbox.schemas.ts';
import type { SandboxService } from './sandbox.service.ts';

export const sandboxRoutes =
  (sandbox: SandboxService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/v1/sandbox/detections',
      {
        config: { surface: 'any', capability: 'streams:write' },
        schema: {
          tags: ['Sandbox'],
          security: [{ bearerAuth: [] }],
          operationId: 'injectSandboxDetection',
          summary: 'Inject a synthetic detection into a sandbox stream',
          description:
            'Runs one detection, timestamped now, through the real pipeline of a sandbox stream (source_type sandbox, or any stream of a test key): ' +
            'the scene updates, alert rules and watches evaluate it, and an unrecognized person or a dwell of 300 s or more raises detection.anomaly. ' +
            'Streams reading a real source answer 409 stream_not_sandbox. A household sensor that is muted answers 409 sensor_muted, and one in a place ' +
            'left alone 409 sensor_left_alone: nothing from it is taken in (the simulated home drops its readings the same way).',
          body: InjectDetectionBody,
          response: withErrors({ 201: Type.Ref('Detection') }),
        },
      },
      async (req, reply) => reply.code(201).send(await sandbox.injectDetection(principalOf(req), actorOf(req), req.body)),
    );
  };
