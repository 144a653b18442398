/**
 * Streamed conversation replies (issue 4 §5: first frame within 50 ms of the request). A real
 * server on loopback with the demo-style simulated home; each request is a fresh streamed
 * conversation; we time the first SSE frame (conversation.created) and the completion frame.
 * Writes bench/results/conversation.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/platform/config/config.ts';
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

const first: number[] = [];
const done: number[] = [];
// one warm-up request builds the simulated home
for (let i = -1; i < N; i++) {
  const t0 = performance.now();
  const res = await fetch(`${base}/v1/conversations`, {
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
const result = {
  bench: 'conversation-stream',
  node: process.version,
  load_average_1m: +loadavg()[0].toFixed(2),
  measured_at: new Date().toISOString(),
  requests: N,
  first_frame_ms: { p50: percentile(first, 50), p95: percentile(first, 95), max: percentile(first, 100) },
  completed_ms: { p50: percentile(done, 50), p95: percentile(done, 95), max: percentile(done, 100) },
  target_first_frame_ms: 50,
};
console.log(`conversation stream: first frame p50 ${result.first_frame_ms.p50} ms p95 ${result.first_frame_ms.p95} ms; completed p50 ${result.completed_ms.p50} ms p95 ${result.completed_ms.p95} ms`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/conversation.json', JSON.stringify(result, null, 2) + '\n');
await app.close();
await ctx.close();
rmSync(dataDir, { recursive: true, force: true });
