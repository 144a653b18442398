// The module's public face: what other modules may import (docs/architecture.md).
export { HouseholdService, type HomeSnapshot } from './household.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import type { HouseholdService } from './household.service.ts';
import { BoundarySchema, SensorSchema } from './household.schemas.ts';
import { householdRoutes } from './household.routes.ts';

/** The household module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const householdApi = defineApiModule({
  name: 'household',
  tags: [{ name: 'Household', description: 'The home: place, rooms, sensors, boundaries (Surface A, read-only)' }],
  schemas: [SensorSchema, BoundarySchema],
  routes: ({ household }: { household: HouseholdService }) => householdRoutes(household),
});
