import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { loadConfig } from '../src/platform/config/config.ts';
import { createContext } from '../src/context.ts';
import type { DatabaseHandle, DbExecutor } from '../src/platform/db/index.ts';
import { percentile } from './machine.ts';
import { postgresCpu } from './postgres-cpu.ts';
import { benchDetection, benchStreams } from './pipeline-load.ts';
import { startPostgres } from '../scripts/pg-server.mjs';

/**
 * What makes the pipeline's slow detections slow (docs/decisions.md, "Pipeline p95 tail"). The
 * pipeline bench's open loop (bench/pipeline.bench.ts: STREAMS timers at 10/s, phases spread) runs
 * for BENCH_TAIL_MS after a warm-up, while every commit (`withTenantWriteLock`) is timed in its
 * parts (from the call to the body's end: BEGIN, the locks, the insert and the hooks' reads; then
 * the hooks' writes and COMMIT), every garbage collection is noted (perf_hooks 'gc') and, on
 * PostgreSQL, the server logs its checkpoints, autovacuum runs and statements over 5 ms. Each
 * detection at or over the p95 is split into its wait before its commit started (the commit before
 * it still running, its flush's preparation) and its commit, and the slow commits are matched
 * with what overlapped them. Env: BENCH_TAIL_STORAGE (postgres | sqlite), BENCH_TAIL_STREAMS
 * (1000), BENCH_TAIL_MS (6000), BENCH_ANOMALY_EVERY (10). Prints JSON.
 */
const STORAGE = process.env.BENCH_TAIL_STORAGE ?? 'postgres';
const STREAMS = Number(process.env.BENCH_TAIL_STREAMS ?? 1000);
const MS = Number(process.env.BENCH_TAIL_MS ?? 6000);
const WARMUP_MS = 1500;
const ANOMALY_EVERY = Number(process.env.BENCH_ANOMALY_EVERY ?? 10);

interface Commit {
  /** the flush's first scene update: from here to start, its synchronous preparation (scene, hooks, audit entries) */
  prep: number;
  start: number;
  /** the body (insert, reads, hooks' writes) done; the rest is COMMIT */
  bodyDone: number;
  end: number;
  detections: number;
}

/** when the scene engine was first given a detection since the last commit started */
let firstApply = 0;

/** Notes the first scene update of each flush (the pipeline's scene engine, a private dependency). */
function timePreparation(pipeline: object): void {
  const engine = (pipeline as unknown as { deps: { scenes: { apply: (...a: unknown[]) => unknown } } }).deps.scenes;
  const apply = engine.apply.bind(engine);
  engine.apply = (...a: unknown[]) => {
    if (firstApply === 0) firstApply = performance.now();
    return apply(...a);
  };
}

/** Wraps the pipeline's commits with timers. */
function timeCommits(database: DatabaseHandle, commits: Commit[], size: () => number): void {
  const lock = database.withTenantWriteLock.bind(database);
  database.withTenantWriteLock = async <T>(tenants: readonly string[], fn: (trx: DbExecutor) => Promise<T>): Promise<T> => {
    const c: Commit = { prep: firstApply, start: performance.now(), bodyDone: 0, end: 0, detections: size() };
    firstApply = 0;
    try {
      return await lock(tenants, async (trx) => {
        try {
          return await fn(trx);
        } finally {
          c.bodyDone = performance.now();
        }
      });
    } finally {
      c.end = performance.now();
      commits.push(c);
    }
  };
}

const stats = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  const r = (x: number) => Number(x.toFixed(2));
  return { n: s.length, p50: r(percentile(s, 50)), p95: r(percentile(s, 95)), p99: r(percentile(s, 99)), max: r(s[s.length - 1] ?? 0) };
};

/** BENCH_TAIL_CLOSED=N: instead of the open loop, commits of N detections (one per stream) back to back, for BENCH_TAIL_MS */
const CLOSED = Number(process.env.BENCH_TAIL_CLOSED ?? 0);

/** Closed loop: batches of CLOSED detections committed back to back after a warm-up; commit times and CPU per detection. */
async function closedLoop(refs: Awaited<ReturnType<typeof benchStreams>>, commits: Commit[]) {
  const serverCpu = server ? postgresCpu(server.dataDir) : () => 0;
  let n = 0;
  const batch = () => {
    n++;
    return Promise.all(Array.from({ length: CLOSED }, (_, i) => ctx.pipeline.ingest(refs[i % refs.length], [benchDetection(i, n, ANOMALY_EVERY)])));
  };
  const warmEnd = performance.now() + WARMUP_MS;
  while (performance.now() < warmEnd) await batch();
  const from = commits.length;
  const cpu0 = process.cpuUsage();
  const s0 = serverCpu();
  const t0 = performance.now();
  let detections = 0;
  while (performance.now() < t0 + MS) {
    await batch();
    detections += CLOSED;
  }
  const cpu = process.cpuUsage(cpu0);
  const mine = commits.slice(from);
  return {
    storage: STORAGE,
    batch: CLOSED,
    load: loadavg().map((l) => Number(l.toFixed(2))),
    commits: mine.length,
    commit_ms: stats(mine.map((c) => c.end - c.start)),
    body_ms: stats(mine.map((c) => c.bodyDone - c.start)),
    prep_us_per_detection: stats(mine.filter((c) => c.prep > 0).map((c) => ((c.start - c.prep) * 1000) / CLOSED)),
    node_cpu_us_per_detection: Number(((cpu.user + cpu.system) / detections).toFixed(1)),
    server_cpu_us_per_detection: Number(((serverCpu() - s0) / detections).toFixed(1)),
    wall_us_per_detection: Number((((performance.now() - t0) * 1000) / detections).toFixed(1)),
  };
}

const server = STORAGE === 'postgres' ? await startPostgres() : null;
let databaseUrl: string | null = null;
if (server) {
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`ALTER SYSTEM SET log_checkpoints = on`);
  await admin.query(`ALTER SYSTEM SET log_autovacuum_min_duration = 0`);
  await admin.query(`ALTER SYSTEM SET log_min_duration_statement = ${process.env.BENCH_TAIL_LOG_ALL ? 0 : 5}`);
  await admin.query(`ALTER SYSTEM SET log_line_prefix = '%m '`);
  await admin.query(`SELECT pg_reload_conf()`);
  await admin.query(`CREATE DATABASE bench_tail`);
  await admin.end();
  databaseUrl = server.url.replace(/\/[^/]*$/, '/bench_tail');
}
const dataDir = mkdtempSync(join(tmpdir(), 'vigil-tail-'));
const ctx = await createContext(loadConfig({ dataDir, databaseUrl, runSources: false, seedDemo: false }, {}));
const gcs: Array<{ start: number; ms: number; kind: number }> = [];
const obs = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcs.push({ start: e.startTime, ms: e.duration, kind: (e as unknown as { detail?: { kind: number } }).detail?.kind ?? 0 });
});
obs.observe({ entryTypes: ['gc'] });
const loop = monitorEventLoopDelay({ resolution: 5 });
try {
  const refs = await benchStreams(ctx, STREAMS);
  const commits: Commit[] = [];
  let queued = 0;
  timeCommits(ctx.database, commits, () => queued);
  timePreparation(ctx.pipeline);
  if (CLOSED > 0) {
    console.log(JSON.stringify(await closedLoop(refs, commits), null, 1));
    process.exitCode = 0;
  } else {
    const samples: Array<{ t0: number; t1: number }> = [];
    const start = performance.now();
    const measureFrom = start + WARMUP_MS;
    const end = measureFrom + MS;
    const timers: NodeJS.Timeout[] = [];
    const pending: Array<Promise<unknown>> = [];
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < STREAMS; i++) {
      let n = 0;
      const fire = () => {
        const t0 = performance.now();
        if (t0 >= end) return;
        n++;
        queued++;
        const p = ctx.pipeline.ingest(refs[i], [benchDetection(i, n, ANOMALY_EVERY)]).then(() => {
          queued--;
          if (t0 >= measureFrom) samples.push({ t0, t1: performance.now() });
        });
        if (t0 >= measureFrom) pending.push(p);
      };
      setTimeout(
        () => {
          fire();
          timers.push(setInterval(fire, 100));
        },
        (i * 100) / STREAMS,
      );
    }
    setTimeout(() => loop.enable(), WARMUP_MS);
    await new Promise((r) => setTimeout(r, WARMUP_MS + MS));
    for (const t of timers) clearInterval(t);
    await Promise.all(pending);
    loop.disable();
    const cpu = process.cpuUsage(cpu0);
    const lat = samples.map((s) => s.t1 - s.t0).sort((a, b) => a - b);
    const p95 = percentile(lat, 95);
    const measured = commits.filter((c) => c.end >= measureFrom);
    const gcIn = (a: number, b: number) => gcs.filter((g) => g.start < b && g.start + g.ms > a).reduce((s, g) => s + g.ms, 0);
    // a detection resolves right after its commit ends: its commit is the last that ended by t1
    const byEnd = [...commits].sort((a, b) => a.end - b.end);
    const commitOf = (t1: number) => {
      let lo = 0;
      let hi = byEnd.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (byEnd[mid].end <= t1) lo = mid;
        else hi = mid - 1;
      }
      return byEnd[lo];
    };
    const slow = samples.filter((s) => s.t1 - s.t0 >= p95);
    const split = { wait_before_commit_ms: [] as number[], commit_body_ms: [] as number[], commit_end_ms: [] as number[], gc_during_ms: [] as number[] };
    for (const s of slow) {
      const c = commitOf(s.t1);
      split.wait_before_commit_ms.push(c.start - s.t0);
      split.commit_body_ms.push(c.bodyDone - c.start);
      split.commit_end_ms.push(c.end - c.bodyDone);
      split.gc_during_ms.push(gcIn(s.t0, s.t1));
    }
    const commitMs = measured.map((c) => c.end - c.start);
    const slowCommitLimit = percentile(
      [...commitMs].sort((a, b) => a - b),
      90,
    );
    const slowCommits = measured
      .filter((c) => c.end - c.start >= slowCommitLimit)
      .map((c) => ({
        at_ms: Math.round(c.start - measureFrom),
        ms: Number((c.end - c.start).toFixed(2)),
        body_ms: Number((c.bodyDone - c.start).toFixed(2)),
        detections: c.detections,
        gc_ms: Number(gcIn(c.start, c.end).toFixed(2)),
      }));
    const gaps = measured.slice(1).map((c, k) => c.start - measured[k].end);
    const inWindow = gcs.filter((g) => g.start >= measureFrom);
    let serverLog: string[] = [];
    if (server) {
      const wall0 = performance.timeOrigin + measureFrom;
      serverLog = readFileSync(join(dirname(server.dataDir), 'log'), 'utf8')
        .split('\n')
        .filter((l) => /checkpoint|automatic (vacuum|analyze)|duration:/.test(l))
        .map((l) => {
          const at = Date.parse(l.slice(0, 23).replace(' ', 'T') + 'Z');
          return `${Number.isNaN(at) ? '?' : Math.round(at - wall0)} ms: ${l.slice(24, 220)}`;
        });
    }
    console.log(
      JSON.stringify(
        {
          storage: STORAGE,
          streams: STREAMS,
          load: loadavg().map((l) => Number(l.toFixed(2))),
          samples: samples.length,
          latency_ms: stats(lat),
          cpu_us_per_detection: Math.round((cpu.user + cpu.system) / Math.max(1, samples.length)),
          commits: { ...stats(commitMs), detections: stats(measured.map((c) => c.detections)), body_ms: stats(measured.map((c) => c.bodyDone - c.start)) },
          gap_between_commits_ms: stats(gaps),
          slow_detections_split: Object.fromEntries(Object.entries(split).map(([k, v]) => [k, stats(v)])),
          gc: {
            count: inWindow.length,
            total_ms: Number(inWindow.reduce((s, g) => s + g.ms, 0).toFixed(1)),
            by_kind: Object.fromEntries(
              [...new Set(inWindow.map((g) => g.kind))].map((k) => [k, stats(inWindow.filter((g) => g.kind === k).map((g) => g.ms))]),
            ),
          },
          event_loop_delay_ms: { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
          slow_commits: slowCommits.slice(0, 40),
          server_log: serverLog.slice(0, 60),
        },
        null,
        1,
      ),
    );
  }
} finally {
  obs.disconnect();
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
  // BENCH_TAIL_KEEP_LOG: a copy of the server's whole log (with BENCH_TAIL_LOG_ALL, every statement's parse, bind and execute times)
  if (server && process.env.BENCH_TAIL_KEEP_LOG) copyFileSync(join(dirname(server.dataDir), 'log'), process.env.BENCH_TAIL_KEEP_LOG);
  server?.stop();
}
