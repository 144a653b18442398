import { defineApiModule } from '../../platform/http/api-module.ts';
import type { EventService } from './event.service.ts';
import { EventSchema } from './event.schemas.ts';
import { eventRoutes } from './event.routes.ts';

/** The events module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const eventsApi = defineApiModule({
  name: 'events',
  tags: [{ name: 'Events', description: 'Observations, alerts and changes of a household, newest first (Surface A)' }],
  schemas: [EventSchema],
  routes: ({ events }: { events: EventService }) => eventRoutes(events),
});
