import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../platform/http/index.ts';
import { withErrors } from '../../platform/http/index.ts';
import type { HouseholdService } from './household.service.ts';
import { HouseholdSchema } from './household.schemas.ts';

const tags = ['Household'];
const security = [{ bearerAuth: [] }];

export const householdRoutes = (household: HouseholdService): FastifyPluginAsyncTypebox => async (app) => {
  app.get('/v1/household', {
    config: { surface: 'household' },
    schema: {
      tags, security, operationId: 'getHousehold', summary: 'The home: place, rooms, sensors and boundaries in effect',
      description: 'Read-only (Surface A is driven through conversations). A test key gets its simulated home on first use.',
      response: withErrors({ 200: HouseholdSchema }),
    },
  }, async (req) => household.view(principalOf(req)));
};
