import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { Type } from '@sinclair/typebox';
import { readFileSync } from 'node:fs';
import type { VigilContext } from './context.ts';
import { newId } from './lib/ids.ts';
import { installAuth } from './http/auth.ts';
import { installIdempotency } from './http/idempotency.ts';
import { installProblemHandlers, sendProblem } from './http/problem.ts';
import { VigilError } from './lib/errors.ts';
import { ProblemSchema } from './http/common.schemas.ts';
import { StreamSchema } from './streams/stream.schemas.ts';
import { streamRoutes } from './streams/stream.routes.ts';
import { DetectionSchema, SceneSchema } from './scenes/scene.schemas.ts';
import { sceneRoutes } from './scenes/scene.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    vigil: VigilContext;
  }
}

export interface BuildAppOptions {
  logger?: boolean | { level: string };
}

/** Body validation is strict (no coercion: a string is not a number); query strings coerce. */
function createValidators() {
  const common = { allErrors: false, strict: false, useDefaults: true, removeAdditional: false as const };
  const body = new Ajv({ ...common, coerceTypes: false });
  const query = new Ajv({ ...common, coerceTypes: 'array' as const });
  for (const a of [body, query]) {
    (addFormats as unknown as (a: Ajv) => void)(a);
  }
  return { body, query };
}

/** Builds the HTTP app around a context; never listens (tests use app.inject()). */
export async function buildApp(ctx: VigilContext, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: 1024 * 1024,
    genReqId: () => newId('req'),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.decorate('vigil', ctx);
  // JSON only (spec: "All bodies are JSON"); routes that take other media types add their own parser.
  app.removeContentTypeParser('text/plain');

  const validators = createValidators();
  const schemas = [ProblemSchema, StreamSchema, SceneSchema, DetectionSchema];
  for (const s of schemas) {
    app.addSchema(s);
    validators.body.addSchema(s);
    validators.query.addSchema(s);
  }
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? validators.body : validators.query).compile(schema),
  );

  app.addHook('onRequest', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Vigil API',
        version: '1.0.0',
        description:
          'Physical-security API: Surface A (household conversational agent) and Surface B (scene/stream platform). ' +
          'Errors are application/problem+json with a stable `code` (see /docs/errors).',
      },
      servers: [{ url: ctx.config.publicBaseUrl }],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'vk_live_… or vk_test_… API key' } },
      },
      tags: [
        { name: 'Streams', description: 'Video and sensor sources (Surface B)' },
        { name: 'Scenes', description: 'Interpreted state per location and natural-language queries (Surface B)' },
        { name: 'System', description: 'Health and description' },
      ],
    },
    refResolver: { buildLocalReference: (json, _base, _frag, i) => String(json.$id ?? `def-${i}`) },
  });

  installProblemHandlers(app, ctx.config.publicBaseUrl);
  installAuth(app, { keys: ctx.keys, rateLimits: ctx.rateLimits, clock: ctx.clock, defaultRatePerMinute: ctx.config.rateLimitPerMinute });
  installIdempotency(app, { database: ctx.database, clock: ctx.clock });

  const Health = Type.Object({ status: Type.String() });
  app.get('/healthz', { schema: { tags: ['System'], security: [], operationId: 'healthz', summary: 'Process is up', response: { 200: Health } } }, async () => ({ status: 'ok' }));
  app.get('/readyz', {
    schema: { tags: ['System'], security: [], operationId: 'readyz', summary: 'Database is reachable', response: { 200: Health, 503: Type.Ref('Problem') } },
  }, async (req, reply) => {
    try {
      await ctx.database.ping();
      return { status: 'ready' };
    } catch (err) {
      req.log.warn({ err }, 'readiness check failed');
      return sendProblem(reply, ctx.config.publicBaseUrl, new VigilError('service_unavailable', 'The database is not reachable.'));
    }
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  const errorsDoc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
  app.get('/docs/errors', { schema: { hide: true } }, async (_req, reply) => reply.type('text/markdown; charset=utf-8').send(errorsDoc));

  await app.register(streamRoutes(ctx.streams));
  await app.register(sceneRoutes(ctx.scenes));
  return app;
}
