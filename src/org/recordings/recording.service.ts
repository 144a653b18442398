import { accessSync, constants, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditService } from '../../platform/audit/index.ts';
import type { RecordingConfig } from '../../platform/config/index.ts';
import type { DatabaseHandle, DbExecutor } from '../../platform/db/index.ts';
import { SYSTEM_ACTOR, type Actor, type Principal } from '../../platform/identity/index.ts';
import { invalid, newId, notFound, VigilError } from '../../platform/lib/index.ts';
import { toIso, type Clock } from '../../platform/time/index.ts';
import { findStream, type StreamRow } from '../streams/index.ts';
import { findAlert } from '../alerts/index.ts';
import { findIncident, type IncidentRow } from '../incidents/index.ts';
import type { IngestGate } from '../pipeline/index.ts';
import { ClipMaker, type Clip } from './clip-maker.ts';
import { recordingRepository, type SegmentRow } from './recording.repository.ts';
import { SegmentRecorder, type ClosedSegment, type StreamKey } from './segment-recorder.ts';

/** Source types that have video to record (sandbox streams have none). */
const VIDEO_TYPES = new Set(['rtsp', 'http', 'mobile', 'webrtc']);
/** how often a blocked recorder looks again at its directory and free space */
const RECHECK_MS = 15_000;
/** one recording.storage_low event per tenant per this long */
const STORAGE_EVENT_EVERY_MS = 15 * 60_000;

export interface RecordingServiceDeps {
  database: DatabaseHandle;
  clock: Clock;
  audit: AuditService;
  config: RecordingConfig;
  dataDir: string;
  nodeId: string;
  ffmpegPath(): string;
  webhooks: { enqueueIn(trx: DbExecutor, event: { tenantId: string; kind: string; payload: Record<string, unknown> }): Promise<unknown> };
  gate?: IngestGate;
  log?: { warn(obj: unknown, msg?: string): void; info?(obj: unknown, msg?: string): void; error?(obj: unknown, msg?: string): void };
}

export interface SegmentView {
  id: string;
  kind: 'video' | 'still';
  start: string;
  end: string;
  duration_ms: number;
  bytes: number;
  sha256: string;
  audit_id: string;
}

export interface RecordingListView {
  stream_id: string;
  from: string;
  to: string;
  recorded_ms: number;
  segments: SegmentView[];
  gaps: Array<{ from: string; to: string }>;
}

export function toSegmentView(s: SegmentRow): SegmentView {
  return {
    id: s.id,
    kind: s.kind,
    start: toIso(s.start_at),
    end: toIso(s.end_at),
    duration_ms: s.end_at - s.start_at,
    bytes: s.bytes,
    sha256: s.sha256,
    audit_id: s.audit_id,
  };
}

/** gaps shorter than this between segments are the muxer's keyframe rounding, not missing video */
const GAP_TOLERANCE_MS = 1500;

/**
 * Recordings (docs/decisions.md, "Recordings: a second output of the decoding ffmpeg"): the
 * recorder the live video sources hand their ffmpeg, the sealing of each closed segment (its row
 * and one audit entry in one transaction), listings with gaps, clips of any range, legal holds,
 * retention and the disk quota, and the state of the recordings directory.
 */
export class RecordingService {
  readonly recorder: SegmentRecorder;
  readonly clips: ClipMaker;
  readonly root: string;
  private blockedReason: string | null = null;
  private checkedAt = -Infinity;
  private readonly warnedAt = new Map<string, number>();
  private retention: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: RecordingServiceDeps) {
    this.root = deps.config.dir ?? join(deps.dataDir, 'recordings');
    this.recorder = new SegmentRecorder({
      root: this.root,
      nodeId: deps.nodeId,
      ffmpegPath: deps.ffmpegPath,
      segmentSeconds: deps.config.segmentSeconds,
      transcode: { width: deps.config.transcodeWidth, fps: deps.config.transcodeFps, max: deps.config.maxTranscodes },
      waiting: (k, reason) => void this.notRecording(k, reason),
      resumed: (k) => void this.recordingResumed(k),
      seal: (s) => this.seal(s),
      blocked: () => this.blocked(),
      log: deps.log,
    });
    this.clips = new ClipMaker({ root: this.root, ffmpegPath: deps.ffmpegPath });
  }

  get enabled(): boolean {
    return this.deps.config.enabled;
  }

  /** Whether this stream is recorded now: recordings on, a video source, not muted or left alone. */
  records(streamId: string): boolean {
    return this.enabled && !this.deps.gate?.withheldReason(streamId);
  }

  /**
   * At start: the directory is checked (an unwritable or missing one is a clear log line; streams
   * are then decoded without recording, and recording starts by itself once it is writable) and
   * what a crash left open is recovered.
   */
  async start(): Promise<void> {
    if (!this.enabled) return;
    const why = this.blocked(true);
    if (why) {
      this.deps.log?.error?.(
        { recordings_dir: this.root, reason: why },
        `recordings: ${why}; streams are decoded and detected without recording until this is fixed`,
      );
      return;
    }
    const n = await this.recorder.recoverAll();
    if (n) this.deps.log?.info?.({ launches: n }, 'recordings: recovered segments left open by the previous run');
  }

  async close(): Promise<void> {
    await this.recorder.settle();
    await this.retention.catch(() => undefined);
  }

  /**
   * Why recording cannot go on now, else null: the directory missing and not creatable,
   * unwritable, or the disk below VIGIL_RECORDINGS_MIN_FREE_MB (a retention pass is started and
   * recording.storage_low is sent). Looked at again every 15 s, so recording resumes by itself.
   */
  blocked(force = false): string | null {
    const now = this.deps.clock.now();
    if (!force && now - this.checkedAt < RECHECK_MS) return this.blockedReason;
    this.checkedAt = now;
    const before = this.blockedReason;
    this.blockedReason = this.lookAtDirectory();
    if (this.blockedReason && this.blockedReason !== before) {
      this.deps.log?.warn({ recordings_dir: this.root, reason: this.blockedReason }, `recordings paused: ${this.blockedReason}`);
    } else if (!this.blockedReason && before) {
      this.deps.log?.info?.({ recordings_dir: this.root }, 'recordings resumed');
    }
    return this.blockedReason;
  }

  private lookAtDirectory(): string | null {
    try {
      mkdirSync(this.root, { recursive: true });
      accessSync(this.root, constants.W_OK);
    } catch (err) {
      return `the recordings directory ${this.root} is not writable (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); set VIGIL_RECORDINGS_DIR to a writable directory`;
    }
    const free = SegmentRecorder.freeBytes(this.root);
    if (free !== null && free < this.deps.config.minFreeBytes) {
      this.retention = this.retention.then(() => this.applyRetention()).catch((err: unknown) => this.deps.log?.warn({ err }, 'recordings retention failed'));
      return `storage low: ${Math.round(free / 1048576)} MiB free under ${this.root}, below VIGIL_RECORDINGS_MIN_FREE_MB (${Math.round(this.deps.config.minFreeBytes / 1048576)})`;
    }
    return null;
  }

  /** Sends recording.storage_low to a tenant whose stream could not be recorded (at most every 15 minutes). */
  async reportBlocked(tenantId: string, streamId: string): Promise<void> {
    const reason = this.blockedReason;
    if (!reason) return;
    const now = this.deps.clock.now();
    if (now - (this.warnedAt.get(tenantId) ?? -Infinity) < STORAGE_EVENT_EVERY_MS) return;
    this.warnedAt.set(tenantId, now);
    const free = SegmentRecorder.freeBytes(this.root);
    await this.deps.database
      .withWriteLock((trx) =>
        this.deps.webhooks.enqueueIn(trx, {
          tenantId,
          kind: 'recording.storage_low',
          payload: { stream_id: streamId, reason, free_bytes: free, at: toIso(now) },
        }),
      )
      .catch((err: unknown) => this.deps.log?.warn({ err }, 'recording.storage_low event not written'));
  }

  /** A closed segment's row and its audit entry (SHA-256, stream, start, end), in one transaction. */
  async seal(s: ClosedSegment): Promise<void> {
    const id = newId('rseg', s.startAt);
    await this.deps.database.withWriteLock(async (trx) => {
      const stream = await findStream(trx, s.tenantId, s.streamId);
      const [auditId] = await this.deps.audit.appendIn(trx, SYSTEM_ACTOR, [
        {
          tenantId: s.tenantId,
          action: 'recording.segment_closed',
          resourceType: 'stream',
          resourceId: s.streamId,
          at: this.deps.clock.now(),
          data: { segment_id: id, kind: s.kind, start: toIso(s.startAt), end: toIso(s.endAt), sha256: s.sha256, bytes: s.bytes, codec: s.codec },
          scope: { location: stream?.location ?? null, streamId: s.streamId },
        },
      ]);
      await recordingRepository.insert(trx, {
        id,
        tenant_id: s.tenantId,
        stream_id: s.streamId,
        kind: s.kind,
        start_at: s.startAt,
        end_at: s.endAt,
        path: s.path,
        sha256: s.sha256,
        bytes: s.bytes,
        codec: s.codec,
        audit_id: auditId,
        created_at: toIso(this.deps.clock.now()),
      });
    });
  }

  /**
   * A stream whose codec needs transcoding found the node's transcoding slots taken
   * (VIGIL_RECORDINGS_MAX_TRANSCODES): decoded and detected without recording until one stops. Said
   * once until it records: a warning in the log and a `recording.stopped` audit entry, as for a WHIP
   * session that stops recording, so the listing's gap has its reason in the audit trail.
   */
  async notRecording(k: StreamKey, reason: string): Promise<void> {
    await this.sessionStoppedRecording(k, reason);
  }

  /** A stream that waited for a transcoding slot records now: an info log line and a `recording.resumed` audit entry. */
  async recordingResumed(k: StreamKey): Promise<void> {
    this.deps.log?.info?.({ stream_id: k.streamId }, `recording resumed for stream ${k.streamId}: a transcoding slot came free`);
    await this.auditRecordingState(k, 'recording.resumed', { reason: 'a transcoding slot came free' });
  }

  /**
   * A WHIP publisher's session gave up recording (its decoders ended twice while recording; see
   * docs/decisions.md, "Recordings: WHIP publishers") and decodes on without it: a warning in the
   * log and a `recording.stopped` entry in the audit trail, so the gap that follows in the
   * stream's recording says why. Never fails the session.
   */
  async sessionStoppedRecording(k: StreamKey, reason: string): Promise<void> {
    this.deps.log?.warn({ stream_id: k.streamId, reason }, `recording stopped for stream ${k.streamId}: ${reason}`);
    await this.auditRecordingState(k, 'recording.stopped', { reason });
  }

  /** An audit entry on the stream about its recording (data: the reason and the time); never throws. */
  private async auditRecordingState(k: StreamKey, action: 'recording.stopped' | 'recording.resumed', data: { reason: string }): Promise<void> {
    await this.deps.database
      .withWriteLock(async (trx) => {
        const stream = await findStream(trx, k.tenantId, k.streamId);
        await this.deps.audit.appendIn(trx, SYSTEM_ACTOR, [
          {
            tenantId: k.tenantId,
            action,
            resourceType: 'stream',
            resourceId: k.streamId,
            at: this.deps.clock.now(),
            data: { ...data, at: toIso(this.deps.clock.now()) },
            scope: { location: stream?.location ?? null, streamId: k.streamId },
          },
        ]);
      })
      .catch((err: unknown) => this.deps.log?.warn({ err, stream_id: k.streamId }, `${action} audit entry not written`));
  }

  /** A phone frame kept as a still (not for a muted or left-alone phone; never fails the frame). */
  async keepStill(k: StreamKey, jpeg: Buffer, at: number): Promise<void> {
    if (!this.records(k.streamId)) return;
    if (this.blocked()) return void this.reportBlocked(k.tenantId, k.streamId);
    await this.recorder
      .still(k, jpeg, at)
      .catch((err: unknown) => this.deps.log?.warn({ err, stream_id: k.streamId }, 'recording: a phone still was not kept'));
  }

  /** The stream the key may read, with video; sandbox streams answer 404 stream_has_no_video. */
  async videoStream(principal: Principal, streamId: string, db: DbExecutor = this.deps.database.db): Promise<StreamRow> {
    const stream = await findStream(db, principal.tenantId, streamId);
    if (!stream || (principal.locations && !principal.locations.includes(stream.location))) throw notFound('stream', streamId, 'id');
    if (stream.sandbox || !VIDEO_TYPES.has(stream.source_type)) {
      throw new VigilError(
        'stream_has_no_video',
        `Stream ${streamId} is a sandbox stream: it generates detections from a scenario and has no video to record or clip.`,
        { param: 'id' },
      );
    }
    return stream;
  }

  /** Parses and checks a range: from before to, not longer than VIGIL_CLIP_MAX_SECONDS. */
  range(from: string, to: string): { from: number; to: number } {
    const f = Date.parse(from);
    const t = Date.parse(to);
    if (!Number.isFinite(f)) throw invalid('from', 'must be an RFC 3339 date-time');
    if (!Number.isFinite(t)) throw invalid('to', 'must be an RFC 3339 date-time');
    if (f >= t) throw invalid('from', `must be before to (${to})`);
    const max = this.deps.config.maxClipMs;
    if (t - f > max) throw invalid('to', `the range is ${Math.round((t - f) / 1000)} s long; the longest allowed is ${max / 1000} s (VIGIL_CLIP_MAX_SECONDS)`);
    return { from: f, to: t };
  }

  async list(principal: Principal, streamId: string, q: { from: string; to: string }): Promise<RecordingListView> {
    const { from, to } = this.range(q.from, q.to);
    await this.videoStream(principal, streamId);
    const rows = await recordingRepository.overlapping(this.deps.database.db, principal.tenantId, streamId, from, to);
    const gaps: Array<{ from: string; to: string }> = [];
    let cursor = from;
    let recorded = 0;
    for (const r of rows) {
      if (r.start_at - cursor > GAP_TOLERANCE_MS) gaps.push({ from: toIso(cursor), to: toIso(r.start_at) });
      recorded += Math.max(0, Math.min(r.end_at, to) - Math.max(r.start_at, from, cursor));
      cursor = Math.max(cursor, r.end_at);
    }
    if (to - cursor > GAP_TOLERANCE_MS) gaps.push({ from: toIso(cursor), to: toIso(to) });
    return { stream_id: streamId, from: toIso(from), to: toIso(to), recorded_ms: recorded, segments: rows.map(toSegmentView), gaps };
  }

  /** The segments of a range, or 404 no_recording naming the nearest recorded times. */
  async segmentsOf(tenantId: string, streamId: string, from: number, to: number): Promise<SegmentRow[]> {
    const db = this.deps.database.db;
    const rows = await recordingRepository.overlapping(db, tenantId, streamId, from, to);
    if (rows.length) return rows;
    const near = await recordingRepository.nearest(db, tenantId, streamId, from);
    const after = near.after ?? (await recordingRepository.nearest(db, tenantId, streamId, to)).after;
    throw new VigilError('no_recording', `Stream ${streamId} has no recording between ${toIso(from)} and ${toIso(to)}.`, {
      param: 'from',
      extra: { nearest_before: near.before ? toIso(near.before.end_at) : null, nearest_after: after ? toIso(after.start_at) : null },
    });
  }

  async clip(principal: Principal, streamId: string, q: { from: string; to: string }): Promise<Clip> {
    const { from, to } = this.range(q.from, q.to);
    await this.videoStream(principal, streamId);
    return this.clips.make(await this.segmentsOf(principal.tenantId, streamId, from, to), from, to);
  }

  /** An incident's window: from its start less the pre-roll to its last activity (or close) plus the post-roll. */
  incidentWindow(incident: Pick<IncidentRow, 'created_at' | 'last_activity_at' | 'closed_at'>): { from: number; to: number } {
    const start = Date.parse(incident.created_at);
    const end = Math.max(start, Number(incident.last_activity_at) || start);
    const from = start - this.deps.config.preRollMs;
    const to = Math.min(end + this.deps.config.postRollMs, from + this.deps.config.maxClipMs);
    return { from, to };
  }

  async loadIncident(principal: Principal, incidentId: string): Promise<IncidentRow> {
    const row = await findIncident(this.deps.database.db, principal.tenantId, incidentId);
    if (!row || (principal.locations && !principal.locations.includes(row.location))) throw notFound('incident', incidentId, 'id');
    return row;
  }

  async incidentClip(principal: Principal, incidentId: string): Promise<Clip> {
    const incident = await this.loadIncident(principal, incidentId);
    await this.videoStream(principal, incident.stream_id);
    const { from, to } = this.incidentWindow(incident);
    return this.clips.make(await this.segmentsOf(principal.tenantId, incident.stream_id, from, to), from, to);
  }

  async alertClip(principal: Principal, alertId: string): Promise<Clip> {
    const alert = await findAlert(this.deps.database.db, principal.tenantId, alertId);
    if (!alert || (principal.locations && !principal.locations.includes(alert.location))) throw notFound('alert', alertId, 'id');
    await this.videoStream(principal, alert.stream_id);
    const at = Number(alert.detected_at);
    const from = at - this.deps.config.preRollMs;
    const to = at + this.deps.config.postRollMs;
    return this.clips.make(await this.segmentsOf(principal.tenantId, alert.stream_id, from, to), from, to);
  }

  /**
   * An operator deletes a range of a stream's recording (e.g. a person asked to be forgotten):
   * the segments overlapping it, except those an incident or legal hold keeps. Audited.
   */
  async deleteRange(
    principal: Principal,
    actor: Actor,
    streamId: string,
    q: { from: string; to: string },
  ): Promise<{ stream_id: string; from: string; to: string; deleted: number; kept_held: number }> {
    const { from, to } = this.range(q.from, q.to);
    const stream = await this.videoStream(principal, streamId);
    const rows = await recordingRepository.overlapping(this.deps.database.db, principal.tenantId, streamId, from, to);
    const held = await this.heldIds(rows, toIso(this.deps.clock.now() - this.deps.config.holdDays * 86_400_000));
    const gone = rows.filter((r) => !held.has(r.id));
    await this.deps.database.withWriteLock(async (trx) => {
      await recordingRepository.deleteIds(
        trx,
        gone.map((r) => r.id),
      );
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'recording.range_deleted',
          resourceType: 'stream',
          resourceId: streamId,
          data: { from: toIso(from), to: toIso(to), deleted: gone.length, kept_held: held.size, segments: gone.map((r) => r.id) },
          scope: { location: stream.location, streamId },
        },
      ]);
    });
    for (const r of gone) rmSync(join(this.root, r.path), { force: true });
    return { stream_id: streamId, from: toIso(from), to: toIso(to), deleted: gone.length, kept_held: held.size };
  }

  /** A legal hold keeps the incident's segments past retention until released (plus VIGIL_RECORDINGS_HOLD_DAYS); audited. */
  async setHold(
    principal: Principal,
    actor: Actor,
    incidentId: string,
    body: { reason?: string },
  ): Promise<{ incident_id: string; held: boolean; reason: string | null; set_at: string }> {
    const incident = await this.loadIncident(principal, incidentId);
    const now = toIso(this.deps.clock.now());
    const reason = body.reason ?? null;
    await this.deps.database.withWriteLock(async (trx) => {
      await recordingRepository.setHold(trx, { incident_id: incident.id, tenant_id: principal.tenantId, reason, set_at: now, released_at: null });
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'incident.legal_hold_set',
          resourceType: 'incident',
          resourceId: incident.id,
          data: { reason },
          scope: { location: incident.location, streamId: incident.stream_id },
        },
      ]);
    });
    return { incident_id: incident.id, held: true, reason, set_at: now };
  }

  async releaseHold(
    principal: Principal,
    actor: Actor,
    incidentId: string,
  ): Promise<{ incident_id: string; held: boolean; reason: string | null; set_at: string }> {
    const incident = await this.loadIncident(principal, incidentId);
    const hold = await recordingRepository.hold(this.deps.database.db, principal.tenantId, incident.id);
    if (!hold || hold.released_at) throw notFound('legal hold on incident', incidentId, 'id');
    const now = toIso(this.deps.clock.now());
    await this.deps.database.withWriteLock(async (trx) => {
      await recordingRepository.setHold(trx, { ...hold, released_at: now });
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'incident.legal_hold_released',
          resourceType: 'incident',
          resourceId: incident.id,
          scope: { location: incident.location, streamId: incident.stream_id },
        },
      ]);
    });
    return { incident_id: incident.id, held: false, reason: hold.reason, set_at: hold.set_at };
  }

  /**
   * Retention, oldest first: segments older than VIGIL_RECORDINGS_DAYS, then the oldest while
   * the recordings exceed VIGIL_RECORDINGS_QUOTA_MB or the disk is below its minimum free space;
   * except segments an incident holds (open or acknowledged, under a legal hold, or closed or
   * released less than VIGIL_RECORDINGS_HOLD_DAYS ago, within its clip window). Returns how many went.
   */
  async applyRetention(): Promise<{ deleted: number; bytes: number }> {
    const { config } = this.deps;
    const db = this.deps.database.db;
    const now = this.deps.clock.now();
    this.clips.prune(now);
    const cutoff = now - config.days * 86_400_000;
    const closedAfter = toIso(now - config.holdDays * 86_400_000);
    let over = config.quotaBytes !== null ? (await recordingRepository.totalBytes(db)) - config.quotaBytes : 0;
    let lowDisk = this.diskShortfall();
    let deleted = 0;
    let freed = 0;
    let cursor: { end_at: number; id: string } | null = null;
    scan: for (;;) {
      const batch = await recordingRepository.oldestAfter(db, 200, cursor);
      if (batch.length === 0) break;
      cursor = batch[batch.length - 1];
      const held = await this.heldIds(batch, closedAfter);
      const gone: SegmentRow[] = [];
      let stop = false;
      for (const s of batch) {
        if (held.has(s.id)) continue;
        // oldest first: once a segment is young enough and nothing presses, so are the rest
        if (s.end_at >= cutoff && over <= 0 && lowDisk <= 0) {
          stop = true;
          break;
        }
        gone.push(s);
        over -= s.bytes;
        lowDisk -= s.bytes;
      }
      if (gone.length) {
        await this.deps.database.withWriteLock((trx) =>
          recordingRepository.deleteIds(
            trx,
            gone.map((s) => s.id),
          ),
        );
        for (const s of gone) rmSync(join(this.root, s.path), { force: true });
        deleted += gone.length;
        freed += gone.reduce((n, s) => n + s.bytes, 0);
      }
      if (stop) break scan;
    }
    if (deleted) this.deps.log?.info?.({ deleted, bytes: freed }, 'recordings retention: oldest segments deleted');
    return { deleted, bytes: freed };
  }

  private diskShortfall(): number {
    const free = SegmentRecorder.freeBytes(this.root);
    return free === null ? 0 : this.deps.config.minFreeBytes * 2 - free;
  }

  private async heldIds(segments: SegmentRow[], closedAfter: string): Promise<Set<string>> {
    const incidents = await recordingRepository.holdingIncidents(this.deps.database.db, [...new Set(segments.map((s) => s.stream_id))], closedAfter);
    const held = new Set<string>();
    for (const s of segments) {
      for (const i of incidents) {
        if (i.stream_id !== s.stream_id) continue;
        const w = this.incidentWindow(i);
        if (s.start_at < w.to && s.end_at > w.from) held.add(s.id);
      }
    }
    return held;
  }
}
