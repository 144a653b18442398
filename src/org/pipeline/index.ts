// The module's public face: what other modules may import (docs/architecture.md).
export { DetectionPipeline, type IngestGate, type PipelineHook, type StreamRef, type WithheldReason } from './detection-pipeline.ts';
