import type { Config } from './config.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './db/database.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { AuditService } from './audit/audit.service.ts';
import { KeyService } from './keys/key.service.ts';
import { DetectionPipeline } from './pipeline/detection-pipeline.ts';
import { detectionRepository } from './pipeline/detection.repository.ts';
import { SceneEngine } from './scenes/scene-engine.ts';
import { SceneService } from './scenes/scene.service.ts';
import { SourceManager } from './sources/source-manager.ts';
import { StreamService } from './streams/stream.service.ts';
import { MemoryRateLimitStore, type RateLimitStore } from './http/rate-limit.ts';
import { pruneIdempotency } from './http/idempotency.ts';

export interface ContextOptions {
  clock?: Clock;
  /** sandbox tick period; tests with a ManualClock use coarse ticks */
  sandboxTickMs?: number;
  log?: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
}

/**
 * Every service wired with its explicit dependencies (DESIGN.md "Code shape" 3). The HTTP app,
 * the CLI, the bench and the tests all build this one object.
 */
export interface VigilContext {
  config: Config;
  clock: Clock;
  database: DatabaseHandle;
  audit: AuditService;
  keys: KeyService;
  engine: SceneEngine;
  pipeline: DetectionPipeline;
  sources: SourceManager;
  scenes: SceneService;
  streams: StreamService;
  rateLimits: RateLimitStore;
  /** starts sources and housekeeping timers (the server does; the CLI does not) */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function createContext(config: Config, opts: ContextOptions = {}): Promise<VigilContext> {
  const clock = opts.clock ?? systemClock;
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onIdleError: (err) => opts.log?.warn({ err }, 'idle database connection failed'),
  });
  await migrateToLatest(database);
  const audit = new AuditService({ database, clock });
  const keys = new KeyService({ database, clock, audit });
  const engine = new SceneEngine();
  const pipeline = new DetectionPipeline({
    database,
    clock,
    audit,
    scenes: engine,
    onError: (err) => opts.log?.error({ err }, 'detection pipeline write failed'),
  });
  const sources = new SourceManager({ clock, pipeline, tickMs: opts.sandboxTickMs, log: opts.log });
  const scenes = new SceneService({ database, clock, audit, engine, defaultCapacity: config.defaultSceneCapacity });
  const streams = new StreamService({ database, clock, audit, scenes, sources });
  await scenes.loadAll();

  let housekeeping: unknown = null;
  let sceneTimer: unknown = null;
  const persistScenes = () => {
    pipeline.persistScenes().catch((err) => opts.log?.warn({ err }, 'scene snapshot write failed'));
    sceneTimer = clock.setTimeout(persistScenes, 1000);
  };
  const runHousekeeping = async () => {
    const now = clock.now();
    try {
      await detectionRepository.deleteOlderThan(database.db, now - config.retentionDays * 86_400_000);
      await pruneIdempotency(database, now);
    } catch (err) {
      opts.log?.warn({ err }, 'housekeeping failed');
    }
    housekeeping = clock.setTimeout(() => void runHousekeeping(), 3600_000);
  };

  return {
    config,
    clock,
    database,
    audit,
    keys,
    engine,
    pipeline,
    sources,
    scenes,
    streams,
    rateLimits: new MemoryRateLimitStore(),
    async start() {
      if (config.runSources) await streams.startAll();
      persistScenes();
      await runHousekeeping();
    },
    async close() {
      clock.clearTimeout(housekeeping);
      clock.clearTimeout(sceneTimer);
      sources.stopAll();
      await pipeline.drain();
      await pipeline.persistScenes();
      await database.close();
    },
  };
}
