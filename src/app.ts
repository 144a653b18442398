import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { readFileSync } from 'node:fs';
import type { VigilContext } from './context.ts';
import { newId } from './lib/ids.ts';
import { installAuth } from './http/auth.ts';
import { AuthFailureLimiter } from './http/rate-limit.ts';
import { installIdempotency } from './http/idempotency.ts';
import { installProblemHandlers, sendProblem } from './http/problem.ts';
import { createValidatorCompiler } from './http/validation.ts';
import { capConnectionsPerAddress, serverOptions } from './http/connection.ts';
import { OneLineRequestLog } from './http/request-log.ts';
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
import { AuditCheckpointSchema, AuditEntrySchema } from './audit/audit.schemas.ts';
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
// keys in account settings (issue 9 §3)
import { ApiKeySchema } from './keys/key.schemas.ts';
import { keyRoutes } from './keys/key.routes.ts';
// WebRTC ingest: WHIP, publish tokens, the phone publish page (issue 15)
import { publishPageRoutes, publishTokenRoutes, whipRoutes } from './webrtc/whip.routes.ts';
// web console and the organization live feed (issue 13)
import { ConsoleSessionSchema, consoleCookieAuth, registerConsole } from './console/index.ts';
import { orgEventStreamRoutes, sceneHistoryRoutes } from './org/live/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    vigil: VigilContext;
  }
}

export interface BuildAppOptions {
  logger?: boolean | { level: string };
  /** a pino logger to use instead (main.ts shares its own; tests capture what is logged) */
  loggerInstance?: FastifyBaseLogger;
}

/** Builds the HTTP app around a context; never listens (tests use app.inject()). */
export async function buildApp(ctx: VigilContext, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(opts.loggerInstance ? { loggerInstance: opts.loggerInstance } : { logger: opts.logger ?? false }),
    bodyLimit: 1024 * 1024,
    genReqId: () => newId('req'),
    logController: new OneLineRequestLog(),
    ...serverOptions(ctx.config.http, ctx.config.publicBaseUrl),
  }).withTypeProvider<TypeBoxTypeProvider>();
  capConnectionsPerAddress(app, ctx.config.http.maxConnectionsPerAddress, ctx.config.publicBaseUrl);
  app.decorate('vigil', ctx);
  // JSON only (spec: "All bodies are JSON"); routes that take other media types add their own parser.
  app.removeContentTypeParser('text/plain');

  const validators = createValidatorCompiler();
  const schemas = [ProblemSchema, StreamSchema, SceneSchema, DetectionSchema, WebhookEndpointSchema, WebhookDeliverySchema, AuditEntrySchema, AuditCheckpointSchema,
    // household agent (issue 4)
    SensorSchema, BoundarySchema, WatchSchema, EventSchema, ActionSchema, ConversationReplySchema,
    // operations (issue 3)
    ...OPERATIONS_SCHEMAS,
    // keys (issue 9 §3)
    ApiKeySchema,
    // web console (issue 13)
    ConsoleSessionSchema,
  ];
  for (const s of schemas) {
    app.addSchema(s);
    validators.addSchema(s);
  }
  app.setValidatorCompiler(validators.compile);

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
        { name: 'Keys', description: 'API keys in account settings: create (shown once), list, revoke, rotate (both surfaces)' },
        { name: 'Live', description: 'Organization events as server-sent events (Surface B)' },
        { name: 'Console', description: 'Web console sign-in: exchange a key for a session cookie, who am I, sign out' },
        { name: 'Sandbox', description: 'Synthetic scenes and on-demand test detections' },
        { name: 'System', description: 'Health and description' },
      ],
    },
    refResolver: { buildLocalReference: (json, _base, _frag, i) => String(json.$id ?? `def-${i}`) },
  });

  installProblemHandlers(app, ctx.config.publicBaseUrl);
  installAuth(app, {
    keys: ctx.keys,
    rateLimits: ctx.rateLimits,
    authFailures: new AuthFailureLimiter(ctx.rateLimits, ctx.config.http.authFailuresPerMinute),
    clock: ctx.clock,
    defaultRatePerMinute: ctx.config.rateLimitPerMinute,
    cookieAuth: consoleCookieAuth(ctx.consoleSessions),
  });
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
  // keys in account settings (issue 9 §3)
  await app.register(keyRoutes(ctx.keys));
  // WebRTC ingest (issue 15)
  await app.register(publishTokenRoutes(ctx.whip));
  await app.register(whipRoutes(ctx.whip, { iceServers: ctx.config.iceServers }));
  await app.register(publishPageRoutes({ iceServers: ctx.config.iceServers }));
  // web console and the organization live feed (issue 13)
  await app.register(orgEventStreamRoutes(ctx.liveFeed, { slots: ctx.streamSlots, clock: ctx.clock }));
  await app.register(sceneHistoryRoutes(ctx.sceneHistory));
  await registerConsole(app, { sessions: ctx.consoleSessions, publicBaseUrl: ctx.config.publicBaseUrl });
  return app;
}
