import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createProcessLogger, processLogDestination } from '../../../src/platform/lib/index.ts';

// The process logger writes its lines synchronously (issue 16 §4); what an operator relies on is
// that a line is out of the process as soon as it is logged, on a quiet server too, and that
// nothing is lost when the process exits.

const linesOf = (file: string) =>
  readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

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
  const lines = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { n: number; node_id: string });
  assert.deepEqual(lines.map((l) => l.n), [0, 1, 2]);
  assert.ok(lines.every((l) => l.node_id === 'node-x'));
});
