import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../src/platform/config/config.ts';
import { createContext } from '../src/context.ts';
import type { DetectionInput } from '../src/platform/kinds/index.ts';
import { benchDetection, benchStreams } from './pipeline-load.ts';

/**
 * Counts the SQLite pages one pipeline commit writes, by b-tree, independent of the machine's
 * load: each commit's new WAL frames are read (their page numbers) and mapped to the table or
 * index owning the page (`dbstat`). STREAMS streams; WARM bursts of one detection per stream
 * fill the tables first (so index leaves are spread as in a running service), then ROUNDS commits
 * of PER_COMMIT detections from streams drawn at random, each awaited. Page 1 (`sqlite_schema`)
 * is written when the file grows. Env: BENCH_PAGES_STREAMS (200), BENCH_PAGES_WARM (150),
 * BENCH_PAGES_ROUNDS (200), BENCH_PAGES_PER_COMMIT (4), BENCH_ANOMALY_EVERY (10); BENCH_PAGES_TRACE
 * prints the last commits' pages. `node --import tsx bench/pipeline-pages.ts` prints JSON.
 */
const STREAMS = Number(process.env.BENCH_PAGES_STREAMS ?? 200);
const WARM = Number(process.env.BENCH_PAGES_WARM ?? 150);
const ROUNDS = Number(process.env.BENCH_PAGES_ROUNDS ?? 200);
const PER_COMMIT = Number(process.env.BENCH_PAGES_PER_COMMIT ?? 4);
const ANOMALY_EVERY = Number(process.env.BENCH_ANOMALY_EVERY ?? 10);

function detectionFor(i: number, n: number): DetectionInput {
  return benchDetection(i, n, ANOMALY_EVERY);
}

/** mxFrame of the WAL index (the -shm file's header, native byte order at offset 16). */
function mxFrame(shm: string): number {
  const fd = openSync(shm, 'r');
  try {
    const b = Buffer.alloc(4);
    readSync(fd, b, 0, 4, 16);
    return b.readUInt32LE(0);
  } finally {
    closeSync(fd);
  }
}

/** Page numbers of WAL frames from (after, upTo]. */
function framePages(wal: string, after: number, upTo: number, pageSize: number): number[] {
  const fd = openSync(wal, 'r');
  try {
    const pages: number[] = [];
    const b = Buffer.alloc(8);
    for (let f = after + 1; f <= upTo; f++) {
      readSync(fd, b, 0, 8, 32 + (f - 1) * (24 + pageSize));
      pages.push(b.readUInt32BE(0));
      if (b.readUInt32BE(4) !== 0) commitFrames++;
    }
    return pages;
  } finally {
    closeSync(fd);
  }
}

let commitFrames = 0;
/** this process's CPU over the measured commits (WAL reads included), per detection */
let cpuUsPerDetection = 0;
const dataDir = mkdtempSync(join(tmpdir(), 'vigil-pages-'));
try {
  const ctx = await createContext(loadConfig({ dataDir, databaseUrl: null, runSources: false, seedDemo: false }, {}));
  const file = join(dataDir, 'vigil.sqlite');
  const commits: number[][] = [];
  try {
    const refs = await benchStreams(ctx, STREAMS);
    for (let n = 0; n < WARM; n++) await Promise.all(refs.map((r, i) => ctx.pipeline.ingest(r, [detectionFor(i, n)])));
    const pageSize = Number(ctx.database.sqlite!.pragma('page_size', { simple: true }));
    const cpu0 = process.cpuUsage();
    for (let n = 0; n < ROUNDS; n++) {
      const before = mxFrame(`${file}-shm`);
      const picks = Array.from({ length: PER_COMMIT }, () => Math.floor(Math.random() * STREAMS));
      await Promise.all(picks.map((i) => ctx.pipeline.ingest(refs[i], [detectionFor(i, WARM + n)])));
      const after = mxFrame(`${file}-shm`);
      // the log started over (a checkpoint caught up): this commit's frames are 1..after
      commits.push(framePages(`${file}-wal`, after >= before ? before : 0, after, pageSize));
    }
    const cpu = process.cpuUsage(cpu0);
    cpuUsPerDetection = Math.round((cpu.user + cpu.system) / (ROUNDS * PER_COMMIT));
  } finally {
    await ctx.close();
  }
  const db = new SQLite(file, { readonly: true });
  const owner = new Map<number, string>();
  for (const r of db.prepare('SELECT name, pageno FROM dbstat').all() as Array<{ name: string; pageno: number }>) owner.set(r.pageno, r.name);
  db.close();
  if (process.env.BENCH_PAGES_TRACE) for (const c of commits.slice(-3)) console.error(c.map((p) => `${owner.get(p)}:${p}`).join(' '));
  const byTree = new Map<string, number>();
  for (const pages of commits)
    for (const p of new Set(pages)) {
      const name = owner.get(p) ?? 'other';
      byTree.set(name, (byTree.get(name) ?? 0) + 1);
    }
  const per = (v: number) => Number((v / commits.length).toFixed(2));
  console.log(
    JSON.stringify(
      {
        streams: STREAMS,
        detections_per_commit: PER_COMMIT,
        commits: commits.length,
        wal_commits: commitFrames,
        pages_per_commit: per(commits.reduce((s, c) => s + c.length, 0)),
        distinct_pages_per_commit: per(commits.reduce((s, c) => s + new Set(c).size, 0)),
        node_cpu_us_per_detection: cpuUsPerDetection,
        by_btree: Object.fromEntries([...byTree].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, per(v)])),
      },
      null,
      2,
    ),
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
