import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { figure, writeResult } from './machine.ts';

/**
 * Authenticated read: `GET /v1/scenes/:id` with an organization key against the real
 * app listening on loopback, autocannon -c 50, alternating round by round with bare Fastify
 * answering the same JSON, so both see the same machine state. Writes req/s of both and the ratio
 * (target ≥ 0.30) to bench/results/http-read.json. Each server runs in its own process;
 * VIGIL_BENCH_PROF=1 starts the app with --cpu-prof (profile written to bench/results/profiles/).
 */
const CONNECTIONS = 50;
const ROUND_S = Number(process.env.BENCH_HTTP_ROUND_S ?? 5);
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 3);
const TARGET_RATIO = 0.3;

interface Server {
  child: ChildProcess;
  url: string;
  path: string;
  authorization: string | null;
  body?: unknown;
}

async function startServer(mode: 'app' | 'bare', stdin?: string): Promise<Server> {
  const prof = mode === 'app' && process.env.VIGIL_BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=bench/results/profiles'] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', 'bench/http-read.server.ts', mode], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin!.end(stdin ?? '');
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
  return { child, ...(JSON.parse(line) as Omit<Server, 'child'>) };
}

async function run(server: Server, seconds: number) {
  const result = await autocannon({
    url: server.url + server.path,
    connections: CONNECTIONS,
    duration: seconds,
    headers: server.authorization ? { authorization: server.authorization } : {},
  });
  const non2xx = result.non2xx + result.errors + result.timeouts;
  if (non2xx > 0) throw new Error(`${server.url}: ${non2xx} non-2xx/errors of ${result.requests.total}`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total };
}

const app = await startServer('app');
const bare = await startServer('bare', JSON.stringify(app.body));
try {
  // warm both (JIT, SQLite page cache) before anything is recorded
  await run(app, 2);
  await run(bare, 2);
  // the machine is shared: each round records the 1-minute load average, so a round run beside
  // someone else's work can be told apart (the ratio holds up better than either figure alone)
  const rounds: { app_rps: number; bare_rps: number; ratio: number; app_p99_ms: number; bare_p99_ms: number; load_1m: number }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const a = await run(app, ROUND_S);
    const b = await run(bare, ROUND_S);
    rounds.push({
      app_rps: Math.round(a.rps),
      bare_rps: Math.round(b.rps),
      ratio: Number((a.rps / b.rps).toFixed(3)),
      app_p99_ms: a.p99,
      bare_p99_ms: b.p99,
      load_1m: Number(loadavg()[0].toFixed(2)),
    });
    console.log(
      `  round ${i + 1}: app ${Math.round(a.rps)} req/s, bare Fastify ${Math.round(b.rps)} req/s, ratio ${(a.rps / b.rps).toFixed(3)}, load ${loadavg()[0].toFixed(2)}`,
    );
  }
  const appRps = rounds.reduce((s, r) => s + r.app_rps, 0) / ROUNDS;
  const bareRps = rounds.reduce((s, r) => s + r.bare_rps, 0) / ROUNDS;
  const ratio = Number((appRps / bareRps).toFixed(3));
  writeResult(
    'http-read',
    'GET /v1/scenes/:id with an organization key, autocannon -c 50, alternating with bare Fastify',
    [
      figure(
        'authenticated GET /v1/scenes/:id, req/s (mean of rounds)',
        appRps,
        'req/s',
        'higher',
        { name: 'bare Fastify answering the same JSON on loopback, same autocannon settings, alternating rounds', value: bareRps, unit: 'req/s' },
        // the target is a ratio: at least 30% of bare Fastify
        { value: TARGET_RATIO * bareRps, unit: 'req/s (30% of bare Fastify in this run)' },
      ),
    ],
    {
      connections: CONNECTIONS,
      round_seconds: ROUND_S,
      rounds,
      app_rps: Math.round(appRps),
      bare_fastify_rps: Math.round(bareRps),
      ratio_to_bare_fastify: ratio,
      target_ratio: TARGET_RATIO,
      within_target: ratio >= TARGET_RATIO,
    },
  );
} finally {
  app.child.kill('SIGTERM');
  bare.child.kill('SIGTERM');
}
