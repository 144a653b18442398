import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf, principalOf, withErrors, type RouteApp } from '../../platform/http/index.ts';
import type { SceneService } from './scene.service.ts';
import {
  DetectionList,
  QueryBody,
  QueryResult,
  SceneIdParams,
  SceneList,
  SceneListQuery,
  StreamDetectionsQuery,
  StreamIdParams,
  UpdateSceneBody,
} from './scene.schemas.ts';

const tags = ['Scenes'];
const security = [{ bearerAuth: [] }];

/** The scenes: list, fetch, change. */
function registerSceneRoutes(app: RouteApp, scenes: SceneService): void {
  app.get(
    '/v1/scenes',
    {
      config: { surface: 'organization', capability: 'scenes:read' },
      schema: {
        tags,
        security,
        operationId: 'listScenes',
        summary: 'List scenes (one per location), newest first',
        querystring: SceneListQuery,
        response: withErrors({ 200: SceneList }),
      },
    },
    async (req) => scenes.list(principalOf(req), req.query),
  );

  app.get(
    '/v1/scenes/:scene_id',
    {
      config: { surface: 'organization', capability: 'scenes:read' },
      schema: {
        tags,
        security,
        operationId: 'getScene',
        summary: 'The current interpreted state of a location',
        params: SceneIdParams,
        response: withErrors({ 200: Type.Ref('Scene') }),
      },
    },
    async (req) => scenes.get(principalOf(req), req.params.scene_id),
  );

  app.patch(
    '/v1/scenes/:scene_id',
    {
      config: { surface: 'organization', capability: 'streams:write' },
      schema: {
        tags,
        security,
        operationId: 'updateScene',
        summary: 'Set a scene’s capacity, time zone or how its streams combine',
        params: SceneIdParams,
        body: UpdateSceneBody,
        response: withErrors({ 200: Type.Ref('Scene') }),
      },
    },
    async (req) => scenes.update(principalOf(req), actorOf(req), req.params.scene_id, req.body),
  );
}

/** A question about a scene's history, and a stream's detections. */
function registerQueryAndDetectionRoutes(app: RouteApp, scenes: SceneService): void {
  app.post(
    '/v1/scenes/:scene_id/query',
    {
      config: { surface: 'organization', capability: 'scenes:query' },
      schema: {
        tags,
        security,
        operationId: 'queryScene',
        summary: 'Ask a natural-language question about a scene’s history',
        description:
          'Answers counts now, peak, average and arrivals over a time phrase in the question, else over `window` (optional: without it, the last 15m, which `interpretation.window` reports), presence and anomalies. Questions it cannot answer get 422 query_not_understood with examples.',
        params: SceneIdParams,
        body: QueryBody,
        response: withErrors({ 200: QueryResult }),
      },
    },
    async (req) => scenes.query(principalOf(req), actorOf(req), req.params.scene_id, req.body),
  );

  app.get(
    '/v1/streams/:id/detections',
    {
      config: { surface: 'organization', capability: 'streams:read' },
      schema: {
        tags: ['Streams'],
        security,
        operationId: 'listStreamDetections',
        summary: 'A stream’s detections, newest first',
        description:
          'Every detection the stream recorded (counts, tracked people, animals and vehicles), newest first, for as long as the detection history is kept; optionally one `type` and a time range. Ids are what `GET /v1/detections/{id}/snapshot` takes. Cursors are detection ids of this stream.',
        params: StreamIdParams,
        querystring: StreamDetectionsQuery,
        response: withErrors({ 200: DetectionList }),
      },
    },
    async (req) => scenes.listStreamDetections(principalOf(req), req.params.id, req.query),
  );
}

export const sceneRoutes =
  (scenes: SceneService): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerSceneRoutes(app, scenes);
    registerQueryAndDetectionRoutes(app, scenes);
  };
