import { watchRepository } from './home/watches/index.ts';
import { toKnownWatch } from './home/watches/index.ts';
import { householdBoundaries } from './home/directory/index.ts';
import type { Config } from './platform/config/index.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './platform/db/index.ts';
import { systemClock, type Clock } from './platform/time/index.ts';
import { AuditService } from './platform/audit/index.ts';
import { KeyService } from './platform/keys/index.ts';
import { DetectionPipeline } from './org/pipeline/index.ts';
import { detectionRepository } from './org/detections/index.ts';
import { SceneEngine } from './org/scenes/index.ts';
import { SceneService } from './org/scenes/index.ts';
import { SourceManager } from './ingest/sources/index.ts';
import { StreamService } from './org/streams/index.ts';
import { SandboxService } from './org/sandbox/index.ts';
import { pruneIdempotency } from './platform/http/index.ts';
// webhooks & audit API (issue 3 §2, §6)
import { WebhookService } from './platform/outbox/index.ts';
import { DeliveryWorker } from './platform/outbox/index.ts';
import { AuditTrailService } from './platform/audit/index.ts';
import { AuditCheckpointService } from './platform/audit/index.ts';
// household agent (issue 4)
import { HouseholdDirectory } from './home/directory/index.ts';
import { HouseholdService } from './home/household/index.ts';
import { EventService } from './home/events/index.ts';
import { WatchService } from './home/watches/index.ts';
import { WatchObserver } from './home/watches/index.ts';
import { ConversationService } from './home/conversations/index.ts';
import { createPlanner, type Planner } from './home/agent/index.ts';
// alerts, incidents, responders, protocols, operator control (issue 3 §1, §3–§5)
import { createOperations, type Operations } from './org/operations.ts';
// real video: cameras and phones through the detector, detection snapshots (issue 6)
import { LiveVideoSources, type LiveVideoTuning } from './ingest/sources/index.ts';
import { SnapshotService } from './org/detections/index.ts';
// WebRTC ingest: WHIP publishers (issue 15)
import { PublishTokens, WhipService } from './ingest/webrtc/index.ts';
// infrastructure seams, in-process until a shared implementation is configured (issue 11 §3)
import { createCoordination, type Coordination, type RateLimitStore, type StreamSlots } from './platform/coordination/index.ts';

export interface ContextOptions {
  clock?: Clock;
  /** sandbox tick period; tests with a ManualClock use coarse ticks */
  sandboxTickMs?: number;
  log?: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  /** the household agent's planner (default: the offline planner) */
  planner?: Planner;
  /** real video ingest timers and detector threads (tests shorten the reconnect timers) */
  video?: LiveVideoTuning;
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
  /** sandbox test helpers (inject a detection on demand) */
  sandbox: SandboxService;
  rateLimits: RateLimitStore;
  /** webhook endpoints + transactional outbox (enqueueIn) */
  webhooks: WebhookService;
  /** sends outbox deliveries; started by start() */
  deliveryWorker: DeliveryWorker;
  /** audit listing, verification, export */
  auditTrail: AuditTrailService;
  /** signed head checkpoints (issue 9 §10); made each minute by start() and on every export */
  auditCheckpoints: AuditCheckpointService;
  /** household agent (issue 4): the home, watches, the event log, conversations, stream slots */
  household: HouseholdService;
  watches: WatchService;
  events: EventService;
  conversations: ConversationService;
  streamSlots: StreamSlots;
  /** rate-limit counters, stream slots, wake signals, cache invalidation, stream leases (issue 11 §3) */
  coordination: Coordination;
  /** alert rules and alerts, incidents, responders, protocol runs, automation switches (issue 3) */
  operations: Operations;
  /** JPEG snapshots of real-video detections (issue 6) */
  snapshots: SnapshotService;
  /** WHIP publishers of webrtc streams and their publish tokens (issue 15) */
  whip: WhipService;
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
  const coordination = createCoordination({ database, databaseUrl: config.databaseUrl, log: opts.log });
  // writers announce changes to cached rows (keys, household, alert rules, automation) here
  const { invalidation, wakeSignal } = coordination;
  const audit = new AuditService({ database, clock });
  const keys = new KeyService({ database, clock, audit, invalidation });
  const engine = new SceneEngine();
  const pipeline = new DetectionPipeline({
    database,
    clock,
    audit,
    scenes: engine,
    onError: (err) => opts.log?.error({ err }, 'detection pipeline write failed'),
  });
  // webhooks & audit API (created first: the video ingest writes stream.status_changed events)
  const webhooks = new WebhookService({ database, clock, audit, allowPrivate: config.webhookAllowPrivate, wakeSignal });
  // real video (issue 6)
  const snapshots = new SnapshotService({ database });
  const video = new LiveVideoSources({ database, clock, audit, pipeline, snapshots, webhooks, tuning: opts.video, log: opts.log });
  // the ingest gate of household sensors (issue 9 §1); it reads watches through the watches module
  const householdDirectory = new HouseholdDirectory({
    activeWatches: async (db, tenantId) => (await watchRepository.listActive(db, tenantId)).map(toKnownWatch),
  });
  const sources = new SourceManager({ clock, pipeline, tickMs: opts.sandboxTickMs, log: opts.log, video, gate: householdDirectory });
  const scenes = new SceneService({ database, clock, audit, engine, defaultCapacity: config.defaultSceneCapacity });
  const publishTokens = new PublishTokens({ clock, publicBaseUrl: config.publicBaseUrl });
  const streams = new StreamService({ database, clock, audit, scenes, sources, allowFileSources: config.allowFileSources, publishing: publishTokens });
  const whip = new WhipService({
    database, clock, audit, streams, tokens: publishTokens, sources, iceServers: config.iceServers,
    detectFps: opts.video?.camera?.detectFps, detectWidth: opts.video?.camera?.detectWidth, session: opts.video?.whip, log: opts.log,
  });
  const sandbox = new SandboxService({ database, clock, audit, pipeline, gate: householdDirectory });
  await scenes.loadAll();
  const deliveryWorker = new DeliveryWorker({ database, clock, allowPrivate: config.webhookAllowPrivate, wakeSignal, log: opts.log });
  webhooks.onEnqueued(() => deliveryWorker.wake());
  const auditCheckpoints = new AuditCheckpointService({
    database,
    clock,
    configuredKey: config.auditCheckpointKey,
    onError: (err) => opts.log?.warn({ err }, 'audit checkpoint failed'),
  });
  const auditTrail = new AuditTrailService({ database, checkpoints: auditCheckpoints, householdBoundaries });
  // household agent (issue 4): watches observe through a pipeline hook; events go out through the webhook outbox
  const events = new EventService({ database, clock, sink: webhooks });
  const household = new HouseholdService({ database, clock, audit, streams, scenes, engine, sources, directory: householdDirectory, events, invalidation });
  const watches = new WatchService({ database, clock, audit, events, household, invalidation });
  const conversations = new ConversationService({ database, clock, audit, household, watches, events, planner: opts.planner ?? createPlanner({ llm: config.llm, log: opts.log }) });
  pipeline.addHook(new WatchObserver({ directory: householdDirectory, engine, events }), { name: 'watches.observer', order: 100 });
  // issue 9 §1: muted sensors and places left alone are not ingested, and deliveries about them are not readable
  pipeline.setGate(householdDirectory);
  webhooks.setVisibility(events);
  await householdDirectory.loadAll(database.db);
  householdDirectory.followChanges(invalidation, database.db);
  // operations (issue 3): anomaly and alert-rule hooks on the pipeline; events and responder notifications through the webhook outbox
  const operations = await createOperations({ database, clock, audit, pipeline, events: webhooks, urlGuard: webhooks, invalidation, log: opts.log });

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
      await snapshots.pruneOlderThan(now - config.retentionDays * 86_400_000); // issue 6: snapshots live as long as their detections
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
    sandbox,
    rateLimits: coordination.rateLimits,
    webhooks,
    deliveryWorker,
    auditTrail,
    auditCheckpoints,
    household,
    watches,
    events,
    conversations,
    streamSlots: coordination.streamSlots,
    coordination,
    operations,
    snapshots,
    whip,
    async start() {
      if (config.runSources) {
        sources.startLive(); // issue 6: real cameras and phones are ingested by the serving process only
        await streams.startAll();
      }
      persistScenes();
      await runHousekeeping();
      await deliveryWorker.start();
      await operations.start();
      auditCheckpoints.start();
      // household agent: build the planner's language tables now, not on the first request
      await conversations.warmUp().catch((err) => opts.log?.warn({ err }, 'planner warm-up failed'));
    },
    async close() {
      clock.clearTimeout(housekeeping);
      clock.clearTimeout(sceneTimer);
      await whip.close(); // issue 15: WHIP publishers are disconnected before their ingest stops
      await sources.close(); // stops ffmpeg children and phone ingest, closes the detector pool (issue 6)
      await pipeline.drain();
      await pipeline.persistScenes();
      await operations.close();
      await auditCheckpoints.stop();
      await deliveryWorker.stop();
      await database.close();
    },
  };
}
