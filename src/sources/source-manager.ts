import type { Clock } from '../lib/clock.ts';
import type { DetectionPipeline, StreamRef } from '../pipeline/detection-pipeline.ts';
import { createScenario, parseSandboxUrl, type ScenarioGenerator, type ScenarioName } from '../sandbox/scenarios.ts';
import type { StreamRow } from '../streams/stream.repository.ts';

/**
 * Runs every stream's source and feeds the pipeline. Sandbox streams (source_type sandbox, or any
 * stream created with a test key — DESIGN.md "Sandbox") tick a deterministic scenario generator
 * on the injected clock. Real sources (rtsp, webrtc, mobile) are handed to the video ingest when
 * it exists; until then they stay "connecting".
 */
export interface SourceRunner {
  stop(): void;
}

export interface SourceManagerDeps {
  clock: Clock;
  pipeline: DetectionPipeline;
  tickMs?: number;
  log?: { warn(obj: unknown, msg?: string): void };
}

/** Which scenario simulates a stream that a test key registered with a real-looking source. */
export function scenarioForStream(row: Pick<StreamRow, 'source_type' | 'source_url' | 'location'>): { scenario: ScenarioName; seed: number } {
  if (row.source_type === 'sandbox') {
    const parsed = parseSandboxUrl(row.source_url);
    if (parsed.ok) return { scenario: parsed.scenario, seed: parsed.seed };
  }
  const loc = row.location;
  const scenario: ScenarioName = /park|garage|lot|drive/.test(loc) ? 'parking_lot' : /plaza|hall|stadium|concourse|arena/.test(loc) ? 'crowd_surge' : 'lobby';
  return { scenario, seed: 1 };
}

export class SourceManager {
  private runners = new Map<string, SourceRunner>();
  private stopped = false;

  constructor(private readonly deps: SourceManagerDeps) {}

  /**
   * `since` is where generation starts: a new sandbox stream starts 15 minutes in the past so its
   * scene already shows its present state (people who arrived before it was registered); a restart
   * resumes at now, so nothing is generated twice.
   */
  start(row: StreamRow, opts: { timeZone?: string; since?: number } = {}): void {
    if (this.stopped) return;
    this.stop(row.id);
    if (row.sandbox) {
      const { scenario, seed } = scenarioForStream(row);
      const gen = createScenario(scenario, { seed, timeZone: opts.timeZone ?? 'UTC' });
      this.runners.set(row.id, this.runSandbox(row, gen, opts.since ?? this.deps.clock.now()));
    }
  }

  stop(streamId: string): void {
    this.runners.get(streamId)?.stop();
    this.runners.delete(streamId);
  }

  stopAll(): void {
    this.stopped = true;
    for (const r of this.runners.values()) r.stop();
    this.runners.clear();
  }

  get running(): number {
    return this.runners.size;
  }

  private runSandbox(row: StreamRow, gen: ScenarioGenerator, since: number): SourceRunner {
    const { clock, pipeline } = this.deps;
    const tickMs = this.deps.tickMs ?? 1000;
    const ref: StreamRef = { id: row.id, tenant_id: row.tenant_id, scene_id: row.scene_id, location: row.location };
    let last = since;
    let handle: unknown = null;
    let active = true;
    const tick = () => {
      if (!active) return;
      const now = clock.now();
      const batch = gen.detectionsBetween(last, now);
      last = now;
      if (batch.length) {
        pipeline.ingest(ref, batch).catch((err) => this.deps.log?.warn({ err, stream_id: row.id }, 'sandbox ingest failed'));
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
