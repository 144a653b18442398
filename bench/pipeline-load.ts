import type { DetectionInput } from '../src/platform/kinds/index.ts';

/**
 * The detection the pipeline benches send from stream `i` at round `n`: a third are person
 * sightings, one in `anomalyEvery` of those an unrecognized person (an anomaly: incident + webhook
 * outbox row; 0 = none), the rest people counts. The phase differs per stream so anomalies are
 * spread out in time rather than arriving from all streams in the same millisecond.
 */
export function benchDetection(i: number, n: number, anomalyEvery: number): DetectionInput {
  const k = n + i;
  return k % 3 === 0
    ? {
        type: 'person',
        subtype: anomalyEvery > 0 && k % (3 * anomalyEvery) === 0 ? 'unrecognized' : null,
        confidence: 0.9,
        at: Date.now(),
        track_id: `t${i}_${n}`,
      }
    : { type: 'person_count', value: k % 17, confidence: 0.9, at: Date.now() };
}
