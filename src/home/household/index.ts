import { defineServiceModule, token } from '../../platform/lib/index.ts';
import { CLOCK } from '../../platform/time/index.ts';
import { CONFIG } from '../../platform/config/index.ts';
import { DATABASE } from '../../platform/db/index.ts';
import { AUDIT } from '../../platform/audit/index.ts';
import { COORDINATION } from '../../platform/coordination/index.ts';
import { SCENES, SCENE_ENGINE } from '../../org/scenes/index.ts';
import { STREAMS } from '../../org/streams/index.ts';
import { SOURCES } from '../../org/sources/index.ts';
import { HOUSEHOLD_DIRECTORY } from '../directory/index.ts';
import { EVENTS } from '../events/index.ts';
import { HouseholdService as HouseholdServiceT, type HouseholdService } from './household.service.ts';
// The module's public face: what other modules may import (docs/architecture.md).
export { HouseholdService, type HomeSnapshot } from './household.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import { BoundarySchema, MqttBrokerSchema, SensorSchema } from './household.schemas.ts';
import { householdRoutes } from './household.routes.ts';

/** The household module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const householdApi = defineApiModule({
  name: 'household',
  tags: [{ name: 'Household', description: 'The home: place, rooms, sensors, boundaries (Surface A: read-only, but for the default MQTT broker)' }],
  schemas: [SensorSchema, BoundarySchema, MqttBrokerSchema],
  routes: ({ household }: { household: HouseholdService }) => householdRoutes(household),
});

export const HOUSEHOLD = token<HouseholdServiceT>('household');

export const householdServices = defineServiceModule({
  name: 'household',
  provide: (c) =>
    c.provide(
      HOUSEHOLD,
      (c) =>
        new HouseholdServiceT({
          database: c.get(DATABASE),
          clock: c.get(CLOCK),
          audit: c.get(AUDIT),
          streams: c.get(STREAMS),
          scenes: c.get(SCENES),
          engine: c.get(SCENE_ENGINE),
          sources: c.get(SOURCES),
          directory: c.get(HOUSEHOLD_DIRECTORY),
          events: c.get(EVENTS),
          invalidation: c.get(COORDINATION).invalidation,
          mqtt: { defaultBroker: c.get(CONFIG).mqtt.defaultBroker ?? null, allowPrivate: c.get(CONFIG).mqtt.allowPrivate },
        }),
    ),
  // after the directory's own subscriber (installed earlier), so it reads the re-read household
  install: (c) => void c.get(HOUSEHOLD).followChanges(c.get(COORDINATION).invalidation),
});
