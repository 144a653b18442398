import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/platform/config/config.ts';
import { createContext } from '../src/context.ts';
import type { DetectionInput } from '../src/platform/kinds/index.ts';
import { startPostgres } from '../scripts/pg-server.mjs';
import { benchDetection, benchStreams } from './pipeline-load.ts';

/**
 * Counts what one group commit of the detection pipeline costs on PostgreSQL, independent of the
 * machine's load: round trips (a query sent while none of its connection's queries is in flight
 * starts one; queries sent while others are in flight, pipelined, join it), statements (query
 * calls), and this process's CPU per detection. ROUNDS bursts of STREAMS detections (one per
 * stream, a third person sightings, one in ANOMALY_EVERY of those an unrecognized person: an
 * incident opened or extended and a detection.anomaly event), each awaited, so each burst is one
 * or two commits. Env: BENCH_RT_STREAMS (200), BENCH_RT_ROUNDS (40), BENCH_ANOMALY_EVERY (10).
 * `node --import tsx bench/pipeline-round-trips.ts` prints JSON.
 */
const STREAMS = Number(process.env.BENCH_RT_STREAMS ?? 200);
const ROUNDS = Number(process.env.BENCH_RT_ROUNDS ?? 40);
const ANOMALY_EVERY = Number(process.env.BENCH_ANOMALY_EVERY ?? 10);

interface Counted {
  inflight: number;
  inFlush: boolean;
  rt: number;
  statements: number;
  texts: string[];
}
const TRACE = Boolean(process.env.BENCH_RT_TRACE);
const state = new WeakMap<pg.Client, Counted>();
const flushes: Array<{ rt: number; statements: number; texts: string[] }> = [];
let counting = false;

// every query of every pooled client, pipelined or not, goes through Client.prototype.query
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
  let s = state.get(this);
  if (!s) state.set(this, (s = { inflight: 0, inFlush: false, rt: 0, statements: 0, texts: [] }));
  const text = typeof config === 'string' ? config : ((config as { text?: string })?.text ?? '');
  // the pipeline's commit starts with BEGIN and its shared write lock, and ends with COMMIT
  if (/^BEGIN; SELECT pg_advisory_xact_lock_shared/.test(text)) Object.assign(s, { inFlush: true, rt: 0, statements: 0, texts: [] });
  if (s.inFlush) {
    if (s.inflight === 0) s.rt++;
    s.statements++;
    if (TRACE) s.texts.push(`${s.inflight === 0 ? '·' : '+'} ${text.replace(/\s+/g, ' ').slice(0, 110)}`);
  }
  s.inflight++;
  const done = () => void s.inflight--;
  const ret = (original as (...a: unknown[]) => unknown).call(this, config, ...rest) as Promise<unknown> | undefined;
  if (ret && typeof (ret as Promise<unknown>).then === 'function') (ret as Promise<unknown>).then(done, done);
  else s.inflight--; // callback form: not used by Kysely
  if (s.inFlush && /^COMMIT$/.test(text)) {
    s.inFlush = false;
    if (counting) flushes.push({ rt: s.rt, statements: s.statements, texts: s.texts });
  }
  return ret;
} as typeof pg.Client.prototype.query;

function detectionFor(i: number, n: number): DetectionInput {
  return benchDetection(i, n, ANOMALY_EVERY);
}

const server = await startPostgres();
const dataDir = mkdtempSync(join(tmpdir(), 'vigil-rt-'));
try {
  const ctx = await createContext(loadConfig({ dataDir, databaseUrl: server.url, runSources: false, seedDemo: false }, {}));
  try {
    const refs = await benchStreams(ctx, STREAMS);
    // warm-up: statement caches, the chain head guess
    for (let n = 0; n < 3; n++) await Promise.all(refs.map((r, i) => ctx.pipeline.ingest(r, [detectionFor(i, n)])));
    counting = true;
    const cpu0 = process.cpuUsage();
    for (let n = 3; n < ROUNDS + 3; n++) await Promise.all(refs.map((r, i) => ctx.pipeline.ingest(r, [detectionFor(i, n)])));
    const cpu = process.cpuUsage(cpu0);
    counting = false;
    const hist = (xs: number[]) => Object.fromEntries([...new Set(xs)].sort((a, b) => a - b).map((v) => [v, xs.filter((x) => x === v).length]));
    const mean = (xs: number[]) => Number((xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)).toFixed(2));
    console.log(
      JSON.stringify(
        {
          streams: STREAMS,
          rounds: ROUNDS,
          anomaly_every: ANOMALY_EVERY,
          flushes: flushes.length,
          round_trips_per_flush: { mean: mean(flushes.map((f) => f.rt)), histogram: hist(flushes.map((f) => f.rt)) },
          statements_per_flush: { mean: mean(flushes.map((f) => f.statements)), histogram: hist(flushes.map((f) => f.statements)) },
          ...(TRACE ? { examples: [...new Map(flushes.map((f) => [f.rt, f.texts])).values()] } : {}),
          node_cpu_us_per_detection: Math.round((cpu.user + cpu.system) / (STREAMS * ROUNDS)),
        },
        null,
        2,
      ),
    );
  } finally {
    await ctx.close();
  }
} finally {
  server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
