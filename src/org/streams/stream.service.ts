import { type Actor, type Principal, assertLocationAllowed } from '../../platform/identity/index.ts';
import { type DatabaseHandle, type DbExecutor, type PageQuery, mapPage } from '../../platform/db/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import { VigilError, invalid, notFound, newId } from '../../platform/lib/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import { parseSandboxUrl } from '../../ingest/sandbox/index.ts';
import { parseMqttUrl, resolveMapping, type SensorMapping } from '../../ingest/mqtt/index.ts';
import { describeBlockedAddress } from '../../platform/outbox/index.ts';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type SceneService, toDetectionView } from '../scenes/scene.service.ts';
import type { FrameFaceRecognizer, FrameOutcome, StreamRunner } from './stream-runner.ts';
import type { PeerLink } from '../../platform/coordination/index.ts';
import type { DetectionView } from '../scenes/scene.schemas.ts';
import { describePolygonProblems, validateSourceUrl, type IngestStats, type StreamStatus } from '../../ingest/video/index.ts';
import { parseStreamConfig, type StreamVideoConfig } from './stream-config.ts';
import type { CreateStreamBodyT, StreamView, UpdateStreamBodyT, FrameFace, PublishInfo, SensorLiveView } from './stream.schemas.ts';
import { streamRepository, type StreamRow } from './stream.repository.ts';
import { toAssignmentView, type AssignmentView, type StreamAssignments } from './stream-ownership.ts';

/** WebRTC ingest: a webrtc stream's publish token lives and dies with the stream. */
export interface StreamPublishing {
  issueIn(trx: DbExecutor, row: StreamRow): Promise<PublishInfo>;
  removeIn(trx: DbExecutor, streamId: string): Promise<void>;
}

/** Masks a password in a source URL (rtsp://user:secret@cam → rtsp://user:****@cam) for display and logs. */
export function maskSourceUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]+):[^@/]*@/i, '$1:****@');
}

/**
 * The stream as stored, with the live figures of its ingest when it runs in this process (the
 * row's status is written on each change; frame rates exist only in memory).
 */
export function toStreamView(
  r: StreamRow,
  live: IngestStats | null = null,
  assignment: AssignmentView = null,
  sensor: SensorLiveView | null = null,
): StreamView {
  const cfg = parseStreamConfig(r.config);
  return {
    id: r.id,
    object: 'stream',
    name: r.name,
    source_type: r.source_type,
    source_url: maskSourceUrl(r.source_url),
    location: r.location,
    scene_id: r.scene_id,
    status: (live?.status ?? r.status) as StreamView['status'],
    sandbox: r.sandbox === 1,
    error: live ? live.error : r.error,
    last_frame_at: live?.last_frame_at != null ? toIso(live.last_frame_at) : r.last_frame_at,
    // a sensor has messages, not frames (its figures are in `sensor`)
    fps_in: live && r.source_type !== 'mqtt' ? roundRate(live.fps_in) : null,
    detector_fps: live && r.source_type !== 'mqtt' ? roundRate(live.detector_fps) : null,
    zones: cfg.zones,
    motion_masks: cfg.motion_masks,
    sensor: r.source_type === 'mqtt' ? { ...(cfg.sensor ?? {}), live: sensor } : null,
    created_at: r.created_at,
    updated_at: r.updated_at,
    assignment,
  };
}

function roundRate(v: number): number {
  return Math.round(v * 10) / 10;
}

/** Schemes per source type; rtsp and http are decoded by ffmpeg. */
const SOURCE_SCHEMES: Record<string, string[]> = {
  rtsp: ['rtsp', 'rtsps'],
  http: ['http', 'https'],
  webrtc: ['https', 'http', 'webrtc'],
  mobile: ['mobile', 'https', 'http'],
};

function unsupportedSource(reason: string): VigilError {
  return new VigilError('unsupported_source', `source_url: ${reason}`, { param: 'source_url' });
}

/** Checks source_url against source_type; the reason names what is wrong. */
export function validateSource(sourceType: string, url: string, opts: { allowFileSources: boolean } = { allowFileSources: false }): void {
  if (sourceType === 'sandbox') {
    const p = parseSandboxUrl(url);
    if (!p.ok) throw unsupportedSource(p.reason);
    return;
  }
  if (sourceType === 'mqtt') {
    const p = parseMqttUrl(url);
    if (!p.ok) throw unsupportedSource(p.reason);
    return;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('source_url', 'must be an absolute URL');
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  const decoded = sourceType === 'rtsp' || sourceType === 'http';
  // file:// reads the server's own disk: only for demos and tests, when the operator opted in
  const allowed = SOURCE_SCHEMES[sourceType] ?? [];
  if (!allowed.includes(scheme) && !(decoded && scheme === 'file')) {
    const hint = sourceType === 'rtsp' && (scheme === 'http' || scheme === 'https') ? ' (MJPEG or HLS over http(s):// is source_type http)' : '';
    throw unsupportedSource(`a ${sourceType} source takes ${allowed.map((s) => `${s}://`).join(' or ')}, not ${scheme}://${hint}`);
  }
  if (decoded) {
    const check = validateSourceUrl(url, opts);
    if (!check.ok) throw unsupportedSource(check.reason);
    return;
  }
  if (scheme !== 'mobile' && !parsed.hostname) throw invalid('source_url', 'must name a host');
}

/** A DNS lookup of every address of a host (tests hand in their own). */
export type HostLookup = (host: string) => Promise<Array<{ address: string }>>;
const lookupAll: HostLookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * An mqtt source's broker must be a public address unless the operator allowed private ones
 * (VIGIL_MQTT_ALLOW_PRIVATE=1), as webhook receivers (docs/decisions.md, "Sensors over MQTT"): a
 * tenant must not make the server connect into its own network. Checked when the URL is set.
 */
export async function assertBrokerAllowed(url: string, opts: { allowPrivate: boolean; lookup?: HostLookup }): Promise<void> {
  const p = parseMqttUrl(url);
  if (!p.ok) throw unsupportedSource(p.reason);
  if (opts.allowPrivate) return;
  const host = p.broker.host;
  const hint = 'Brokers on this machine or your own network need a server started with VIGIL_MQTT_ALLOW_PRIVATE=1.';
  const refuse = (detail: string) => new VigilError('unsupported_source', `source_url: ${detail}. ${hint}`, { param: 'source_url' });
  if (isIP(host)) {
    const why = describeBlockedAddress(host);
    if (why) throw refuse(`the broker ${host} is ${why}`);
    return;
  }
  let addrs: Array<{ address: string }>;
  try {
    addrs = await (opts.lookup ?? lookupAll)(host);
  } catch {
    throw new VigilError('unsupported_source', `source_url: the broker's host ${host} does not resolve`, { param: 'source_url' });
  }
  for (const a of addrs) {
    const why = describeBlockedAddress(a.address);
    if (why) throw refuse(`the broker ${host} resolves to ${a.address}, which is ${why}`);
  }
}

/** The sensor mapping of a request, checked against the source type (only mqtt streams take one). */
function checkSensorMapping(sourceType: string, sensor: SensorMapping | undefined, required: boolean): SensorMapping | undefined {
  if (sourceType !== 'mqtt') {
    if (sensor !== undefined) throw invalid('sensor', `only mqtt streams take a sensor mapping; this one is ${sourceType}`);
    return undefined;
  }
  if (sensor === undefined && !required) return undefined;
  const check = resolveMapping(sensor);
  if (!check.ok) throw new VigilError('validation_failed', `${check.param}: ${check.reason}`, { param: check.param });
  return sensor;
}

/**
 * Zones and motion masks of a request, checked beyond their JSON shape (points are [x, y] pairs
 * in 0..1, zone names unique); returns the fields the request set.
 */
function checkVideoConfig(body: { zones?: Array<{ name: string; polygon: unknown }>; motion_masks?: unknown[] }): Partial<StreamVideoConfig> {
  const errors: Array<{ param: string; message: string }> = [];
  const names = new Set<string>();
  body.zones?.forEach((z, i) => {
    for (const p of describePolygonProblems(z.polygon)) errors.push({ param: `zones.${i}.polygon`, message: p });
    if (names.has(z.name)) errors.push({ param: `zones.${i}.name`, message: `zone name ${JSON.stringify(z.name)} is used twice` });
    names.add(z.name);
  });
  body.motion_masks?.forEach((m, i) => {
    for (const p of describePolygonProblems(m)) errors.push({ param: `motion_masks.${i}`, message: p });
  });
  if (errors.length) throw new VigilError('validation_failed', `${errors[0].param} ${errors[0].message}`, { param: errors[0].param, errors });
  const out: Partial<StreamVideoConfig> = {};
  if (body.zones) out.zones = body.zones as StreamVideoConfig['zones'];
  if (body.motion_masks) out.motion_masks = body.motion_masks as StreamVideoConfig['motion_masks'];
  return out;
}

export class StreamService {
  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      scenes: SceneService;
      sources: StreamRunner;
      /** VIGIL_ALLOW_FILE_SOURCES: file:// sources read the server's disk */
      allowFileSources?: boolean;
      /** WHIP publish tokens of webrtc streams */
      publishing?: StreamPublishing;
      /** face recognition on phone frames (the people module) */
      faces?: FrameFaceRecognizer;
      /** where each stream runs: this process, or the lease table in cluster mode */
      assignments?: StreamAssignments;
      /** cluster mode: checks that a frame forwarded to this node comes from a node of the cluster */
      peers?: Pick<PeerLink, 'verify'> | null;
      /** VIGIL_MQTT_ALLOW_PRIVATE: mqtt sources may name a loopback or private broker */
      mqttAllowPrivate?: boolean;
      /** how broker host names are resolved for that check (tests hand in their own) */
      lookup?: HostLookup;
    },
  ) {}

  private get brokerOpts() {
    return { allowPrivate: this.deps.mqttAllowPrivate ?? false, lookup: this.deps.lookup };
  }

  private get sourceOpts() {
    return { allowFileSources: this.deps.allowFileSources ?? false };
  }

  private async view(r: StreamRow): Promise<StreamView> {
    const [v] = await this.views([r]);
    return v;
  }

  private async views(rows: readonly StreamRow[]): Promise<StreamView[]> {
    const where = (await this.deps.assignments?.assignments(rows.map((r) => r.id))) ?? new Map<string, never>();
    return rows.map((r) =>
      toStreamView(r, this.deps.sources.liveStats(r.id), toAssignmentView(where.get(r.id)), this.deps.sources.sensorState?.(r.id) ?? null),
    );
  }

  async create(principal: Principal, actor: Actor, body: CreateStreamBodyT): Promise<StreamView> {
    assertLocationAllowed(principal, body.location);
    validateSource(body.source_type, body.source_url, this.sourceOpts);
    const video = checkVideoConfig(body);
    const sensor = checkSensorMapping(body.source_type, body.sensor, true);
    // docs/design.md "Sandbox": everything a test key creates is simulated and never touches a real source
    const sandbox = body.source_type === 'sandbox' || principal.mode === 'test';
    if (body.source_type === 'mqtt' && !sandbox) await assertBrokerAllowed(body.source_url, this.brokerOpts);
    const now = this.deps.clock.now();
    let publish: PublishInfo | null = null;
    const row = await this.deps.database.withWriteLock(async (trx) => {
      const scene = await this.deps.scenes.ensureScene(trx, principal.tenantId, body.location);
      const r: StreamRow = {
        id: newId('stream', now),
        tenant_id: principal.tenantId,
        name: body.name,
        source_type: body.source_type,
        source_url: body.source_url,
        location: body.location,
        scene_id: scene.id,
        status: sandbox ? 'live' : 'connecting',
        sandbox: sandbox ? 1 : 0,
        config: JSON.stringify({ zones: video.zones ?? [], motion_masks: video.motion_masks ?? [], ...(sensor ? { sensor } : {}) } satisfies StreamVideoConfig),
        error: null,
        last_frame_at: null,
        created_at: toIso(now),
        updated_at: toIso(now),
      };
      await streamRepository.insert(trx, r);
      // a live webrtc stream gets its publish token with it, shown in this answer only
      if (r.source_type === 'webrtc' && !sandbox && this.deps.publishing) publish = await this.deps.publishing.issueIn(trx, r);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'stream.created',
          resourceType: 'stream',
          resourceId: r.id,
          data: { after: toStreamView(r) },
          scope: { location: r.location, streamId: r.id },
        },
      ]);
      return r;
    });
    this.deps.scenes.registerLoaded(row.scene_id);
    this.deps.sources.start(row, { timeZone: this.deps.scenes.timeZoneOf(row.scene_id), since: now - 15 * 60_000 });
    return publish ? { ...(await this.view(row)), publish } : this.view(row);
  }

  async list(principal: Principal, q: PageQuery & { location?: string }) {
    const page = await streamRepository.listPage(this.deps.database.db, principal.tenantId, principal.locations, { location: q.location }, q);
    const views = await this.views(page.data);
    return mapPage({ ...page, data: views }, (v) => v);
  }

  async get(principal: Principal, id: string): Promise<StreamView> {
    return this.view(await this.load(principal, id));
  }

  /** A stream of this tenant that the key may see; anything else is 404 (no existence leaks). */
  async load(principal: Principal, id: string): Promise<StreamRow> {
    const row = await streamRepository.findForTenant(this.deps.database.db, principal.tenantId, id);
    if (!row || (principal.locations && !principal.locations.includes(row.location))) throw notFound('stream', id);
    return row;
  }

  async update(principal: Principal, actor: Actor, id: string, body: UpdateStreamBodyT): Promise<StreamView> {
    const before = await this.load(principal, id);
    if (body.location) assertLocationAllowed(principal, body.location);
    if (body.source_url) validateSource(before.source_type, body.source_url, this.sourceOpts);
    const video = checkVideoConfig(body);
    const sensor = checkSensorMapping(before.source_type, body.sensor, false);
    if (body.source_url && before.source_type === 'mqtt' && before.sandbox !== 1) await assertBrokerAllowed(body.source_url, this.brokerOpts);
    const now = this.deps.clock.now();
    const after = await this.deps.database.withWriteLock(async (trx) => {
      const patch: Partial<StreamRow> = { updated_at: toIso(now) };
      if (body.name !== undefined) patch.name = body.name;
      if (body.source_url !== undefined) patch.source_url = body.source_url;
      if (video.zones || video.motion_masks || sensor) {
        patch.config = JSON.stringify({ ...parseStreamConfig(before.config), ...video, ...(sensor ? { sensor } : {}) } satisfies StreamVideoConfig);
      }
      if (body.location !== undefined && body.location !== before.location) {
        patch.location = body.location;
        patch.scene_id = (await this.deps.scenes.ensureScene(trx, principal.tenantId, body.location)).id;
      }
      await streamRepository.update(trx, id, patch);
      const r = { ...before, ...patch };
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'stream.updated',
          resourceType: 'stream',
          resourceId: id,
          data: { before: toStreamView(before), after: toStreamView(r) },
          scope: { location: r.location, streamId: id },
        },
      ]);
      return r;
    });
    // a new payload mapping restarts the device's subscription (it reads its last state anew)
    if (after.scene_id !== before.scene_id || after.source_url !== before.source_url || (sensor && after.config !== before.config)) {
      this.deps.scenes.registerLoaded(after.scene_id);
      this.deps.scenes.detachStream(before.scene_id, id);
      this.deps.sources.start(after, { timeZone: this.deps.scenes.timeZoneOf(after.scene_id) });
    } else if (after.config !== before.config) {
      this.deps.sources.reconfigure(id, parseStreamConfig(after.config));
    }
    return this.view(after);
  }

  /**
   * A phone's frame through the detector; answers what it changed in the scene.
   * Only live mobile streams take frames: a sandbox stream simulates its source.
   */
  async pushFrame(
    principal: Principal,
    id: string,
    jpeg: Buffer,
  ): Promise<{ object: 'frame_result'; stream_id: string; status: StreamStatus; detected: boolean; detections: DetectionView[]; faces?: FrameFace[] }> {
    const row = await this.load(principal, id);
    if (row.source_type !== 'mobile' || row.sandbox === 1) {
      const why = row.source_type !== 'mobile' ? `its source_type is ${row.source_type}` : 'it is a sandbox stream, which simulates its source';
      throw new VigilError('stream_not_mobile', `Stream ${id} does not take pushed frames: ${why}. Create a stream with source_type "mobile" on a live key.`);
    }
    const out = await this.deps.sources.pushFrame(id, jpeg);
    // after the detector: a frame it refused (invalid_image, too large) never reaches the face engine
    const faces = (await this.deps.faces?.recognizeFrame(principal.tenantId, jpeg)) ?? null;
    return {
      object: 'frame_result',
      stream_id: id,
      status: out.status,
      detected: out.detected,
      detections: out.detections.map(toDetectionView),
      ...(faces ? { faces } : {}),
    };
  }

  /**
   * A phone frame another node of the cluster forwarded to this one, the stream's owner (see
   * docs/deployment.md, "Forwarding to a stream's owner"): the sender authenticated the key and
   * checked the stream; here the request's node signature is checked and the frame goes through
   * this node's detector. Answers the detections as stored; the sender builds the client's answer.
   */
  async pushForwardedFrame(request: Parameters<PeerLink['verify']>[0], id: string, jpeg: unknown): Promise<FrameOutcome> {
    if (!this.deps.peers) throw new VigilError('route_not_found', 'Internal routes exist only in cluster mode.');
    this.deps.peers.verify(request);
    if (!Buffer.isBuffer(jpeg)) throw new VigilError('invalid_image', 'The forwarded frame has no JPEG body.', { param: 'body' });
    return this.deps.sources.pushFrame(id, jpeg, { forwarded: true });
  }

  async remove(principal: Principal, actor: Actor, id: string) {
    const row = await this.load(principal, id);
    this.deps.sources.stop(id);
    await this.deps.database.withWriteLock(async (trx) => {
      await streamRepository.delete(trx, id);
      await this.deps.publishing?.removeIn(trx, id);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'stream.deleted',
          resourceType: 'stream',
          resourceId: id,
          data: { before: toStreamView(row) },
          scope: { location: row.location, streamId: id },
        },
      ]);
    });
    this.deps.scenes.detachStream(row.scene_id, id);
    return { id, object: 'stream' as const, deleted: true as const };
  }

  /**
   * A scene's time zone changed: its sandbox streams restart in it, from now (a sandbox's activity
   * follows the local day). In a cluster the owner's scheduler does this itself on its next tick.
   */
  async restartSandboxes(sceneId: string, timeZone: string): Promise<void> {
    for (const row of await streamRepository.listByScene(this.deps.database.db, sceneId)) {
      if (row.sandbox) this.deps.sources.start(row, { timeZone });
    }
  }

  /** Starts the sources of every stream (server start). */
  async startAll(): Promise<void> {
    for (const row of await streamRepository.listRunnable(this.deps.database.db)) {
      this.deps.sources.start(row, { timeZone: this.deps.scenes.timeZoneOf(row.scene_id) });
    }
  }
}
