import { createHash } from 'node:crypto';
import type { DatabaseHandle } from '../../platform/db/index.ts';
import type { PeerLink, SqlLeaseStore, StreamAssignment } from '../../platform/coordination/index.ts';
import { ERROR_CATALOGUE, VigilError, type ErrorCode } from '../../platform/lib/index.ts';
import type { SceneService } from '../scenes/scene.service.ts';
import { parseStreamConfig } from './stream-config.ts';
import type { FrameOutcome, StreamRunner } from './stream-runner.ts';
import { streamRepository, type StreamRow } from './stream.repository.ts';

/**
 * Lease timing (docs/decisions.md "Stream ownership"): a lease lives 8 s and is renewed every
 * 2 s, so three renewals can fail before it lapses; a node that stops (kill -9) has its streams
 * claimed by another node at most ttl + one scan (~10 s) later, inside the 15 s failover target.
 */
export interface OwnershipTuning {
  ttlMs: number;
  /** how often a node renews, heartbeats and looks for work */
  tickMs: number;
}

export const DEFAULT_OWNERSHIP_TUNING: OwnershipTuning = { ttlMs: 8_000, tickMs: 2_000 };

interface Held {
  epoch: number;
  /** the row as the source was started from, to notice edits made on any node */
  row: StreamRow;
  /** the scene's time zone the source was started with (a sandbox's local day follows it) */
  timeZone: string;
  /** by this node's clock: past it, this node no longer trusts its lease (it may have been paused) */
  trustedUntil: number;
}

export interface StreamOwnershipDeps {
  database: DatabaseHandle;
  leases: SqlLeaseStore;
  /** the real source runner (org/sources) */
  runner: StreamRunner;
  scenes: SceneService;
  nodeId: string;
  role: string;
  /** this node's share weight: detector threads */
  capacity: number;
  /** where the other nodes reach this one (VIGIL_INTERNAL_URL), heartbeated so they can forward frames and WHIP requests here */
  internalUrl?: string;
  /** resolves when the detections already ingested are durable (the pipeline's drain) */
  drain: () => Promise<void>;
  now?: () => number;
  tuning?: OwnershipTuning;
  log?: { info?(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
  /** told how many leases this node holds after every tick (the vigil_stream_leases_held gauge) */
  onHeld?: (count: number) => void;
}

/**
 * Cluster mode: which streams this worker node runs. Every tick it heartbeats,
 * renews its leases (a lease it lost — it was paused past expiry, or the database was unreachable
 * — stops that stream's source at once), follows edits and deletions made on any node, and takes
 * its capacity share of the runnable streams: ceil(streams × capacity / total live capacity),
 * claiming free ones with a conditional upsert and releasing the excess when nodes join.
 * Graceful shutdown releases everything, so the other nodes claim at their next tick.
 */
export class StreamOwnership {
  private readonly held = new Map<string, Held>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** nudges before start() (the demo seed creating streams) wait for the first tick */
  private started = false;
  private readonly startedAt: number;

  constructor(private readonly deps: StreamOwnershipDeps) {
    this.startedAt = this.now();
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  private get tuning(): OwnershipTuning {
    return this.deps.tuning ?? DEFAULT_OWNERSHIP_TUNING;
  }

  async start(): Promise<void> {
    // a process restarted under the same VIGIL_NODE_ID: what the old one held is not running here
    await this.deps.leases.releaseAllOf(this.deps.nodeId);
    this.started = true;
    this.nudge();
    await this.running;
    this.timer = setInterval(() => this.nudge(), this.tuning.tickMs);
  }

  /** Runs a tick soon (a stream was created, edited or deleted through this node). */
  nudge(): void {
    if (this.stopped || !this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.tick()
      .catch((err: unknown) => this.deps.log?.warn({ err, node_id: this.deps.nodeId }, 'stream ownership tick failed'))
      .finally(() => {
        this.running = null;
        this.deps.onHeld?.(this.held.size);
        if (this.again) {
          this.again = false;
          this.nudge();
        }
      });
  }

  /** The streams this node runs now, with the epoch each was claimed under. */
  heldEpochs(): Map<string, number> {
    return new Map([...this.held].map(([id, h]) => [id, h.epoch]));
  }

  /** Whether this node may still act as the stream's owner (its lease is fresh by its own clock). */
  holds(streamId: string): boolean {
    const h = this.held.get(streamId);
    return h !== undefined && h.trustedUntil > this.now();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    const held = [...this.held];
    for (const [id] of held) this.deps.runner.stop(id);
    // what the sources produced before they stopped is written under the lease, then given up
    await this.deps.drain().catch(() => undefined);
    for (const [id, h] of held) await this.deps.leases.release(id, this.deps.nodeId, h.epoch).catch(() => undefined);
    this.held.clear();
    this.deps.onHeld?.(0);
    await this.deps.leases.leaveCluster(this.deps.nodeId).catch(() => undefined);
  }

  /** Step 1 of a tick: renew; whatever did not renew under our epoch is someone else's now. */
  private async renewLeases(started: number): Promise<void> {
    const { leases, nodeId, runner, log } = this.deps;
    const { ttlMs } = this.tuning;
    // 1. renew; whatever did not renew under our epoch is someone else's now
    const renewed = await leases.renewAll(nodeId, ttlMs);
    for (const [id, h] of [...this.held]) {
      if (renewed.get(id) === h.epoch) {
        h.trustedUntil = started + ttlMs;
        continue;
      }
      runner.stop(id);
      this.held.delete(id);
      log?.warn(
        { stream_id: id, epoch: h.epoch, node_id: nodeId },
        'lost the lease of a stream (paused or cut off past its expiry): its source is stopped here',
      );
    }
    for (const [id, epoch] of renewed) if (!this.held.has(id)) await leases.release(id, nodeId, epoch);
  }

  /** Step 2 of a tick: follow edits and deletions made through any node (byId: the runnable streams). */
  private async followStreamEdits(byId: Map<string, StreamRow>): Promise<void> {
    const { leases, nodeId, runner } = this.deps;
    const zones = await this.deps.scenes.storedTimeZones([...this.held].flatMap(([id]) => byId.get(id)?.scene_id ?? []));
    for (const [id, h] of [...this.held]) {
      const row = byId.get(id);
      if (!row) {
        runner.stop(id);
        this.held.delete(id);
        await leases.forget(id);
        continue;
      }
      const timeZone = zones.get(row.scene_id) ?? 'UTC';
      if (row.updated_at === h.row.updated_at && timeZone === h.timeZone) continue;
      if (row.source_url !== h.row.source_url || row.scene_id !== h.row.scene_id || row.location !== h.row.location || timeZone !== h.timeZone) {
        await this.deps.scenes.ensureLoaded(row.scene_id);
        if (row.scene_id !== h.row.scene_id) this.deps.scenes.detachStream(h.row.scene_id, id);
        runner.start(row, { timeZone, lease: { nodeId, epoch: h.epoch } });
      } else if (row.config !== h.row.config) {
        runner.reconfigure(id, parseStreamConfig(row.config));
      }
      h.row = row;
      h.timeZone = timeZone;
    }
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    const { leases, nodeId, runner, log } = this.deps;
    const { ttlMs, tickMs } = this.tuning;
    const started = this.now();
    await leases.heartbeat({ nodeId, role: this.deps.role, capacity: this.deps.capacity, startedAt: this.startedAt, internalUrl: this.deps.internalUrl });

    await this.renewLeases(started);
    if (this.stopped) return;

    // 2. follow edits and deletions made through any node
    const rows = await streamRepository.listRunnable(this.deps.database.db);
    const byId = new Map(rows.map((r) => [r.id, r]));
    await this.followStreamEdits(byId);

    // 3. my share of the streams, by capacity among the live workers
    const nodes = (await leases.liveNodes(Math.max(ttlMs - tickMs, tickMs))).filter((n) => n.role !== 'api');
    if (!nodes.some((n) => n.node_id === nodeId))
      nodes.push({ node_id: nodeId, role: this.deps.role, capacity: this.deps.capacity, started_at: 0, heartbeat_at: 0 });
    const total = nodes.reduce((sum, n) => sum + n.capacity, 0);
    const target = Math.ceil((rows.length * this.deps.capacity) / total);

    if (this.held.size > target) {
      // a node joined: give back the most recently taken streams (the longest-running stay put)
      const extra = [...this.held].sort((a, b) => b[1].row.id.localeCompare(a[1].row.id)).slice(0, this.held.size - target);
      for (const [id] of extra) runner.stop(id);
      await this.deps.drain();
      for (const [id, h] of extra) {
        this.held.delete(id);
        await leases.release(id, nodeId, h.epoch);
      }
      log?.info?.({ node_id: nodeId, released: extra.map(([id]) => id), target }, 'rebalanced: released streams for other nodes');
      return;
    }
    if (this.held.size >= target) return;
    const taken = await leases.assignments();
    // each node walks the free streams in its own order, so simultaneous claimers rarely collide
    const free = rows.filter((r) => !taken.has(r.id) && !this.held.has(r.id)).sort((a, b) => rank(nodeId, a.id).localeCompare(rank(nodeId, b.id)));
    for (const row of free) {
      if (this.held.size >= target || this.stopped) break;
      const claim = await leases.claim(row.id, nodeId, ttlMs);
      if (!claim) continue;
      const claimedAt = this.now();
      // held (and so `holds()`, which lets frames and WHIP in) only once the source is started
      await this.deps.scenes.ensureLoaded(row.scene_id);
      const timeZone = (await this.deps.scenes.storedTimeZones([row.scene_id])).get(row.scene_id) ?? 'UTC';
      this.held.set(row.id, { epoch: claim.epoch, row, timeZone, trustedUntil: claimedAt + ttlMs });
      // generation resumes at the claim: whatever the previous owner wrote is not produced again
      runner.start(row, { timeZone, since: claimedAt, lease: { nodeId, epoch: claim.epoch } });
      log?.info?.({ node_id: nodeId, stream_id: row.id, epoch: claim.epoch }, 'claimed a stream');
    }
  }
}

function rank(nodeId: string, streamId: string): string {
  return createHash('sha1').update(`${nodeId}/${streamId}`).digest('hex');
}

/** The stream view's `assignment` from a lease (null when no node runs the stream). */
export function toAssignmentView(a: StreamAssignment | undefined): { node_id: string; epoch: number; since: string } | null {
  return a ? { node_id: a.nodeId, epoch: a.epoch, since: new Date(a.since).toISOString() } : null;
}

export type AssignmentView = ReturnType<typeof toAssignmentView>;

/** What the stream view asks: where each stream runs. */
export interface StreamAssignments {
  assignments(streamIds: readonly string[]): Promise<Map<string, StreamAssignment>>;
}

/**
 * Single node: every stream started here runs here. Records when each was started so the view can
 * say so; the epoch counts starts of that stream in this process (nothing else writes it).
 */
export class LocalStreamRunner implements StreamRunner, StreamAssignments {
  private readonly started = new Map<string, StreamAssignment>();
  private readonly starts = new Map<string, number>();

  constructor(
    private readonly inner: StreamRunner,
    private readonly nodeId: string,
    private readonly now: () => number = Date.now,
  ) {}

  start(row: StreamRow, opts?: Parameters<StreamRunner['start']>[1]): void {
    this.inner.start(row, opts);
    // a real camera in a process that does not ingest video (CLI, route-only tests) runs nowhere
    if (row.sandbox !== 1 && this.inner.liveStats(row.id) === null) {
      this.started.delete(row.id);
      return;
    }
    const epoch = (this.starts.get(row.id) ?? 0) + 1;
    this.starts.set(row.id, epoch);
    this.started.set(row.id, { nodeId: this.nodeId, epoch, since: this.now() });
  }

  stop(streamId: string): void {
    this.inner.stop(streamId);
    this.started.delete(streamId);
  }

  liveStats(streamId: string) {
    return this.inner.liveStats(streamId);
  }

  sensorState(streamId: string) {
    return this.inner.sensorState?.(streamId) ?? null;
  }

  reconfigure(streamId: string, cfg: Parameters<StreamRunner['reconfigure']>[1]): void {
    this.inner.reconfigure(streamId, cfg);
  }

  pushFrame(streamId: string, jpeg: Buffer) {
    return this.inner.pushFrame(streamId, jpeg);
  }

  async assignments(streamIds: readonly string[]): Promise<Map<string, StreamAssignment>> {
    return new Map(streamIds.flatMap((id) => (this.started.has(id) ? [[id, this.started.get(id)!] as const] : [])));
  }
}

/**
 * Cluster mode: the HTTP side of the streams service does not start or stop sources itself. A
 * create, edit or delete through any node is picked up by the owner's scheduler (at once when
 * this node runs one, else within one tick); live figures come from this node's ingest when it
 * happens to run the stream.
 */
export class ClusterStreamRunner implements StreamRunner, StreamAssignments {
  constructor(
    private readonly inner: StreamRunner,
    private readonly leases: SqlLeaseStore,
    private readonly ownership: StreamOwnership | null,
    /** signed requests to the stream's owner (docs/decisions.md, "Cluster: the owner takes the frames, shared cooldowns and anomalies") */
    private readonly peers: PeerLink | null = null,
  ) {}

  start(): void {
    this.ownership?.nudge();
  }

  stop(): void {
    this.ownership?.nudge();
  }

  reconfigure(): void {
    this.ownership?.nudge();
  }

  liveStats(streamId: string) {
    return this.inner.liveStats(streamId);
  }

  sensorState(streamId: string) {
    return this.inner.sensorState?.(streamId) ?? null;
  }

  /**
   * A phone frame goes through the detector of the node that runs the stream: here when this node
   * holds its lease, else forwarded to the owner. A frame forwarded here (`forwarded`) is never
   * forwarded again: if this node lost the stream meanwhile, the sender is told to retry.
   */
  async pushFrame(streamId: string, jpeg: Buffer, opts?: { forwarded?: boolean }): Promise<FrameOutcome> {
    if (this.ownership?.holds(streamId)) return this.inner.pushFrame(streamId, jpeg);
    if (opts?.forwarded) throw notRunningHere(streamId);
    const owner = await this.peers?.ownerOf(streamId);
    if (!owner) throw notRunningHere(streamId);
    if (owner.nodeId === this.peers!.nodeId) return this.inner.pushFrame(streamId, jpeg);
    const res = await this.peers!.send(owner, {
      method: 'POST',
      path: `/internal/v1/streams/${encodeURIComponent(streamId)}/frames`,
      headers: { 'content-type': 'image/jpeg' },
      body: jpeg,
      // the owner's first frame loads its detector; inside the 60 s a request may take (VIGIL_REQUEST_TIMEOUT_MS)
      timeoutMs: 50_000,
    });
    const body = (await res.json().catch(() => null)) as (FrameOutcome & ProblemLike) | null;
    if (res.ok && body) return body;
    throw relayedProblem(res, body, owner.nodeId);
  }

  assignments(streamIds: readonly string[]): Promise<Map<string, StreamAssignment>> {
    return this.leases.assignments(streamIds);
  }
}

interface ProblemLike {
  code?: string;
  detail?: string;
  param?: string;
}

/** No node runs the stream just now: it is being taken over after its owner stopped (within a lease time). */
function notRunningHere(streamId: string): VigilError {
  return new VigilError(
    'service_unavailable',
    `No node runs stream ${streamId} at this moment (it is being taken over by another node); send the frame again in a few seconds.`,
    {
      headers: { 'Retry-After': '2' },
    },
  );
}

/** The owner's problem answer, as this node's own (same code, detail and field). */
export function relayedProblem(res: Response, body: ProblemLike | null, nodeId: string): VigilError {
  const code = body?.code && body.code in ERROR_CATALOGUE ? (body.code as ErrorCode) : 'service_unavailable';
  const retryAfter = res.headers.get('retry-after');
  return new VigilError(code, body?.detail ?? `The node running this stream (${nodeId}) answered ${res.status}.`, {
    param: body?.param,
    ...(retryAfter ? { headers: { 'Retry-After': retryAfter } } : {}),
  });
}
