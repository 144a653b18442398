import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf, principalOf, withErrors, type RouteApp } from '../http/index.ts';
import type { KeyService } from './key.service.ts';
import { ApiKeyList, ApiKeyWithSecret, CreateKeyBody, KeyIdParams, KeyListQuery } from './key.schemas.ts';

const tags = ['Keys'];
const security = [{ bearerAuth: [] }];
/**
 * Account settings for both surfaces: organization keys need `keys:manage`;
 * household keys must be `owner` (checked by the service, so every door obeys it).
 */
const config = { surface: 'any', capability: 'keys:manage' } as const;
/** Creation and rotation answer with the key itself, which is never stored, so they are not replayable. */
const secretConfig = { ...config, noReplay: true } as const;
const NOT_REPLAYED = ' Idempotency-Key is ignored here: replaying would mean storing the key, and only its SHA-256 is ever stored.';

const WHO =
  'Organization keys need the capability `keys:manage` and only reach keys no wider than themselves (capabilities and locations); ' +
  "household keys must have the role `owner` (a `member` gets 403 owner_role_required). Another tenant's key answers 404.";

/** POST /v1/keys, and GET of the keys and of one key. */
function registerKeyCreateAndReads(app: RouteApp, keys: KeyService): void {
  app.post(
    '/v1/keys',
    {
      config: secretConfig,
      schema: {
        tags,
        security,
        operationId: 'createKey',
        summary: 'Create an API key (the key is shown once)',
        description:
          'The new key is never wider than the key creating it: an organization key grants at most its own capabilities and locations ' +
          "(403 key_scope_exceeded naming `capabilities` or `locations`), and a test key creates only test keys. Defaults: the creator's " +
          'capabilities, locations, mode and rate limit; household keys default to role `member`. ' +
          WHO +
          NOT_REPLAYED,
        body: CreateKeyBody,
        response: withErrors({ 201: ApiKeyWithSecret }),
      },
    },
    async (req, reply) => reply.code(201).send(await keys.createForPrincipal(principalOf(req), actorOf(req), req.body)),
  );

  app.get(
    '/v1/keys',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'listKeys',
        summary: 'List API keys, newest first (revoked ones included)',
        description: WHO,
        querystring: KeyListQuery,
        response: withErrors({ 200: ApiKeyList }),
      },
    },
    async (req) => keys.listForPrincipal(principalOf(req), req.query),
  );

  app.get(
    '/v1/keys/:id',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'getKey',
        summary: 'Fetch an API key (never its secret)',
        description: WHO,
        params: KeyIdParams,
        response: withErrors({ 200: Type.Ref('ApiKey') }),
      },
    },
    async (req) => keys.getForPrincipal(principalOf(req), req.params.id),
  );
}

/** Revoking a key, and replacing it with a new secret. */
function registerKeyRevokeAndRotate(app: RouteApp, keys: KeyService): void {
  app.delete(
    '/v1/keys/:id',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'revokeKey',
        summary: 'Revoke an API key',
        description: 'From the next request on the key answers 401 api_key_revoked. Revoking a revoked key returns it unchanged. ' + WHO,
        params: KeyIdParams,
        response: withErrors({ 200: Type.Ref('ApiKey') }),
      },
    },
    async (req) => keys.revokeForPrincipal(principalOf(req), actorOf(req), req.params.id),
  );

  app.post(
    '/v1/keys/:id/rotate',
    {
      config: secretConfig,
      schema: {
        tags,
        security,
        operationId: 'rotateKey',
        summary: 'Replace a key with a new secret',
        description:
          'Creates a new key with the same role, capabilities, locations, mode and rate limit, returned once, and revokes the old one ' +
          'in the same transaction. Household webhooks signed with the old key must be re-signed (POST /v1/webhooks/{id}/rotate-secret with the new key). ' +
          WHO +
          NOT_REPLAYED,
        params: KeyIdParams,
        response: withErrors({ 201: ApiKeyWithSecret }),
      },
    },
    async (req, reply) => reply.code(201).send(await keys.rotateForPrincipal(principalOf(req), actorOf(req), req.params.id)),
  );
}

export const keyRoutes =
  (keys: KeyService): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerKeyCreateAndReads(app, keys);
    registerKeyRevokeAndRotate(app, keys);
  };
