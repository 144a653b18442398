// The module's public face: what other modules may import (docs/architecture.md).
export { ALERT_TYPES, EVENT_LOG_KINDS, OBSERVATION_TYPES, type AlertType, type EventView, type ObservationType } from './event.schemas.ts';
export { EventService } from './event.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
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
