/**
 * A real Mosquitto broker for a test: on a free loopback port, with a temp config, killed by
 * stop(). `.ci/run` installs the Debian `mosquitto` package.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BINARIES = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto', 'mosquitto'];

export interface Mosquitto {
  port: number;
  url: string;
  /** kills the broker (the port may be reused by start()) */
  stop(): Promise<void>;
  /** starts it again on the same port after stop() */
  start(): Promise<void>;
  /** stops it and removes its temp directory */
  close(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect({ host: '127.0.0.1', port });
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

export async function startMosquitto(opts: { port?: number } = {}): Promise<Mosquitto> {
  const port = opts.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'vigil-mosquitto-'));
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(conf, [`listener ${port} 127.0.0.1`, 'allow_anonymous true', 'persistence false', 'log_dest none', ''].join('\n'));
  let child: ChildProcess | null = null;
  const launch = async () => {
    let lastErr: unknown = null;
    for (const bin of BINARIES) {
      const c = spawn(bin, ['-c', conf], { stdio: 'ignore' });
      const failed = await new Promise<boolean>((resolve) => {
        c.once('error', (err) => {
          lastErr = err;
          resolve(true);
        });
        c.once('spawn', () => resolve(false));
      });
      if (failed) continue;
      child = c;
      const deadline = Date.now() + 10_000;
      while (!(await reachable(port))) {
        if (c.exitCode !== null) throw new Error(`mosquitto exited with ${c.exitCode} (port ${port})`);
        if (Date.now() > deadline) throw new Error('mosquitto did not listen within 10 s');
        await new Promise((r) => setTimeout(r, 50));
      }
      return;
    }
    throw new Error(`mosquitto is not installed (apt-get install mosquitto): ${String(lastErr)}`);
  };
  const kill = async () => {
    const c = child as ChildProcess | null;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise<void>((r) => c.once('exit', () => r()));
    c.kill('SIGKILL');
    await exited;
  };
  await launch();
  process.on('exit', () => (child as ChildProcess | null)?.kill('SIGKILL'));
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    stop: async () => {
      await kill();
    },
    start: launch,
    close: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
