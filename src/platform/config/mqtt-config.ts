/**
 * Sensors over MQTT and Vigil's events out to MQTT (docs/decisions.md, "Sensors over MQTT";
 * docs/deployment.md, "MQTT"). VIGIL_MQTT_ALLOW_PRIVATE lets mqtt sources name a broker on a
 * loopback or private address (a home broker on the LAN); VIGIL_MQTT_PUBLISH_URL names the broker
 * Vigil publishes its events to (mqtt://[user:password@]host:port[/<topic prefix>], default prefix
 * "vigil"), VIGIL_MQTT_DISCOVERY_PREFIX Home Assistant's discovery prefix (default "homeassistant",
 * empty to publish no discovery).
 */
export interface MqttConfig {
  allowPrivate: boolean;
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
    if (!url.hostname) throw new Error('config: VIGIL_MQTT_PUBLISH_URL must name the broker\'s host');
    const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '') || 'vigil';
    if (/[+#]/.test(prefix)) throw new Error('config: VIGIL_MQTT_PUBLISH_URL\'s topic prefix must not contain + or #');
    const discovery = env.VIGIL_MQTT_DISCOVERY_PREFIX === undefined ? 'homeassistant' : env.VIGIL_MQTT_DISCOVERY_PREFIX.trim().replace(/^\/+|\/+$/g, '');
    publish = { url: raw, prefix, discoveryPrefix: discovery || null };
  }
  return { allowPrivate: readBool(env, 'VIGIL_MQTT_ALLOW_PRIVATE', false), publish };
}
