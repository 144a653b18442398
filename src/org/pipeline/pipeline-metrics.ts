import type { VigilMetrics } from '../../platform/metrics/index.ts';
import type { DetectionPipeline } from './detection-pipeline.ts';

/**
 * Counts detections once they are durable and times each batch from entering the pipeline to
 * being durable (vigil_detections_total, vigil_pipeline_latency_seconds). It wraps `ingest` from
 * outside so the group-commit code itself carries no instrumentation.
 */
export function measurePipeline(pipeline: DetectionPipeline, metrics: VigilMetrics): DetectionPipeline {
  const ingest = pipeline.ingest.bind(pipeline);
  pipeline.ingest = (stream, inputs) => {
    const started = performance.now();
    return ingest(stream, inputs).then((records) => {
      if (records.length > 0) metrics.detectionsCommitted(records, (performance.now() - started) / 1000);
      return records;
    });
  };
  return pipeline;
}
