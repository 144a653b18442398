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
import { SandboxService } from './sandbox/sandbox.service.ts';
import { MemoryRateLimitStore, type RateLimitStore } from './http/rate-limit.ts';
import { pruneIdempotency } from './http/idempotency.ts';
// webhooks & audit API (issue 3 §2, §6)
import { WebhookService } from './webhooks/webhook.service.ts';
import { DeliveryWorker } from './webhooks/delivery-worker.ts';
import { AuditTrailService } from './audit/audit-trail.service.ts';
import { AuditCheckpointService } from './audit/audit-checkpoint.service.ts';
// household agent (issue 4)
import { HouseholdDirectory } from './household/household-directory.ts';
import { HouseholdService } from './household/household.service.ts';
import { EventService } from './events/event.service.ts';
import { WatchService } from './watches/watch.service.ts';
import { WatchObserver } from './watches/watch-observer.ts';
import { ConversationService } from './conversations/conversation.service.ts';
import { createPlanner, type Planner } from './agent/planner.ts';
import { MemoryStreamSlots, type StreamSlots } from './conversations/stream-slots.ts';
// alerts, incidents, responders, protocols, operator control (issue 3 §1, §3–§5)
import { createOperations, type Operations } from './operations/operations.ts';
// real video: cameras and phones through the detector, detection snapshots (issue 6)
import { LiveVideoSources, type LiveVideoTuning } from './sources/live-video-sources.ts';
import { SnapshotService } from './detections/snapshot.service.ts';
// WebRTC ingest: WHIP publishers (issue 15)
import { PublishTokens, WhipService } from './webrtc/whip.service.ts';
// web console sessions and the organization live feed (issue 13)
import { ConsoleSessionService } from './console/index.ts';
import { OrgEventFeed, SceneHistoryService } from './org/live/index.ts';

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
  /** alert rules and alerts, incidents, responders, protocol runs, automation switches (issue 3) */
  operations: Operations;
  /** JPEG snapshots of real-video detections (issue 6) */
  snapshots: SnapshotService;
  /** WHIP publishers of webrtc streams and their publish tokens (issue 15) */
  whip: WhipService;
  /** web console sign-in sessions (issue 13) */
  consoleSessions: ConsoleSessionService;
  /** organization events fanned out to GET /v1/events/stream (issue 13) */
  liveFeed: OrgEventFeed;
  /** people over time per scene, for the wall's charts (issue 13) */
  sceneHistory: SceneHistoryService;
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
  // webhooks & audit API (created first: the video ingest writes stream.status_changed events)
  const webhooks = new WebhookService({ database, clock, audit, allowPrivate: config.webhookAllowPrivate });
  // real video (issue 6)
  const snapshots = new SnapshotService({ database });
  const video = new LiveVideoSources({ database, clock, audit, pipeline, snapshots, webhooks, tuning: opts.video, log: opts.log });
  const householdDirectory = new HouseholdDirectory(); // the ingest gate of household sensors (issue 9 §1)
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
  const deliveryWorker = new DeliveryWorker({ database, clock, allowPrivate: config.webhookAllowPrivate, databaseUrl: config.databaseUrl, log: opts.log });
  webhooks.onEnqueued(() => deliveryWorker.wake());
  const auditCheckpoints = new AuditCheckpointService({
    database,
    clock,
    configuredKey: config.auditCheckpointKey,
    onError: (err) => opts.log?.warn({ err }, 'audit checkpoint failed'),
  });
  const auditTrail = new AuditTrailService({ database, checkpoints: auditCheckpoints });
  // household agent (issue 4): watches observe through a pipeline hook; events go out through the webhook outbox
  const events = new EventService({ database, clock, sink: webhooks });
  const household = new HouseholdService({ database, clock, audit, streams, scenes, engine, sources, directory: householdDirectory, events });
  const watches = new WatchService({ database, clock, audit, events, household, directory: householdDirectory });
  const conversations = new ConversationService({ database, clock, audit, household, watches, events, planner: opts.planner ?? createPlanner({ llm: config.llm, log: opts.log }) });
  pipeline.addHook(new WatchObserver({ directory: householdDirectory, engine, events }));
  // issue 9 §1: muted sensors and places left alone are not ingested, and deliveries about them are not readable
  pipeline.setGate(householdDirectory);
  webhooks.setVisibility(events);
  await householdDirectory.loadAll(database.db);
  // operations (issue 3): anomaly and alert-rule hooks on the pipeline; events and responder notifications through the webhook outbox
  const operations = await createOperations({ database, clock, audit, pipeline, events: webhooks, urlGuard: webhooks, log: opts.log });

  // issue 13: the live feed sees scene updates and every organization event the outbox writes
  const liveFeed = new OrgEventFeed({ clock });
  pipeline.addHook(liveFeed);
  webhooks.onEvent((e) => liveFeed.publishWebhookEvent(e));
  const consoleSessions = new ConsoleSessionService({ database, clock, audit });
  const sceneHistory = new SceneHistoryService({ database, clock, scenes });

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
    rateLimits: new MemoryRateLimitStore(),
    webhooks,
    deliveryWorker,
    auditTrail,
    auditCheckpoints,
    household,
    watches,
    events,
    conversations,
    streamSlots: new MemoryStreamSlots(),
    operations,
    snapshots,
    whip,
    consoleSessions,
    liveFeed,
    sceneHistory,
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
      liveFeed.close();
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
