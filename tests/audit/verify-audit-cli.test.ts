import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bearer, createTestApp, type TestApp } from '../helpers/harness.ts';

// `npx vigil verify-audit FILE`: an audit export checked offline by the CLI as a real process
// (the same audit checks as verify-evidence), naming the entry when one byte changes.
const CLI = fileURLToPath(new URL('../../bin/vigil.mjs', import.meta.url));
const KEY = 'verify-audit-test-checkpoint-key-0123456789';
let t: TestApp;
let dir: string;
let exported: string;

before(async () => {
  t = await createTestApp({ config: { webhookAllowPrivate: true, auditCheckpointKey: KEY } });
  const key = await t.orgKey();
  for (const i of [1, 2, 3]) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: { ...bearer(key), 'x-operator': 'ana' },
      payload: { url: `http://127.0.0.1:9/${i}` },
    });
    assert.equal(res.statusCode, 201);
  }
  const exp = await t.app.inject({ url: '/v1/audit/export', headers: bearer(key) });
  assert.equal(exp.statusCode, 200);
  exported = exp.body;
  dir = mkdtempSync(join(tmpdir(), 'vigil-verify-audit-'));
});
after(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => {
  const env = { ...process.env };
  delete env.VIGIL_AUDIT_CHECKPOINT_KEY;
  return spawnSync(process.execPath, [CLI, 'verify-audit', ...args], { encoding: 'utf8', env, timeout: 60_000 });
};
const write = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

test('an untouched export verifies with its checkpoint signature, and without the key says what was not checked', () => {
  const file = write('audit.ndjson', exported);
  const entries = exported.split('\n').filter(Boolean).length - 1;
  const signed = cli(file, '--key', KEY);
  assert.equal(signed.status, 0, signed.stdout + signed.stderr);
  assert.match(signed.stdout, new RegExp(`PROVEN {2}the ${entries} audit entries link hash to hash into entries 1–${entries} of tenant org_`));
  assert.match(signed.stdout, /PROVEN {2}checkpoint aud_\S+ \(.*\) carries the server's signature/);
  assert.match(signed.stdout, /the audit trail verifies\.\n$/);
  const unsigned = cli(file);
  assert.equal(unsigned.status, 0, unsigned.stdout + unsigned.stderr);
  assert.match(unsigned.stdout, /NOTE {4}checkpoint signature not checked/);
  const wrongKey = cli(file, '--key', 'x'.repeat(40));
  assert.equal(wrongKey.status, 1);
  assert.match(wrongKey.stdout, /FAILED {2}the checkpoint's signature does not match the given key/);
});

test('one byte changed in an entry: exit 1 naming that entry', () => {
  const lines = exported.split('\n');
  // the second webhook's creation: change one character of its stored data
  const i = lines.findIndex((l, n) => n > 0 && l.includes('"webhook.created"') && l.includes('127.0.0.1:9/2'));
  assert.ok(i > 0);
  const id = JSON.parse(lines[i]).id as string;
  const changed = [...lines];
  changed[i] = lines[i].replace('127.0.0.1:9/2', '127.0.0.1:9/7');
  assert.equal(Buffer.byteLength(changed[i]), Buffer.byteLength(lines[i]));
  const res = cli(write('changed.ndjson', changed.join('\n')), '--key', KEY);
  assert.equal(res.status, 1, res.stdout + res.stderr);
  assert.match(res.stdout, new RegExp(`FAILED {2}audit entry ${id}: entry_altered: Entry ${id} does not hash to its stored hash`));
  assert.match(res.stdout, /the audit trail does NOT verify\.\n$/);

  // an entry removed from the middle: the next one no longer links, naming the one before the gap
  const removed = lines.filter((_, n) => n !== i);
  const prevId = JSON.parse(lines[i - 1]).id as string;
  const gap = cli(write('removed.ndjson', removed.join('\n')));
  assert.equal(gap.status, 1);
  assert.match(gap.stdout, new RegExp(`FAILED {2}audit entry ${prevId}: link_broken`));

  // the newest entries cut off: the run no longer ends at the signed head
  const cut = cli(write('cut.ndjson', lines.slice(0, -2).join('\n')));
  assert.equal(cut.status, 1);
  assert.match(cut.stdout, /FAILED {2}the export ends with entry aud_\S+ .*not with the checkpoint's head/);

  // no file: a usage error (exit 2)
  assert.equal(cli(join(dir, 'missing.ndjson')).status, 2);
});
