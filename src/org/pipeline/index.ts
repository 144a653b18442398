// The module's public face: what other modules may import (docs/architecture.md).

import { defineServiceModule, LOG, token } from '../../platform/lib/index.ts';
import { CLOCK } from '../../platform/time/index.ts';
import { DATABASE } from '../../platform/db/index.ts';
import { CONFIG } from '../../platform/config/index.ts';
import { AUDIT } from '../../platform/audit/index.ts';
import { SCENE_ENGINE } from '../scenes/index.ts';
import { METRICS } from '../../platform/metrics/index.ts';
import { measurePipeline } from './pipeline-metrics.ts';
import { CLUSTER_LEASES } from '../../platform/coordination/index.ts';
import { DetectionPipeline as DetectionPipelineT, type IngestGate as IngestGateT } from './detection-pipeline.ts';
export { DetectionPipeline, type IngestGate, type PipelineHook, type StreamRef, type WithheldReason } from './detection-pipeline.ts';

export const PIPELINE = token<DetectionPipelineT>('pipeline');
/** port: what may be ingested at all (the household directory provides it) */
export const INGEST_GATE = token<IngestGateT>('ingestGate');

export const pipelineServices = defineServiceModule({
  name: 'pipeline',
  provide: (c) =>
    c.provide(PIPELINE, (c) =>
      measurePipeline(
        new DetectionPipelineT({
          database: c.get(DATABASE),
          clock: c.get(CLOCK),
          audit: c.get(AUDIT),
          scenes: c.get(SCENE_ENGINE),
          onError: (err) => c.get(LOG)?.error({ err }, 'detection pipeline write failed'),
          fence: c.get(CLUSTER_LEASES),
          sharedAnomalies: c.get(CONFIG).cluster,
        }),
        c.get(METRICS),
      ),
    ),
});
