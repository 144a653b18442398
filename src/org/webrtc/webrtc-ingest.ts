import { metrics } from '../../platform/metrics/index.ts';
import { systemClock } from '../../platform/time/index.ts';
import {
  FramePipeline,
  type IngestHandle,
  type IngestOptions,
  type IngestStats,
  type RecordingSession,
  type RgbFrame,
  type StreamStatus,
} from '../../ingest/video/index.ts';
import type { WebRtcVideoCodec } from './rtp-frame-assembler.ts';

/**
 * A webrtc stream's side of the video ingest: the same frame pipeline as an RTSP camera (motion
 * gate, detector, tracker, zones, snapshots), fed by whichever WHIP session publishes to the
 * stream at the moment. Sessions come and go; the stream's status follows them:
 * `connecting` until the first publish, `live` while decoded frames arrive, `reconnecting` while
 * the publisher's network is interrupted, `offline` once the publisher is gone.
 */
export interface WebRtcIngestHandle extends IngestHandle {
  /** a decoded frame of the current publisher */
  pushFrame(frame: RgbFrame): void;
  /** the publisher's connection is interrupted (ICE disconnected) and may come back */
  interrupted(reason: string): void;
  /** the publisher is gone (DELETE, ICE failed, no media); a new publish brings the stream back */
  publisherLeft(reason: string): void;
  /** a recording for the publisher's decoder (org/recordings), or null when not recorded */
  openRecording(codec: WebRtcVideoCodec): RecordingSession | null;
  /** the current publisher's session gave up recording and decodes on without it */
  recordingStopped(reason: string): void;
  /** called when the ingest stops (stream deleted or restarted): its publisher is disconnected; returns the unsubscribe */
  onStop(cb: () => Promise<void> | void): () => void;
}

/** A webrtc stream nobody publishes to for this long after it starts is `offline`, saying why (docs/decisions.md, "Streams that never connect"). */
export const WEBRTC_CONNECT_DEADLINE_MS = 60_000;

export function createWebRtcIngest(
  o: IngestOptions & {
    initialStatus?: StreamStatus;
    connectDeadlineMs?: number;
    recorder?: { openSync(codec: WebRtcVideoCodec): RecordingSession | null; stopped?(reason: string): void };
  },
): WebRtcIngestHandle {
  const clock = o.clock ?? systemClock;
  const pipeline = new FramePipeline({ ...o, clock });
  let status: StreamStatus = o.initialStatus ?? 'connecting';
  const deadlineMs = o.connectDeadlineMs ?? WEBRTC_CONNECT_DEADLINE_MS;
  // after a restart a stream that had a publisher waits for it to publish again: say so
  let error: string | null = status === 'offline' ? 'no publisher since the server restarted: it comes back when the phone or browser publishes again' : null;
  let reconnects = 0;
  let stopped = false;
  const stopHooks = new Set<() => Promise<void> | void>();
  const stats = (): IngestStats => ({
    status,
    last_frame_at: pipeline.lastFrameAt,
    fps_in: pipeline.fpsIn.rate(),
    detector_fps: pipeline.detectorFps.rate(),
    error: error ?? pipeline.error,
    ...pipeline.counters,
    reconnects,
    retry_at: null,
  });
  const setStatus = (next: StreamStatus, why: string | null) => {
    if (stopped) return;
    error = why;
    if (next === status) return;
    if (status === 'live' && next !== 'live') {
      reconnects++;
      metrics().streamReconnects.inc();
    }
    status = next;
    o.onStatus(status, stats());
  };
  o.onStatus(status, stats());
  let deadline: unknown =
    status === 'connecting'
      ? clock.setTimeout(() => {
          deadline = null;
          if (status === 'connecting') {
            setStatus(
              'offline',
              `no publisher within ${Math.round(deadlineMs / 1000)} s: open the stream's publish link on the phone or browser, or POST an SDP offer to its WHIP URL with its publish token`,
            );
          }
        }, deadlineMs)
      : null;
  return {
    stats,
    setZones: (z) => pipeline.setZones(z),
    setMotionMasks: (m) => pipeline.setMotionMasks(m),
    pushFrame(frame) {
      if (stopped) return;
      if (status !== 'live') setStatus('live', null);
      pipeline.offer(frame, clock.now());
    },
    openRecording(codec) {
      return stopped ? null : (o.recorder?.openSync(codec) ?? null);
    },
    recordingStopped(reason) {
      if (!stopped) o.recorder?.stopped?.(reason);
    },
    interrupted(reason) {
      if (status === 'live') setStatus('reconnecting', reason);
    },
    publisherLeft(reason) {
      setStatus('offline', reason);
    },
    onStop(cb) {
      stopHooks.add(cb);
      return () => stopHooks.delete(cb);
    },
    async stop() {
      stopped = true;
      if (deadline !== null) clock.clearTimeout(deadline);
      await Promise.allSettled([...stopHooks].map((cb) => cb()));
      await pipeline.stop();
    },
  };
}
