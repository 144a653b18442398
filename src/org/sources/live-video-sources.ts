import { metrics } from '../../platform/metrics/index.ts';
import { type FrameOutcome, type StreamVideoConfig, type StreamRow, parseStreamConfig } from '../streams/index.ts';
import type { DatabaseHandle, DbExecutor } from '../../platform/db/index.ts';
import type { DetectionRecord, SnapshotService } from '../detections/index.ts';
import { type AuditService } from '../../platform/audit/index.ts';
import type { Clock } from '../../platform/time/index.ts';
import { FencedWriteError, type FenceClaim } from '../../platform/coordination/index.ts';
import { VigilError } from '../../platform/lib/index.ts';
import type { DetectionPipeline, StreamRef } from '../pipeline/index.ts';
import type { DetectorModelConfig } from '../../platform/config/index.ts';
import {
  checkDetectorModel,
  createDetectorPool,
  createMobileIngest,
  startVideoIngest,
  VideoInputError,
  type Detector,
  type DetectorPool,
  type DetectorRuntime,
  type IngestHandle,
  type IngestStats,
  type MobileIngestHandle,
  type StreamStatus,
  type TrackFaces,
  type VideoDetection,
  type VideoIngestOptions,
  type CameraRecorder,
  type RecordingSession,
} from '../../ingest/video/index.ts';
import { createWebRtcIngest, type WebRtcIngestHandle } from '../webrtc/index.ts';
import { writeStreamStatus } from './stream-status.ts';

/** Knobs of the real-video ingest; the defaults suit real cameras, tests shorten the timers. */
export interface LiveVideoTuning {
  /** ffmpeg supervision of pulled sources (rtsp, http): rates, sizes, reconnect timers */
  camera?: Pick<VideoIngestOptions, 'detectFps' | 'detectWidth' | 'backoff' | 'offlineAfterMs' | 'connectTimeoutMs' | 'stallTimeoutMs' | 'rtspTransport'>;
  /** a phone is offline after this long without a frame; default 30 s */
  mobileSilenceMs?: number;
  /** a phone or WHIP stream with no first frame (publisher) this long after it starts is offline, saying why; default 60 s */
  connectDeadlineMs?: number;
  /** detector worker threads (one model and one core each); default one per core on ONNX Runtime, one on the tfjs fallback */
  detectorWorkers?: number;
  /** WHIP session health timers; tests shorten them */
  whip?: { connectTimeoutMs?: number; mediaTimeoutMs?: number; disconnectedGraceMs?: number };
}

export interface LiveVideoDeps {
  database: DatabaseHandle;
  clock: Clock;
  audit: AuditService;
  pipeline: DetectionPipeline;
  snapshots: SnapshotService;
  /** the transactional outbox (src/platform/outbox): stream.status_changed events */
  webhooks: { enqueueIn(trx: DbExecutor, event: { tenantId: string; kind: string; payload: Record<string, unknown> }): Promise<unknown> };
  tuning?: LiveVideoTuning;
  /** live face recognition of a stream's tracked people (a port org/people implements) */
  faces?: LiveFaceRecognition;
  log?: { warn(obj: unknown, msg?: string): void; info?(obj: unknown, msg?: string): void };
  /**
   * cluster mode: refuses a status write whose stream lease moved on, as for detections
   * (platform/coordination SqlLeaseStore; docs/deployment.md, "What happens when something fails")
   */
  fence?: { assertHeld(trx: DbExecutor, claims: readonly FenceClaim[]): Promise<void> } | null;
  /** the detection model (VIGIL_DETECTOR_*); default the shipped CenterNet */
  detectorModel?: DetectorModelConfig;
  /** the module loaded as ONNX Runtime; tests name a missing one to see the fallback */
  ortModule?: string;
  /** records real streams (org/recordings); absent: decode only */
  recording?: StreamRecording | null;
}

/**
 * Recording of real streams (a port org/recordings implements; docs/decisions.md, "Recordings: a
 * second output of the decoding ffmpeg"): a camera's and a WHIP publisher's recorder add a second
 * output to the ffmpeg that decodes; a phone's frames are kept as stills. Undefined: not recorded.
 */
export interface StreamRecording {
  camera(ref: StreamRef, opts: { rtspTransport?: 'tcp' | 'udp' }): CameraRecorder | undefined;
  whip(ref: StreamRef): WhipRecorder | undefined;
  still(ref: StreamRef, jpeg: Buffer, at: number): Promise<void>;
}

/** A WHIP publisher's recorder: a second output for each decoder, and the word that its session stopped recording. */
export interface WhipRecorder {
  openSync(codec: 'VP8' | 'H264'): RecordingSession | null;
  /** the session decodes on without recording (its decoders kept ending while recording); made visible to operators */
  stopped?(reason: string): void;
}

/** Live face recognition: one TrackFaces per running stream, for its tenant. */
export interface LiveFaceRecognition {
  forStream(stream: StreamRef): TrackFaces;
  /** ids of the tenant's people with an enrolled face, from a cache (null while it loads) */
  enrolledPeopleNow(tenantId: string): readonly string[] | null;
}

interface LiveEntry {
  ref: StreamRef;
  handle: IngestHandle | null;
  mobile: MobileIngestHandle | null;
  /** a webrtc stream: frames come from its WHIP publisher */
  webrtc: WebRtcIngestHandle | null;
  /** status writes of this stream, in the order the ingest reported them */
  writes: Promise<void>;
  /** phone frames of this stream, one at a time, so each push collects its own detections */
  pushes: Promise<unknown>;
  /** while a phone frame is processed: the pipeline writes of the detections it produced */
  collecting: Array<Promise<DetectionRecord[]>> | null;
  /** pipeline + snapshot writes still running (awaited at shutdown) */
  inFlight: Set<Promise<unknown>>;
}

/**
 * The real sources: rtsp/http cameras decoded by a supervised ffmpeg, and phones
 * pushing JPEG frames, both interpreted by one process-wide detector pool. Each stream's status
 * changes are written to its row with a `stream.status_changed` webhook event and an audit entry
 * in the same transaction; its detections go through the same DetectionPipeline as the sandbox's,
 * with the frame's JPEG kept as the detections' snapshot.
 */
export class LiveVideoSources {
  private entries = new Map<string, LiveEntry>();
  private stopping = new Set<Promise<void>>();
  private pool: Promise<DetectorPool> | null = null;
  private closed = false;
  /** every stream shares the pool; it is loaded (~1 s) when the first real stream starts */
  private readonly detector: Detector = { detect: (frame, regions, options) => this.loadPool().then((p) => p.detect(frame, regions, options)) };

  private runtime: DetectorRuntime | null = null;

  constructor(private readonly deps: LiveVideoDeps) {}

  /**
   * Checks the detection model before anything runs (the server refuses to start on a model that
   * cannot serve, naming the setting) and settles the runtime: ONNX Runtime, or tfjs-wasm when
   * its native library cannot load, said in the log and /readyz. See docs/decisions.md,
   * 'Detection models as plugins'.
   */
  async checkDetector(): Promise<DetectorRuntime> {
    const config = this.deps.detectorModel ?? { file: null, decoder: null, input: null, labels: null };
    const model = await checkDetectorModel(config, this.deps.ortModule);
    this.runtime = model
      ? { runtime: 'onnxruntime', model: `${model.decoder} ${model.shipped ? 'models/centernet.onnx' : model.file}`, fallback_reason: null }
      : { runtime: 'tfjs-wasm', model: 'centernet @vladmandic/human models/centernet.json', fallback_reason: 'ONNX Runtime cannot load on this machine' };
    if (this.runtime.fallback_reason) this.deps.log?.warn({ detector: this.runtime }, 'object detection falls back to tfjs-wasm: ONNX Runtime cannot load');
    else this.deps.log?.info?.({ detector: this.runtime }, 'object detection on ONNX Runtime');
    return this.runtime;
  }

  /** The detector's runtime as checked at start (null before checkDetector, or on a node that runs no streams). */
  detectorRuntime(): DetectorRuntime | null {
    return this.runtime;
  }

  isRunning(streamId: string): boolean {
    return this.entries.has(streamId);
  }

  /** `lease`: cluster mode, the claim its detections are fenced by */
  start(row: StreamRow, lease?: StreamRef['lease']): void {
    if (this.closed) return;
    this.stop(row.id);
    const cfg = parseStreamConfig(row.config);
    const entry: LiveEntry = {
      ref: { id: row.id, tenant_id: row.tenant_id, scene_id: row.scene_id, location: row.location, lease },
      handle: null,
      mobile: null,
      webrtc: null,
      writes: Promise.resolve(),
      pushes: Promise.resolve(),
      collecting: null,
      inFlight: new Set(),
    };
    this.entries.set(row.id, entry);
    void this.loadPool().catch(() => {
      /* reported on the stream as a detector error */
    });
    const common = {
      streamId: row.id,
      detector: this.detector,
      clock: this.deps.clock,
      zones: cfg.zones,
      motionMasks: cfg.motion_masks,
      onStatus: (status: StreamStatus, stats: IngestStats) => this.recordStatus(entry, status, stats),
      onDetections: (batch: VideoDetection[]) => this.recordDetections(entry, batch),
      faces: this.deps.faces?.forStream(entry.ref),
    };
    if (row.source_type === 'mobile') {
      entry.mobile = createMobileIngest({ ...common, silenceMs: this.deps.tuning?.mobileSilenceMs, connectDeadlineMs: this.deps.tuning?.connectDeadlineMs });
      entry.handle = entry.mobile;
    } else if (row.source_type === 'webrtc') {
      // waits for a WHIP publisher; after a restart a stream that had one is offline until it publishes again
      entry.webrtc = createWebRtcIngest({
        ...common,
        initialStatus: row.status === 'connecting' ? 'connecting' : 'offline',
        connectDeadlineMs: this.deps.tuning?.connectDeadlineMs,
        recorder: this.deps.recording?.whip(entry.ref),
      });
      entry.handle = entry.webrtc;
    } else {
      const recorder = this.deps.recording?.camera(entry.ref, { rtspTransport: this.deps.tuning?.camera?.rtspTransport });
      entry.handle = startVideoIngest({ ...common, ...this.deps.tuning?.camera, sourceUrl: row.source_url, ...(recorder ? { recorder } : {}) });
    }
  }

  /** Stops a stream's ingest (its ffmpeg ends in the background); no status is written after this. */
  stop(streamId: string): void {
    const entry = this.entries.get(streamId);
    if (!entry) return;
    this.entries.delete(streamId);
    metrics().streamStatus(streamId, null);
    const done: Promise<void> = (async () => {
      await entry.handle?.stop();
      await Promise.allSettled([entry.writes, ...entry.inFlight]);
    })().catch((err: unknown) => this.deps.log?.warn({ err, stream_id: streamId }, 'stopping video ingest failed'));
    this.stopping.add(done);
    void done.finally(() => this.stopping.delete(done));
  }

  /** The ingest of a running webrtc stream, which its WHIP publisher feeds. */
  webrtcIngest(streamId: string): WebRtcIngestHandle | null {
    return this.entries.get(streamId)?.webrtc ?? null;
  }

  /** Live figures of a running stream (status, last frame, fps in, detector fps, error), else null. */
  stats(streamId: string): IngestStats | null {
    return this.entries.get(streamId)?.handle?.stats() ?? null;
  }

  /** New zones and motion masks take effect on the next frame, without reconnecting. */
  reconfigure(streamId: string, cfg: StreamVideoConfig): void {
    const handle = this.entries.get(streamId)?.handle;
    handle?.setZones(cfg.zones);
    handle?.setMotionMasks(cfg.motion_masks);
  }

  /** One phone frame through the pipeline; resolves once its detections are stored. */
  pushFrame(streamId: string, jpeg: Buffer): Promise<FrameOutcome> {
    const entry = this.entries.get(streamId);
    if (!entry?.mobile) {
      throw new VigilError('service_unavailable', 'This server does not run video ingest (VIGIL_RUN_SOURCES=0), so it cannot take frames.');
    }
    const mobile = entry.mobile;
    const run = entry.pushes.then(async () => {
      const writes: Array<Promise<DetectionRecord[]>> = [];
      // detections of this frame are emitted while pushJpeg runs
      entry.collecting = writes;
      let detected: boolean;
      try {
        ({ detected } = await mobile.pushJpeg(jpeg));
      } catch (err) {
        if (err instanceof VideoInputError) throw new VigilError(err.code, err.message, { param: 'body' });
        throw err;
      } finally {
        entry.collecting = null;
      }
      const detections = (await Promise.all(writes)).flat();
      // a decodable frame is kept as a still of the phone's recording; never fails the frame
      const kept = this.deps.recording
        ?.still(entry.ref, jpeg, this.deps.clock.now())
        .catch((err: unknown) => this.deps.log?.warn({ err, stream_id: streamId }, 'phone still not recorded'));
      if (kept) {
        entry.inFlight.add(kept);
        void kept.finally(() => entry.inFlight.delete(kept));
      }
      return { status: mobile.stats().status, detected, detections };
    });
    entry.pushes = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const id of [...this.entries.keys()]) this.stop(id);
    await Promise.allSettled([...this.stopping]);
    const pool = this.pool;
    this.pool = null;
    if (pool)
      await pool.then(
        (p) => p.close(),
        () => undefined,
      );
  }

  private loadPool(): Promise<DetectorPool> {
    if (this.closed) return Promise.reject(new Error('video ingest is shut down'));
    this.pool ??= createDetectorPool({
      workers: this.deps.tuning?.detectorWorkers,
      model: this.deps.detectorModel,
      ortModule: this.deps.ortModule,
      onFallback: (reason) => this.deps.log?.warn({ reason }, 'object detection falls back to tfjs-wasm'),
    }).then((pool) => {
      this.runtime = pool.runtime;
      return pool;
    });
    return this.pool;
  }

  private recordStatus(entry: LiveEntry, status: StreamStatus, stats: IngestStats): void {
    if (this.entries.get(entry.ref.id) === entry) metrics().streamStatus(entry.ref.id, status);
    entry.writes = entry.writes
      .then(() => this.persistStatus(entry.ref, status, stats))
      .catch((err: unknown) => {
        // a node that lost the stream's lease (paused, cut off) leaves the status to the new owner
        if (err instanceof FencedWriteError)
          this.deps.log?.warn({ stream_id: entry.ref.id, status }, "stream status not written: this node no longer holds the stream's lease");
        else this.deps.log?.warn({ err, stream_id: entry.ref.id }, 'stream status write failed');
      });
  }

  /** The status row, event and audit entry in one transaction (see stream-status.ts). */
  private async persistStatus(ref: StreamRef, status: StreamStatus, stats: IngestStats): Promise<void> {
    await writeStreamStatus(this.deps, ref, status, { error: stats.error, lastAt: stats.last_frame_at });
  }

  /** Detections with their boxes (the snapshot stays here), then the frame's JPEG for the new det_ ids. */
  private recordDetections(entry: LiveEntry, batch: VideoDetection[]): void {
    const inputs = batch.map(({ snapshot: _snapshot, ...d }) => d);
    const snapshots = batch.map((d) => d.snapshot);
    const written = this.deps.pipeline.ingest(entry.ref, inputs).then(async (records) => {
      await this.deps.snapshots.storeFor(records, snapshots);
      return records;
    });
    entry.collecting?.push(written);
    const settled = written.catch((err: unknown) => this.deps.log?.warn({ err, stream_id: entry.ref.id }, 'video detections write failed'));
    entry.inFlight.add(settled);
    void settled.finally(() => entry.inFlight.delete(settled));
  }
}
