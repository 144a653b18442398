import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../src/platform/config/config.ts';
import { createContext } from '../src/context.ts';
import type { DatabaseHandle, DbExecutor } from '../src/platform/db/index.ts';
import { percentile } from './machine.ts';
import { benchDetection, benchStreams } from './pipeline-load.ts';

/**
 * Where a SQLite pipeline commit spends its time, statement by statement: every `Statement.run`
 * on the connection is timed by its SQL (BEGIN IMMEDIATE, the detection and audit inserts, the
 * hooks' statements, COMMIT), and each commit (`withTenantWriteLock`) from its start to COMMIT's
 * return. The load is the pipeline bench's detections (bench/pipeline-load.ts) from STREAMS
 * streams, a tenth of them every 10 ms (10/s each), for BENCH_PARTS_MS after a 1.5 s warm-up.
 * BENCH_PARTS_DROP (comma-separated index names) drops indexes after the migrations, to measure
 * what an index costs a commit: an experiment only, the service needs them
 * (docs/decisions.md, "SQLite pipeline commit: where the time goes").
 * Env: BENCH_PARTS_STREAMS (200), BENCH_PARTS_MS (5000), BENCH_ANOMALY_EVERY (10).
 * `node --import tsx bench/pipeline-commit-parts.ts` prints JSON.
 */
const STREAMS = Number(process.env.BENCH_PARTS_STREAMS ?? 200);
const MS = Number(process.env.BENCH_PARTS_MS ?? 5000);
const ANOMALY_EVERY = Number(process.env.BENCH_ANOMALY_EVERY ?? 10);
const DROP = (process.env.BENCH_PARTS_DROP ?? '').split(',').filter(Boolean);

/** total ms and count per statement (its first 48 characters) while `timing` is on */
const statements = new Map<string, { ms: number; n: number }>();
let timing = false;

/** Wraps better-sqlite3's Statement.prototype.run (shared by every statement) with a timer. */
function timeStatements(): void {
  const probe = new SQLite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as { run: (...args: unknown[]) => unknown };
  probe.close();
  const run = proto.run;
  proto.run = function (this: { source: string }, ...args: unknown[]) {
    if (!timing) return run.apply(this, args);
    const t0 = performance.now();
    try {
      return run.apply(this, args);
    } finally {
      const key = this.source.slice(0, 48);
      const e = statements.get(key) ?? { ms: 0, n: 0 };
      e.ms += performance.now() - t0;
      e.n++;
      statements.set(key, e);
    }
  };
}

/** Times every commit of the pipeline (withTenantWriteLock, start to COMMIT's return). */
function timeCommits(database: DatabaseHandle): number[] {
  const commits: number[] = [];
  const lock = database.withTenantWriteLock.bind(database);
  database.withTenantWriteLock = async <T>(tenants: readonly string[], fn: (trx: DbExecutor) => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await lock(tenants, fn);
    } finally {
      if (timing) commits.push(performance.now() - t0);
    }
  };
  return commits;
}

timeStatements();
const dataDir = mkdtempSync(join(tmpdir(), 'vigil-commit-parts-'));
const ctx = await createContext(loadConfig({ dataDir, databaseUrl: null, runSources: false, seedDemo: false }, {}));
try {
  const refs = await benchStreams(ctx, STREAMS);
  for (const index of DROP) ctx.database.sqlite!.exec(`DROP INDEX ${index}`);
  const commits = timeCommits(ctx.database);
  /** open loop: a tenth of the streams every 10 ms, each stream 10/s */
  const load = async (ms: number) => {
    const pending: Array<Promise<unknown>> = [];
    let tick = 0;
    const slice = Math.ceil(refs.length / 10);
    const timer = setInterval(() => {
      const from = (tick % 10) * slice;
      for (let i = from; i < Math.min(from + slice, refs.length); i++) {
        pending.push(ctx.pipeline.ingest(refs[i], [benchDetection(i, Math.floor(tick / 10), ANOMALY_EVERY)]));
      }
      tick++;
    }, 10);
    await new Promise((r) => setTimeout(r, ms));
    clearInterval(timer);
    await Promise.all(pending);
    return pending.length;
  };
  await load(1500);
  timing = true;
  const cpu0 = process.cpuUsage();
  const detections = await load(MS);
  const cpu = process.cpuUsage(cpu0);
  timing = false;
  const sorted = [...commits].sort((a, b) => a - b);
  const round = (v: number) => Number(v.toFixed(3));
  console.log(
    JSON.stringify(
      {
        streams: STREAMS,
        dropped_indexes: DROP,
        detections,
        commits: commits.length,
        detections_per_commit: round(detections / commits.length),
        commit_ms: { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)) },
        node_cpu_us_per_detection: Math.round((cpu.user + cpu.system) / detections),
        statements_us_each: Object.fromEntries(
          [...statements].sort((a, b) => b[1].ms - a[1].ms).map(([k, e]) => [k, { us: Math.round((1000 * e.ms) / e.n), n: e.n, ms: Math.round(e.ms) }]),
        ),
        load_average_1m: round(loadavg()[0]),
      },
      null,
      2,
    ),
  );
} finally {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
}
