import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/platform/config/config.ts';
import { createContext } from '../src/context.ts';
import type { StreamRef } from '../src/org/pipeline/detection-pipeline.ts';
import type { DetectionInput } from '../src/platform/kinds/index.ts';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { figure, percentile, writeResult, type Figure } from './machine.ts';
import { startPostgres } from '../scripts/pg-server.mjs';
import { benchDetection, benchStreams } from './pipeline-load.ts';
import { postgresCpu } from './postgres-cpu.ts';

/**
 * Detection pipeline latency: N streams each producing 10 detections/s;
 * latency is from "detection produced" (pipeline.ingest called) to "scene updated and history row
 * + audit entry durable" (the ingest promise resolves after commit). Real SQLite (WAL) in a temp
 * dir and real PostgreSQL 15 (a throwaway server from scripts/pg-server.mjs).
 *
 * Every figure is measured beside its limit in the same run, on the same storage:
 * - the open-loop latency against a raw group commit driven by the very same load generator: each
 *   detection becomes the rows it costs (one detection row, one audit-sized row), queued and
 *   committed in one transaction per turn of the event loop, with raw better-sqlite3 prepared
 *   statements (or, on PostgreSQL, one multi-row `pg` INSERT statement), into tables with the same
 *   columns and only a primary key (no secondary index, no trigger, no hashing, no scene, no rule);
 * - one isolated detection against one raw transaction of those two rows (and, for reference, a
 *   single-row autocommit insert);
 * - burst throughput against raw batched inserts of the same number of detection-equivalents.
 * BENCH_STREAMS (default 50,200,1000) and BENCH_PG_STREAMS (default 1000, "" to skip PostgreSQL).
 * The pipeline and its raw limit alternate (open-loop parts, isolated detections one by one,
 * bursts round by round) so both see the same machine state on a busy machine.
 * VIGIL_BENCH_PROF=1 writes a V8 CPU profile of the first open-loop pipeline part at each size
 * (never the raw limit) to bench/results/profiles/pipeline-STORAGE-N.cpuprofile; read it with
 * `node --import tsx bench/cpu-profile-top.ts FILE`.
 */
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 6000);
const WARMUP_MS = 1000;
const RATE_PER_STREAM = 10;
/** one person sighting in this many is an unrecognized person (0 = none) */
const ANOMALY_EVERY = Number(process.env.BENCH_ANOMALY_EVERY ?? 10);
const ISOLATED = 500;
const BURST = 2000;
const BURST_ROUNDS = 5;
const TARGET_P95_MS: Record<number, number> = { 200: 1, 1000: 10 };

type Storage = 'sqlite' | 'postgres';
const r3 = (v: number) => Number(v.toFixed(3));

interface LoopPart {
  latencies: number[];
  completedInRun: number;
  produced: number;
  cpuUs: number;
  /** the PostgreSQL server's CPU over the part (every process of the throwaway server), when there is one */
  serverCpuUs: number | null;
  durationMs: number;
  /** warm-up and measured window: the time the load generator ran */
  loadMs: number;
  /** from the start until the last measured detection was durable */
  drainedMs: number;
}

/** CPU time so far of the throwaway PostgreSQL server (postgres-cpu.ts), in µs. Set while the PostgreSQL part runs. */
let serverCpuUs: (() => number) | null = null;

/** Percentiles over several alternating parts of one load, taken together. */
function summary(parts: LoopPart[]) {
  const sorted = parts.flatMap((p) => p.latencies).sort((a, b) => a - b);
  const produced = parts.reduce((s, p) => s + p.produced, 0);
  const cpuUs = parts.reduce((s, p) => s + p.cpuUs, 0);
  const serverUs = parts.every((p) => p.serverCpuUs !== null) ? parts.reduce((s, p) => s + p.serverCpuUs!, 0) : null;
  const ms = parts.reduce((s, p) => s + p.durationMs, 0);
  return {
    cpu_us_per_detection: Math.round(cpuUs / Math.max(1, produced)),
    ...(serverUs === null ? {} : { server_cpu_us_per_detection: Math.round(serverUs / Math.max(1, produced)) }),
    sustained_detections_per_s: Math.round(parts.reduce((s, p) => s + p.completedInRun, 0) / (ms / 1000)),
    // what the load generator managed to offer (its timers fall behind on a saturated machine), and
    // everything it offered over the time until the last was durable: the ceiling when overloaded
    produced_detections_per_s: Math.round(produced / (parts.reduce((s, p) => s + p.loadMs, 0) / 1000)),
    completed_detections_per_s: Math.round(produced / (parts.reduce((s, p) => s + p.drainedMs, 0) / 1000)),
    samples: sorted.length,
    latency_ms: { p50: r3(percentile(sorted, 50)), p95: r3(percentile(sorted, 95)), p99: r3(percentile(sorted, 99)), max: r3(sorted[sorted.length - 1]) },
  };
}

/**
 * The open-loop load for `durationMs` after a warm-up: `streams` timers each firing every 100 ms,
 * phases spread over the period; `ingest(i, n)` is called for the n-th detection of stream i and
 * its promise timed.
 */
async function openLoop(streams: number, ingest: (i: number, n: number) => Promise<unknown>, durationMs: number): Promise<LoopPart> {
  const latencies: number[] = [];
  /** measured detections that were durable before the load stopped */
  let completedInRun = 0;
  let produced = 0;
  // measured detections not yet durable: counted, not kept (holding tens of thousands of promises
  // would make the harness's own garbage collection part of every latency it measures)
  let outstanding = 0;
  let allDone: (() => void) | null = null;
  let failure: unknown = null;
  const cpu0 = process.cpuUsage();
  const server0 = serverCpuUs?.() ?? null;
  const start = performance.now();
  const measureFrom = start + WARMUP_MS;
  const end = measureFrom + durationMs;
  const timers: NodeJS.Timeout[] = [];
  const periodMs = 1000 / RATE_PER_STREAM;
  for (let i = 0; i < streams; i++) {
    let n = 0;
    const fire = () => {
      const t0 = performance.now();
      if (t0 >= end) return;
      n++;
      produced++;
      const measured = t0 >= measureFrom;
      if (measured) outstanding++;
      void ingest(i, n)
        .then(
          () => {
            const t1 = performance.now();
            if (measured) {
              latencies.push(t1 - t0);
              if (t1 <= end) completedInRun++;
            }
          },
          (err: unknown) => void (failure ??= err),
        )
        .finally(() => {
          if (measured && --outstanding === 0) allDone?.();
        });
    };
    setTimeout(
      () => {
        fire();
        timers.push(setInterval(fire, periodMs));
      },
      (i * periodMs) / streams,
    );
  }
  await new Promise((r) => setTimeout(r, WARMUP_MS + durationMs));
  for (const t of timers) clearInterval(t);
  // every measured detection counts, however late: a backlog left when the load stops is the tail
  if (outstanding > 0) await new Promise<void>((r) => (allDone = r));
  const drainedMs = performance.now() - start;
  if (failure) throw failure;
  // this process's CPU (both threads' worth of user + system), load generator included
  const cpu = process.cpuUsage(cpu0);
  const serverCpu = server0 === null ? null : serverCpuUs!() - server0;
  return { latencies, completedInRun, produced, cpuUs: cpu.user + cpu.system, serverCpuUs: serverCpu, durationMs, loadMs: WARMUP_MS + durationMs, drainedMs };
}

function detectionFor(i: number, n: number): DetectionInput {
  return benchDetection(i, n, ANOMALY_EVERY);
}

// ---------------------------------------------------------------------------------------------
// The raw limit: the same rows, written with nothing but the driver.

const DET_COLS = [
  'id',
  'tenant_id',
  'stream_id',
  'scene_id',
  'location',
  'type',
  'subtype',
  'value',
  'count',
  'confidence',
  'at',
  'track_id',
  'dwell_s',
  'zone',
] as const;
const AUD_COLS = [
  'id',
  'tenant_id',
  'at',
  'actor_key_id',
  'actor_operator',
  'action',
  'resource_type',
  'resource_id',
  'request_id',
  'data',
  'prev_hash',
  'hash',
  'format',
  'data_hash',
  'salt',
  'location',
  'stream_id',
] as const;
type Row = Record<string, string | number | null>;
const HEX64 = 'a'.repeat(64);
let rawSeq = 0;

/** One detection's two rows, with values of the same sizes as the pipeline's (ids 30 chars, hashes 64 hex). */
function rawRows(i: number, n: number): [Row, Row] {
  const det = detectionFor(i, n);
  const seq = String(++rawSeq).padStart(22, '0');
  const detId = `det_${seq}`;
  const tenant = 'ten_01KAQZ7Q5B8M3X2N4P6R8T0V2W';
  const streamId = `stream_bench_${i}`;
  const d: Row = {
    id: detId,
    tenant_id: tenant,
    stream_id: streamId,
    scene_id: `scn_01KAQZ7Q5B8M3X2N4P6R${String(i).padStart(6, '0')}`,
    location: `zone_${i % 100}`,
    type: det.type,
    subtype: det.subtype ?? null,
    value: det.value ?? null,
    count: null,
    confidence: det.confidence,
    at: det.at,
    track_id: det.track_id ?? null,
    dwell_s: null,
    zone: null,
  };
  const a: Row = {
    id: `aud_${seq}`,
    tenant_id: tenant,
    at: new Date(det.at).toISOString(),
    actor_key_id: null,
    actor_operator: 'pipeline',
    action: 'detection.recorded',
    resource_type: 'detection',
    resource_id: detId,
    request_id: null,
    data: JSON.stringify({ stream_id: streamId, type: d.type, subtype: d.subtype, value: d.value, count: null, confidence: d.confidence }),
    prev_hash: HEX64,
    hash: HEX64,
    format: 2,
    data_hash: HEX64,
    salt: 'b'.repeat(32),
    location: d.location,
    stream_id: streamId,
  };
  return [d, a];
}

interface RawStore {
  name: string;
  /** commits the rows of these detections in one transaction */
  commit(rows: Array<[Row, Row]>): void | Promise<void>;
  /** one row, autocommit */
  insertOne(row: Row): void | Promise<void>;
  close(): Promise<void>;
}

function openRawSqlite(dir: string): RawStore {
  const db = new SQLite(join(dir, 'raw.sqlite'));
  // the same settings as src/db/database.ts
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec(
    `CREATE TABLE raw_detections (id text PRIMARY KEY, tenant_id text NOT NULL, stream_id text NOT NULL, scene_id text NOT NULL, location text NOT NULL, type text NOT NULL, subtype text, value real, count integer, confidence real NOT NULL, at integer NOT NULL, track_id text, dwell_s real, zone text)`,
  );
  db.exec(`CREATE TABLE raw_audit (seq integer PRIMARY KEY AUTOINCREMENT, ${AUD_COLS.map((c) => `${c} ${c === 'format' ? 'integer' : 'text'}`).join(', ')})`);
  const insDet = db.prepare(`INSERT INTO raw_detections (${DET_COLS.join(', ')}) VALUES (${DET_COLS.map((c) => '@' + c).join(', ')})`);
  const insAud = db.prepare(`INSERT INTO raw_audit (${AUD_COLS.join(', ')}) VALUES (${AUD_COLS.map((c) => '@' + c).join(', ')})`);
  const tx = db.transaction((rows: Array<[Row, Row]>) => {
    for (const [d, a] of rows) {
      insDet.run(d);
      insAud.run(a);
    }
  });
  return {
    name: 'raw better-sqlite3 (prepared INSERTs, one transaction, same pragmas, primary keys only)',
    commit: (rows) => tx.immediate(rows),
    insertOne: (row) => void insDet.run(row),
    close: async () => void db.close(),
  };
}

async function openRawPg(url: string): Promise<RawStore> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    `CREATE TABLE raw_detections (id text PRIMARY KEY, tenant_id text NOT NULL, stream_id text NOT NULL, scene_id text NOT NULL, location text NOT NULL, type text NOT NULL, subtype text, value double precision, count integer, confidence double precision NOT NULL, at bigint NOT NULL, track_id text, dwell_s double precision, zone text)`,
  );
  await client.query(`CREATE TABLE raw_audit (seq bigserial PRIMARY KEY, ${AUD_COLS.map((c) => `${c} ${c === 'format' ? 'integer' : 'text'}`).join(', ')})`);
  const values = (rows: Row[], cols: readonly string[], params: unknown[]) =>
    rows
      .map(
        (r) =>
          `(${cols
            .map((c) => {
              params.push(r[c]);
              return `$${params.length}`;
            })
            .join(', ')})`,
      )
      .join(', ');
  // 31 parameters a detection: 1,000 detections a statement stays under PostgreSQL's 65,535
  const commitChunk = async (rows: Array<[Row, Row]>) => {
    const params: unknown[] = [];
    const d = values(
      rows.map((r) => r[0]),
      DET_COLS,
      params,
    );
    const a = values(
      rows.map((r) => r[1]),
      AUD_COLS,
      params,
    );
    // one statement (so one round trip and its own transaction) writing both tables
    await client.query(
      `WITH d AS (INSERT INTO raw_detections (${DET_COLS.join(', ')}) VALUES ${d} RETURNING 1) INSERT INTO raw_audit (${AUD_COLS.join(', ')}) VALUES ${a}`,
      params,
    );
  };
  return {
    name: 'raw pg (one multi-row INSERT statement writing both tables, same database, primary keys only)',
    commit: async (rows) => {
      if (rows.length <= 1000) return commitChunk(rows);
      await client.query('BEGIN');
      for (let i = 0; i < rows.length; i += 1000) await commitChunk(rows.slice(i, i + 1000));
      await client.query('COMMIT');
    },
    insertOne: async (row) => {
      await client.query(
        `INSERT INTO raw_detections (${DET_COLS.join(', ')}) VALUES (${DET_COLS.map((_, k) => `$${k + 1}`).join(', ')})`,
        DET_COLS.map((c) => row[c]),
      );
    },
    close: () => client.end(),
  };
}

/** Group commit over a raw store, scheduled as the pipeline schedules its own (setImmediate, one flush at a time). */
function rawGroupCommit(store: RawStore) {
  let queue: Array<{ rows: [Row, Row]; resolve: () => void }> = [];
  let flushing = false;
  let scheduled = false;
  const flush = async () => {
    flushing = true;
    const batch = queue;
    queue = [];
    await store.commit(batch.map((b) => b.rows));
    for (const b of batch) b.resolve();
    flushing = false;
    if (queue.length) schedule();
  };
  const schedule = () => {
    if (scheduled || flushing) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void flush();
    });
  };
  return (rows: [Row, Row]) =>
    new Promise<void>((resolve) => {
      queue.push({ rows, resolve });
      schedule();
    });
}

async function timed(fn: () => unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

// ---------------------------------------------------------------------------------------------
// The pipeline itself, alternating with its limit so both see the same machine state.

type Ctx = Awaited<ReturnType<typeof createContext>>;

async function withPipeline<T>(databaseUrl: string | null, streams: number, fn: (ctx: Ctx, refs: StreamRef[]) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
  const ctx = await createContext(loadConfig({ dataDir, databaseUrl, runSources: false, seedDemo: false }, {}));
  try {
    const refs = await benchStreams(ctx, streams);
    return await fn(ctx, refs);
  } finally {
    await ctx.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const PROFILE = Boolean(process.env.VIGIL_BENCH_PROF);
/** the open-loop time is split into this many pipeline parts and as many raw parts, alternating */
const HALVES = 2;

/** Runs fn under the V8 profiler when VIGIL_BENCH_PROF is set, writing the profile to `name`. */
async function profiled<T>(name: string, fn: () => Promise<T>): Promise<T> {
  if (!PROFILE) return fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    const dir = join(import.meta.dirname, 'results', 'profiles');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
  }
}

async function openLoopPair(storage: Storage, databaseUrl: string | null, streams: number, store: RawStore) {
  return withPipeline(databaseUrl, streams, async (ctx, refs) => {
    const ingestRaw = rawGroupCommit(store);
    const pipe: LoopPart[] = [];
    const raw: LoopPart[] = [];
    for (let h = 0; h < HALVES; h++) {
      const part = () => openLoop(streams, (i, n) => ctx.pipeline.ingest(refs[i], [detectionFor(i, n)]), DURATION_MS / HALVES);
      // the profile covers the first pipeline part only (never the raw limit)
      pipe.push(h === 0 ? await profiled(`pipeline-${storage}-${streams}`, part) : await part());
      await ctx.pipeline.drain();
      raw.push(await openLoop(streams, (i, n) => ingestRaw(rawRows(i, n)), DURATION_MS / HALVES));
    }
    return { pipeline: { ...summary(pipe), rss_mb: Math.round(process.memoryUsage().rss / 1048576) }, raw_group_commit: summary(raw) };
  });
}

/** Isolated detections and bursts, pipeline and raw alternating one by one and round by round. */
async function staticPair(databaseUrl: string | null, store: RawStore) {
  return withPipeline(databaseUrl, 100, async (ctx, refs) => {
    for (let k = 0; k < 50; k++) {
      await ctx.pipeline.ingest(refs[k % refs.length], [detectionFor(k, 0)]);
      await store.commit([rawRows(k, 0)]);
    }
    const iso: number[] = [];
    const isoRaw: number[] = [];
    const single: number[] = [];
    for (let k = 0; k < ISOLATED; k++) {
      iso.push(await timed(() => ctx.pipeline.ingest(refs[k % refs.length], [detectionFor(k, 1)])));
      isoRaw.push(await timed(() => store.commit([rawRows(k, 1)])));
      single.push(await timed(() => store.insertOne(rawRows(k, 2)[0])));
    }
    let pipeMs = 0;
    let rawMs = 0;
    for (let round = 0; round < BURST_ROUNDS; round++) {
      pipeMs += await timed(() =>
        Promise.all(Array.from({ length: BURST }, (_, k) => ctx.pipeline.ingest(refs[k % refs.length], [detectionFor(k, round + 3)]))),
      );
      const rows = Array.from({ length: BURST }, (_, k) => rawRows(k, round + 3));
      rawMs += await timed(() => store.commit(rows));
    }
    const p95 = (v: number[]) =>
      r3(
        percentile(
          v.sort((a, b) => a - b),
          95,
        ),
      );
    const perS = (ms: number) => Math.round((BURST * BURST_ROUNDS) / (ms / 1000));
    return {
      pipeline: { isolated_p95_ms: p95(iso), burst_detections_per_s: perS(pipeMs) },
      raw: { isolated_txn_p95_ms: p95(isoRaw), single_row_autocommit_p95_ms: p95(single), burst_detections_per_s: perS(rawMs) },
    };
  });
}

async function runStorage(storage: Storage, sizes: number[], freshDatabase: () => Promise<string | null>, openRaw: (url: string | null) => Promise<RawStore>) {
  const figures: Figure[] = [];
  const runs = [];
  const label = storage === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  let storeName = '';
  for (const n of sizes) {
    // the pipeline and its raw limit on the same (fresh) database, alternating
    const url = await freshDatabase();
    const store = await openRaw(url);
    storeName = store.name;
    const { pipeline: pipe, raw_group_commit: raw } = await openLoopPair(storage, url, n, store);
    await store.close();
    console.log(
      `pipeline ${storage.padEnd(8)} ${String(n).padStart(4)} streams: p50 ${pipe.latency_ms.p50} ms  p95 ${pipe.latency_ms.p95} ms  p99 ${pipe.latency_ms.p99} ms  sustained ${pipe.sustained_detections_per_s}/s (target ${n * RATE_PER_STREAM}/s, offered ${pipe.produced_detections_per_s}/s, completed ${pipe.completed_detections_per_s}/s); raw p95 ${raw.latency_ms.p95} ms (completed ${raw.completed_detections_per_s}/s); load ${loadavg()[0].toFixed(1)}`,
    );
    runs.push({ streams: n, target_detections_per_s: n * RATE_PER_STREAM, pipeline: pipe, raw_group_commit: raw });
    const target = TARGET_P95_MS[n];
    figures.push(
      figure(
        `pipeline p95 latency, ${n} streams × 10/s, ${label}`,
        pipe.latency_ms.p95,
        'ms',
        'lower',
        { name: `${store.name}: group commit of the same detections' rows under the same ${n} × 10/s load, p95`, value: raw.latency_ms.p95, unit: 'ms' },
        target ? { value: target } : undefined,
      ),
      // CPU time does not count the time spent waiting for a core, so it moves less with the machine's load
      figure(`Node CPU per detection, ${n} streams × 10/s, ${label}`, pipe.cpu_us_per_detection, 'µs', 'lower', {
        name: `${store.name}: same load, Node CPU per detection${storage === 'postgres' ? " (the PostgreSQL server's CPU is not counted, in either: see the next figure)" : ''}`,
        value: raw.cpu_us_per_detection,
        unit: 'µs',
      }),
    );
    if (pipe.server_cpu_us_per_detection !== undefined && raw.server_cpu_us_per_detection !== undefined) {
      // the server shares the machine's cores with Node: where the rest of a commit's time goes
      figures.push(
        figure(`PostgreSQL server CPU per detection, ${n} streams × 10/s (every process of the server)`, pipe.server_cpu_us_per_detection, 'µs', 'lower', {
          name: `${store.name}: same load, the server's CPU per detection`,
          value: raw.server_cpu_us_per_detection,
          unit: 'µs',
        }),
      );
    }
  }
  const url = await freshDatabase();
  const store = await openRaw(url);
  storeName ||= store.name;
  const st = await staticPair(url, store);
  await store.close();
  console.log(
    `pipeline ${storage.padEnd(8)} isolated p95 ${st.pipeline.isolated_p95_ms} ms (raw txn ${st.raw.isolated_txn_p95_ms} ms, raw single-row autocommit ${st.raw.single_row_autocommit_p95_ms} ms); burst ${st.pipeline.burst_detections_per_s}/s (raw ${st.raw.burst_detections_per_s}/s)`,
  );
  figures.push(
    figure(`one isolated detection, ingest → durable, p95, ${label}`, st.pipeline.isolated_p95_ms, 'ms', 'lower', {
      name: `${storeName}: one transaction with the detection's two rows, p95`,
      value: st.raw.isolated_txn_p95_ms,
      unit: 'ms',
    }),
    figure(`one isolated detection vs a single-row autocommit insert, ${label}`, st.pipeline.isolated_p95_ms, 'ms', 'lower', {
      name: `${storeName}: one single-row autocommit INSERT, p95`,
      value: st.raw.single_row_autocommit_p95_ms,
      unit: 'ms',
    }),
    figure(
      `pipeline burst throughput (${BURST_ROUNDS} bursts of ${BURST} detections), ${label}`,
      st.pipeline.burst_detections_per_s,
      'detections/s',
      'higher',
      { name: `${storeName}: ${BURST} detection-equivalents (2 rows each) per transaction`, value: st.raw.burst_detections_per_s, unit: 'detections/s' },
    ),
  );
  return { figures, runs: { storage, open_loop: runs, isolated_and_burst: st } };
}

const sizes = (process.env.BENCH_STREAMS ?? '50,200,1000').split(',').filter(Boolean).map(Number);
const pgSizes = (process.env.BENCH_PG_STREAMS ?? '1000').split(',').filter(Boolean).map(Number);
const figures: Figure[] = [];
const storages: unknown[] = [];
if (sizes.length) {
  const rawDir = mkdtempSync(join(tmpdir(), 'vigil-bench-raw-'));
  let k = 0;
  try {
    const s = await runStorage(
      'sqlite',
      sizes,
      async () => null,
      async () => openRawSqlite(mkdtempSync(join(rawDir, `r${k++}-`))),
    );
    figures.push(...s.figures);
    storages.push(s.runs);
  } finally {
    rmSync(rawDir, { recursive: true, force: true });
  }
}
if (pgSizes.length) {
  let server: { url: string; dataDir: string; stop(): void } | null = null;
  try {
    server = await startPostgres();
    serverCpuUs = postgresCpu(server.dataDir);
    const admin = server.url;
    let k = 0;
    const fresh = async () => {
      const name = `bench_pipeline_${k++}`;
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(`CREATE DATABASE ${name}`);
      await client.end();
      return admin.replace(/\/[^/]*$/, `/${name}`);
    };
    const s = await runStorage('postgres', pgSizes, fresh, (url) => openRawPg(url!));
    figures.push(...s.figures);
    storages.push({
      ...s.runs,
      server: 'throwaway PostgreSQL 15 (scripts/pg-server.mjs) on this machine: fsync=off, synchronous_commit=off, full_page_writes=off',
    });
  } catch (err) {
    console.warn(`postgres run failed: ${(err as Error).stack}`);
    process.exitCode = 1;
  } finally {
    server?.stop();
  }
}
writeResult('pipeline', 'detection-pipeline', figures, {
  duration_ms: DURATION_MS,
  warmup_ms: WARMUP_MS,
  anomaly_every: ANOMALY_EVERY,
  storages,
  notes: [
    'latency: pipeline.ingest called → promise resolved (scene updated, rules run, detection row and chained audit entry committed); every detection produced in the measured window is waited for and counted',
    'sustained_detections_per_s: measured detections durable before the load stopped, per second of the window (below the offered rate = a backlog was building)',
    'raw limit: the same load generator and group-commit scheduling with nothing but the driver: no ids, hashing, scene, rules, anomaly rows, secondary indexes or triggers',
    'SQLite: WAL, synchronous=NORMAL (as the app). PostgreSQL: the throwaway test server, which runs without fsync, so its figures are not durable-to-disk figures',
    `pipeline and raw limit alternate: the open-loop time is ${HALVES} pipeline parts and ${HALVES} raw parts (each after a ${WARMUP_MS} ms warm-up), isolated detections one by one, bursts round by round`,
    'one shared 2-core machine: other processes move the tail; see machine.load_average_*',
  ],
});
