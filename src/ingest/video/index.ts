// The module's public face: what other modules may import (docs/architecture.md).
export { FramePipeline } from './frame-pipeline.ts';
export { PpmFrameParser } from './ppm-frame-parser.ts';
export { type IngestStats, type RgbFrame, type StreamStatus } from './video.types.ts';

/** The real-video ingest pipeline: what the stream service uses. */
export { validateSourceUrl, redactCredentials, type SourceUrlCheck } from './source-url.ts';
export {
  startVideoIngest,
  createMobileIngest,
  type IngestOptions,
  type VideoIngestOptions,
  type IngestHandle,
  type CameraIngestHandle,
  type MobileIngestHandle,
} from './video-ingest.ts';
export {
  checkDetectorModel,
  createDetectorPool,
  type Detector,
  type DetectorPool,
  type DetectorPoolOptions,
  type DetectorPoolStats,
  type DetectorRuntime,
  type DetectOptions,
  DetectorOverloadedError,
} from './detector-pool.ts';
export { DetectorModelError, DETECTOR_LABEL_CLASSES, type DetectorModel } from './models/detector-model.ts';
export { VideoInputError } from './video.errors.ts';
export { MAX_JPEG_BYTES } from './jpeg-codec.ts';
export { describePolygonProblems } from './geometry.ts';
export { planRegions, type Region, type RegionOptions, type RegionPlan, type PixelBox } from './regions.ts';
export { resolveFfmpegPath } from './ffmpeg-path.ts';
export type { CameraRecorder, RecordingSession } from './recording-output.ts';
export type * from './video.types.ts';
