import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { VigilError } from '../lib/index.ts';
import type { DrainState, Readiness, VigilMetrics } from '../metrics/index.ts';
import type { RouteApp } from './api-module.ts';
import { ProblemRef } from './common.schemas.ts';
import { sendProblem } from './problem.ts';

const Health = Type.Object({ status: Type.String() });
const Ready = Type.Object({
  status: Type.String(),
  detector: Type.Optional(
    Type.Object(
      {
        runtime: Type.Union([Type.Literal('onnxruntime'), Type.Literal('tfjs-wasm')], {
          description: 'onnxruntime normally; tfjs-wasm when the native library cannot load (slower: fewer cameras per node)',
        }),
        model: Type.String({ description: 'the decoder and the model file' }),
        fallback_reason: Type.Union([Type.String(), Type.Null()], { description: 'why the tfjs-wasm fallback runs; null on ONNX Runtime' }),
      },
      { description: 'the object detector on a node that runs streams' },
    ),
  ),
});

/** What the system routes read: readiness checks, the graceful stop, the metrics and their token. */
interface SystemRouteDeps {
  readiness: Readiness;
  drain?: DrainState;
  metrics: VigilMetrics;
  metricsToken: string | null;
  baseUrl: string;
}

/** GET /healthz and GET /readyz. */
function registerHealthRoutes(app: RouteApp, deps: SystemRouteDeps): void {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['System'],
        security: [],
        operationId: 'healthz',
        summary: 'Process is up',
        description:
          '200 while the process serves requests. From the moment a graceful stop begins (SIGTERM or SIGINT) it is 503 `service_unavailable`, ' +
          'while the node still serves for `VIGIL_DRAIN_DELAY_MS`, so a load balancer checking it takes the node out before it stops accepting connections.',
        response: { 200: Health, 503: ProblemRef },
      },
    },
    async (_req, reply) => {
      if (deps.drain?.draining)
        return sendProblem(
          reply,
          deps.baseUrl,
          new VigilError('service_unavailable', 'This node is stopping: it finishes the requests it has and takes no new ones.'),
        );
      return { status: 'ok' };
    },
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['System'],
        security: [],
        operationId: 'readyz',
        summary: 'Database and Redis are reachable, migrations current',
        description:
          '200 when this node can serve: the database answers, no migration is pending, and Redis answers when REDIS_URL is configured. ' +
          'Otherwise 503 `service_unavailable` whose `detail` names what is not ready and whose `checks` gives each dependency as `ok`, `failed` or `not_configured`. ' +
          'On a node that runs streams, `detector` says which runtime the object detector runs on (`tfjs-wasm` is the fallback when ONNX Runtime cannot load, with the reason).',
        response: { 200: Ready, 503: ProblemRef },
      },
    },
    async (req, reply) => {
      const report = await deps.readiness.check();
      if (report.ready) return { status: 'ready', ...(report.detector ? { detector: report.detector } : {}) };
      req.log.warn({ checks: report.checks }, 'readiness check failed');
      const detail = `Not ready: ${report.reasons.join('; ')}.`;
      return sendProblem(
        reply,
        deps.baseUrl,
        new VigilError('service_unavailable', detail.charAt(0).toUpperCase() + detail.slice(1), { extra: { checks: report.checks } }),
      );
    },
  );
}

/** GET /metrics, with its token or, without one, for this machine only. */
function registerMetricsRoute(app: RouteApp, deps: SystemRouteDeps): void {
  const expected = deps.metricsToken === null ? null : digest(deps.metricsToken);
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['System'],
        operationId: 'metrics',
        summary: 'Prometheus metrics of this node',
        description:
          'The Prometheus text format (version 0.0.4). Every series carries `node_id`; none names a tenant, a location or a key. ' +
          'Send `Authorization: Bearer <VIGIL_METRICS_TOKEN>`. A server without VIGIL_METRICS_TOKEN answers only requests from its own machine ' +
          '(a loopback address, no X-Forwarded-For); anything else is 401 invalid_metrics_token.',
        security: [],
        response: {
          200: Type.Unsafe<string>({ description: 'Prometheus text exposition', content: { 'text/plain': { schema: { type: 'string' } } } }),
          401: ProblemRef,
        },
      },
    },
    async (req, reply) => {
      if (expected !== null) {
        const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
        if (!m || !timingSafeEqual(digest(m[1]), expected)) {
          throw new VigilError('invalid_metrics_token', 'GET /metrics needs Authorization: Bearer <VIGIL_METRICS_TOKEN>.', { param: 'Authorization' });
        }
      } else if (!fromThisMachine(req.raw.socket.remoteAddress, req.headers['x-forwarded-for'])) {
        throw new VigilError(
          'invalid_metrics_token',
          'Metrics are served to other machines only with a token: set VIGIL_METRICS_TOKEN on the server and send it as a bearer.',
          { param: 'Authorization' },
        );
      }
      const { contentType, body } = await deps.metrics.render();
      return reply.type(contentType).send(body);
    },
  );
}

/**
 * Health, readiness and metrics, outside /v1 and without an API key: a load
 * balancer and Prometheus call them. /metrics wants VIGIL_METRICS_TOKEN as a bearer; without one
 * configured it answers only this machine (docs/decisions.md "GET /metrics"), because activity
 * counts are themselves a reading of the premises.
 */
export const systemRoutes =
  (deps: SystemRouteDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerHealthRoutes(app, deps);
    registerMetricsRoute(app, deps);
  };

/**
 * The socket's peer is loopback and no proxy says it forwards someone else (a proxy on this
 * machine, HAProxy in `npm run cluster`, connects from loopback on behalf of remote clients).
 */
function fromThisMachine(address: string | undefined, forwardedFor: string | string[] | undefined): boolean {
  if (forwardedFor !== undefined) return false;
  return address !== undefined && (/^127\./.test(address) || address === '::1' || /^::ffff:127\./.test(address));
}

/** Equal-length digests, so comparing them takes the same time whatever was sent. */
function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}
