/**
 * A household's default MQTT broker (docs/decisions.md, "A household's default broker"): the
 * broker its sensors are on when one is added by topic alone ("it's zigbee2mqtt/back_door"). The
 * household's own (set through PUT /v1/household/mqtt-broker, kept in its settings) wins over the
 * install's (VIGIL_MQTT_DEFAULT_BROKER); credentials are never shown, only scheme, host and port.
 */
import { describeBroker, MAX_TOPIC_CHARS, parseMqttUrl } from '../../ingest/mqtt/index.ts';

export type BrokerSource = 'household' | 'install';

export interface EffectiveBroker {
  /** with credentials: what the sensor's source URL is built on */
  url: string;
  source: BrokerSource;
}

/** The household's broker, else the install's, else null. */
export function effectiveBroker(own: string | null, install: string | null | undefined): EffectiveBroker | null {
  if (own) return { url: own, source: 'household' };
  if (install) return { url: install, source: 'install' };
  return null;
}

/** "mqtt://192.168.1.10:1883": the broker as said in replies and views, never its credentials. */
export function maskBroker(url: string): string {
  const p = parseMqttUrl(`${url.replace(/\/+$/, '')}/t`);
  return p.ok ? describeBroker(p.broker) : '(unreadable broker address)';
}

/**
 * What is wrong with a device's topic (one device: no wildcards, no spaces, no empty level), or
 * null when it is one.
 */
export function checkDeviceTopic(topic: string): string | null {
  if (!topic) return 'is empty';
  if (/[+#]/.test(topic)) return `"${topic}" has an MQTT wildcard (+ or #); a sensor is one device, so give its own topic`;
  if (/\s/.test(topic)) return `"${topic}" has a space; give the device's topic exactly, such as zigbee2mqtt/back_door`;
  if (topic.startsWith('/') || topic.endsWith('/') || topic.includes('//')) return `"${topic}" has an empty level; give it as zigbee2mqtt/back_door`;
  if (topic.startsWith('$')) return `"${topic}" is a broker's own topic, not a device's`;
  if (topic.length > MAX_TOPIC_CHARS) return `is longer than ${MAX_TOPIC_CHARS} characters`;
  return null;
}

/** The sensor's source URL: the broker's address with the topic as its path, each level percent-encoded. */
export function sourceUrlOf(broker: string, topic: string): string {
  return `${broker.replace(/\/+$/, '')}/${topic.split('/').map(encodeURIComponent).join('/')}`;
}
