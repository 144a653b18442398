import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, request, Agent, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/platform/config/config.ts';
import { createContext, type VigilContext } from '../src/context.ts';
import { figure, onSqliteThenPostgres, percentile, writeResult, type Figure } from './machine.ts';

/**
 * Webhook delivery: deliveries/s to a loopback receiver, and the latency from
 * "event enqueued" (the write transaction that creates the outbox row starts) to "receiver has the
 * body", p50/p95. Real SQLite (WAL) and PostgreSQL, the real worker (8 in flight), a real HTTP
 * receiver on 127.0.0.1 that answers 200 at once.
 *
 * The limit, measured in the same run against the same receiver: a bare loop of
 * node:http POSTs through a keep-alive Agent, as many in flight as the worker (8), sending the
 * exact bytes and headers of a real delivery (captured from the first one). Its POSTs/s, measured
 * right after the worker's burst, bound deliveries/s; its one-at-a-time POST → "receiver has the
 * body" time, measured right after the worker's latency phase, bounds the latency.
 */
const BURST = Number(process.env.BENCH_WEBHOOK_BURST ?? 2000);
const LATENCY_EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 300);
const LATENCY_RATE_PER_S = 50;
const CONCURRENCY = 8; // the delivery worker's default

/** The first delivery the receiver saw, replayed by the raw limit. */
let captured: { body: Buffer; headers: Record<string, string> } | null = null;

async function startReceiver(onBody: (id: string, rawId: string | undefined) => void) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (!captured) captured = { body, headers: pickHeaders(req.headers) };
      // the raw limit's requests carry their own id in a header (the body is a real delivery's)
      onBody((JSON.parse(body.toString('utf8')) as { id: string }).id, req.headers['x-bench-raw'] as string | undefined);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

function pickHeaders(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) out[k] = v;
  return out;
}

/** One POST of the captured delivery through the keep-alive agent; resolves when the response has ended. */
function rawPost(url: URL, agent: Agent, rawId: string): Promise<void> {
  const { body, headers } = captured!;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': String(body.length), 'x-bench-raw': rawId } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`raw POST: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The limit's throughput: POSTs/s with CONCURRENCY in flight (after a short warm-up). */
async function rawBurst(url: URL, agent: Agent, count: number): Promise<number> {
  for (let i = 0; i < 200; i++) await rawPost(url, agent, `warm_${i}`);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await rawPost(url, agent, `burst_${next++}`);
    }),
  );
  return Math.round(count / ((performance.now() - t0) / 1000));
}

/** The limit's latency: one POST at a time at the same steady rate, POST → "receiver has the body". */
async function rawLatency(url: URL, agent: Agent, rawReceived: Map<string, number>, events: number) {
  const ms: number[] = [];
  for (let i = 0; i < events; i++) {
    const id = `lat_${i}`;
    const start = performance.now();
    await rawPost(url, agent, id);
    ms.push(rawReceived.get(id)! - start);
    await new Promise((r) => setTimeout(r, 1000 / LATENCY_RATE_PER_S));
  }
  ms.sort((a, b) => a - b);
  return { p50: +percentile(ms, 50).toFixed(2), p95: +percentile(ms, 95).toFixed(2), max: +ms[ms.length - 1].toFixed(2) };
}

async function runOnce(storage: 'sqlite' | 'postgres', databaseUrl: string | null) {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-wh-'));
  const ctx: VigilContext = await createContext(loadConfig({ dataDir, databaseUrl, runSources: false, seedDemo: false, webhookAllowPrivate: true }, {}));
  const key = await ctx.keys.createKey({ tenantKind: 'organization', tenantName: 'Bench', mode: 'live' });
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let received = 0;
  let onAll: (() => void) | null = null;
  let expected = 0;
  const rawReceived = new Map<string, number>();
  const receiver = await startReceiver((id, rawId) => {
    if (rawId) {
      rawReceived.set(rawId, performance.now());
      return;
    }
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
  // the limit right after, against the same receiver (the worker is idle: everything was delivered)
  const rawUrl = new URL(receiver.url);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const rawPostsPerS = await rawBurst(rawUrl, agent, BURST);

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
  const rawLat = await rawLatency(rawUrl, agent, rawReceived, LATENCY_EVENTS);
  agent.destroy();
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
    raw_keepalive_post_loop: { posts_per_s: rawPostsPerS, post_to_received_ms: rawLat },
  };
}

const results = await onSqliteThenPostgres('bench_webhooks', runOnce);
const figures: Figure[] = [];
const TARGET_PER_S = { sqlite: 2000, postgres: 1000 };
for (const r of results) {
  console.log(
    `webhooks ${r.storage.padEnd(8)}: ${r.deliveries_per_s} deliveries/s (burst of ${r.burst_deliveries}); enqueue→received p50 ${r.enqueue_to_received_ms.p50} ms  p95 ${r.enqueue_to_received_ms.p95} ms; raw ${r.raw_keepalive_post_loop.posts_per_s} POSTs/s, p95 ${r.raw_keepalive_post_loop.post_to_received_ms.p95} ms`,
  );
  const label = r.storage === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  figures.push(
    figure(
      `webhook deliveries/s, burst of ${r.burst_deliveries}, ${label}`,
      r.deliveries_per_s,
      'deliveries/s',
      'higher',
      {
        name: `raw node:http POST loop, keep-alive Agent, ${CONCURRENCY} in flight, same receiver and bytes`,
        value: r.raw_keepalive_post_loop.posts_per_s,
        unit: 'POSTs/s',
      },
      { value: TARGET_PER_S[r.storage] },
    ),
    figure(`webhook enqueue → received p95 at ${LATENCY_RATE_PER_S}/s, ${label}`, r.enqueue_to_received_ms.p95, 'ms', 'lower', {
      name: `raw node:http POST → received, one at a time at ${LATENCY_RATE_PER_S}/s, same receiver, p95`,
      value: r.raw_keepalive_post_loop.post_to_received_ms.p95,
      unit: 'ms',
    }),
  );
}
writeResult('webhooks', 'webhook-delivery', figures, {
  concurrency: CONCURRENCY,
  results,
  notes: [
    'deliveries: the real worker claims, signs, POSTs and records each delivery; the raw loop only POSTs the same bytes',
    'PostgreSQL is the throwaway test server (fsync=off, synchronous_commit=off)',
  ],
});
