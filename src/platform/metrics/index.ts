import { token } from '../lib/index.ts';
import type { VigilMetrics as VigilMetricsT } from './metrics.ts';
// The module's public face: what other modules may import (docs/architecture.md).
export { VigilMetrics, metrics } from './metrics.ts';

/** The process's metrics; the same object metrics() returns. */
export const METRICS = token<VigilMetricsT>('metrics');
export { DrainState, Readiness, type CheckState, type ReadinessReport } from './readiness.ts';
