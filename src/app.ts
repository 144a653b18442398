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
import { sandboxRoutes } from './sandbox/sandbox.routes.ts';
// webhooks & audit API (issue 3 §2, §6)
import { WebhookDeliverySchema, WebhookEndpointSchema } from './webhooks/webhook.schemas.ts';
import { webhookRoutes } from './webhooks/webhook.routes.ts';
import { AuditEntrySchema } from './audit/audit.schemas.ts';
import { auditRoutes } from './audit/audit.routes.ts';
// household agent (issue 4)
import { BoundarySchema, SensorSchema } from './household/household.schemas.ts';
import { householdRoutes } from './household/household.routes.ts';
import { WatchSchema } from './watches/watch.schemas.ts';
import { watchRoutes } from './watches/watch.routes.ts';
import { EventSchema } from './events/event.schemas.ts';
import { eventRoutes } from './events/event.routes.ts';
import { ActionSchema, ConversationReplySchema } from './conversations/conversation.schemas.ts';
import { conversationRoutes } from './conversations/conversation.routes.ts';
// alerts, incidents, responders, protocols, operator control (issue 3 §1, §3–§5)
import { OPERATIONS_SCHEMAS, OPERATIONS_TAGS, operationsRoutes } from './operations/operations.ts';
// real video: phone frames, detection snapshots (issue 6)
import { streamFrameRoutes } from './streams/stream-frame.routes.ts';
import { snapshotRoutes } from './detections/snapshot.routes.ts';
// WebRTC ingest: WHIP, publish tokens, the phone publish page (issue 15)
import { publishPageRoutes, publishTokenRoutes, whipRoutes } from './webrtc/whip.routes.ts';

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
  const schemas = [ProblemSchema, StreamSchema, SceneSchema, DetectionSchema, WebhookEndpointSchema, WebhookDeliverySchema, AuditEntrySchema,
    // household agent (issue 4)
    SensorSchema, BoundarySchema, WatchSchema, EventSchema, ActionSchema, ConversationReplySchema,
    // operations (issue 3)
    ...OPERATIONS_SCHEMAS,
  ];
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
        { name: 'Webhooks', description: 'Signed event deliveries with 24 h retries and a delivery log (both surfaces)' },
        { name: 'Audit', description: 'Append-only, hash-chained audit trail: list, verify, export' },
        { name: 'Conversations', description: 'The household agent: plain-language requests, replies and actions (Surface A)' },
        { name: 'Watches', description: 'What the agent keeps under observation; list and stand down (Surface A)' },
        { name: 'Events', description: 'Observations, alerts and changes of a household, newest first (Surface A)' },
        { name: 'Household', description: 'The home: place, rooms, sensors, boundaries (Surface A, read-only)' },
        ...OPERATIONS_TAGS,
        { name: 'Sandbox', description: 'Synthetic scenes and on-demand test detections' },
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
  await app.register(webhookRoutes(ctx.webhooks));
  await app.register(auditRoutes(ctx.auditTrail));
  // household agent (issue 4)
  await app.register(householdRoutes(ctx.household));
  await app.register(watchRoutes(ctx.watches));
  await app.register(eventRoutes(ctx.events));
  await app.register(conversationRoutes(ctx.conversations, { slots: ctx.streamSlots, clock: ctx.clock, publicBaseUrl: ctx.config.publicBaseUrl }));
  // operations (issue 3)
  await app.register(operationsRoutes(ctx.operations));
  // real video (issue 6)
  await app.register(sandboxRoutes(ctx.sandbox));
  await app.register(streamFrameRoutes(ctx.streams));
  await app.register(snapshotRoutes(ctx.snapshots));
  // WebRTC ingest (issue 15)
  await app.register(publishTokenRoutes(ctx.whip));
  await app.register(whipRoutes(ctx.whip, { iceServers: ctx.config.iceServers }));
  await app.register(publishPageRoutes({ iceServers: ctx.config.iceServers }));
  return app;
}
