import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf, withErrors } from '../../platform/http/index.ts';
import { DEFAULT_PAGE_LIMIT } from '../../platform/db/index.ts';
import { SceneHistoryList, SceneHistoryListQuery, SceneHistoryParams, SceneHistoryQuery, SceneHistorySchema } from './scene-history.schemas.ts';
import type { SceneHistoryService } from './scene-history.service.ts';

export const sceneHistoryRoutes =
  (history: SceneHistoryService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v1/scenes/history',
      {
        config: { surface: 'organization', capability: 'scenes:read' },
        schema: {
          tags: ['Scenes'],
          security: [{ bearerAuth: [] }],
          operationId: 'listSceneHistories',
          summary: 'People over time in every scene at once: a page of scenes, each with its chart',
          description:
            'The scenes of `GET /v1/scenes` (same order, cursors and location limits), each with what `GET /v1/scenes/{id}/history` answers for it: one request for a wall of charts instead of one per scene.',
          querystring: SceneHistoryListQuery,
          response: withErrors({ 200: SceneHistoryList }),
        },
      },
      async (req) => {
        const { range, ...page } = req.query;
        return history.historyPage(principalOf(req), { limit: page.limit ?? DEFAULT_PAGE_LIMIT, ...page }, range);
      },
    );

    app.get(
      '/v1/scenes/:scene_id/history',
      {
        config: { surface: 'organization', capability: 'scenes:read' },
        schema: {
          tags: ['Scenes'],
          security: [{ bearerAuth: [] }],
          operationId: 'getSceneHistory',
          summary: 'People over time in a scene: the last hour or day',
          description:
            'One point per minute (range=1h) or per 15 minutes (range=24h): the sum of each stream’s peak person count in that interval; a stream’s count holds until its next reading.',
          params: SceneHistoryParams,
          querystring: SceneHistoryQuery,
          response: withErrors({ 200: SceneHistorySchema }),
        },
      },
      async (req) => history.history(principalOf(req), req.params.scene_id, req.query.range),
    );
  };
