import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { actorOf, principalOf, ListQuery, withErrors, type RouteApp } from '../http/index.ts';
import type { WebhookService } from './webhook.service.ts';
import {
  CreateWebhookBody,
  DeletedWebhook,
  DeliveryIdParams,
  DeliveryList,
  DeliveryListQuery,
  UpdateWebhookBody,
  WebhookEndpointWithSecret,
  WebhookIdParams,
  WebhookList,
} from './webhook.schemas.ts';

const tags = ['Webhooks'];
const security = [{ bearerAuth: [] }];
/** Both surfaces register webhooks through these same routes (docs/design.md "Webhooks": organization and household endpoints). */
const config = { surface: 'any', capability: 'webhooks:manage' } as const;

/** The presented API key: household endpoints derive their signing secret from it (never stored). */
function bearerKeyOf(req: FastifyRequest): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m ? m[1] : null;
}

const SIGNING_DOC =
  'Deliveries are POSTed as JSON with `X-Service-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>`, ' +
  '`X-Service-Timestamp` (ISO 8601 time of the attempt), `X-Service-Delivery: dlv_…` (the same on retries: use it to drop duplicates), ' +
  '`X-Service-Event` and `User-Agent: Vigil-Webhooks/1`. The HMAC key is the secret string as UTF-8. ' +
  'Household endpoints (secret_source `api_key`) are signed with HMAC-SHA256(API key, "vigil-webhook-v1") as lowercase hex. ' +
  'For 24 h after a rotation the previous secret also signs, in `X-Service-Signature-Previous: sha256=<hex>`; accept either. ' +
  'Answer any 2xx within 10 s; otherwise the delivery is retried with exponential backoff (10 s doubling to 1 h, full jitter) ' +
  'until 24 h after its first attempt, then dropped. Receivers on loopback/private/link-local/metadata addresses are refused ' +
  '(400 webhook_url_not_allowed) unless the server runs with VIGIL_WEBHOOK_ALLOW_PRIVATE=1.';

/** POST /v1/webhooks, and GET of the endpoints and of one endpoint. */
function registerWebhookCreateAndReads(app: RouteApp, webhooks: WebhookService): void {
  app.post(
    '/v1/webhooks',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'createWebhook',
        summary: 'Register a webhook receiver',
        description:
          'Organization keys (capability webhooks:manage) get a `whsec_…` secret, returned only in this response. ' +
          'Household keys send just `{url}`: events default to every household kind and deliveries are signed with the key. ' +
          SIGNING_DOC,
        body: CreateWebhookBody,
        response: withErrors({ 201: WebhookEndpointWithSecret }),
      },
    },
    async (req, reply) => reply.code(201).send(await webhooks.create(principalOf(req), actorOf(req), req.body, bearerKeyOf(req))),
  );

  app.get(
    '/v1/webhooks',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'listWebhooks',
        summary: 'List webhook endpoints, newest first',
        querystring: ListQuery,
        response: withErrors({ 200: WebhookList }),
      },
    },
    async (req) => webhooks.list(principalOf(req), req.query),
  );

  app.get(
    '/v1/webhooks/:id',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'getWebhook',
        summary: 'Fetch a webhook endpoint',
        params: WebhookIdParams,
        response: withErrors({ 200: Type.Ref('WebhookEndpoint') }),
      },
    },
    async (req) => webhooks.get(principalOf(req), req.params.id),
  );
}

/** PATCH and DELETE /v1/webhooks/:id, and the rotation of its secret. */
function registerWebhookChanges(app: RouteApp, webhooks: WebhookService): void {
  app.patch(
    '/v1/webhooks/:id',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'updateWebhook',
        summary: 'Change URL, events, description or enabled',
        params: WebhookIdParams,
        body: UpdateWebhookBody,
        response: withErrors({ 200: Type.Ref('WebhookEndpoint') }),
      },
    },
    async (req) => webhooks.update(principalOf(req), actorOf(req), req.params.id, req.body),
  );

  app.delete(
    '/v1/webhooks/:id',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint',
        description: 'Its pending deliveries are cancelled; the delivery log is kept.',
        params: WebhookIdParams,
        response: withErrors({ 200: DeletedWebhook }),
      },
    },
    async (req) => webhooks.remove(principalOf(req), actorOf(req), req.params.id),
  );

  app.post(
    '/v1/webhooks/:id/rotate-secret',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'rotateWebhookSecret',
        summary: 'Replace the signing secret',
        description:
          'Returns the new secret once. For 24 h the old secret keeps signing alongside it, in `X-Service-Signature-Previous`, ' +
          'so a receiver can deploy the new secret without rejecting deliveries. Household endpoints re-derive from the key presented.',
        params: WebhookIdParams,
        response: withErrors({ 200: WebhookEndpointWithSecret }),
      },
    },
    async (req) => webhooks.rotateSecret(principalOf(req), actorOf(req), req.params.id, bearerKeyOf(req)),
  );
}

/** An endpoint's delivery log, and sending a delivery again. */
function registerDeliveryRoutes(app: RouteApp, webhooks: WebhookService): void {
  app.get(
    '/v1/webhooks/:id/deliveries',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'listWebhookDeliveries',
        summary: 'Delivery log of an endpoint, newest first, with every attempt',
        params: WebhookIdParams,
        querystring: DeliveryListQuery,
        response: withErrors({ 200: DeliveryList }),
      },
    },
    async (req) => webhooks.listDeliveries(principalOf(req), req.params.id, req.query),
  );

  app.post(
    '/v1/webhooks/:id/deliveries/:delivery_id/redeliver',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'redeliverWebhook',
        summary: 'Send a delivery again',
        description: 'Starts a new attempt series now (with its own 24 h retry window), typically for a dropped delivery. Same X-Service-Delivery id.',
        params: DeliveryIdParams,
        response: withErrors({ 200: Type.Ref('WebhookDelivery') }),
      },
    },
    async (req) => webhooks.redeliver(principalOf(req), actorOf(req), req.params.id, req.params.delivery_id),
  );
}

export const webhookRoutes =
  (webhooks: WebhookService): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerWebhookCreateAndReads(app, webhooks);
    registerWebhookChanges(app, webhooks);
    registerDeliveryRoutes(app, webhooks);
  };
