import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, principalOf, withErrors } from '../../platform/http/index.ts';
import type { HouseholdService } from './household.service.ts';
import { Type } from '@sinclair/typebox';
import { HouseholdSchema, PutMqttBrokerBody } from './household.schemas.ts';

const tags = ['Household'];
const security = [{ bearerAuth: [] }];

export const householdRoutes =
  (household: HouseholdService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v1/household',
      {
        config: { surface: 'household' },
        schema: {
          tags,
          security,
          operationId: 'getHousehold',
          summary: 'The home: place, rooms, sensors and boundaries in effect',
          description: 'Read-only (Surface A is driven through conversations). A test key gets its simulated home on first use.',
          response: withErrors({ 200: HouseholdSchema }),
        },
      },
      async (req) => household.view(principalOf(req)),
    );

    app.get(
      '/v1/household/mqtt-broker',
      {
        config: { surface: 'household' },
        schema: {
          tags,
          security,
          operationId: 'getHouseholdMqttBroker',
          summary: 'The MQTT broker sensors added by topic are on',
          description: "The household's own default broker, else the install's (VIGIL_MQTT_DEFAULT_BROKER), else none; its credentials are never shown.",
          response: withErrors({ 200: Type.Ref('MqttBroker') }),
        },
      },
      async (req) => household.mqttBroker(principalOf(req)),
    );

    app.put(
      '/v1/household/mqtt-broker',
      {
        config: { surface: 'household' },
        schema: {
          tags,
          security,
          operationId: 'setHouseholdMqttBroker',
          summary: "Set or clear the household's default MQTT broker",
          description:
            'With a default broker the agent adds a sensor by its topic alone ("add the back door sensor, it\'s zigbee2mqtt/back_door"). Owners only. A private or loopback broker needs a server started with VIGIL_MQTT_ALLOW_PRIVATE=1.',
          body: PutMqttBrokerBody,
          response: withErrors({ 200: Type.Ref('MqttBroker') }),
        },
      },
      async (req) => household.setMqttBroker(principalOf(req), actorOf(req), req.body.url),
    );
  };
