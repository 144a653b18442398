/**
 * Sensors over MQTT and Vigil's events out to MQTT (docs/decisions.md, "Sensors over MQTT";
 * docs/deployment.md, "MQTT"). VIGIL_MQTT_ALLOW_PRIVATE lets mqtt sources name a broker on a
 * loopback or private address (a home broker on the LAN); VIGIL_MQTT_PUBLISH_URL names the broker
 * Vigil publishes its events to (mqtt://[user:password@]host:port[/<topic prefix>], default prefix
 * "vigil"), VIGIL_MQTT_DISCOVERY_PREFIX Home Assistant's discovery prefix (default "homeassistant",
 * empty to publish no discovery). VIGIL_MQTT_DEFAULT_BROKER names the broker a household's sensors
 * are on when it adds one by topic alone ("it's zigbee2mqtt/back_door") and has not set its own
 * (mqtt://[user:password@]host[:port], no topic): docs/decisions.md, "A household's default broker".
 */
export interface MqttConfig {
  allowPrivate: boolean;
  /** the whole install's default broker for households' sensors added by topic; null or absent: none */
  defaultBroker?: string | null;
  publish: null | {
    /** mqtt:// or mqtts:// with host, port and credentials; the path is the prefix */
    url: string;
    /** topic prefix of Vigil's events, without a trailing slash */
    prefix: string;
    /** Home Assistant MQTT discovery prefix; null = no discovery */
    discoveryPrefix: string | null;
  };
}

export function readMqttConfig(env: NodeJS.ProcessEnv, readBool: (env: NodeJS.ProcessEnv, name: string, dflt: boolean) => boolean): MqttConfig {
  const raw = env.VIGIL_MQTT_PUBLISH_URL?.trim();
  let publish: MqttConfig['publish'] = null;
  if (raw) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new Error('config: VIGIL_MQTT_PUBLISH_URL must be an mqtt:// or mqtts:// URL, such as mqtt://broker:1883/vigil');
    }
    if (url.protocol !== 'mqtt:' && url.protocol !== 'mqtts:') throw new Error('config: VIGIL_MQTT_PUBLISH_URL must be an mqtt:// or mqtts:// URL');
    if (!url.hostname) throw new Error("config: VIGIL_MQTT_PUBLISH_URL must name the broker's host");
    const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '') || 'vigil';
    if (/[+#]/.test(prefix)) throw new Error("config: VIGIL_MQTT_PUBLISH_URL's topic prefix must not contain + or #");
    const discovery = env.VIGIL_MQTT_DISCOVERY_PREFIX === undefined ? 'homeassistant' : env.VIGIL_MQTT_DISCOVERY_PREFIX.trim().replace(/^\/+|\/+$/g, '');
    publish = { url: raw, prefix, discoveryPrefix: discovery || null };
  }
  const broker = env.VIGIL_MQTT_DEFAULT_BROKER?.trim();
  let defaultBroker: string | null = null;
  if (broker) {
    const problem = checkBrokerAddress(broker);
    if (problem) throw new Error(`config: VIGIL_MQTT_DEFAULT_BROKER ${problem}`);
    defaultBroker = broker.replace(/\/+$/, '');
  }
  return { allowPrivate: readBool(env, 'VIGIL_MQTT_ALLOW_PRIVATE', false), publish, defaultBroker };
}

/**
 * What is wrong with a broker address (mqtt:// or mqtts://, a host, optional port and credentials,
 * no topic, query or fragment), or null when it is one. The household's own default broker is
 * checked by the same words.
 */
export function checkBrokerAddress(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be a broker address such as mqtt://192.168.1.10:1883';
  }
  if (url.protocol !== 'mqtt:' && url.protocol !== 'mqtts:') return `must be an mqtt:// or mqtts:// address, not ${url.protocol}//`;
  if (!url.hostname) return "must name the broker's host (mqtt://broker:1883)";
  if (url.pathname.replace(/\/+$/, '') !== '' || url.search || url.hash || raw.includes('#'))
    return "names the broker only (mqtt://broker:1883), without a topic, query or fragment: the topic is each sensor's own";
  return null;
}
