import type { DetectionInput } from '../src/platform/kinds/index.ts';
import type { StreamRef } from '../src/org/pipeline/detection-pipeline.ts';
import type { VigilContext } from '../src/context.ts';

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

/**
 * A benchmark organization with `streams` stream refs spread over one scene per ten streams (the
 * pipeline takes refs; no stream rows are needed). Returns the refs, in stream order.
 */
export async function benchStreams(ctx: VigilContext, streams: number): Promise<StreamRef[]> {
  const key = await ctx.keys.createKey({ tenantKind: 'organization', tenantName: 'Bench', mode: 'live' });
  const refs: StreamRef[] = [];
  const locations = Math.max(1, Math.floor(streams / 10));
  await ctx.database.withWriteLock(async (trx) => {
    for (let i = 0; i < streams; i++) {
      const scene = await ctx.scenes.ensureScene(trx, key.tenant_id, `zone_${i % locations}`);
      refs.push({ id: `stream_bench_${i}`, tenant_id: key.tenant_id, scene_id: scene.id, location: scene.location });
    }
  });
  return refs;
}
