import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway redis-server for a test file: a free loopback port, no persistence, a temp dir.
 * `stop()` kills it (like a crash: no SHUTDOWN); `restart()` starts it again on the same port,
 * empty, as a Redis that came back after an outage would be.
 */
export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
  restart(): Promise<void>;
  /** stops it for good and removes its directory */
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Resolves once the port answers PING with PONG. */
async function waitForPong(port: number, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const sock = createConnection({ port, host: '127.0.0.1' });
      sock.setTimeout(500);
      sock.once('connect', () => sock.write('PING\r\n'));
      sock.once('data', (d) => {
        sock.destroy();
        resolve(d.toString().startsWith('+PONG'));
      });
      sock.once('error', () => resolve(false));
      sock.once('timeout', () => {
        sock.destroy();
        resolve(false);
      });
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server on port ${port} did not answer PING within ${ms} ms`);
}

export async function startRedis(): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-redis-'));
  const port = await freePort();
  let child: ChildProcess | null = null;
  const launch = async () => {
    const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    proc.on('error', () => undefined);
    child = proc;
    await waitForPong(port);
  };
  const kill = async () => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
  };
  await launch();
  process.once('exit', () => {
    const proc = child as ChildProcess | null;
    proc?.kill('SIGKILL');
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: kill,
    restart: launch,
    async close() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
