import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf, withErrors } from '../../platform/http/index.ts';
import type { EventService } from './event.service.ts';
import { EventList, EventListQuery } from './event.schemas.ts';

const tags = ['Events'];
const security = [{ bearerAuth: [] }];

export const eventRoutes =
  (events: EventService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v1/events',
      {
        config: { surface: 'household' },
        schema: {
          tags,
          security,
          operationId: 'listEvents',
          summary: 'Observations, alerts and changes, newest first',
          description:
            'The household event log: observations and alerts raised by watches, and changes to watches, sensors and boundaries. ' +
            'Filter by watch_id, kind and since. Nothing from a place left alone is shown, whenever it was recorded; nothing is recorded from a ' +
            'muted sensor while it is muted (what it saw before stays). That a boundary or mute was set stays listed.',
          querystring: EventListQuery,
          response: withErrors({ 200: EventList }),
        },
      },
      async (req) => events.list(principalOf(req), req.query),
    );
  };
