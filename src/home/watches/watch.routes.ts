import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf, principalOf, withErrors } from '../../platform/http/index.ts';
import type { WatchService } from './watch.service.ts';
import { WatchIdParams, WatchList, WatchListQuery } from './watch.schemas.ts';

const tags = ['Watches'];
const security = [{ bearerAuth: [] }];

/** Structured endpoints for listing and teardown only; watches are created in conversation. */
export const watchRoutes =
  (watches: WatchService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v1/watches',
      {
        config: { surface: 'household' },
        schema: {
          tags,
          security,
          operationId: 'listWatches',
          summary: 'List watches, newest first (active by default)',
          querystring: WatchListQuery,
          response: withErrors({ 200: WatchList }),
        },
      },
      async (req) => watches.list(principalOf(req), req.query),
    );

    app.get(
      '/v1/watches/:id',
      {
        config: { surface: 'household' },
        schema: { tags, security, operationId: 'getWatch', summary: 'Fetch a watch', params: WatchIdParams, response: withErrors({ 200: Type.Ref('Watch') }) },
      },
      async (req) => watches.get(principalOf(req), req.params.id),
    );

    app.delete(
      '/v1/watches/:id',
      {
        config: { surface: 'household' },
        schema: {
          tags,
          security,
          operationId: 'standDownWatch',
          summary: 'Stand a watch down',
          description:
            'Stops observation at once: no event comes from the watch afterwards. The stand-down is written to the event log and the audit trail. Repeating it is harmless.',
          params: WatchIdParams,
          response: withErrors({ 200: Type.Ref('Watch') }),
        },
      },
      async (req) => watches.standDown(principalOf(req), actorOf(req), req.params.id),
    );
  };
