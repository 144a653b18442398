/**
 * MQTT source addresses: mqtt://[user[:password]@]host[:port]/<topic> (mqtts:// for TLS). The
 * topic is one device's state topic (Zigbee2MQTT's zigbee2mqtt/back_door), so the MQTT wildcards
 * `+` and `#` are refused: one stream is one device (docs/decisions.md, "Sensors over MQTT").
 */

/** The longest device topic a source or a sensor may name. */
export const MAX_TOPIC_CHARS = 1024;

export interface BrokerAddress {
  /** mqtt: or mqtts: */
  protocol: 'mqtt' | 'mqtts';
  host: string;
  port: number;
  username: string | null;
  password: string | null;
}

export type MqttUrlCheck = { ok: true; broker: BrokerAddress; topic: string } | { ok: false; reason: string };

const DEFAULT_PORT = { mqtt: 1883, mqtts: 8883 } as const;

/** Parses an MQTT source URL; the reason names what is wrong (for a 400 on source_url). */
export function parseMqttUrl(raw: string): MqttUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not a valid URL (mqtt://broker:1883/<topic>)' };
  }
  const protocol = url.protocol.replace(/:$/, '');
  if (protocol !== 'mqtt' && protocol !== 'mqtts') return { ok: false, reason: `an mqtt source takes mqtt:// or mqtts://, not ${protocol}://` };
  if (!url.hostname) return { ok: false, reason: "must name the broker's host (mqtt://broker:1883/<topic>)" };
  let topic: string;
  try {
    topic = decodeURIComponent(url.pathname.replace(/^\//, ''));
  } catch {
    return { ok: false, reason: 'the topic is not valid percent-encoding' };
  }
  if (!topic) return { ok: false, reason: "must name the device's topic after the broker, such as mqtt://broker:1883/zigbee2mqtt/back_door" };
  // `#` starts a URL fragment, so it is looked for in the raw text (an empty fragment leaves no hash)
  if (/[+#]/.test(topic) || raw.includes('#'))
    return {
      ok: false,
      reason: `the topic ${JSON.stringify(topic + (raw.includes('#') ? raw.slice(raw.indexOf('#')) : ''))} has an MQTT wildcard (+ or #); one stream is one device, so give its own topic`,
    };
  if (url.search) return { ok: false, reason: "takes no query string; the payload mapping goes in the stream's sensor field" };
  if (topic.length > MAX_TOPIC_CHARS) return { ok: false, reason: `the topic is longer than ${MAX_TOPIC_CHARS} characters` };
  const port = url.port ? Number(url.port) : DEFAULT_PORT[protocol];
  return {
    ok: true,
    broker: {
      protocol,
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port,
      username: url.username ? decodeURIComponent(url.username) : null,
      password: url.password ? decodeURIComponent(url.password) : null,
    },
    topic,
  };
}

/** One connection per broker and credentials: streams on the same broker share it. */
export function brokerKey(b: BrokerAddress): string {
  return `${b.protocol}://${encodeURIComponent(b.username ?? '')}:${encodeURIComponent(b.password ?? '')}@${b.host}:${b.port}`;
}

/** The broker as said in a stream's error or a log line: never its credentials. */
export function describeBroker(b: BrokerAddress): string {
  return `${b.protocol}://${b.host.includes(':') ? `[${b.host}]` : b.host}:${b.port}`;
}
