import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf, principalOf, withErrors, type RouteApp } from '../../platform/http/index.ts';
import type { StreamService } from './stream.service.ts';
import { CreateStreamBody, DeletedStream, StreamIdParams, StreamList, StreamListQuery, UpdateStreamBody } from './stream.schemas.ts';

const tags = ['Streams'];
const security = [{ bearerAuth: [] }];

/** POST /v1/streams, and GET of the streams and of one stream. */
function registerStreamCreateAndReads(app: RouteApp, streams: StreamService): void {
  app.post(
    '/v1/streams',
    {
      config: { surface: 'organization', capability: 'streams:write' },
      schema: {
        tags,
        security,
        operationId: 'createStream',
        summary: 'Register a stream',
        description: 'Registers a camera, WebRTC publisher, phone or sandbox source; its scene is the one of its location.',
        body: CreateStreamBody,
        response: withErrors({ 201: Type.Ref('Stream') }),
      },
    },
    async (req, reply) => reply.code(201).send(await streams.create(principalOf(req), actorOf(req), req.body)),
  );

  app.get(
    '/v1/streams',
    {
      config: { surface: 'organization', capability: 'streams:read' },
      schema: {
        tags,
        security,
        operationId: 'listStreams',
        summary: 'List streams, newest first',
        querystring: StreamListQuery,
        response: withErrors({ 200: StreamList }),
      },
    },
    async (req) => streams.list(principalOf(req), req.query),
  );

  app.get(
    '/v1/streams/:id',
    {
      config: { surface: 'organization', capability: 'streams:read' },
      schema: {
        tags,
        security,
        operationId: 'getStream',
        summary: 'Fetch a stream',
        params: StreamIdParams,
        response: withErrors({ 200: Type.Ref('Stream') }),
      },
    },
    async (req) => streams.get(principalOf(req), req.params.id),
  );
}

/** PATCH and DELETE /v1/streams/:id. */
function registerStreamChanges(app: RouteApp, streams: StreamService): void {
  app.patch(
    '/v1/streams/:id',
    {
      config: { surface: 'organization', capability: 'streams:write' },
      schema: {
        tags,
        security,
        operationId: 'updateStream',
        summary: 'Rename, move or re-point a stream',
        params: StreamIdParams,
        body: UpdateStreamBody,
        response: withErrors({ 200: Type.Ref('Stream') }),
      },
    },
    async (req) => streams.update(principalOf(req), actorOf(req), req.params.id, req.body),
  );

  app.delete(
    '/v1/streams/:id',
    {
      config: { surface: 'organization', capability: 'streams:write' },
      schema: {
        tags,
        security,
        operationId: 'deleteStream',
        summary: 'Delete a stream and stop its ingest',
        params: StreamIdParams,
        response: withErrors({ 200: DeletedStream }),
      },
    },
    async (req) => streams.remove(principalOf(req), actorOf(req), req.params.id),
  );
}

export const streamRoutes =
  (streams: StreamService): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerStreamCreateAndReads(app, streams);
    registerStreamChanges(app, streams);
  };
