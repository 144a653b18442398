/**
 * Streamed conversation replies (first frame within 50 ms of the request). A real
 * server on loopback with the demo-style simulated home; each request is a fresh streamed
 * conversation; we time the first SSE frame (conversation.created) and the completion frame.
 * Writes bench/results/conversation.json.
 * The limit, in the same process and run: bare Fastify on loopback answering the same
 * POST with an SSE stream of two small frames (created, completed) and nothing else, timed by the
 * same client loop: the first-frame time no streamed reply can beat on this machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/platform/config/config.ts';
import Fastify from 'fastify';
import { figure, writeResult } from './machine.ts';
import { createContext } from '../src/context.ts';
import { buildApp } from '../src/app.ts';

const N = Number(process.env.BENCH_CONVERSATIONS ?? 60);
const MESSAGES = [
  'keep an eye on the back door from sunset to sunrise',
  'watch the garage tonight and mute the nursery camera',
  'what does the driveway camera see?',
  'any events on the front porch today?',
  'unmute the nursery camera',
];

function percentile(sorted: number[], p: number) {
  return +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(2);
}

const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-conv-'));
const ctx = await createContext(loadConfig({ dataDir, databaseUrl: null, runSources: false, seedDemo: false }, {}));
const app = await buildApp(ctx);
await ctx.start();
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
const key = await ctx.keys.createKey({ tenantKind: 'household', tenantName: 'Bench Home', mode: 'test', rateLimitPerMinute: 1_000_000 });

// the limit: an SSE stream with nothing behind it
const bare = Fastify();
bare.post('/v1/conversations', (_req, reply) => {
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  reply.raw.write('event: conversation.created\ndata: {"id":"conv_bench"}\n\n');
  reply.raw.end('event: conversation.completed\ndata: {"id":"conv_bench"}\n\n');
});
await bare.listen({ port: 0, host: '127.0.0.1' });
const bareBase = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;

/** N streamed conversations against `url` (one warm-up first); first-frame and completed times. */
async function measure(url: string) {
  const first: number[] = [];
  const done: number[] = [];
  // one warm-up request builds the simulated home
  for (let i = -1; i < N; i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}/v1/conversations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ message: MESSAGES[(i + MESSAGES.length) % MESSAGES.length] }),
    });
    const reader = res.body!.getReader();
    let text = '';
    let tFirst = 0;
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) break;
      if (!tFirst) tFirst = performance.now();
      text += new TextDecoder().decode(value);
    }
    const tDone = performance.now();
    if (!text.includes('event: conversation.completed')) throw new Error(`stream did not complete: ${text.slice(0, 300)}`);
    if (i >= 0) {
      first.push(tFirst - t0);
      done.push(tDone - t0);
    }
  }
  first.sort((a, b) => a - b);
  done.sort((a, b) => a - b);
  return {
    first_frame_ms: { p50: percentile(first, 50), p95: percentile(first, 95), max: percentile(first, 100) },
    completed_ms: { p50: percentile(done, 50), p95: percentile(done, 95), max: percentile(done, 100) },
  };
}

// alternate app and bare in halves so both see the same machine state
const app1 = await measure(base);
const bare1 = await measure(bareBase);
const app2 = await measure(base);
const bare2 = await measure(bareBase);
const merge = (a: typeof app1, b: typeof app1) => ({
  first_frame_ms: {
    p50: +((a.first_frame_ms.p50 + b.first_frame_ms.p50) / 2).toFixed(2),
    p95: Math.max(a.first_frame_ms.p95, b.first_frame_ms.p95),
    max: Math.max(a.first_frame_ms.max, b.first_frame_ms.max),
  },
  completed_ms: {
    p50: +((a.completed_ms.p50 + b.completed_ms.p50) / 2).toFixed(2),
    p95: Math.max(a.completed_ms.p95, b.completed_ms.p95),
    max: Math.max(a.completed_ms.max, b.completed_ms.max),
  },
});
const appR = merge(app1, app2);
const bareR = merge(bare1, bare2);
console.log(
  `conversation stream: first frame p50 ${appR.first_frame_ms.p50} ms p95 ${appR.first_frame_ms.p95} ms; completed p50 ${appR.completed_ms.p50} ms p95 ${appR.completed_ms.p95} ms; bare SSE first frame p95 ${bareR.first_frame_ms.p95} ms`,
);
const LIMIT = 'bare Fastify SSE stream of two small frames and nothing else, same client loop';
writeResult(
  'conversation',
  'conversation-stream',
  [
    figure(
      'streamed conversation: first SSE frame, p95',
      appR.first_frame_ms.p95,
      'ms',
      'lower',
      { name: `${LIMIT}: first frame, p95`, value: bareR.first_frame_ms.p95, unit: 'ms' },
      { value: 50 },
    ),
    figure('streamed conversation: first SSE frame, p50', appR.first_frame_ms.p50, 'ms', 'lower', {
      name: `${LIMIT}: first frame, p50`,
      value: bareR.first_frame_ms.p50,
      unit: 'ms',
    }),
    figure('streamed conversation: completed, p95', appR.completed_ms.p95, 'ms', 'lower', {
      name: `${LIMIT}: completed, p95`,
      value: bareR.completed_ms.p95,
      unit: 'ms',
    }),
  ],
  {
    requests: 2 * N,
    app: appR,
    bare_sse: bareR,
    target_first_frame_ms: 50,
    notes: ["p50 is the mean of two alternating halves' p50, p95 and max the larger of the two"],
  },
);
await bare.close();
await app.close();
await ctx.close();
rmSync(dataDir, { recursive: true, force: true });
