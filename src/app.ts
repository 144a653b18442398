import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { readFileSync } from 'node:fs';
import type { VigilContext } from './context.ts';
import { newId, VigilError } from './platform/lib/index.ts';
import {
  installAuth,
  AuthFailureLimiter,
  installIdempotency,
  installProblemHandlers,
  sendProblem,
  cachedSerializerFactory,
  createValidatorCompiler,
  capConnectionsPerAddress,
  lingerOnUnreadBodies,
  serverOptions,
  OneLineRequestLog,
  systemRoutes,
  ProblemSchema,
  type ApiModule,
} from './platform/http/index.ts';
import { METRICS, Readiness, type DrainState } from './platform/metrics/index.ts';
import { streamsApi } from './org/streams/index.ts';
import { scenesApi } from './org/scenes/index.ts';
import { webhooksApi } from './platform/outbox/index.ts';
import { notificationsApi } from './platform/notify/index.ts';
import { auditApi } from './platform/audit/index.ts';
import { conversationsApi } from './home/conversations/index.ts';
import { watchesApi } from './home/watches/index.ts';
import { eventsApi } from './home/events/index.ts';
import { householdApi } from './home/household/index.ts';
import { alertsApi } from './org/alerts/index.ts';
import { incidentsApi } from './org/incidents/index.ts';
import { protocolsApi } from './org/protocols/index.ts';
import { respondersApi } from './org/responders/index.ts';
import { automationApi } from './org/automation/index.ts';
import { keysApi } from './platform/keys/index.ts';
import { sandboxApi } from './org/sandbox/index.ts';
import { detectionsApi } from './org/detections/index.ts';
import { webrtcApi } from './org/webrtc/index.ts';
import { LIVE_VIDEO } from './org/sources/index.ts';
import { consoleApi, consoleCookieAuth } from './platform/console/index.ts';
import { liveApi } from './org/live/index.ts';
import { peopleApi } from './org/people/index.ts';
import { recordingsApi } from './org/recordings/index.ts';

/**
 * The modules of the API. Each registers its own routes and brings its tags and shared schemas, in
 * this order (the order of paths, tags and schemas in openapi.json); the compiler checks the
 * context gives each module the services it asks for.
 */
const API_MODULES: ReadonlyArray<ApiModule<VigilContext>> = [
  streamsApi,
  scenesApi,
  webhooksApi,
  notificationsApi,
  auditApi,
  // household agent (Surface A)
  householdApi,
  watchesApi,
  eventsApi,
  conversationsApi,
  // operations (Surface B)
  alertsApi,
  incidentsApi,
  protocolsApi,
  respondersApi,
  automationApi,
  sandboxApi,
  detectionsApi,
  keysApi,
  webrtcApi,
  // the organization live feed and the web console
  liveApi,
  consoleApi,
  // known people and face enrolment
  peopleApi,
  // recordings, clips and evidence bundles
  recordingsApi,
];

declare module 'fastify' {
  interface FastifyInstance {
    vigil: VigilContext;
  }
}

export interface BuildAppOptions {
  logger?: boolean | { level: string };
  /** a pino logger to use instead (main.ts shares its own; tests capture what is logged) */
  loggerInstance?: FastifyBaseLogger;
  /** set by main.ts when a graceful stop begins: /readyz then answers 503 (docs/deployment.md, "Rolling restarts") */
  drain?: DrainState;
}

/** What a VIGIL_ROLE=worker node serves. */
const WORKER_PATHS = ['/healthz', '/readyz', '/metrics'];

/** Builds the HTTP app around a context; never listens (tests use app.inject()). */
export async function buildApp(ctx: VigilContext, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = createServer(ctx, opts);
  installSchemas(app);
  installRequestHooks(app, ctx);
  await registerOpenApi(app, ctx);
  installProblemHandlers(app, ctx.config.publicBaseUrl);
  installAuth(app, {
    keys: ctx.keys,
    rateLimits: ctx.rateLimits,
    authFailures: new AuthFailureLimiter(ctx.rateLimits, ctx.config.http.authFailuresPerMinute),
    clock: ctx.clock,
    defaultRatePerMinute: ctx.config.rateLimitPerMinute,
    consoleRatePerMinute: ctx.config.consoleRateLimitPerMinute,
    cookieAuth: consoleCookieAuth(ctx.consoleSessions),
  });
  installIdempotency(app, { database: ctx.database, clock: ctx.clock });
  await registerSystemRoutes(app, ctx, opts.drain);
  for (const module of API_MODULES) await app.register(module.routes(ctx));
  return app;
}

/** The Fastify server with its options, connection limits and body handling, the context decorated on it. */
function createServer(ctx: VigilContext, opts: BuildAppOptions): FastifyInstance {
  const app = Fastify({
    ...(opts.loggerInstance ? { loggerInstance: opts.loggerInstance } : { logger: opts.logger ?? false }),
    bodyLimit: 1024 * 1024,
    genReqId: () => newId('req'),
    // log lines name the request id `request_id`, as the problem document does (X-Request-Id)
    logController: new OneLineRequestLog({ requestIdLogLabel: 'request_id' }),
    // response serializers compiled once per schema for the process (docs/decisions.md, "Schemas compiled once per process")
    schemaController: { compilersFactory: { buildSerializer: cachedSerializerFactory } },
    ...serverOptions(ctx.config.http, ctx.config.publicBaseUrl),
  }).withTypeProvider<TypeBoxTypeProvider>();
  capConnectionsPerAddress(app, ctx.config.http.maxConnectionsPerAddress, ctx.config.publicBaseUrl);
  // an answer sent before the body arrived reaches a client still sending (see docs/decisions.md, "Bodies")
  lingerOnUnreadBodies(app);
  app.decorate('vigil', ctx);
  // JSON only: a body of another type is refused as unsupported_media_type (docs/errors.md); routes
  // that take other media types add their own parser.
  app.removeContentTypeParser('text/plain');
  return app;
}

/** The shared schemas (the problem document's and every module's), for both validation and serialization. */
function installSchemas(app: FastifyInstance): void {
  const validators = createValidatorCompiler();
  const schemas = [ProblemSchema, ...API_MODULES.flatMap((m) => m.schemas ?? [])];
  for (const s of schemas) {
    app.addSchema(s);
    validators.addSchema(s);
  }
  app.setValidatorCompiler(validators.compile);
}

/** Every answer names its request (X-Request-Id); a worker node refuses all but WORKER_PATHS and /internal/. */
function installRequestHooks(app: FastifyInstance, ctx: VigilContext): void {
  // a callback hook, not an async one: it runs on every request and has nothing to wait for, so
  // it goes on to the next hook at once instead of through a promise
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('X-Request-Id', req.id);
    done();
  });
  // a worker node runs streams; it answers only what a load balancer and Prometheus ask
  if (ctx.config.role === 'worker') {
    app.addHook('onRequest', async (req, reply) => {
      const path = req.url.split('?')[0];
      // what other nodes forward to the owner of a stream (signed; docs/deployment.md, "Forwarding to a stream's owner")
      if (WORKER_PATHS.includes(path) || path.startsWith('/internal/')) return;
      return sendProblem(
        reply,
        ctx.config.publicBaseUrl,
        new VigilError(
          'service_unavailable',
          `This node runs VIGIL_ROLE=worker: it runs streams and answers only ${WORKER_PATHS.join(', ')}. Send API requests to a node with VIGIL_ROLE=api or all.`,
        ),
      );
    });
  }
}

/** The OpenAPI document's header: title, servers, security schemes and the tags of every module. */
async function registerOpenApi(app: FastifyInstance, ctx: VigilContext): Promise<void> {
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
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'vk_live_… or vk_test_… API key' },
          publishToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'vpt_… publish token of one webrtc stream (WHIP only; made with the stream or by rotating it)',
          },
        },
      },
      tags: [...API_MODULES.flatMap((m) => m.tags ?? []), { name: 'System', description: 'Health and description' }],
    },
    refResolver: { buildLocalReference: (json, _base, _frag, i) => String(json.$id ?? `def-${i}`) },
  });
}

/** Health, readiness and metrics, the OpenAPI document and the error catalogue. */
async function registerSystemRoutes(app: FastifyInstance, ctx: VigilContext, drain: DrainState | undefined): Promise<void> {
  await app.register(
    systemRoutes({
      readiness: new Readiness({
        database: ctx.database,
        redis: ctx.coordination.redis,
        detector: () => ctx.container.get(LIVE_VIDEO).detectorRuntime(),
        drain,
      }),
      drain,
      metrics: ctx.container.get(METRICS),
      metricsToken: ctx.config.metricsToken,
      baseUrl: ctx.config.publicBaseUrl,
    }),
  );
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  const errorsDoc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
  app.get('/docs/errors', { schema: { hide: true } }, async (_req, reply) => reply.type('text/markdown; charset=utf-8').send(errorsDoc));
}
