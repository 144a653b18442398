import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf, principalOf, withErrors, type RouteApp } from '../../platform/http/index.ts';
import type { ResponderService } from './responder.service.ts';
import {
  CreateResponderBody,
  CreatedResponderSchema,
  DeletedResponder,
  ResponderIdParams,
  ResponderList,
  ResponderListQuery,
  UpdateResponderBody,
} from './responder.schemas.ts';

const tags = ['Responders'];
const security = [{ bearerAuth: [] }];
const config = { surface: 'organization' as const, capability: 'responders:manage' as const };

/** POST /v1/responders, and GET of the responders and of one responder. */
function registerResponderCreateAndReads(app: RouteApp, responders: ResponderService): void {
  app.post(
    '/v1/responders',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'createResponder',
        summary: 'Add a responder',
        description:
          'A person or downstream system that protocol runs at or above its escalation level notify, by a signed webhook to contact.webhook_url. The signing secret is returned only here.',
        body: CreateResponderBody,
        response: withErrors({ 201: CreatedResponderSchema }),
      },
    },
    async (req, reply) => reply.code(201).send(await responders.create(principalOf(req), actorOf(req), req.body)),
  );

  app.get(
    '/v1/responders',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'listResponders',
        summary: 'List responders, newest first',
        querystring: ResponderListQuery,
        response: withErrors({ 200: ResponderList }),
      },
    },
    async (req) => responders.list(principalOf(req), req.query),
  );

  app.get(
    '/v1/responders/:id',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'getResponder',
        summary: 'Fetch a responder',
        params: ResponderIdParams,
        response: withErrors({ 200: Type.Ref('Responder') }),
      },
    },
    async (req) => responders.get(principalOf(req), req.params.id),
  );
}

/** PATCH and DELETE /v1/responders/:id. */
function registerResponderChanges(app: RouteApp, responders: ResponderService): void {
  app.patch(
    '/v1/responders/:id',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'updateResponder',
        summary: 'Change a responder',
        params: ResponderIdParams,
        body: UpdateResponderBody,
        response: withErrors({ 200: Type.Ref('Responder') }),
      },
    },
    async (req) => responders.update(principalOf(req), actorOf(req), req.params.id, req.body),
  );

  app.delete(
    '/v1/responders/:id',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'deleteResponder',
        summary: 'Remove a responder',
        params: ResponderIdParams,
        response: withErrors({ 200: DeletedResponder }),
      },
    },
    async (req) => responders.remove(principalOf(req), actorOf(req), req.params.id),
  );
}

export const responderRoutes =
  (responders: ResponderService): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerResponderCreateAndReads(app, responders);
    registerResponderChanges(app, responders);
  };
