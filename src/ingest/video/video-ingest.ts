import { systemClock, type Clock } from '../../platform/time/index.ts';
import type { Detector } from './detector-pool.ts';
import { FfmpegFrameSource, type FfmpegFrameSourceOptions } from './ffmpeg-frame-source.ts';
import { FramePipeline, type FramePipelineOptions } from './frame-pipeline.ts';
import { decodeJpegFrame } from './jpeg-codec.ts';
import type { IngestStats, Polygon, StreamStatus, Zone } from './video.types.ts';

/** Pipeline settings (zones, masks, gate, thresholds, onDetections) plus the stream's identity. */
export interface IngestOptions extends Omit<FramePipelineOptions, 'clock'> {
  streamId: string;
  /** usually the process-wide DetectorPool */
  detector: Detector;
  clock?: Clock;
  /** default 640: frames are scaled to this width (aspect kept, never enlarged) */
  detectWidth?: number;
  /** every status change, with the stats at that moment (for stream.status_changed) */
  onStatus(status: StreamStatus, stats: IngestStats): void;
}

/** A pulled source: sourceUrl (check it with validateSourceUrl first), rate, supervision timers. */
export interface VideoIngestOptions extends IngestOptions, Omit<FfmpegFrameSourceOptions, 'clock' | 'onFrame' | 'onStatus'> {}

export interface IngestHandle {
  stats(): IngestStats;
  /** zones and motion masks can change while the stream runs */
  setZones(zones: Zone[]): void;
  setMotionMasks(masks: Polygon[]): void;
  stop(): Promise<void>;
}

/** A camera's ingest, with what the detector was spared (not part of the stream resource). */
export interface CameraIngestHandle extends IngestHandle {
  /** frames the tracker carried without a detector run; detector runs on motion regions */
  pipelineStats(): { frames_carried: number; frames_on_regions: number };
}

export interface MobileIngestHandle extends IngestHandle {
  /**
   * One phone frame (JPEG, ≤ 2 MiB). Resolves once the frame went through the pipeline;
   * throws VideoInputError (invalid_image, payload_too_large) for bad input.
   */
  pushJpeg(jpeg: Buffer): Promise<{ detected: boolean }>;
}

/** Starts decoding a camera and interpreting its frames; the source is supervised until stop(). */
export function startVideoIngest(o: VideoIngestOptions): CameraIngestHandle {
  const clock = o.clock ?? systemClock;
  const pipeline = createPipeline(o, clock);
  let stopped = false;
  const source = new FfmpegFrameSource({
    ...o,
    clock,
    onFrame: (frame, at) => void pipeline.offer(frame, at),
    onStatus: (status) => {
      if (!stopped) o.onStatus(status, stats());
    },
  });
  const stats = (): IngestStats => collectStats(source, pipeline);
  source.start();
  return {
    stats,
    pipelineStats: () => ({ frames_carried: pipeline.framesCarried, frames_on_regions: pipeline.framesOnRegions }),
    setZones: (z) => pipeline.setZones(z),
    setMotionMasks: (m) => pipeline.setMotionMasks(m),
    async stop() {
      stopped = true;
      await source.stop();
      await pipeline.stop();
    },
  };
}

/** A phone stream that has sent no frame this long after it started is `offline`, saying why. */
export const MOBILE_CONNECT_DEADLINE_MS = 60_000;

/**
 * A phone stream: frames are pushed, not pulled. `live` while frames arrive, `offline` after
 * silenceMs without one once the last was handled (default 30 s); `connecting` until the first frame.
 */
export function createMobileIngest(o: IngestOptions & { silenceMs?: number; connectDeadlineMs?: number }): MobileIngestHandle {
  const clock = o.clock ?? systemClock;
  const silenceMs = o.silenceMs ?? 30_000;
  const deadlineMs = o.connectDeadlineMs ?? MOBILE_CONNECT_DEADLINE_MS;
  // phones send sparse frames: count an object from its first sighting. Their whole frames are
  // squeezed to 512×512 as Human does (only cameras keep the aspect, src/ingest/video/regions.ts): the class
  // thresholds were measured that way on phone photos (a dog at 0.42 there scores 0.39 with the aspect
  // kept), and a phone's sparse frames gain little from the cheaper input
  const pipeline = createPipeline({ wholeFrame: 'square', ...o, tracker: { minHits: 1, ...o.tracker } }, clock);
  let status: StreamStatus = 'connecting';
  let error: string | null = null;
  let silenceTimer: unknown = null;
  let stopped = false;
  const stats = (): IngestStats => collectStats({ status, error, reconnects: 0, retryAt: null }, pipeline);
  const setStatus = (next: StreamStatus, why: string | null = null) => {
    if (next === status || stopped) return;
    status = next;
    error = why;
    o.onStatus(status, stats());
  };
  o.onStatus(status, stats());
  // a phone that never sends a frame does not stay `connecting` (docs/decisions.md, "Streams that never connect")
  let deadline: unknown = clock.setTimeout(() => {
    deadline = null;
    if (status === 'connecting')
      setStatus('offline', `no frame within ${Math.round(deadlineMs / 1000)} s: the phone should POST JPEG frames to /v1/streams/{id}/frames`);
  }, deadlineMs);
  return {
    stats,
    setZones: (z) => pipeline.setZones(z),
    setMotionMasks: (m) => pipeline.setMotionMasks(m),
    async pushJpeg(jpeg) {
      if (stopped) throw new Error('mobile ingest is stopped');
      // a frame arrived: the phone has connected, whatever decoding it makes of it
      if (deadline !== null) clock.clearTimeout(deadline);
      deadline = null;
      const frame = await decodeJpegFrame(jpeg, o.detectWidth ?? 640);
      // silence counts from when a frame was last handled: a phone is not offline while the
      // detector is still working on the frame it sent (a cold model or a busy machine takes seconds)
      if (silenceTimer !== null) clock.clearTimeout(silenceTimer);
      silenceTimer = null;
      setStatus('live');
      try {
        const outcome = await pipeline.process(frame, clock.now());
        return { detected: outcome === 'detecting' };
      } finally {
        if (!stopped) {
          if (silenceTimer !== null) clock.clearTimeout(silenceTimer);
          silenceTimer = clock.setTimeout(() => {
            silenceTimer = null;
            setStatus('offline', `no frame for ${Math.round(silenceMs / 1000)} s`);
          }, silenceMs);
        }
      }
    },
    async stop() {
      stopped = true;
      if (silenceTimer !== null) clock.clearTimeout(silenceTimer);
      if (deadline !== null) clock.clearTimeout(deadline);
      await pipeline.stop();
    },
  };
}

function createPipeline(o: IngestOptions, clock: Clock): FramePipeline {
  return new FramePipeline({ ...o, clock });
}

interface SourceState {
  status: StreamStatus;
  error: string | null;
  reconnects: number;
  retryAt: number | null;
}

function collectStats(source: SourceState, p: FramePipeline): IngestStats {
  return {
    status: source.status,
    last_frame_at: p.lastFrameAt,
    fps_in: p.fpsIn.rate(),
    detector_fps: p.detectorFps.rate(),
    error: source.error ?? p.error,
    ...p.counters,
    reconnects: source.reconnects,
    retry_at: source.retryAt,
  };
}
