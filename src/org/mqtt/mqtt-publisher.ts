/**
 * Vigil's events out to MQTT (docs/decisions.md, "Sensors over MQTT"; the topic tree is in
 * docs/deployment.md, "MQTT"). When VIGIL_MQTT_PUBLISH_URL is set, every detection, every
 * event the outbox writes (alerts, incidents, watch observations, stream status, …), each scene's
 * counts and each MQTT sensor's state go to that broker, with Home Assistant MQTT discovery
 * config for scenes' counts and sensors' states. Each is published by the node that produced it
 * (a stream's detections on the node that owns the stream, an event on the node that wrote it),
 * so once cluster-wide; discovery and retained states are idempotent, so every node may send them.
 */
import mqtt, { type MqttClient } from 'mqtt';
import type { DatabaseHandle } from '../../platform/db/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import type { DetectionRecord } from '../detections/index.ts';
import type { SceneState } from '../scenes/index.ts';
import { parseStreamConfig } from '../streams/index.ts';
import { mqttOutRepository } from './mqtt-out.repository.ts';

export interface MqttPublisherDeps {
  database: DatabaseHandle;
  clock: Clock;
  /** VIGIL_MQTT_PUBLISH_URL and the topic prefixes */
  url: string;
  prefix: string;
  discoveryPrefix: string | null;
  nodeId: string;
  log?: { warn(obj: unknown, msg?: string): void; info?(obj: unknown, msg?: string): void };
  /** reconnect period; default 5 s */
  reconnectMs?: number;
}

/** Home Assistant binary_sensor device classes of the sensor detection types. */
const DEVICE_CLASS: Record<string, string> = { door_open: 'door', motion: 'motion', vibration: 'vibration', water_leak: 'moisture', smoke: 'smoke' };
/** the kind a Zigbee2MQTT preset reports (mirrors ingest/mqtt's SENSOR_PRESETS, by name) */
const PRESET_TYPE: Record<string, string> = { contact: 'door_open', occupancy: 'motion', vibration: 'vibration', water_leak: 'water_leak', smoke: 'smoke' };

/** MQTT topic levels may not hold + # or /: a tenant id, location or kind is used as it is otherwise. */
function level(s: string): string {
  return s.replace(/[+#/]/g, '_');
}

export class MqttEventPublisher {
  private client: MqttClient | null = null;
  private announcedScenes = new Set<string>();
  private announcedSensors = new Set<string>();
  private pendingScenes = new Map<string, SceneState>();
  private sceneTimer: unknown = null;
  private published = 0;
  private dropped = 0;
  /**
   * Retained messages (discovery configs, scene counts, sensor states) not yet sent because the
   * broker was away: the last one per topic, sent on (re)connecting. One per topic, so bounded.
   */
  private pendingRetained = new Map<string, string>();

  constructor(private readonly deps: MqttPublisherDeps) {}

  get statusTopic(): string {
    return `${this.deps.prefix}/status`;
  }

  /** Connects (a broker that is down is retried in the background; the server starts regardless). */
  start(): void {
    if (this.client) return;
    const url = new URL(this.deps.url);
    url.pathname = '';
    this.client = mqtt.connect(url.toString(), {
      clientId: `vigil_pub_${level(this.deps.nodeId)}_${Math.random().toString(16).slice(2, 8)}`,
      reconnectPeriod: this.deps.reconnectMs ?? 5000,
      connectTimeout: 10_000,
      // while the broker is away messages are dropped (and counted), never queued without bound
      queueQoSZero: false,
      will: { topic: this.statusTopic, payload: Buffer.from('offline'), qos: 1, retain: true },
    });
    this.client.on('connect', () => {
      this.deps.log?.info?.({ topic_prefix: this.deps.prefix }, 'publishing events to MQTT');
      this.raw(this.statusTopic, 'online', { retain: true, qos: 1 });
      const pending = [...this.pendingRetained];
      this.pendingRetained.clear();
      for (const [topic, payload] of pending) this.raw(topic, payload, { retain: true, qos: 0 });
      // a broker that restarted lost its retained discovery: announce everything again
      this.announcedScenes.clear();
      this.announcedSensors.clear();
      void this.announceAll().catch((err: unknown) => this.deps.log?.warn({ err }, 'mqtt discovery failed'));
    });
    this.client.on('error', (err) => this.deps.log?.warn({ err: err.message }, 'mqtt events out: broker error'));
  }

  stats(): { connected: boolean; published: number; dropped: number; pending_retained: number } {
    return { connected: this.client?.connected ?? false, published: this.published, dropped: this.dropped, pending_retained: this.pendingRetained.size };
  }

  async close(): Promise<void> {
    this.deps.clock.clearTimeout(this.sceneTimer);
    this.flushScenes();
    const c = this.client;
    this.client = null;
    if (!c) return;
    if (c.connected) await new Promise<void>((r) => c.publish(this.statusTopic, 'offline', { retain: true, qos: 1 }, () => r()));
    await new Promise<void>((r) => c.end(false, {}, () => r()));
  }

  /** PipelineHook: each detection, and its scene's counts (coalesced per scene, at most every 250 ms). */
  onDetection(rec: DetectionRecord, scene: SceneState): void {
    if (!this.client) return;
    this.publishJson(`${this.deps.prefix}/${level(rec.tenant_id)}/detections/${level(rec.location)}/${level(rec.type)}`, {
      id: rec.id,
      type: rec.type,
      subtype: rec.subtype ?? null,
      value: rec.value ?? null,
      count: rec.count ?? null,
      confidence: rec.confidence,
      at: toIso(rec.at),
      stream_id: rec.stream_id,
      scene_id: rec.scene_id,
      location: rec.location,
      track_id: rec.track_id ?? null,
      zone: rec.zone ?? null,
      person_id: rec.person_id ?? null,
    });
    this.pendingScenes.set(scene.id, scene);
    if (this.sceneTimer === null) this.sceneTimer = this.deps.clock.setTimeout(() => this.flushScenes(), 250);
  }

  /** Outbox tap: every event written (alert.fired, incident.created, watch.observation, stream.status_changed, …). */
  onEvent(e: { tenantId: string; kind: string; eventId: string; at: number; payload: Record<string, unknown> }): void {
    if (!this.client) return;
    const { id: _id, event: _event, created_at: _created, ...rest } = e.payload;
    this.publishJson(`${this.deps.prefix}/${level(e.tenantId)}/events/${level(e.kind)}`, { id: e.eventId, event: e.kind, created_at: toIso(e.at), ...rest });
  }

  /** An MQTT sensor's state changed: its retained state topic (Home Assistant's binary_sensor reads it). */
  onSensorState(e: { streamId: string; tenantId: string; type: string; active: boolean; at: number }): void {
    if (!this.client) return;
    const publish = () =>
      this.publishJson(this.sensorStateTopic(e.tenantId, e.streamId), { state: e.active ? 'ON' : 'OFF', type: e.type, at: toIso(e.at) }, { retain: true });
    if (this.announcedSensors.has(e.streamId) || !this.deps.discoveryPrefix) return publish();
    void this.announceSensorById(e.streamId).then(publish, (err: unknown) => {
      this.deps.log?.warn({ err, stream_id: e.streamId }, 'mqtt discovery failed');
      publish();
    });
  }

  private sensorStateTopic(tenantId: string, streamId: string): string {
    return `${this.deps.prefix}/${level(tenantId)}/sensors/${level(streamId)}/state`;
  }

  private sceneStateTopic(tenantId: string, sceneId: string): string {
    return `${this.deps.prefix}/${level(tenantId)}/scenes/${level(sceneId)}/state`;
  }

  private flushScenes(): void {
    this.sceneTimer = null;
    const scenes = [...this.pendingScenes.values()];
    this.pendingScenes.clear();
    for (const s of scenes) {
      if (!this.announcedScenes.has(s.id)) this.announceScene({ id: s.id, tenant_id: s.tenantId, location: s.location });
      this.publishJson(
        this.sceneStateTopic(s.tenantId, s.id),
        { people: s.people, vehicles: s.vehicles, counts: s.counts, crowd_density: s.crowdDensity, updated_at: toIso(this.deps.clock.now()) },
        { retain: true },
      );
    }
  }

  private async announceAll(): Promise<void> {
    const db = this.deps.database.db;
    for (const s of await mqttOutRepository.listScenes(db)) {
      this.announceScene(s);
      this.publishJson(
        this.sceneStateTopic(s.tenant_id, s.id),
        { people: s.people, vehicles: s.vehicles, updated_at: toIso(this.deps.clock.now()) },
        { retain: true },
      );
    }
    for (const s of await mqttOutRepository.listSensorStreams(db)) this.announceSensor(s);
  }

  private async announceSensorById(streamId: string): Promise<void> {
    const row = await mqttOutRepository.findSensorStream(this.deps.database.db, streamId);
    if (row) this.announceSensor(row);
  }

  private device(tenantId: string) {
    return { identifiers: [`vigil_${level(tenantId)}`], name: `Vigil ${tenantId}`, manufacturer: 'Vigil', model: 'Vigil physical security' };
  }

  private announceScene(s: { id: string; tenant_id: string; location: string }): void {
    this.announcedScenes.add(s.id);
    const disc = this.deps.discoveryPrefix;
    if (!disc) return;
    const state = this.sceneStateTopic(s.tenant_id, s.id);
    for (const [what, unit] of [
      ['people', 'people'],
      ['vehicles', 'vehicles'],
    ] as const) {
      this.publishJson(
        `${disc}/sensor/vigil_${level(s.id)}/${what}/config`,
        {
          name: `${s.location.replace(/_/g, ' ')} ${what}`,
          unique_id: `vigil_${s.id}_${what}`,
          object_id: `vigil_${s.location}_${what}`,
          state_topic: state,
          value_template: `{{ value_json.${what} }}`,
          unit_of_measurement: unit,
          state_class: 'measurement',
          availability_topic: this.statusTopic,
          device: this.device(s.tenant_id),
        },
        { retain: true },
      );
    }
  }

  private announceSensor(s: { id: string; tenant_id: string; name: string; location: string; config: string }): void {
    this.announcedSensors.add(s.id);
    const disc = this.deps.discoveryPrefix;
    if (!disc) return;
    const mapping = parseStreamConfig(s.config).sensor;
    const type = mapping?.preset ? PRESET_TYPE[mapping.preset] : mapping?.type;
    if (!type) return; // a battery-only device has no state to show
    this.publishJson(
      `${disc}/binary_sensor/vigil_${level(s.id)}/state/config`,
      {
        name: s.name,
        unique_id: `vigil_${s.id}`,
        state_topic: this.sensorStateTopic(s.tenant_id, s.id),
        value_template: '{{ value_json.state }}',
        payload_on: 'ON',
        payload_off: 'OFF',
        device_class: DEVICE_CLASS[type] ?? null,
        availability_topic: this.statusTopic,
        json_attributes_topic: this.sensorStateTopic(s.tenant_id, s.id),
        device: this.device(s.tenant_id),
      },
      { retain: true },
    );
  }

  private publishJson(topic: string, body: unknown, opts: { retain?: boolean } = {}): void {
    this.raw(topic, JSON.stringify(body), { retain: opts.retain ?? false, qos: 0 });
  }

  private raw(topic: string, payload: string, opts: { retain: boolean; qos: 0 | 1 }): void {
    const c = this.client;
    if (!c?.connected) {
      // a state or a config is kept for the connection (the last per topic); an event is dropped
      if (opts.retain) this.pendingRetained.set(topic, payload);
      else this.dropped++;
      return;
    }
    this.published++;
    c.publish(topic, payload, opts, (err) => {
      if (err) this.dropped++;
    });
  }
}
