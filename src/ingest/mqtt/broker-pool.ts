/**
 * One MQTT client per broker (and credentials), shared by every device topic on it: a thousand
 * sensors on one Mosquitto are one connection. The broker being down is a state, never an error
 * that escapes: each topic's listener hears `reconnecting` with the reason, and the client tries
 * again with exponential backoff (docs/decisions.md, "Sensors over MQTT").
 */
import mqtt, { type MqttClient } from 'mqtt';
import { brokerKey, describeBroker, type BrokerAddress } from './mqtt-url.ts';

export interface BrokerBackoff {
  /** first wait after a failed or lost connection; default 1 s */
  initialMs?: number;
  /** the longest wait; default 30 s */
  maxMs?: number;
  /** how long a connection attempt may take; default 10 s */
  connectTimeoutMs?: number;
}

/** What a topic's listener hears. */
export interface TopicListener {
  /** the broker took the subscription (after every (re)connection) */
  onConnected(): void;
  /** the broker is unreachable or went away; `reason` has no credentials */
  onDisconnected(reason: string): void;
  onMessage(payload: Buffer, retained: boolean): void;
}

interface Broker {
  address: BrokerAddress;
  client: MqttClient;
  topics: Map<string, Set<TopicListener>>;
  connected: boolean;
  attempt: number;
  timer: ReturnType<typeof setTimeout> | null;
  lastError: string | null;
}

export class MqttBrokerPool {
  private brokers = new Map<string, Broker>();
  private closed = false;

  constructor(
    private readonly opts: {
      backoff?: BrokerBackoff;
      log?: { warn(obj: unknown, msg?: string): void; info?(obj: unknown, msg?: string): void };
      clientIdPrefix?: string;
    } = {},
  ) {}

  /** Listens to one device topic; returns the unsubscribe. The connection is made on first use. */
  subscribe(address: BrokerAddress, topic: string, listener: TopicListener): () => void {
    const key = brokerKey(address);
    let broker = this.brokers.get(key);
    if (!broker) {
      broker = this.open(address);
      this.brokers.set(key, broker);
    }
    let set = broker.topics.get(topic);
    if (!set) {
      set = new Set();
      broker.topics.set(topic, set);
      if (broker.connected) this.subscribeTopics(broker, [topic]);
    } else if (broker.connected) {
      // the topic is already subscribed: the new listener gets the retained state from a fresh subscription
      this.subscribeTopics(broker, [topic]);
    }
    set.add(listener);
    if (!broker.connected && broker.lastError) listener.onDisconnected(broker.lastError);
    const b = broker;
    return () => this.unsubscribe(key, b, topic, listener);
  }

  /** Brokers with a live connection, of all the pool has (for /readyz and tests). */
  stats(): { brokers: number; connected: number; topics: number } {
    let connected = 0;
    let topics = 0;
    for (const b of this.brokers.values()) {
      if (b.connected) connected++;
      topics += b.topics.size;
    }
    return { brokers: this.brokers.size, connected, topics };
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.brokers.values()];
    this.brokers.clear();
    await Promise.all(all.map((b) => this.end(b)));
  }

  private open(address: BrokerAddress): Broker {
    const client = mqtt.connect({
      protocol: address.protocol,
      host: address.host,
      port: address.port,
      username: address.username ?? undefined,
      password: address.password ?? undefined,
      clientId: `${this.opts.clientIdPrefix ?? 'vigil'}_${Math.random().toString(16).slice(2, 10)}`,
      clean: true,
      // reconnection is ours (exponential backoff); mqtt.js only retries at a fixed period
      reconnectPeriod: 0,
      connectTimeout: this.opts.backoff?.connectTimeoutMs ?? 10_000,
      resubscribe: false,
      keepalive: 30,
    });
    const broker: Broker = { address, client, topics: new Map(), connected: false, attempt: 0, timer: null, lastError: null };
    client.on('connect', () => {
      broker.connected = true;
      broker.attempt = 0;
      broker.lastError = null;
      this.opts.log?.info?.({ broker: describeBroker(address) }, 'mqtt broker connected');
      this.subscribeTopics(broker, [...broker.topics.keys()]);
    });
    client.on('message', (topic, payload, packet) => {
      const set = broker.topics.get(topic);
      if (!set) return;
      for (const l of set) {
        try {
          l.onMessage(payload, packet.retain);
        } catch (err) {
          this.opts.log?.warn({ err, topic }, 'mqtt message handler failed');
        }
      }
    });
    client.on('error', (err) => {
      // a refused connection, a bad password, a TLS failure: said on every topic, retried
      broker.lastError = `broker ${describeBroker(address)}: ${describeError(err)}`;
    });
    client.on('close', () => this.lost(broker));
    return broker;
  }

  private lost(broker: Broker): void {
    const wasConnected = broker.connected;
    broker.connected = false;
    if (this.closed || broker.client.disconnecting) return;
    if (broker.timer) return; // a retry is already scheduled
    const initial = this.opts.backoff?.initialMs ?? 1000;
    const max = this.opts.backoff?.maxMs ?? 30_000;
    const wait = Math.min(max, initial * 2 ** broker.attempt);
    broker.attempt++;
    const why = broker.lastError ?? `broker ${describeBroker(broker.address)}: ${wasConnected ? 'connection lost' : 'unreachable'}`;
    const reason = `${why}; retrying in ${formatWait(wait)}`;
    for (const set of broker.topics.values()) for (const l of set) l.onDisconnected(reason);
    broker.timer = setTimeout(() => {
      broker.timer = null;
      if (this.closed || broker.topics.size === 0) return;
      broker.lastError = null;
      broker.client.reconnect();
    }, wait);
    broker.timer.unref?.();
  }

  private subscribeTopics(broker: Broker, topics: string[]): void {
    if (!topics.length) return;
    broker.client.subscribe(topics, { qos: 0 }, (err) => {
      if (err) {
        this.opts.log?.warn({ err: describeError(err), broker: describeBroker(broker.address) }, 'mqtt subscribe failed');
        return;
      }
      for (const t of topics) for (const l of broker.topics.get(t) ?? []) l.onConnected();
    });
  }

  private unsubscribe(key: string, broker: Broker, topic: string, listener: TopicListener): void {
    const set = broker.topics.get(topic);
    if (!set?.delete(listener)) return;
    if (set.size) return;
    broker.topics.delete(topic);
    if (broker.connected) broker.client.unsubscribe(topic);
    if (broker.topics.size === 0 && this.brokers.get(key) === broker) {
      this.brokers.delete(key);
      void this.end(broker);
    }
  }

  private async end(broker: Broker): Promise<void> {
    if (broker.timer) clearTimeout(broker.timer);
    broker.timer = null;
    await new Promise<void>((resolve) => broker.client.end(true, {}, () => resolve()));
  }
}

function describeError(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  const msg = typeof e?.message === 'string' ? e.message : String(err);
  // never echo credentials a library put in its message
  return msg.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, '$1***@');
}

function formatWait(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
