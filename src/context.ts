import { type Config, CONFIG } from './platform/config/index.ts';
import { Container, LOG, type ServiceModule } from './platform/lib/index.ts';
import { migrateToLatest, openDatabase, DATABASE, type DatabaseHandle } from './platform/db/index.ts';
import { systemClock, CLOCK, type Clock } from './platform/time/index.ts';
import { pruneIdempotency } from './platform/http/index.ts';
import { METRICS, metrics } from './platform/metrics/index.ts';
import { coordinationServices, COORDINATION, type Coordination, type RateLimitStore, type StreamSlots } from './platform/coordination/index.ts';
import {
  auditServices,
  AUDIT,
  AUDIT_CHECKPOINTS,
  AUDIT_TRAIL,
  type AuditService,
  type AuditTrailService,
  type AuditCheckpointService,
} from './platform/audit/index.ts';
import { keyServices, KEYS, type KeyService } from './platform/keys/index.ts';
import { pruneDoneJobs, SCHEDULER, type Scheduler, schedulerServices } from './platform/scheduler/index.ts';
import { outboxServices, WEBHOOKS, DELIVERY_WORKER, type WebhookService, type DeliveryWorker } from './platform/outbox/index.ts';
import { notifyServices, NOTIFICATIONS, type NotificationService } from './platform/notify/index.ts';
import { sceneServices, SCENES, SCENE_ENGINE, type SceneEngine, type SceneService } from './org/scenes/index.ts';
import { pipelineServices, PIPELINE, type DetectionPipeline } from './org/pipeline/index.ts';
import { deleteDetectionsOlderThan, detectionServices, SNAPSHOTS, type SnapshotService } from './org/detections/index.ts';
import {
  streamServices,
  STREAMS,
  STREAM_DRAIN,
  STREAM_OWNERSHIP,
  OWNERSHIP_TUNING,
  type StreamService,
  type OwnershipTuning,
  type StreamOwnership,
} from './org/streams/index.ts';
import { sandboxServices, SANDBOX, type SandboxService } from './org/sandbox/index.ts';
import { operationServices, OPERATIONS, type Operations } from './org/operations.ts';
import {
  sourceServices,
  LIVE_VIDEO,
  SOURCES,
  VIDEO_TUNING,
  SANDBOX_TICK_MS,
  MQTT_BACKOFF,
  type SourceManager,
  type LiveVideoTuning,
} from './org/sources/index.ts';
import type { BrokerBackoff } from './ingest/mqtt/index.ts';
import { mqttServices, MQTT_PUBLISHER, type MqttEventPublisher } from './org/mqtt/index.ts';
import { recordingServices, RECORDINGS, EVIDENCE, INCIDENT_TIMELINE, type RecordingService, type EvidenceBundles } from './org/recordings/index.ts';
import { webrtcServices, WHIP, type WhipService } from './org/webrtc/index.ts';
import { directoryServices, HOUSEHOLD_DIRECTORY } from './home/directory/index.ts';
import { eventServices, EVENTS, type EventService } from './home/events/index.ts';
import { householdServices, HOUSEHOLD, type HouseholdService } from './home/household/index.ts';
import { watchServices, WATCHES, type WatchService } from './home/watches/index.ts';
import { agentServices, PLANNER, type Planner } from './home/agent/index.ts';
import { conversationServices, CONVERSATIONS, type ConversationService } from './home/conversations/index.ts';
import { consoleServices, CONSOLE_SESSIONS, type ConsoleSessionService } from './platform/console/index.ts';
import { liveServices, LIVE_FEED, SCENE_HISTORY, type OrgEventFeed, type SceneHistoryService } from './org/live/index.ts';
import { peopleServices, PEOPLE, FACE_ENGINE, FACE_RECOGNITION_ENABLED, type PeopleService } from './org/people/index.ts';

export interface ContextOptions {
  clock?: Clock;
  /** sandbox tick period; tests with a ManualClock use coarse ticks */
  sandboxTickMs?: number;
  log?: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  /** the household agent's planner (default: the offline planner) */
  planner?: Planner;
  /** real video ingest timers and detector threads (tests shorten the reconnect timers) */
  video?: LiveVideoTuning;
  /** cluster mode: stream lease ttl and tick (tests shorten them) */
  ownership?: OwnershipTuning;
  /** MQTT broker reconnection backoff (tests shorten it) */
  mqttBackoff?: BrokerBackoff;
}

/**
 * The services the HTTP app, the CLI, the bench and the tests use, read from the container after
 * every module has provided and installed its own (docs/architecture.md). `container` holds them all.
 */
export interface VigilContext {
  container: Container;
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
  /** a key's devices (Web Push) and addresses (email), quiet hours and exclusions (docs/decisions.md, "Notifications through the outbox") */
  notifications: NotificationService;
  /** sends outbox deliveries; started by start() */
  deliveryWorker: DeliveryWorker;
  /** audit listing, verification, export */
  auditTrail: AuditTrailService;
  /** signed head checkpoints; made each minute by start() and on every export */
  auditCheckpoints: AuditCheckpointService;
  /** household agent: the home, watches, the event log, conversations, stream slots */
  household: HouseholdService;
  watches: WatchService;
  events: EventService;
  conversations: ConversationService;
  streamSlots: StreamSlots;
  /** rate-limit counters, stream slots, wake signals, cache invalidation, stream leases */
  coordination: Coordination;
  /** alert rules and alerts, incidents, responders, protocol runs, automation switches */
  operations: Operations;
  /** JPEG snapshots of real-video detections */
  snapshots: SnapshotService;
  /** WHIP publishers of webrtc streams and their publish tokens */
  whip: WhipService;
  /** web console sign-in sessions */
  consoleSessions: ConsoleSessionService;
  /** organization events fanned out to GET /v1/events/stream */
  liveFeed: OrgEventFeed;
  /** events out to MQTT, when VIGIL_MQTT_PUBLISH_URL is set */
  mqttPublisher: MqttEventPublisher | null;
  /** people over time per scene, for the wall's charts */
  sceneHistory: SceneHistoryService;
  /** known people and their enrolled faces; face recognition on phone frames */
  people: PeopleService;
  /** durable timers that fire once cluster-wide: escalations, housekeeping, audit checkpoints */
  scheduler: Scheduler;
  /** recorded segments, clips, legal holds, retention (docs/decisions.md, "Recordings") */
  recordings: RecordingService;
  /** incident evidence bundles (docs/decisions.md, "Evidence bundles") */
  evidence: EvidenceBundles;
  /** starts sources and housekeeping timers (the server does; the CLI does not) */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The service modules, in the order they are installed (hooks, gates, listeners, caches loaded).
 * Providing order does not matter: each service is made on first request.
 */
export const SERVICE_MODULES: readonly ServiceModule[] = [
  coordinationServices,
  schedulerServices,
  auditServices,
  keyServices,
  outboxServices,
  notifyServices,
  sceneServices,
  pipelineServices,
  detectionServices,
  streamServices,
  sourceServices,
  webrtcServices,
  sandboxServices,
  operationServices,
  directoryServices,
  eventServices,
  householdServices,
  watchServices,
  agentServices,
  conversationServices,
  // web console sessions and the organization live feed
  consoleServices,
  liveServices,
  // known people and face recognition
  peopleServices,
  // Vigil's events out to MQTT with Home Assistant discovery (docs/decisions.md, "Sensors over MQTT")
  mqttServices,
  // recordings, clips and evidence bundles
  recordingServices,
];

/** The recurring scheduled job that applies retention and prunes expired rows, once an hour cluster-wide. */
export const HOUSEKEEPING_JOB = 'housekeeping';
export const HOUSEKEEPING_EVERY_MS = 3600_000;

export async function createContext(config: Config, opts: ContextOptions = {}): Promise<VigilContext> {
  const clock = opts.clock ?? systemClock;
  const database = await openMigratedDatabase(config, opts.log);
  const c = await assembleContainer(config, clock, database, opts);
  const { services, ownership } = readServices(c);
  const { pipeline, sources, streams, deliveryWorker, auditCheckpoints, operations, conversations, whip, coordination, scheduler } = services;
  const { liveFeed, mqttPublisher, recordings } = services;
  const sceneWrites = sceneSnapshots(config, clock, services.scenes, pipeline, ownership, opts.log);
  const runHousekeeping = housekeeping(config, clock, database, services.snapshots, recordings, opts.log);
  let stopHousekeeping: (() => void) | null = null;

  return {
    container: c,
    config,
    clock,
    database,
    ...services,
    async start() {
      // the other processes on this SQLite file (the admin CLI) announce their changes to this one
      await coordination.serve();
      // events out to MQTT: a broker that is down is retried in the background, never stops the start
      mqttPublisher?.start();
      // a face embedder that cannot serve (VIGIL_FACE_EMBEDDER) stops the start here, naming its setting
      await c.get(FACE_ENGINE).model();
      if (config.runSources && config.role !== 'api') {
        // a detection model that cannot serve stops the start here, naming its setting
        await c.get(LIVE_VIDEO).checkDetector();
        // an unwritable recordings directory is a clear log line, never a refusal to start
        await recordings.start();
        sources.startLive(); // real cameras and phones are ingested by the serving process only
        if (!config.cluster) await streams.startAll();
      }
      sceneWrites.persist();
      stopHousekeeping ??= scheduler.handle(HOUSEKEEPING_JOB, runHousekeeping, { everyMs: HOUSEKEEPING_EVERY_MS });
      await scheduler.ensure({ kind: HOUSEKEEPING_JOB, key: 'all', dueAt: clock.now() });
      await deliveryWorker.start();
      await operations.start();
      await auditCheckpoints.start();
      await scheduler.start();
      // household agent: build the planner's language tables now, not on the first request
      await conversations.warmUp().catch((err: unknown) => opts.log?.warn({ err }, 'planner warm-up failed'));
      // cluster mode: this node takes its share of the streams by lease, last, so the warm-up
      // above (seconds of CPU) cannot hold up the renewal of leases it just claimed
      await ownership?.start();
    },
    async close() {
      stopHousekeeping?.();
      sceneWrites.stopPersisting();
      liveFeed.close();
      await whip.close(); // WHIP publishers are disconnected before their ingest stops
      await ownership?.stop(); // cluster mode: stop, write what was produced, release the leases
      await sources.close(); // stops ffmpeg children and phone ingest, closes the detector pool
      await recordings.close(); // the segments the stopped ffmpegs closed are sealed
      await c.get(FACE_ENGINE).close(); // its worker threads, when a face was ever described
      await pipeline.drain();
      await mqttPublisher?.close();
      await sceneWrites.write();
      await scheduler.stop(); // jobs in progress finish; a claim left unfinished is taken over after its lease
      await operations.close();
      await auditCheckpoints.stop();
      await deliveryWorker.stop();
      await coordination.close();
      await database.close();
    },
  };
}

type ContextLog = ContextOptions['log'];

/** The services of the context, as VigilContext names them. */
type ContextServices = Omit<VigilContext, 'container' | 'config' | 'clock' | 'database' | 'start' | 'close'>;

/** The database, opened and migrated to the code's schema. */
async function openMigratedDatabase(config: Config, log: ContextLog): Promise<DatabaseHandle> {
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onIdleError: (err) => log?.warn({ err }, 'idle database connection failed'),
    checkpoint: { onError: (message) => log?.warn({ err: message }, 'SQLite WAL checkpoint failed') },
  });
  await migrateToLatest(database);
  return database;
}

/**
 * The container: the ready values, every module's providers, the root's own wiring and the
 * options' overrides, then every module installed in SERVICE_MODULES order.
 */
async function assembleContainer(config: Config, clock: Clock, database: DatabaseHandle, opts: ContextOptions): Promise<Container> {
  const c = new Container().value(CONFIG, config).value(CLOCK, clock).value(DATABASE, database).value(LOG, opts.log).value(METRICS, metrics());
  for (const m of SERVICE_MODULES) m.provide(c);
  // face recognition's opt-in: a household's lives in its home settings, an
  // organization's in its automation settings; the root is where both surfaces meet. The
  // organization's is read at call time, so the people module does not make the operations when it is made
  c.provide(FACE_RECOGNITION_ENABLED, (c) => {
    const directory = c.get(HOUSEHOLD_DIRECTORY);
    return (tenantId: string) => directory.home(tenantId)?.settings.face_recognition ?? c.get(OPERATIONS).automation.faceRecognition(tenantId);
  });
  // the evidence bundle's timeline is the incident as the API shows it
  c.override(INCIDENT_TIMELINE, (c) => (principal, id) => c.get(OPERATIONS).incidents.get(principal, id));
  if (opts.planner) c.override(PLANNER, () => opts.planner!);
  if (opts.video) c.override(VIDEO_TUNING, () => opts.video);
  if (opts.sandboxTickMs !== undefined) c.override(SANDBOX_TICK_MS, () => opts.sandboxTickMs);
  if (opts.mqttBackoff) c.override(MQTT_BACKOFF, () => opts.mqttBackoff);
  if (opts.ownership) c.override(OWNERSHIP_TUNING, () => opts.ownership);
  // a stream given up (rebalancing, shutdown) has its last detections written under its lease first
  c.override(STREAM_DRAIN, (c) => () => c.get(PIPELINE).drain());
  for (const m of SERVICE_MODULES) await m.install?.(c);
  return c;
}

/**
 * The context's services read from the container, in the order the root has always asked for
 * them (a service is made on its first request), and the stream ownership: in cluster mode on a
 * node that runs streams; null on a single node and on api nodes.
 */
function readServices(c: Container): { services: ContextServices; ownership: StreamOwnership | null } {
  const pipeline = c.get(PIPELINE);
  const sources = c.get(SOURCES);
  const streams = c.get(STREAMS);
  const snapshots = c.get(SNAPSHOTS);
  const deliveryWorker = c.get(DELIVERY_WORKER);
  const auditCheckpoints = c.get(AUDIT_CHECKPOINTS);
  const operations = c.get(OPERATIONS);
  const conversations = c.get(CONVERSATIONS);
  const whip = c.get(WHIP);
  const coordination = c.get(COORDINATION);
  const scheduler = c.get(SCHEDULER);
  const ownership = c.get(STREAM_OWNERSHIP);
  const sceneService = c.get(SCENES);
  const liveFeed = c.get(LIVE_FEED);
  const mqttPublisher = c.get(MQTT_PUBLISHER);
  const recordings = c.get(RECORDINGS);
  const services: ContextServices = {
    audit: c.get(AUDIT),
    keys: c.get(KEYS),
    engine: c.get(SCENE_ENGINE),
    pipeline,
    sources,
    scenes: sceneService,
    streams,
    sandbox: c.get(SANDBOX),
    rateLimits: coordination.rateLimits,
    webhooks: c.get(WEBHOOKS),
    notifications: c.get(NOTIFICATIONS),
    deliveryWorker,
    auditTrail: c.get(AUDIT_TRAIL),
    auditCheckpoints,
    household: c.get(HOUSEHOLD),
    watches: c.get(WATCHES),
    events: c.get(EVENTS),
    conversations,
    streamSlots: coordination.streamSlots,
    coordination,
    operations,
    snapshots,
    whip,
    consoleSessions: c.get(CONSOLE_SESSIONS),
    liveFeed,
    sceneHistory: c.get(SCENE_HISTORY),
    people: c.get(PEOPLE),
    scheduler,
    mqttPublisher,
    recordings,
    evidence: c.get(EVIDENCE),
  };
  return { services, ownership };
}

/**
 * The scenes' snapshot writes: `persist` writes them now and every second after, `write` once
 * more (at close). In cluster mode a node writes a changed scene with the streams it does not run
 * (or no longer trusts its lease on) read from their recorded history, never from its own stale copy.
 */
function sceneSnapshots(
  config: Config,
  clock: Clock,
  sceneService: SceneService,
  pipeline: DetectionPipeline,
  ownership: StreamOwnership | null,
  log: ContextLog,
) {
  let sceneTimer: unknown = null;
  const write = async () => {
    if (config.cluster) await sceneService.refreshForeignReadings((streamId) => ownership?.holds(streamId) ?? false);
    await pipeline.persistScenes();
  };
  const persist = () => {
    write().catch((err: unknown) => log?.warn({ err }, 'scene snapshot write failed'));
    sceneTimer = clock.setTimeout(persist, 1000);
  };
  return { write, persist, stopPersisting: () => clock.clearTimeout(sceneTimer) };
}

/** Retention and pruning: run by a recurring scheduled job, so with several nodes one of them runs it each hour. */
function housekeeping(config: Config, clock: Clock, database: DatabaseHandle, snapshots: SnapshotService, recordings: RecordingService, log: ContextLog) {
  return async () => {
    const now = clock.now();
    try {
      await deleteDetectionsOlderThan(database.db, now - config.retentionDays * 86_400_000);
      await snapshots.pruneOlderThan(now - config.retentionDays * 86_400_000); // snapshots live as long as their detections
      await pruneIdempotency(database, now);
      await pruneDoneJobs(database.db, now - config.retentionDays * 86_400_000);
      await recordings.applyRetention(); // VIGIL_RECORDINGS_DAYS and the quota, except held segments
    } catch (err) {
      // reported; the next hour's run tries again
      log?.warn({ err }, 'housekeeping failed');
    }
  };
}
