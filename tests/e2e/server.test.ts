import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dataDir = mkdtempSync(join(tmpdir(), 'vigil-e2e-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

/** Starts the real server the way `npm start` does and waits for its first output. */
async function startServer(): Promise<{ proc: ChildProcess; out: () => string; base: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', VIGIL_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000);
    const check = () => {
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    proc.stdout!.on('data', check);
    proc.on('exit', () => reject(new Error(`server exited:\n${out}`)));
  });
  return { proc, out: () => out, base };
}

async function stop(proc: ChildProcess) {
  const exited = new Promise<number | null>((r) => proc.on('exit', (c) => r(c)));
  proc.kill('SIGTERM');
  return exited;
}

test('npm start: first start seeds a demo and prints keys; a curl-style query gets an answer', async () => {
  const { proc, out, base } = await startServer();
  try {
    await new Promise((r) => setTimeout(r, 300));
    const orgKey = /organization key \(Surface B, sandbox\): (vk_test_\w+)/.exec(out())?.[1];
    const homeKey = /household key {4}\(Surface A, sandbox\): (vk_test_\w+)/.exec(out())?.[1];
    assert.ok(orgKey, out());
    assert.ok(homeKey);
    // the printed console address serves the console
    const consoleUrl = /Vigil web console: (http:\/\/\S+\/console)/.exec(out())?.[1];
    assert.equal(consoleUrl, `${base}/console`.replace('127.0.0.1', 'localhost'));
    assert.match(await (await fetch(`${base}/console`)).text(), /<script type="module" src="\/console\/app\/main\.js">/);
    assert.deepEqual(await (await fetch(`${base}/healthz`)).json(), { status: 'ok' });
    // ready, and the detector runs on ONNX Runtime (the tfjs fallback would say so here with its reason)
    assert.deepEqual(await (await fetch(`${base}/readyz`)).json(), {
      status: 'ready',
      detector: { runtime: 'onnxruntime', model: 'centernet models/centernet.onnx', fallback_reason: null },
    });
    const auth = { authorization: `Bearer ${orgKey}` };
    const streams = await (await fetch(`${base}/v1/streams`, { headers: auth })).json();
    assert.equal(streams.data.length, 5);
    const lobby = streams.data.find((s: { location: string }) => s.location === 'north_lobby');
    const res = await fetch(`${base}/v1/scenes/${lobby.scene_id}/query`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ stream_id: lobby.id, query: 'How many people are in the lobby right now?', window: '15m' }),
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.stream_id, lobby.id);
    assert.equal(typeof body.answer, 'string');
    assert.equal(typeof body.crowd_density, 'number');
    assert.equal(typeof body.anomaly_flag, 'boolean');
    assert.ok(Array.isArray(body.detections));
    assert.match(body.answered_at, /\.\d{3}Z$/);
    assert.ok(res.headers.get('x-request-id'));
    const spec = await (await fetch(`${base}/openapi.json`)).json();
    assert.equal(spec.openapi, '3.1.0');
    // the demo household's key is an owner key: it manages keys
    const keys = await (await fetch(`${base}/v1/keys`, { headers: { authorization: `Bearer ${homeKey}` } })).json();
    assert.deepEqual(
      keys.data.map((k: { role: string }) => k.role),
      ['owner'],
    );
  } finally {
    assert.equal(await stop(proc), 0);
  }
  // second start: data kept, no new demo keys printed
  const again = await startServer();
  try {
    await new Promise((r) => setTimeout(r, 300));
    assert.doesNotMatch(again.out(), /organization key/);
  } finally {
    await stop(again.proc);
  }
});
