import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolveNodeId } from './node-id.ts';
import { readLlmConfig, type LlmConfig } from './llm-config.ts';
import { parseIceServers, type IceServer } from './ice-servers.ts';
import { readDetectorConfig, type DetectorModelConfig } from './detector-config.ts';
import { readFaceConfig, type FaceEmbedderConfig } from './face-config.ts';
import { readMqttConfig, type MqttConfig } from './mqtt-config.ts';
import { readRecordingConfig, type RecordingConfig } from './recording-config.ts';

/**
 * Configuration is read once from the environment, validated and frozen (docs/design.md "Config").
 * Tests build a Config directly with loadConfig({...overrides}).
 */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** postgres://… selects PostgreSQL; empty selects SQLite under dataDir */
  readonly databaseUrl: string | null;
  readonly redisUrl: string | null;
  /**
   * Cluster mode: DATABASE_URL=postgres://… and REDIS_URL both set. Streams are then
   * owned by leases in PostgreSQL and run by one worker each; otherwise this is the single-node
   * embedded default and every stream runs here.
   */
  readonly cluster: boolean;
  /** VIGIL_ROLE: `all` serves HTTP and runs streams; `api` only serves HTTP; `worker` only runs streams (and health) */
  readonly role: NodeRole;
  /** VIGIL_NODE_ID: this process in leases, logs and the stream view's assignment; default hostname-pid */
  readonly nodeId: string;
  /**
   * VIGIL_INTERNAL_URL: where the other nodes of a cluster reach this one (phone frames and WHIP
   * requests are forwarded to a stream's owner); default http://<HOST, or the hostname when HOST
   * is a wildcard>:<PORT>
   */
  readonly internalUrl: string;
  /**
   * VIGIL_CLUSTER_SECRET (≥ 32 characters, the same on every node): signs the requests nodes
   * forward to each other; null = generated once and kept in the database
   */
  readonly clusterSecret: string | null;
  readonly logLevel: string;
  /** default requests/minute per key (docs/design.md "Rate limits") */
  readonly rateLimitPerMinute: number;
  /** requests/minute the console may make per key, counted apart from the key's own budget (docs/decisions.md, "The console's own budget") */
  readonly consoleRateLimitPerMinute: number;
  /** detection history retention */
  readonly retentionDays: number;
  /** default scene capacity (people) used for crowd_density */
  readonly defaultSceneCapacity: number;
  /** run sandbox/ingest sources; tests that only exercise routes turn it off */
  readonly runSources: boolean;
  /** seed a demo organization and household on first start (npm start) */
  readonly seedDemo: boolean;
  readonly publicBaseUrl: string;
  readonly allowFileSources: boolean;
  readonly webhookAllowPrivate: boolean;
  /** sensors over MQTT and events out to MQTT (VIGIL_MQTT_*; docs/decisions.md, "Sensors over MQTT") */
  readonly mqtt: MqttConfig;
  /** HTTP time-outs and per-client limits (docs/decisions.md "HTTP hardening") */
  readonly http: HttpLimits;
  /** OpenAI-compatible endpoint for the household agent's optional LLM planner (VIGIL_LLM_*); null = offline planner only */
  readonly llm: LlmConfig | null;
  /** HMAC key for signed audit checkpoints (VIGIL_AUDIT_CHECKPOINT_KEY, ≥ 32 characters); null = generated once and kept in the database */
  readonly auditCheckpointKey: string | null;
  /** STUN/TURN servers for WHIP publishers and the publish page (VIGIL_ICE_SERVERS); none by default, which suits a LAN */
  readonly iceServers: readonly IceServer[];
  /** bearer token GET /metrics asks for (VIGIL_METRICS_TOKEN, ≥ 16 characters); null = /metrics answers this machine only (docs/decisions.md) */
  readonly metricsToken: string | null;
  /** the object detection model (VIGIL_DETECTOR_MODEL, _DECODER, _INPUT, _LABELS); all null = the shipped CenterNet */
  readonly detector: DetectorModelConfig;
  /** the face embedder and match threshold (VIGIL_FACE_EMBEDDER, _EMBEDDER_INPUT, VIGIL_FACE_MATCH_THRESHOLD); all null = the shipped FaceRes */
  readonly faceEmbedder: FaceEmbedderConfig;
  /** recordings, retention and clips (VIGIL_RECORDINGS*, VIGIL_CLIP_*) */
  readonly recordings: RecordingConfig;
  /**
   * VIGIL_SMTP_URL: where email notifications go, one URL (smtp://user:pass@host:587 or smtps://…;
   * `?from=vigil@example.com` sets the sender); null = no email is sent (docs/decisions.md,
   * "Notifications through the outbox")
   */
  readonly smtpUrl: string | null;
  /**
   * The VAPID key pair that signs Web Push requests (VIGIL_VAPID_PUBLIC_KEY and
   * VIGIL_VAPID_PRIVATE_KEY, base64url, the same on every node of a cluster); null = made on first
   * start and kept with the server secrets
   */
  readonly vapidKeys: { readonly publicKey: string; readonly privateKey: string } | null;
  /** VIGIL_VAPID_SUBJECT: a mailto: or https: contact the push services may use; default from VIGIL_PUBLIC_URL */
  readonly vapidSubject: string;
  /** VIGIL_OUTBOUND_CA_FILE: a PEM certificate (file) trusted besides the system's for push services and webhook receivers; null = the system's only */
  readonly outboundCa: string | null;
}

export type NodeRole = 'all' | 'api' | 'worker';
export const NODE_ROLES: readonly NodeRole[] = ['all', 'api', 'worker'];

function readCluster(env: NodeJS.ProcessEnv, databaseUrl: string | null, redisUrl: string | null): { cluster: boolean; role: NodeRole; nodeId: string } {
  const rawRole = (env.VIGIL_ROLE ?? '').trim();
  const role = (rawRole === '' ? 'all' : rawRole) as NodeRole;
  if (!NODE_ROLES.includes(role)) {
    throw new Error(`config: VIGIL_ROLE must be one of ${NODE_ROLES.join(', ')}, got ${JSON.stringify(rawRole)}`);
  }
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) {
    throw new Error('config: REDIS_URL must be a redis:// or rediss:// URL (leave it unset for a single node)');
  }
  if (redisUrl && !databaseUrl) {
    throw new Error(
      'config: REDIS_URL turns on cluster mode, which needs DATABASE_URL=postgres://… — the embedded SQLite database serves one node only (unset REDIS_URL to run a single node on SQLite)',
    );
  }
  const cluster = Boolean(redisUrl && databaseUrl);
  if (!cluster && role !== 'all') {
    throw new Error(
      `config: VIGIL_ROLE=${role} needs cluster mode (DATABASE_URL=postgres://… and REDIS_URL=redis://…); a single node runs everything (VIGIL_ROLE=all)`,
    );
  }
  const nodeId = resolveNodeId(env);
  return { cluster, role, nodeId };
}

export interface HttpLimits {
  /** the whole request (headers and body) must arrive within this (VIGIL_REQUEST_TIMEOUT_MS) */
  readonly requestTimeoutMs: number;
  /** the request headers must arrive within this (VIGIL_HEADERS_TIMEOUT_MS, at most the request time-out) */
  readonly headersTimeoutMs: number;
  /** an idle keep-alive connection is closed after this (VIGIL_KEEP_ALIVE_TIMEOUT_MS) */
  readonly keepAliveTimeoutMs: number;
  /** a connection with no traffic either way is closed after this (VIGIL_CONNECTION_TIMEOUT_MS): longer than the slowest handler (an LLM planner may take 120 s); SSE pings every 15 s */
  readonly connectionTimeoutMs: number;
  /** open connections per client address; 0 = no cap, e.g. behind a proxy (VIGIL_MAX_CONNECTIONS_PER_ADDRESS) */
  readonly maxConnectionsPerAddress: number;
  /**
   * proxies (addresses or CIDRs, VIGIL_TRUST_PROXY, comma-separated) whose X-Forwarded-For names the
   * client address that failed authentications are counted against; none by default
   */
  readonly trustProxy: readonly string[];
  /** failed authentications per client address per minute before 429 (VIGIL_AUTH_FAILURES_PER_MINUTE) */
  readonly authFailuresPerMinute: number;
  /** on SIGTERM/SIGINT, in-flight requests get this long before connections are cut (VIGIL_SHUTDOWN_GRACE_MS) */
  readonly shutdownGraceMs: number;
  /**
   * on SIGTERM/SIGINT, how long the node keeps serving with /readyz at 503 before it stops accepting
   * connections, so a load balancer's health checks take it out first (VIGIL_DRAIN_DELAY_MS; 0 = at once)
   */
  readonly drainDelayMs: number;
}

function readInt(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`config: ${name} must be an integer between ${min} and ${max}, got ${JSON.stringify(raw)}`);
  }
  return n;
}

function readBool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new Error(`config: ${name} must be 1/0/true/false, got ${JSON.stringify(raw)}`);
}

function readSecret(env: NodeJS.ProcessEnv, name: string, minLength: number): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  if (raw.length < minLength) throw new Error(`config: ${name} must be at least ${minLength} characters`);
  return raw;
}

function readSmtpUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = (env.VIGIL_SMTP_URL ?? '').trim();
  if (raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('config: VIGIL_SMTP_URL must be an smtp:// or smtps:// URL');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error('config: VIGIL_SMTP_URL must be an smtp:// or smtps:// URL');
  return raw;
}

function readVapid(env: NodeJS.ProcessEnv, publicBaseUrl: string): { vapidKeys: Config['vapidKeys']; vapidSubject: string } {
  const publicKey = (env.VIGIL_VAPID_PUBLIC_KEY ?? '').trim();
  const privateKey = (env.VIGIL_VAPID_PRIVATE_KEY ?? '').trim();
  if (Boolean(publicKey) !== Boolean(privateKey)) throw new Error('config: set both VIGIL_VAPID_PUBLIC_KEY and VIGIL_VAPID_PRIVATE_KEY, or neither');
  if (publicKey && (!/^[A-Za-z0-9_-]{87}$/.test(publicKey) || !/^[A-Za-z0-9_-]{43}$/.test(privateKey))) {
    throw new Error(
      'config: VIGIL_VAPID_PUBLIC_KEY must be a base64url P-256 public key (87 characters) and VIGIL_VAPID_PRIVATE_KEY its private key (43 characters)',
    );
  }
  const rawSubject = (env.VIGIL_VAPID_SUBJECT ?? '').trim();
  let vapidSubject = rawSubject;
  if (rawSubject) {
    if (!/^(mailto:|https:\/\/)/.test(rawSubject)) throw new Error('config: VIGIL_VAPID_SUBJECT must be a mailto: or https:// URL');
  } else {
    const base = new URL(publicBaseUrl);
    vapidSubject = base.protocol === 'https:' ? base.origin : `mailto:vigil@${base.hostname.includes('.') ? base.hostname : 'localhost.localdomain'}`;
  }
  return { vapidKeys: publicKey ? { publicKey, privateKey } : null, vapidSubject };
}

function readInternalUrl(env: NodeJS.ProcessEnv, host: string, port: number): string {
  const raw = (env.VIGIL_INTERNAL_URL ?? '').trim();
  if (raw === '') {
    const name = host === '0.0.0.0' || host === '::' || host === '' ? hostname() : host;
    return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('config: VIGIL_INTERNAL_URL must be an absolute http(s):// URL (where the other nodes reach this one)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('config: VIGIL_INTERNAL_URL must be an http(s):// URL');
  return raw.replace(/\/+$/, '');
}

function readHttpLimits(env: NodeJS.ProcessEnv): HttpLimits {
  const requestTimeoutMs = readInt(env, 'VIGIL_REQUEST_TIMEOUT_MS', 60_000, 100, 3_600_000);
  const headersTimeoutMs = readInt(env, 'VIGIL_HEADERS_TIMEOUT_MS', Math.min(10_000, requestTimeoutMs), 100, 3_600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new Error('config: VIGIL_HEADERS_TIMEOUT_MS must not exceed VIGIL_REQUEST_TIMEOUT_MS');
  }
  return {
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: readInt(env, 'VIGIL_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
    connectionTimeoutMs: readInt(env, 'VIGIL_CONNECTION_TIMEOUT_MS', 180_000, 1_000, 3_600_000),
    maxConnectionsPerAddress: readInt(env, 'VIGIL_MAX_CONNECTIONS_PER_ADDRESS', 64, 0, 1_000_000),
    trustProxy: (env.VIGIL_TRUST_PROXY ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
    authFailuresPerMinute: readInt(env, 'VIGIL_AUTH_FAILURES_PER_MINUTE', 30, 1, 1_000_000),
    shutdownGraceMs: readInt(env, 'VIGIL_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    drainDelayMs: readInt(env, 'VIGIL_DRAIN_DELAY_MS', 0, 0, 120_000),
  };
}

function readIceServers(env: NodeJS.ProcessEnv): IceServer[] {
  try {
    return parseIceServers(env.VIGIL_ICE_SERVERS);
  } catch (err) {
    throw new Error(`config: ${(err as Error).message}`);
  }
}

export function loadConfig(overrides: Partial<Config> = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL && env.DATABASE_URL.trim() !== '' ? env.DATABASE_URL.trim() : null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('config: DATABASE_URL must be a postgres:// URL (leave it unset for embedded SQLite)');
  }
  const port = readInt(env, 'PORT', 8080, 0, 65535);
  const redisUrl = env.REDIS_URL && env.REDIS_URL.trim() !== '' ? env.REDIS_URL.trim() : null;
  const config: Config = {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.VIGIL_DATA_DIR ?? './data'),
    databaseUrl,
    redisUrl,
    ...readCluster(env, databaseUrl, redisUrl),
    internalUrl: readInternalUrl(env, env.HOST ?? '0.0.0.0', port),
    clusterSecret: readSecret(env, 'VIGIL_CLUSTER_SECRET', 32),
    logLevel: env.LOG_LEVEL ?? 'info',
    rateLimitPerMinute: readInt(env, 'VIGIL_RATE_LIMIT_PER_MINUTE', 60, 1, 1_000_000),
    consoleRateLimitPerMinute: readInt(env, 'VIGIL_CONSOLE_RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    retentionDays: readInt(env, 'VIGIL_RETENTION_DAYS', 7, 1, 3650),
    defaultSceneCapacity: readInt(env, 'VIGIL_SCENE_CAPACITY', 50, 1, 1_000_000),
    runSources: readBool(env, 'VIGIL_RUN_SOURCES', true),
    seedDemo: readBool(env, 'VIGIL_SEED_DEMO', true),
    publicBaseUrl: env.VIGIL_PUBLIC_URL ?? `http://localhost:${port}`,
    allowFileSources: readBool(env, 'VIGIL_ALLOW_FILE_SOURCES', false),
    webhookAllowPrivate: readBool(env, 'VIGIL_WEBHOOK_ALLOW_PRIVATE', false),
    mqtt: readMqttConfig(env, readBool),
    llm: readLlmConfig(env),
    auditCheckpointKey: readSecret(env, 'VIGIL_AUDIT_CHECKPOINT_KEY', 32),
    http: readHttpLimits(env),
    iceServers: readIceServers(env),
    metricsToken: readSecret(env, 'VIGIL_METRICS_TOKEN', 16),
    detector: readDetectorConfig(env),
    faceEmbedder: readFaceConfig(env),
    recordings: readRecordingConfig(env, readInt, readBool),
    smtpUrl: readSmtpUrl(env),
    outboundCa: env.VIGIL_OUTBOUND_CA_FILE ? readFileSync(env.VIGIL_OUTBOUND_CA_FILE, 'utf8') : null,
    ...readVapid(env, env.VIGIL_PUBLIC_URL ?? `http://localhost:${port}`),
    ...overrides,
  };
  return Object.freeze(config);
}
