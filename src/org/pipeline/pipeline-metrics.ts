import type { VigilMetrics } from '../../platform/metrics/index.ts';
import type { DetectionPipeline } from './detection-pipeline.ts';

/**
 * Counts detections once they are durable and times each ingest call from entering the pipeline
 * to being durable (vigil_detections_total, vigil_pipeline_latency_seconds). It observes the
 * pipeline's commits from outside, once per commit (DetectionPipeline.observeCommits), so the
 * group-commit code itself carries no instrumentation and an ingest call no promise of its own for
 * it (docs/decisions.md, "Pipeline CPU, third pass").
 */
export function measurePipeline(pipeline: DetectionPipeline, metrics: VigilMetrics): DetectionPipeline {
  pipeline.observeCommits((batch) => metrics.detectionsCommitted(batch, performance.now()));
  return pipeline;
}
