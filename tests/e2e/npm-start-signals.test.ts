import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `npm start` stopped with SIGTERM sent to the npm process (as a service manager
 * does) left the node child running — npm ran the script through `sh -c`, and the shell neither
 * passed the signal on nor exec'd node. The script now execs node, so npm's forwarded signal
 * reaches the server, which drains in-flight requests and exits.
 */

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ port, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', () => resolve(true));
  });
}

test('npm start: SIGTERM to npm drains an in-flight request, stops the node child and frees the port', { timeout: 180_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-npm-start-'));
  const npm = spawn('npm', ['start', '--silent'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', VIGIL_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'info', VIGIL_RUN_SOURCES: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  npm.stdout!.on('data', (d) => (out += d));
  npm.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) => npm.on('exit', (code, signal) => r({ code, signal })));
  let node: number[] = [];
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 120_000);
      const check = () => {
        const m = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (m && /organization key/.test(out)) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      };
      npm.stdout!.on('data', check);
      void exited.then(() => reject(new Error(`npm exited early:\n${out}`)));
    });
    const orgKey = /organization key \(Surface B, sandbox\): (vk_test_\w+)/.exec(out)![1];
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    assert.equal(health.status, 200);
    node = childrenOf(npm.pid!);
    assert.equal(node.length, 1, `npm has one child, node itself (the script execs it): ${node}`);

    // a request in flight: headers sent, the body still arriving when the signal comes
    const body = JSON.stringify({ name: 'Late camera', source_type: 'sandbox', source_url: 'sandbox://late?scenario=lobby&seed=3', location: 'late_gate' });
    const sock = connect({ port, host: '127.0.0.1' });
    await new Promise((r) => sock.once('connect', r));
    let answer = '';
    sock.on('data', (d) => (answer += d));
    const closed = new Promise((r) => sock.once('close', r));
    sock.write(
      `POST /v1/streams HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${orgKey}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((r) => setTimeout(r, 300));

    npm.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    sock.write(body.slice(10));
    await closed;
    assert.match(answer, /^HTTP\/1.1 201 /, `in-flight request drained:\n${answer}\n${out}`);

    const { code, signal } = await exited;
    await new Promise((r) => setTimeout(r, 300));
    for (const pid of node) assert.equal(alive(pid), false, `node child ${pid} still running after npm exited`);
    assert.equal(await refused(port), true, 'nothing listens on the port any more');
    assert.match(out, /shutting down/);
    assert.match(out, /"msg":"stopped"/);
    assert.ok(code === 0 || signal === 'SIGTERM', `npm exit: code ${code}, signal ${signal}\n${out}`);
  } finally {
    if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGKILL');
    // whatever this test started must not outlive it, even when the test fails
    for (const pid of [...node, ...childrenOf(npm.pid!)]) {
      for (const grandchild of childrenOf(pid)) if (alive(grandchild)) process.kill(grandchild, 'SIGKILL');
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** `node src/main.ts` with `env` on a free port; resolves once it listens (and, with the demo seeded, has printed its keys). */
async function startMain(prefix: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', VIGIL_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'info', VIGIL_RUN_SOURCES: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run = { proc, dataDir, out: '', port: 0, exited: new Promise<number | null>((r) => proc.on('exit', (code) => r(code))) };
  proc.stdout!.on('data', (d) => (run.out += d));
  proc.stderr!.on('data', (d) => (run.out += d));
  const seeded = env.VIGIL_SEED_DEMO !== '0';
  try {
    run.port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${run.out}`)), 120_000);
      proc.stdout!.on('data', () => {
        const m = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(run.out);
        if (m && (!seeded || /organization key/.test(run.out))) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
    });
  } catch (err) {
    stopMain(run);
    throw err;
  }
  return run;
}

function stopMain(run: { proc: ReturnType<typeof spawn>; dataDir: string }) {
  if (run.proc.exitCode === null) run.proc.kill('SIGKILL');
  rmSync(run.dataDir, { recursive: true, force: true });
}

test('node src/main.ts started directly stops cleanly on SIGINT (Ctrl-C) with exit code 0', { timeout: 180_000 }, async () => {
  const run = await startMain('vigil-sigint-', { VIGIL_SEED_DEMO: '0' });
  try {
    run.proc.kill('SIGINT');
    run.proc.kill('SIGINT'); // a terminal's Ctrl-C reaches npm and node alike: the repeat must not break the drain
    assert.equal(await run.exited, 0, run.out);
    assert.equal(await refused(run.port), true);
    assert.equal((run.out.match(/shutting down/g) ?? []).length, 1, run.out);
  } finally {
    stopMain(run);
  }
});

test('with VIGIL_DRAIN_DELAY_MS, a stopping node answers /healthz 503 and keeps serving for the delay, then stops', { timeout: 180_000 }, async () => {
  const run = await startMain('vigil-drain-', { VIGIL_DRAIN_DELAY_MS: '3000' });
  try {
    const orgKey = /organization key \(Surface B, sandbox\): (vk_test_\w+)/.exec(run.out)![1];
    const base = `http://127.0.0.1:${run.port}`;
    assert.equal((await fetch(`${base}/healthz`)).status, 200);
    const signalled = Date.now();
    run.proc.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    const health = await fetch(`${base}/healthz`);
    assert.equal(health.status, 503, 'a balancer checking /healthz sees the node stopping');
    const streams = await fetch(`${base}/v1/streams`, { headers: { authorization: `Bearer ${orgKey}` } });
    assert.equal(streams.status, 200, 'while the balancer takes it out, the node still answers');
    assert.equal(await run.exited, 0, run.out);
    assert.ok(Date.now() - signalled >= 3000, 'the port stayed open for the drain delay');
    assert.equal(await refused(run.port), true);
  } finally {
    stopMain(run);
  }
});
