import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { loadConfig } from '../src/platform/config/config.ts';
import { createContext, type VigilContext } from '../src/context.ts';
import { startPostgres } from '../scripts/pg-server.mjs';

/**
 * Webhook delivery (issue 3 §7): deliveries/s to a loopback receiver, and the latency from
 * "event enqueued" (the write transaction that creates the outbox row starts) to "receiver has the
 * body", p50/p95. Real SQLite (WAL) and PostgreSQL, the real worker (8 in flight), a real HTTP
 * receiver on 127.0.0.1 that answers 200 at once.
 */
const BURST = Number(process.env.BENCH_WEBHOOK_BURST ?? 2000);
const LATENCY_EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 300);
const LATENCY_RATE_PER_S = 50;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function startReceiver(onBody: (id: string) => void) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      onBody((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, close: () => { server.closeAllConnections(); server.close(); } };
}

async function runOnce(storage: 'sqlite' | 'postgres', databaseUrl: string | null) {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-wh-'));
  const ctx: VigilContext = await createContext(
    loadConfig({ dataDir, databaseUrl, runSources: false, seedDemo: false, webhookAllowPrivate: true }, {}),
  );
  const key = await ctx.keys.createKey({ tenantKind: 'organization', tenantName: 'Bench', mode: 'live' });
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let received = 0;
  let onAll: (() => void) | null = null;
  let expected = 0;
  const receiver = await startReceiver((id) => {
    received++;
    const t0 = sentAt.get(id);
    if (t0 !== undefined) latencies.push(performance.now() - t0);
    if (received === expected) onAll?.();
  });
  const principal = await ctx.keys.authenticate(key.key);
  await ctx.webhooks.create(principal, { keyId: key.id }, { url: receiver.url, events: ['detection.anomaly'] }, key.key);
  await ctx.deliveryWorker.start();
  const payload = {
    stream_id: 'stream_bench',
    incident_id: null,
    detection: { type: 'person', subtype: 'unrecognized', confidence: 0.9, location: 'lobby', timestamp: new Date().toISOString() },
  };

  // throughput: a burst of events committed 100 per transaction, drained by the worker
  expected = BURST;
  const done = new Promise<void>((r) => (onAll = r));
  const t0 = performance.now();
  for (let i = 0; i < BURST; i += 100) {
    await ctx.database.withWriteLock(async (trx) => {
      for (let j = i; j < Math.min(BURST, i + 100); j++) await ctx.webhooks.enqueueIn(trx, { tenantId: key.tenant_id, kind: 'detection.anomaly', payload });
    });
  }
  await done;
  const burstSeconds = (performance.now() - t0) / 1000;

  // latency: events one at a time at a steady rate, each in its own transaction
  received = 0;
  expected = LATENCY_EVENTS;
  const allLatency = new Promise<void>((r) => (onAll = r));
  for (let i = 0; i < LATENCY_EVENTS; i++) {
    const start = performance.now();
    await ctx.database.withWriteLock(async (trx) => {
      const { eventId } = await ctx.webhooks.enqueueIn(trx, { tenantId: key.tenant_id, kind: 'detection.anomaly', payload });
      sentAt.set(eventId, start);
    });
    await new Promise((r) => setTimeout(r, 1000 / LATENCY_RATE_PER_S));
  }
  await allLatency;
  const sorted = latencies.sort((a, b) => a - b);
  receiver.close();
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
  return {
    storage,
    burst_deliveries: BURST,
    deliveries_per_s: Math.round(BURST / burstSeconds),
    latency_events: sorted.length,
    latency_rate_per_s: LATENCY_RATE_PER_S,
    enqueue_to_received_ms: { p50: +percentile(sorted, 50).toFixed(2), p95: +percentile(sorted, 95).toFixed(2), max: +sorted[sorted.length - 1].toFixed(2) },
  };
}

const results = [];
results.push(await runOnce('sqlite', null));
let pgServer: { url: string; stop(): void } | null = null;
try {
  pgServer = await startPostgres();
  const admin = new pg.Client({ connectionString: pgServer.url });
  await admin.connect();
  await admin.query('CREATE DATABASE bench_webhooks');
  await admin.end();
  results.push(await runOnce('postgres', pgServer.url.replace(/\/[^/]*$/, '/bench_webhooks')));
} catch (err) {
  console.warn(`postgres run skipped: ${(err as Error).message}`);
} finally {
  pgServer?.stop();
}
for (const r of results) {
  console.log(
    `webhooks ${r.storage.padEnd(8)}: ${r.deliveries_per_s} deliveries/s (burst of ${r.burst_deliveries}); enqueue→received p50 ${r.enqueue_to_received_ms.p50} ms  p95 ${r.enqueue_to_received_ms.p95} ms`,
  );
}
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/webhooks.json',
  JSON.stringify({ bench: 'webhook-delivery', node: process.version, cpus: cpus().length, cpu_model: cpus()[0]?.model, measured_at: new Date().toISOString(), concurrency: 8, results }, null, 2) + '\n',
);
console.log('wrote bench/results/webhooks.json');
