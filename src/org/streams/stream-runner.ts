import type { DetectionRecord } from '../detections/index.ts';
import type { IngestStats, StreamStatus } from '../../ingest/video/index.ts';
import type { StreamVideoConfig } from './stream-config.ts';
import type { StreamRow } from './stream.repository.ts';
import type { FrameFace, SensorLiveView } from './stream.schemas.ts';

/** What a phone frame (POST /v1/streams/{id}/frames) came to. */
export interface FrameOutcome {
  status: StreamStatus;
  /** false when the motion gate or a busy detector skipped the frame */
  detected: boolean;
  detections: DetectionRecord[];
}

/**
 * What runs a stream's source (sandbox generator, camera, WebRTC publisher): the ingest layer
 * implements it (org/sources SourceManager) and the composition root hands it to StreamService,
 * so streams never import ingest code.
 */
export interface StreamRunner {
  /**
   * `lease`: in cluster mode, the claim the stream runs under; its detections are written only
   * while that lease is current (fencing).
   */
  start(row: StreamRow, opts?: { timeZone?: string; since?: number; lease?: { nodeId: string; epoch: number } }): void;
  stop(streamId: string): void;
  liveStats(streamId: string): IngestStats | null;
  /** an mqtt stream running in this process: the device's last state and the messages dropped, else null */
  sensorState?(streamId: string): SensorLiveView | null;
  reconfigure(streamId: string, cfg: StreamVideoConfig): void;
  /** `forwarded`: the frame came from another node of the cluster, which found this one the owner */
  pushFrame(streamId: string, jpeg: Buffer, opts?: { forwarded?: boolean }): Promise<FrameOutcome>;
}

/**
 * Face recognition on a phone frame: the people module implements it. Answers null
 * when the organization has not turned face recognition on: nothing is computed then.
 */
export interface FrameFaceRecognizer {
  recognizeFrame(tenantId: string, jpeg: Buffer): Promise<FrameFace[] | null>;
}
