import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { createProcessLogger, LOG_FLUSH_MS, processLogDestination } from '../../../src/platform/lib/index.ts';

// The process logger buffers its lines (issue 16 §4); what an operator relies on is that a line
// still shows up promptly on a quiet server and that nothing is lost when the process exits.

const linesOf = (file: string) => {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  } catch {
    return [];
  }
};

test('a lone line on a quiet server is written within the flush period, though far below the buffer size', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-log-'));
  const file = join(dir, 'out.log');
  const log = createProcessLogger({ level: 'info', nodeId: 'node-q', destination: processLogDestination(file) });
  try {
    log.info({ request_id: 'req_lonely' }, 'request completed');
    const deadline = Date.now() + LOG_FLUSH_MS * 10;
    while (linesOf(file).length === 0 && Date.now() < deadline) await sleep(10);
    const lines = linesOf(file);
    assert.equal(lines.length, 1, 'the line was written without any other traffic');
    assert.equal(lines[0].request_id, 'req_lonely');
    assert.equal(lines[0].node_id, 'node-q');
  } finally {
    (log as unknown as { flush(): void }).flush?.();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('lines still in the buffer are written to standard output when the process exits', () => {
  const lib = new URL('../../../src/platform/lib/index.ts', import.meta.url).href;
  // the child logs to its standard output (the default destination) and exits at once, long
  // before the flush period and with far less than the buffer size gathered
  const script = `
    const { createProcessLogger } = await import(${JSON.stringify(lib)});
    const log = createProcessLogger({ level: 'info', nodeId: 'node-x' });
    for (let i = 0; i < 3; i++) log.info({ n: i }, 'before exit');
    process.exit(0);
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { n: number; node_id: string });
  assert.deepEqual(lines.map((l) => l.n), [0, 1, 2]);
  assert.ok(lines.every((l) => l.node_id === 'node-x'));
});
