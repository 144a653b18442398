// A local Vigil cluster as real processes: a throwaway PostgreSQL, a Redis without
// persistence, N Vigil nodes and HAProxy in front. `npm run cluster` and tests/cluster use it.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, openSync, closeSync, readFileSync, existsSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startPostgres } from './pg-server.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export { freePort };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function findBinary(name, candidates) {
  for (const c of candidates) if (existsSync(c)) return c;
  try {
    return execFileSync('which', [name], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(`${name} is not installed (apt-get install ${name === 'redis-server' ? 'redis-server' : name})`);
  }
}

async function waitFor(what, fn, timeoutMs, describe = () => '') {
  const until = Date.now() + timeoutMs;
  let last;
  while (Date.now() < until) {
    try {
      if (await fn()) return;
    } catch (err) {
      last = err;
    }
    await sleep(150);
  }
  throw new Error(`${what} did not come up within ${timeoutMs} ms${last ? `: ${last.message}` : ''}${describe()}`);
}

async function httpOk(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  await res.arrayBuffer();
  return res.ok;
}

function exited(proc) {
  return proc.exitCode !== null || proc.signalCode !== null;
}

async function startRedis(dir) {
  const port = await freePort();
  const bin = findBinary('redis-server', ['/usr/bin/redis-server']);
  const log = join(dir, 'redis.log');
  const out = openSync(log, 'a');
  // no RDB, no AOF: the cluster's shared counters are disposable
  const proc = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'no'], {
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  await waitFor(
    'redis-server',
    () =>
      new Promise((resolve, reject) => {
        if (exited(proc)) return reject(new Error(readFileSync(log, 'utf8')));
        const c = connect({ port, host: '127.0.0.1' });
        c.once('connect', () => c.write('PING\r\n'));
        c.once('data', (d) => {
          c.destroy();
          resolve(String(d).startsWith('+PONG'));
        });
        c.once('error', () => resolve(false));
      }),
    10_000,
  );
  // stop() stops whichever process is `proc` then (a test may replace it with a restarted Redis)
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    proc,
    stop() {
      return stopProc(this.proc);
    },
  };
}

async function stopProc(proc, signal = 'SIGTERM', graceMs = 10_000) {
  if (exited(proc)) return;
  const done = new Promise((r) => proc.once('exit', r));
  try {
    proc.kill(signal);
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      proc.kill('SIGKILL');
    } catch {
      /* gone */
    }
  }, graceMs);
  await done;
  clearTimeout(timer);
}

function haproxyConfig(port, nodes) {
  return [
    'global',
    '  maxconn 4096',
    // HAProxy binds with SO_REUSEPORT by default: a second cluster (test files run in parallel)
    // handed the same free port would share it silently, and the kernel would spread one
    // cluster's requests over the other's nodes (seen as a valid key "not recognised"). Without
    // it, a taken port fails to bind and startCluster picks another.
    '  noreuseport',
    'defaults',
    '  mode http',
    '  option forwardfor',
    // a retry goes to another node; a GET or HEAD whose node died under it (connection reset, no
    // answer) is retried too, since reading twice changes nothing; a write is never replayed
    // (docs/deployment.md, "Rolling restarts")
    '  option redispatch 1',
    '  retries 2',
    '  retry-on conn-failure empty-response response-timeout',
    '  timeout connect 2s',
    '  timeout client 300s',
    '  timeout server 300s',
    '  timeout tunnel 1h',
    'frontend vigil',
    `  bind 127.0.0.1:${port}`,
    // node-to-node routes (a stream's owner takes forwarded frames and WHIP) are not for clients;
    // they refuse unsigned requests anyway (docs/deployment.md, "Forwarding to a stream's owner")
    '  http-request return status 404 content-type application/problem+json string "{\\"type\\":\\"about:blank\\",\\"title\\":\\"No such route\\",\\"status\\":404,\\"code\\":\\"route_not_found\\",\\"detail\\":\\"/internal/ routes are for the nodes of the cluster only.\\"}" if { path_beg /internal/ }',
    '  default_backend vigil_nodes',
    'backend vigil_nodes',
    '  balance roundrobin',
    '  http-request disable-l7-retry if !METH_GET !METH_HEAD',
    // a node is taken out after two failed checks one second apart (a stopping node's /healthz is
    // 503 for VIGIL_DRAIN_DELAY_MS before it closes its port), and back after one good one
    '  option httpchk GET /healthz',
    '  http-check expect status 200',
    '  default-server inter 1s fall 2 rise 1',
    ...nodes.filter((n) => n.role !== 'worker').map((n) => `  server ${n.id} 127.0.0.1:${n.port} check`),
    '',
  ].join('\n');
}

async function startHaproxy(dir, nodes) {
  const port = await freePort();
  const bin = findBinary('haproxy', ['/usr/sbin/haproxy']);
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(cfg, haproxyConfig(port, nodes));
  const log = join(dir, 'haproxy.log');
  const out = openSync(log, 'a');
  const proc = spawn(bin, ['-f', cfg, '-db'], { stdio: ['ignore', out, out] });
  closeSync(out);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    'haproxy',
    async () => {
      if (exited(proc)) throw new Error(readFileSync(log, 'utf8'));
      return httpOk(`${url}/healthz`);
    },
    15_000,
  );
  return { url, port, proc, config: cfg, stop: () => stopProc(proc) };
}

/**
 * One Vigil node as a child process (`node --import tsx src/main.ts`, what `npm start` execs).
 * Output goes to its log file; `output()` reads it (the demo keys are printed there).
 */
class VigilNode {
  constructor({ id, port, env, dir, role }) {
    this.id = id;
    this.port = port;
    this.env = env;
    this.dir = dir;
    this.role = role;
    this.url = `http://127.0.0.1:${port}`;
    this.log = join(dir, `${id}.log`);
    this.proc = null;
  }

  get pid() {
    return this.proc?.pid;
  }

  get running() {
    return this.proc !== null && !exited(this.proc);
  }

  output() {
    return existsSync(this.log) ? readFileSync(this.log, 'utf8') : '';
  }

  async start() {
    const out = openSync(this.log, 'a');
    this.proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env: this.env, stdio: ['ignore', out, out] });
    closeSync(out);
    await this.ready();
  }

  async ready(timeoutMs = 120_000) {
    await waitFor(
      `node ${this.id}`,
      async () => {
        if (exited(this.proc)) throw new Error(`node ${this.id} exited:\n${this.output().slice(-3000)}`);
        return httpOk(`${this.url}/healthz`);
      },
      timeoutMs,
      () => `\n${this.output().slice(-2000)}`,
    );
  }

  /** A signal, as an operator or the kernel would send it (SIGKILL, SIGSTOP, SIGCONT, SIGTERM). */
  signal(sig) {
    this.proc.kill(sig);
  }

  /** SIGKILL, and the exit observed. */
  async kill9() {
    await stopProc(this.proc, 'SIGKILL');
  }

  /** SIGTERM: the graceful shutdown (drain, release leases). */
  async stop(graceMs = 30_000) {
    if (this.proc) await stopProc(this.proc, 'SIGTERM', graceMs);
  }
}

/**
 * Starts PostgreSQL, Redis, `nodes` Vigil nodes (node-0 migrates and seeds the demo first; the
 * rest start together) and HAProxy over the nodes that serve the API. Returns the URL, demo keys,
 * a live organization key (for real sources) and handles to every process.
 *
 * opts.env: extra environment for every node; opts.roles: a role per node (default all);
 * opts.drainDelayMs: VIGIL_DRAIN_DELAY_MS of every node (default 2500, beyond HAProxy's checks);
 * opts.pgUrl: an existing PostgreSQL server to create the database in (tests reuse npm test's).
 */
export async function startCluster(opts = {}) {
  const count = opts.nodes ?? 3;
  const dir = mkdtempSync(join(tmpdir(), 'vigil-cluster-'));
  const started = [];
  const stopAll = async () => {
    for (const s of started.reverse()) await s().catch(() => undefined);
    if (!opts.keepDir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    let databaseUrl;
    if (opts.pgUrl) {
      const name = `cluster_${Date.now().toString(36)}_${process.pid}`;
      execFileSync(
        process.execPath,
        [
          '-e',
          `const pg=require('pg');const c=new pg.Client({connectionString:process.argv[1]});c.connect().then(()=>c.query('CREATE DATABASE ${name}')).then(()=>c.end())`,
          opts.pgUrl,
        ],
        { cwd: ROOT },
      );
      databaseUrl = opts.pgUrl.replace(/\/[^/]*$/, `/${name}`);
    } else {
      const pg = await startPostgres();
      started.push(async () => pg.stop());
      databaseUrl = pg.url;
    }
    const redis = await startRedis(dir);
    started.push(() => redis.stop());

    const nodes = [];
    for (let i = 0; i < count; i++) {
      const id = `node-${i}`;
      const port = await freePort();
      const nodeDir = join(dir, id);
      mkdirSync(nodeDir, { recursive: true });
      const role = opts.roles?.[i] ?? 'all';
      nodes.push(
        new VigilNode({
          id,
          port,
          dir,
          role,
          env: {
            ...process.env,
            PORT: String(port),
            HOST: '127.0.0.1',
            DATABASE_URL: databaseUrl,
            REDIS_URL: redis.url,
            VIGIL_NODE_ID: id,
            VIGIL_ROLE: role,
            VIGIL_DATA_DIR: nodeDir,
            VIGIL_SEED_DEMO: i === 0 ? '1' : '0',
            VIGIL_PUBLIC_URL: 'http://127.0.0.1', // replaced below by the proxy's URL
            // every client reaches a node through HAProxy on loopback: per-address caps would count them all as one
            VIGIL_MAX_CONNECTIONS_PER_ADDRESS: '0',
            VIGIL_TRUST_PROXY: '127.0.0.1',
            // longer than HAProxy's two failed checks one second apart, so a stopping node is out of
            // rotation before it refuses anything
            VIGIL_DRAIN_DELAY_MS: String(opts.drainDelayMs ?? 2_500),
            LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
            ...(opts.env ?? {}),
          },
        }),
      );
    }
    started.push(async () => {
      await Promise.all(nodes.map((n) => n.stop()));
    });
    const proxyPort = await freePort();
    for (const n of nodes) n.env.VIGIL_PUBLIC_URL = `http://127.0.0.1:${proxyPort}`;
    // node-0 first: it runs the migrations and seeds the demo organization and household
    await nodes[0].start();
    await Promise.all(nodes.slice(1).map((n) => n.start()));
    const haproxy = await startHaproxy(dir, nodes).catch(async (err) => {
      if (!String(err.message).includes('cannot bind') && !String(err.message).includes('Address already')) throw err;
      return startHaproxy(dir, nodes);
    });
    started.push(() => haproxy.stop());

    const seeded = nodes[0].output();
    const orgKey = /organization key \(Surface B, sandbox\): (\S+)/.exec(seeded)?.[1] ?? null;
    const householdKey = /household key\s+\(Surface A, sandbox\): (\S+)/.exec(seeded)?.[1] ?? null;
    // a live key of the demo organization: streams it creates read real sources (a test key's are simulated)
    const cli = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', 'keys', 'create', '--org', 'Demo Organization', '--name', 'cluster live key', '--json'],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: databaseUrl, VIGIL_DATA_DIR: dir },
        encoding: 'utf8',
      },
    );
    const liveOrgKey = JSON.parse(cli.trim().split('\n').pop()).key;
    return {
      url: haproxy.url,
      dir,
      databaseUrl,
      redisUrl: redis.url,
      redis,
      haproxy,
      nodes,
      keys: { org: orgKey, household: householdKey, liveOrg: liveOrgKey },
      /** a node by id */
      node: (id) => nodes.find((n) => n.id === id),
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
