import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createProcessLogger, processLogDestination } from '../../../src/platform/lib/index.ts';

// The process logger writes its lines synchronously; what an operator relies on is
// that a line is out of the process as soon as it is logged, on a quiet server too, and that
// nothing is lost when the process exits.

const linesOf = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

test('a line is written by the time the log call returns, with no other traffic to push it out', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-log-'));
  const file = join(dir, 'out.log');
  const log = createProcessLogger({ level: 'info', nodeId: 'node-q', destination: processLogDestination(file) });
  try {
    log.info({ request_id: 'req_lonely' }, 'request completed');
    const lines = linesOf(file);
    assert.equal(lines.length, 1, 'the line is in the file already');
    assert.equal(lines[0].request_id, 'req_lonely');
    assert.equal(lines[0].node_id, 'node-q');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('lines logged just before the process exits reach its standard output', () => {
  const lib = new URL('../../../src/platform/lib/index.ts', import.meta.url).href;
  // the child logs to its standard output (the default destination) and exits at once
  const script = `
    const { createProcessLogger } = await import(${JSON.stringify(lib)});
    const log = createProcessLogger({ level: 'info', nodeId: 'node-x' });
    for (let i = 0; i < 3; i++) log.info({ n: i }, 'before exit');
    process.exit(0);
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { n: number; node_id: string });
  assert.deepEqual(
    lines.map((l) => l.n),
    [0, 1, 2],
  );
  assert.ok(lines.every((l) => l.node_id === 'node-x'));
});

test('a stalled standard-output reader costs log lines, counted in /metrics, never requests', async () => {
  const { spawn } = await import('node:child_process');
  const dir = mkdtempSync(join(tmpdir(), 'vigil-stall-'));
  const src = (p: string) => JSON.stringify(new URL(`../../../src/${p}`, import.meta.url).href);
  // a real app that logs every request to its standard output, whose pipe this test never reads
  const script = `
    const { loadConfig } = await import(${src('platform/config/config.ts')});
    const { createContext } = await import(${src('context.ts')});
    const { buildApp } = await import(${src('app.ts')});
    const { createProcessLogger } = await import(${src('platform/lib/index.ts')});
    const config = loadConfig({ runSources: false, seedDemo: false, dataDir: ${JSON.stringify(dir)}, databaseUrl: null, publicBaseUrl: 'http://vigil.test' }, {});
    const log = createProcessLogger({ level: 'info', nodeId: 'node-stall' });
    const ctx = await createContext(config, { log });
    const app = await buildApp(ctx, { loggerInstance: log });
    await app.listen({ port: 0, host: '127.0.0.1' });
    process.stderr.write('PORT ' + app.server.address().port + '\\n');
  `;
  // a file, not -e: the app's worker threads inherit the process's exec arguments
  const file = join(dir, 'stalled.mjs');
  writeFileSync(file, script);
  const child = spawn(process.execPath, ['--import', 'tsx', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  // stdout is a pipe nobody drains: it fills after about 64 KiB, a few hundred request lines
  child.stdout.pause();
  let childErr = '';
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stderr.on('data', (c) => {
        childErr += c;
        const m = /PORT (\d+)/.exec(childErr);
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`child exited ${code}: ${childErr}`)));
    });
    const started = Date.now();
    // about 2.5 KB a line: 1,000 lines are more than the pipe (64 KiB) and the writer's backlog (1 MiB) hold
    for (let i = 0; i < 1000; i++) {
      // each request must answer within 5 s: with blocking writes the server froze once the pipe was full
      const res = await fetch(`http://127.0.0.1:${port}/healthz?n=${i}&pad=${'x'.repeat(2400)}`, { signal: AbortSignal.timeout(5000) }).catch((err) => {
        throw new Error(`request ${i} got no answer: ${err.cause?.message ?? err.message}; child stderr: ${childErr.slice(-2000)}`);
      });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
    }
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
    const m = /^vigil_log_lines_dropped_total\{[^}]*\} (\d+)/m.exec(metrics);
    assert.ok(m, 'the counter is exported');
    assert.ok(Number(m[1]) > 0, `dropped lines counted: ${m[1]}`);
    assert.ok(Date.now() - started < 60_000);
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
