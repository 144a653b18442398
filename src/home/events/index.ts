import { defineServiceModule, token } from '../../platform/lib/index.ts';
import { CLOCK } from '../../platform/time/index.ts';
import { DATABASE } from '../../platform/db/index.ts';
import { WEBHOOKS } from '../../platform/outbox/index.ts';
import { EventService as EventServiceT, type EventService } from './event.service.ts';
// The module's public face: what other modules may import (docs/architecture.md).
export { ALERT_TYPES, EVENT_LOG_KINDS, OBSERVATION_TYPES, type AlertType, type EventView, type ObservationType } from './event.schemas.ts';
export { EventService } from './event.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import { EventSchema } from './event.schemas.ts';
import { eventRoutes } from './event.routes.ts';

/** The events module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const eventsApi = defineApiModule({
  name: 'events',
  tags: [{ name: 'Events', description: 'Observations, alerts and changes of a household, newest first (Surface A)' }],
  schemas: [EventSchema],
  routes: ({ events }: { events: EventService }) => eventRoutes(events),
});

export const EVENTS = token<EventServiceT>('events');

export const eventServices = defineServiceModule({
  name: 'events',
  provide: (c) => c.provide(EVENTS, (c) => new EventServiceT({ database: c.get(DATABASE), clock: c.get(CLOCK), sink: c.get(WEBHOOKS) })),
  // deliveries about what a boundary hides are not readable
  install: (c) => c.get(WEBHOOKS).setVisibility(c.get(EVENTS)),
});
