import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/platform/config/config.ts';
import { createContext } from '../src/context.ts';
import type { StreamRef } from '../src/org/pipeline/detection-pipeline.ts';
import type { DetectionInput } from '../src/org/detections/detection.ts';

/**
 * Detection pipeline latency (issue 2 §6): N streams each producing 10 detections/s; latency is
 * from "detection produced" (pipeline.ingest called) to "scene updated and history row + audit
 * entry durable" (the ingest promise resolves after commit). Real SQLite (WAL) in a temp dir.
 */
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 6000);
const WARMUP_MS = 1000;
const RATE_PER_STREAM = 10;
/** one person sighting in this many is an unrecognized person (0 = none) */
const ANOMALY_EVERY = Number(process.env.BENCH_ANOMALY_EVERY ?? 10);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function runOnce(streams: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
  const ctx = await createContext(loadConfig({ dataDir, databaseUrl: null, runSources: false, seedDemo: false }, {}));
  const key = await ctx.keys.createKey({ tenantKind: 'organization', tenantName: 'Bench', mode: 'live' });
  const refs: StreamRef[] = [];
  const locations = Math.max(1, Math.floor(streams / 10));
  await ctx.database.withWriteLock(async (trx) => {
    for (let i = 0; i < streams; i++) {
      const scene = await ctx.scenes.ensureScene(trx, key.tenant_id, `zone_${i % locations}`);
      refs.push({ id: `stream_bench_${i}`, tenant_id: key.tenant_id, scene_id: scene.id, location: scene.location });
    }
  });
  const latencies: number[] = [];
  let produced = 0;
  let completed = 0;
  const start = performance.now();
  const measureFrom = start + WARMUP_MS;
  const end = measureFrom + DURATION_MS;
  const timers: NodeJS.Timeout[] = [];
  const periodMs = 1000 / RATE_PER_STREAM;
  refs.forEach((ref, i) => {
    let n = 0;
    const fire = () => {
      const t0 = performance.now();
      if (t0 >= end) return;
      n++;
      // a third are person sightings, one in ten of those an unrecognized person (an anomaly:
      // incident + webhook outbox row); the phase differs per stream so anomalies are spread out
      // in time rather than arriving from all streams in the same millisecond
      const k = n + i;
      const det: DetectionInput =
        k % 3 === 0
          ? { type: 'person', subtype: ANOMALY_EVERY > 0 && k % (3 * ANOMALY_EVERY) === 0 ? 'unrecognized' : null, confidence: 0.9, at: Date.now(), track_id: `t${i}_${n}` }
          : { type: 'person_count', value: k % 17, confidence: 0.9, at: Date.now() };
      produced++;
      ctx.pipeline.ingest(ref, [det]).then(() => {
        const t1 = performance.now();
        if (t0 >= measureFrom) {
          latencies.push(t1 - t0);
          completed++;
        }
      });
    };
    setTimeout(() => {
      fire();
      timers.push(setInterval(fire, periodMs));
    }, (i * periodMs) / refs.length);
  });
  await new Promise((r) => setTimeout(r, WARMUP_MS + DURATION_MS + 200));
  for (const t of timers) clearInterval(t);
  await ctx.pipeline.drain();
  const sorted = latencies.sort((a, b) => a - b);
  const result = {
    streams,
    target_detections_per_s: streams * RATE_PER_STREAM,
    sustained_detections_per_s: Math.round(completed / (DURATION_MS / 1000)),
    samples: sorted.length,
    latency_ms: {
      p50: +percentile(sorted, 50).toFixed(3),
      p95: +percentile(sorted, 95).toFixed(3),
      p99: +percentile(sorted, 99).toFixed(3),
      max: +sorted[sorted.length - 1].toFixed(3),
    },
    rss_mb: Math.round(process.memoryUsage().rss / 1048576),
  };
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
  void produced;
  return result;
}

const sizes = (process.env.BENCH_STREAMS ?? '50,200,1000').split(',').map(Number);
const results = [];
for (const n of sizes) {
  const r = await runOnce(n);
  console.log(`pipeline ${String(n).padStart(4)} streams: p50 ${r.latency_ms.p50} ms  p95 ${r.latency_ms.p95} ms  p99 ${r.latency_ms.p99} ms  sustained ${r.sustained_detections_per_s}/s (target ${r.target_detections_per_s}/s)`);
  results.push(r);
}
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/pipeline.json',
  JSON.stringify({ bench: 'detection-pipeline', storage: 'sqlite-wal', node: process.version, cpus: cpus().length, cpu_model: cpus()[0]?.model, measured_at: new Date().toISOString(), duration_ms: DURATION_MS, results }, null, 2) + '\n',
);
console.log('wrote bench/results/pipeline.json');
