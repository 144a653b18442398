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
 * What a detection costs PostgreSQL in bytes, independent of the machine's load (for sizing a
 * server, docs/deployment.md "Pipeline capacity"): WAL written (pg_current_wal_lsn) and table plus
 * index growth (detections, audit_log, incidents and their links, webhook rows) per detection,
 * over ROUNDS bursts of one detection per stream (a third person sightings, one in ANOMALY_EVERY
 * of those unrecognized), each awaited. Env: BENCH_VOL_STREAMS (1000), BENCH_VOL_ROUNDS (30),
 * BENCH_ANOMALY_EVERY (10). `node --import tsx bench/pipeline-pg-volume.ts` prints JSON.
 */
const STREAMS = Number(process.env.BENCH_VOL_STREAMS ?? 1000);
const ROUNDS = Number(process.env.BENCH_VOL_ROUNDS ?? 30);
const ANOMALY_EVERY = Number(process.env.BENCH_ANOMALY_EVERY ?? 10);

function detectionFor(i: number, n: number): DetectionInput {
  return benchDetection(i, n, ANOMALY_EVERY);
}

const server = await startPostgres();
const dataDir = mkdtempSync(join(tmpdir(), 'vigil-vol-'));
try {
  const ctx = await createContext(loadConfig({ dataDir, databaseUrl: server.url, runSources: false, seedDemo: false }, {}));
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  const measure = async () => {
    const { rows } = await client.query<{ lsn: string; bytes: string; audit: string; detections: string }>(
      `SELECT pg_current_wal_lsn()::text AS lsn, (SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE c.relkind = 'r' AND n.nspname = 'public')::text AS bytes,
         pg_total_relation_size('audit_log')::text AS audit, pg_total_relation_size('detections')::text AS detections`,
    );
    return rows[0];
  };
  try {
    const refs = await benchStreams(ctx, STREAMS);
    for (let n = 0; n < 3; n++) await Promise.all(refs.map((r, i) => ctx.pipeline.ingest(r, [detectionFor(i, n)])));
    await client.query('CHECKPOINT');
    const before = await measure();
    for (let n = 3; n < ROUNDS + 3; n++) await Promise.all(refs.map((r, i) => ctx.pipeline.ingest(r, [detectionFor(i, n)])));
    const after = await measure();
    const { rows } = await client.query<{ wal: string }>('SELECT pg_wal_lsn_diff($1, $2)::text AS wal', [after.lsn, before.lsn]);
    const detections = STREAMS * ROUNDS;
    console.log(
      JSON.stringify(
        {
          streams: STREAMS,
          rounds: ROUNDS,
          anomaly_every: ANOMALY_EVERY,
          detections,
          wal_bytes_per_detection: Math.round(Number(rows[0].wal) / detections),
          stored_bytes_per_detection: Math.round((Number(after.bytes) - Number(before.bytes)) / detections),
          // of which the detection history (kept for the retention period) and the audit trail (append-only, kept)
          detections_bytes_per_detection: Math.round((Number(after.detections) - Number(before.detections)) / detections),
          audit_bytes_per_detection: Math.round((Number(after.audit) - Number(before.audit)) / detections),
        },
        null,
        2,
      ),
    );
  } finally {
    await client.end();
    await ctx.close();
  }
} finally {
  server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
