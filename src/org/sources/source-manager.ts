import { metrics } from '../../platform/metrics/index.ts';
import { type FrameOutcome, type StreamVideoConfig, type StreamRow, type SensorLiveView, parseStreamConfig } from '../streams/index.ts';
import type { Clock } from '../../platform/time/index.ts';
import { VigilError } from '../../platform/lib/index.ts';
import type { DetectionPipeline, IngestGate, StreamRef } from '../pipeline/index.ts';
import type { DetectionInput } from '../detections/index.ts';
import { createScenario, parseSandboxUrl, type ScenarioGenerator, type ScenarioName } from '../../ingest/sandbox/index.ts';
import type { IngestStats } from '../../ingest/video/index.ts';
import type { LiveVideoSources } from './live-video-sources.ts';
import type { WebRtcIngestHandle } from '../webrtc/index.ts';
import type { MqttSources } from './mqtt-sources.ts';

/** Source types that real video ingest interprets (webrtc: WHIP publishers). */
export const VIDEO_SOURCE_TYPES: readonly string[] = ['rtsp', 'http', 'mobile', 'webrtc'];

/**
 * Runs every stream's source and feeds the pipeline. Sandbox streams (source_type sandbox, or any
 * stream created with a test key — docs/design.md "Sandbox") tick a deterministic scenario generator
 * on the injected clock. Real cameras and phones (rtsp, http, mobile) go to the live video ingest,
 * but only in a process that serves them (startLive(), called by the server's start); the CLI and
 * route-only tests leave them `connecting`.
 */
export interface SourceRunner {
  stop(): void;
}

export interface SourceManagerDeps {
  clock: Clock;
  pipeline: DetectionPipeline;
  tickMs?: number;
  log?: { warn(obj: unknown, msg?: string): void };
  /** real video: ffmpeg cameras and phone frames through the detector */
  video?: LiveVideoSources;
  /** real sensors over MQTT (docs/decisions.md, "Sensors over MQTT") */
  mqtt?: MqttSources;
  /** household sensors that are muted or left alone: a real one is not even decoded */
  gate?: IngestGate;
  /** cluster mode: only the ownership scheduler starts sources, each under its lease */
  clustered?: boolean;
  /**
   * the tenant's people with an enrolled face, as known now (a cache; null while it loads): a
   * sandbox person the scenario recognizes is named as one of them
   */
  knownPeople?: (tenantId: string) => readonly string[] | null;
}

/**
 * A scenario's recognized people (staff) named as the tenant's enrolled people, chosen by track so
 * a track keeps its person; without enrolled people nobody can be recognized, so the sighting
 * carries no subtype (as a real camera's whose face matched nobody would not be "recognized").
 */
export function resolveSandboxPeople(batch: DetectionInput[], people: readonly string[] | null): DetectionInput[] {
  return batch.map((d) => {
    if (d.type !== 'person' || d.subtype !== 'recognized' || d.person_id) return d;
    if (!people?.length) return { ...d, subtype: null };
    return { ...d, person_id: people[hashTrack(d.track_id ?? '') % people.length] };
  });
}

function hashTrack(id: string): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Which scenario simulates a stream that a test key registered with a real-looking source. */
export function scenarioForStream(row: Pick<StreamRow, 'source_type' | 'source_url' | 'location'> & Partial<Pick<StreamRow, 'config'>>): {
  scenario: ScenarioName;
  seed: number;
} {
  if (row.source_type === 'sandbox') {
    const parsed = parseSandboxUrl(row.source_url);
    if (parsed.ok) return { scenario: parsed.scenario, seed: parsed.seed };
  }
  if (row.source_type === 'mqtt') {
    // a test key's MQTT sensor is simulated as the household's sensor of its kind
    const preset = parseStreamConfig(row.config ?? '{}').sensor?.preset;
    return { scenario: preset === 'contact' ? 'home_back_door' : 'home_garage_motion', seed: 1 };
  }
  const loc = row.location;
  const scenario: ScenarioName = /park|garage|lot|drive/.test(loc) ? 'parking_lot' : /plaza|hall|stadium|concourse|arena/.test(loc) ? 'crowd_surge' : 'lobby';
  return { scenario, seed: 1 };
}

export class SourceManager {
  private runners = new Map<string, SourceRunner>();
  private stopped = false;
  private live = false;

  constructor(private readonly deps: SourceManagerDeps) {}

  /**
   * `since` is where generation starts: a new sandbox stream starts 15 minutes in the past so its
   * scene already shows its present state (people who arrived before it was registered); a restart
   * resumes at now, so nothing is generated twice.
   */
  start(row: StreamRow, opts: { timeZone?: string; since?: number; lease?: { nodeId: string; epoch: number } } = {}): void {
    if (this.stopped) return;
    // a start from anywhere else (a household edit through this node) would run a second copy
    if (this.deps.clustered && !opts.lease) return;
    this.stop(row.id);
    if (row.sandbox) {
      const { scenario, seed } = scenarioForStream(row);
      const gen = createScenario(scenario, { seed, timeZone: opts.timeZone ?? 'UTC' });
      this.runners.set(row.id, this.runSandbox(row, gen, opts.since ?? this.deps.clock.now(), opts.lease));
      metrics().streamStatus(row.id, 'live'); // a generator is live while it runs
    } else if (this.live && VIDEO_SOURCE_TYPES.includes(row.source_type) && !this.deps.gate?.withheldReason(row.id)) {
      // a simulated sensor keeps generating (the pipeline's gate drops it); a real camera that was
      // told to stop looking is not decoded or run through the detector at all
      this.deps.video?.start(row, opts.lease);
    } else if (this.live && row.source_type === 'mqtt' && !this.deps.gate?.withheldReason(row.id)) {
      // a muted sensor or one left alone is not even subscribed to
      this.deps.mqtt?.start(row, opts.lease);
    }
  }

  /** From now on real streams are ingested (call before starting the existing streams). */
  startLive(): void {
    this.live = Boolean(this.deps.video ?? this.deps.mqtt) && !this.stopped;
  }

  stop(streamId: string): void {
    this.runners.get(streamId)?.stop();
    if (this.runners.delete(streamId)) metrics().streamStatus(streamId, null);
    this.deps.video?.stop(streamId);
    this.deps.mqtt?.stop(streamId);
  }

  stopAll(): void {
    this.stopped = true;
    this.live = false;
    for (const [id, r] of this.runners) {
      r.stop();
      metrics().streamStatus(id, null);
    }
    this.runners.clear();
  }

  /** Stops every source, waits for the video ingest to wind down and closes the detector pool. */
  async close(): Promise<void> {
    this.stopAll();
    await Promise.all([this.deps.video?.close(), this.deps.mqtt?.close()]);
  }

  /** Whether a real stream's ingest runs in this process. */
  isLive(streamId: string): boolean {
    return (this.deps.video?.isRunning(streamId) ?? false) || (this.deps.mqtt?.isRunning(streamId) ?? false);
  }

  /** Live ingest figures of a real stream running in this process, else null. */
  liveStats(streamId: string): IngestStats | null {
    return this.deps.video?.stats(streamId) ?? this.deps.mqtt?.stats(streamId) ?? null;
  }

  /** An MQTT sensor running in this process: its last state and dropped messages, else null. */
  sensorState(streamId: string): SensorLiveView | null {
    return this.deps.mqtt?.sensorState(streamId) ?? null;
  }

  /** Zones and motion masks changed: applied to the running ingest without reconnecting. */
  reconfigure(streamId: string, cfg: StreamVideoConfig): void {
    this.deps.video?.reconfigure(streamId, cfg);
  }

  /** A phone frame for a running mobile stream (the caller checked it is one). */
  pushFrame(streamId: string, jpeg: Buffer): Promise<FrameOutcome> {
    if (!this.deps.video) throw new VigilError('service_unavailable', 'This server does not run video ingest, so it cannot take frames.');
    return this.deps.video.pushFrame(streamId, jpeg);
  }

  /** The ingest a WHIP publisher of a running webrtc stream feeds, else null. */
  webrtcIngest(streamId: string): WebRtcIngestHandle | null {
    return this.deps.video?.webrtcIngest(streamId) ?? null;
  }

  get running(): number {
    return this.runners.size;
  }

  private runSandbox(row: StreamRow, gen: ScenarioGenerator, since: number, lease?: StreamRef['lease']): SourceRunner {
    const { clock, pipeline } = this.deps;
    const tickMs = this.deps.tickMs ?? 1000;
    const ref: StreamRef = { id: row.id, tenant_id: row.tenant_id, scene_id: row.scene_id, location: row.location, lease };
    let last = since;
    let handle: unknown = null;
    let active = true;
    const tick = () => {
      if (!active) return;
      const now = clock.now();
      const batch = resolveSandboxPeople(gen.detectionsBetween(last, now), this.deps.knownPeople?.(row.tenant_id) ?? null);
      last = now;
      if (batch.length) {
        pipeline.ingest(ref, batch).catch((err: unknown) => this.deps.log?.warn({ err, stream_id: row.id }, 'sandbox ingest failed'));
      }
      handle = clock.setTimeout(tick, tickMs);
    };
    tick();
    return {
      stop: () => {
        active = false;
        clock.clearTimeout(handle);
      },
    };
  }
}
