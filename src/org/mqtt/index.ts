// The module's public face: what other modules may import (docs/architecture.md).
// Vigil's events out to an MQTT broker, with Home Assistant discovery (docs/decisions.md, "Sensors over MQTT").
import { defineServiceModule, LOG, token } from '../../platform/lib/index.ts';
import { CONFIG } from '../../platform/config/index.ts';
import { CLOCK } from '../../platform/time/index.ts';
import { DATABASE } from '../../platform/db/index.ts';
import { WEBHOOKS } from '../../platform/outbox/index.ts';
import { PIPELINE } from '../pipeline/index.ts';
import { MQTT_SOURCES } from '../sources/index.ts';
import { MqttEventPublisher as MqttEventPublisherT } from './mqtt-publisher.ts';
export { MqttEventPublisher } from './mqtt-publisher.ts';

/** the events-out publisher when VIGIL_MQTT_PUBLISH_URL is set, else null */
export const MQTT_PUBLISHER = token<MqttEventPublisherT | null>('mqttPublisher');

export const mqttServices = defineServiceModule({
  name: 'mqtt',
  provide(c) {
    c.provide(MQTT_PUBLISHER, (c) => {
      const config = c.get(CONFIG);
      const out = config.mqtt.publish;
      if (!out) return null;
      return new MqttEventPublisherT({
        database: c.get(DATABASE),
        clock: c.get(CLOCK),
        url: out.url,
        prefix: out.prefix,
        discoveryPrefix: out.discoveryPrefix,
        nodeId: config.nodeId,
        log: c.get(LOG),
      });
    });
  },
  // after the live feed among the pipeline hooks (it only reads); every event the outbox writes; every sensor state
  install(c) {
    const publisher = c.get(MQTT_PUBLISHER);
    if (!publisher) return;
    c.get(PIPELINE).addHook(publisher, { name: 'mqtt.events_out', order: 950 });
    c.get(WEBHOOKS).onEvent((e) => publisher.onEvent(e));
    c.get(MQTT_SOURCES).onStateChange((e) => publisher.onSensorState(e));
  },
});
