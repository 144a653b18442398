import { metrics } from '../../platform/metrics/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import { FencedWriteError } from '../../platform/coordination/index.ts';
import type { DatabaseHandle } from '../../platform/db/index.ts';
import type { DetectionPipeline, StreamRef } from '../pipeline/index.ts';
import { latestDetectionOfTypes } from '../detections/index.ts';
import { parseStreamConfig, type StreamRow, type SensorLiveView } from '../streams/index.ts';
import type { IngestStats, StreamStatus } from '../../ingest/video/index.ts';
import {
  DROP_REASONS,
  detectionForChange,
  parseMqttUrl,
  readPayload,
  resolveMapping,
  stateTypesOf,
  type DropReason,
  type MqttBrokerPool,
  type ResolvedMapping,
} from '../../ingest/mqtt/index.ts';
import { writeStreamStatus, type StreamStatusDeps } from './stream-status.ts';

export interface MqttSourcesDeps extends StreamStatusDeps {
  database: DatabaseHandle;
  clock: Clock;
  pipeline: DetectionPipeline;
  pool: MqttBrokerPool;
  log?: { warn(obj: unknown, msg?: string): void };
}

interface SensorEntry {
  ref: StreamRef;
  /** null: the stored mapping is not one this server knows; every message is dropped as unknown_preset */
  mapping: ResolvedMapping | null;
  unsubscribe: () => void;
  /** the broker took the subscription and the connection holds */
  brokerUp: boolean;
  brokerError: string | null;
  /** no message for longer than the mapping's expected interval */
  silent: boolean;
  silenceTimer: unknown;
  /** the device's last state: true active, false inactive, null unknown */
  state: boolean | null;
  stateAt: number | null;
  /** resolves once the last state stored for the stream is read (a contact's door_open/door_closed) */
  ready: Promise<void> | null;
  battery: number | null;
  lastMessageAt: number | null;
  messages: number;
  dropped: Record<DropReason, number>;
  status: StreamStatus;
  error: string | null;
  /** status writes, in the order they happened */
  writes: Promise<void>;
  inFlight: Set<Promise<unknown>>;
}

/**
 * Sensors over MQTT (docs/decisions.md, "Sensors over MQTT"): each mqtt stream subscribes to its
 * device's topic on the broker its URL names (one shared connection per broker), reads each
 * message through its mapping and turns each change of state into a detection through the same
 * DetectionPipeline as video, so scenes, alert rules, incidents and household watches see it.
 * The stream's status says what holds now: `live`; `reconnecting` while the broker is unreachable
 * (retried with backoff); `offline` when the battery is low or the device has been silent longer
 * than expected; each change is written with a stream.status_changed event (stream-status.ts).
 * A message that cannot be read is dropped and counted on the stream.
 */
/** A sensor's state as it changed (the broker's retained copy included), for Vigil's events out (org/mqtt). */
export type SensorStateListener = (e: { streamId: string; tenantId: string; location: string; type: string; active: boolean; at: number }) => void;

export class MqttSources {
  private entries = new Map<string, SensorEntry>();
  private closed = false;
  private readonly stateListeners: SensorStateListener[] = [];

  constructor(private readonly deps: MqttSourcesDeps) {}

  /** Hears every change of a running sensor's state (org/mqtt publishes it for Home Assistant). */
  onStateChange(fn: SensorStateListener): void {
    this.stateListeners.push(fn);
  }

  isRunning(streamId: string): boolean {
    return this.entries.has(streamId);
  }

  start(row: StreamRow, lease?: StreamRef['lease']): void {
    if (this.closed) return;
    this.stop(row.id);
    const url = parseMqttUrl(row.source_url);
    const check = resolveMapping(parseStreamConfig(row.config).sensor);
    const entry: SensorEntry = {
      ref: { id: row.id, tenant_id: row.tenant_id, scene_id: row.scene_id, location: row.location, lease },
      mapping: check.ok ? check.mapping : null,
      unsubscribe: () => undefined,
      brokerUp: false,
      brokerError: null,
      silent: false,
      silenceTimer: null,
      state: null,
      stateAt: null,
      ready: null,
      battery: null,
      lastMessageAt: null,
      messages: 0,
      dropped: Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) as Record<DropReason, number>,
      status: 'connecting',
      error: null,
      writes: Promise.resolve(),
      inFlight: new Set(),
    };
    this.entries.set(row.id, entry);
    metrics().streamStatus(row.id, 'connecting');
    if (!url.ok) {
      // a row written by hand or by another version: said on the stream, never a crash
      this.setStatus(entry, 'offline', `source_url ${url.reason}`);
      return;
    }
    if (entry.mapping?.type === 'door_open') entry.ready = this.loadState(entry, entry.mapping);
    entry.unsubscribe = this.deps.pool.subscribe(url.broker, url.topic, {
      onConnected: () => {
        if (this.entries.get(row.id) !== entry) return;
        entry.brokerUp = true;
        entry.brokerError = null;
        if (entry.silenceTimer === null) this.armSilence(entry);
        this.refresh(entry);
      },
      onDisconnected: (reason) => {
        if (this.entries.get(row.id) !== entry) return;
        entry.brokerUp = false;
        entry.brokerError = reason;
        this.refresh(entry);
      },
      onMessage: (payload, retained) => {
        if (this.entries.get(row.id) !== entry) return;
        this.onMessage(entry, payload, retained);
      },
    });
  }

  stop(streamId: string): void {
    const entry = this.entries.get(streamId);
    if (!entry) return;
    this.entries.delete(streamId);
    this.deps.clock.clearTimeout(entry.silenceTimer);
    entry.unsubscribe();
    metrics().streamStatus(streamId, null);
  }

  /** Live figures in the shape of video ingest's (the stream view reads them): status, error, last message. */
  stats(streamId: string): IngestStats | null {
    const e = this.entries.get(streamId);
    if (!e) return null;
    return {
      status: e.status,
      last_frame_at: e.lastMessageAt,
      fps_in: 0,
      detector_fps: 0,
      error: e.error,
      frames_in: e.messages,
      frames_detected: 0,
      frames_skipped_no_motion: 0,
      frames_dropped_busy: 0,
      reconnects: 0,
      retry_at: null,
    };
  }

  sensorState(streamId: string): SensorLiveView | null {
    const e = this.entries.get(streamId);
    if (!e) return null;
    return {
      state: e.state === null || e.mapping?.type === null ? null : e.state ? 'active' : 'inactive',
      state_at: e.stateAt === null ? null : toIso(e.stateAt),
      battery: e.battery,
      last_message_at: e.lastMessageAt === null ? null : toIso(e.lastMessageAt),
      messages: e.messages,
      dropped: { ...e.dropped },
    };
  }

  /** Stops every subscription and waits for the writes in flight; the broker connections close. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.entries.values()];
    for (const e of all) this.stop(e.ref.id);
    await Promise.allSettled(all.flatMap((e) => [e.writes, ...e.inFlight]));
    await this.deps.pool.close();
  }

  /** A contact's state as last stored (door_open or door_closed), so a restart does not report the door anew. */
  private async loadState(entry: SensorEntry, mapping: ResolvedMapping): Promise<void> {
    try {
      const last = await latestDetectionOfTypes(this.deps.database.db, entry.ref.id, stateTypesOf(mapping.type!));
      if (last && entry.state === null) {
        entry.state = last.type === mapping.type;
        entry.stateAt = last.at;
      }
    } catch (err) {
      this.deps.log?.warn({ err, stream_id: entry.ref.id }, "reading a sensor's last state failed");
    }
  }

  private onMessage(entry: SensorEntry, payload: Buffer, retained: boolean): void {
    const now = this.deps.clock.now();
    entry.messages++;
    entry.lastMessageAt = now;
    if (entry.silent) entry.silent = false;
    this.armSilence(entry);
    const mapping = entry.mapping;
    if (!mapping) {
      entry.dropped.unknown_preset++;
      return this.refresh(entry);
    }
    const reading = readPayload(payload, mapping);
    if (!reading.ok) {
      entry.dropped[reading.reason]++;
      return this.refresh(entry);
    }
    if (reading.battery !== null) entry.battery = reading.battery;
    this.refresh(entry);
    if (reading.active === null || mapping.type === null) return;
    const active = reading.active;
    const apply = () => this.applyState(entry, mapping, active, retained, now);
    if (entry.ready) {
      // the stored state is still being read: changes wait for it, in order
      const next = entry.ready.then(apply);
      entry.ready = next;
      void next.then(() => {
        if (entry.ready === next) entry.ready = null;
      });
    } else apply();
  }

  /**
   * A change of state is a detection; the same state again is nothing. A retained message (the
   * broker's copy of the last state, sent on subscribing) sets the state without a detection unless
   * it contradicts a contact's stored state (the door moved while no one listened).
   */
  private applyState(entry: SensorEntry, mapping: ResolvedMapping, active: boolean, retained: boolean, at: number): void {
    if (this.entries.get(entry.ref.id) !== entry) return;
    const before = entry.state;
    if (before === active) return;
    entry.state = active;
    entry.stateAt = at;
    for (const fn of this.stateListeners)
      fn({ streamId: entry.ref.id, tenantId: entry.ref.tenant_id, location: entry.ref.location, type: mapping.type!, active, at });
    if (retained && (before === null || mapping.type !== 'door_open')) return;
    const det = detectionForChange(mapping.type!, active, at);
    if (!det) return;
    const written = this.deps.pipeline
      .ingest(entry.ref, [det])
      .catch((err: unknown) => this.deps.log?.warn({ err, stream_id: entry.ref.id }, 'sensor detection write failed'));
    entry.inFlight.add(written);
    void written.finally(() => entry.inFlight.delete(written));
  }

  private armSilence(entry: SensorEntry): void {
    const { clock } = this.deps;
    clock.clearTimeout(entry.silenceTimer);
    if (!entry.mapping) return;
    const interval = entry.mapping.expectedIntervalMs;
    entry.silenceTimer = clock.setTimeout(() => {
      if (this.entries.get(entry.ref.id) !== entry) return;
      entry.silent = true;
      this.refresh(entry);
    }, interval);
  }

  /** The status the entry's facts make, written when it changed. */
  private refresh(entry: SensorEntry): void {
    const mapping = entry.mapping;
    let status: StreamStatus;
    let error: string | null = null;
    if (!entry.brokerUp) {
      status = entry.brokerError ? 'reconnecting' : 'connecting';
      error = entry.brokerError;
    } else if (!mapping) {
      status = 'offline';
      error = "the stream's sensor mapping is not one this server knows (see sensor.preset)";
    } else if (entry.battery !== null && entry.battery <= mapping.batteryLowPct) {
      status = 'offline';
      error = `battery low: ${entry.battery}% (at or below ${mapping.batteryLowPct}%)`;
    } else if (entry.silent) {
      status = 'offline';
      error = `the device sent nothing for ${Math.round(mapping.expectedIntervalMs / 1000)} s (its expected interval)`;
    } else {
      status = 'live';
    }
    if (status === entry.status && error === entry.error) return;
    this.setStatus(entry, status, error);
  }

  private setStatus(entry: SensorEntry, status: StreamStatus, error: string | null): void {
    const changed = status !== entry.status;
    entry.status = status;
    entry.error = error;
    if (this.entries.get(entry.ref.id) === entry) metrics().streamStatus(entry.ref.id, status);
    // a new error text under the same status (the retry wait grows) is not worth a write
    if (!changed && status !== 'offline') return;
    const lastAt = entry.lastMessageAt;
    entry.writes = entry.writes
      .then(() => writeStreamStatus(this.deps, entry.ref, status, { error, lastAt }))
      .catch((err: unknown) => {
        if (err instanceof FencedWriteError)
          this.deps.log?.warn({ stream_id: entry.ref.id, status }, "stream status not written: this node no longer holds the stream's lease");
        else this.deps.log?.warn({ err, stream_id: entry.ref.id }, 'stream status write failed');
      });
  }
}
