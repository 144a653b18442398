import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/platform/config/config.ts';
import { createContext } from '../../src/context.ts';
import { buildApp } from '../../src/app.ts';
import { bearer } from '../helpers/harness.ts';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'vigil-cli-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

function vigil(...args: string[]) {
  return run(process.execPath, ['bin/vigil.mjs', ...args], { env: { ...process.env, VIGIL_DATA_DIR: dataDir, DATABASE_URL: '' } });
}

test('vigil keys create/list/revoke works against the database the running server uses', async () => {
  // the server is up on the same SQLite file while the CLI writes (WAL)
  const ctx = await createContext(loadConfig({ dataDir, databaseUrl: null, runSources: false }, {}));
  const app = await buildApp(ctx);
  try {
    const { stdout } = await vigil('keys', 'create', '--org', 'Acme Security', '--capabilities', 'streams:read,scenes:query', '--json');
    const created = JSON.parse(stdout);
    assert.deepEqual(Object.keys(created).sort(), ['id', 'key', 'mode', 'tenant_id']);
    assert.match(created.key, /^vk_live_[0-9A-Za-z]{36}$/);
    assert.match(created.tenant_id, /^org_/);
    assert.equal(created.mode, 'live');
    assert.equal((await app.inject({ url: '/v1/streams', headers: bearer(created.key) })).statusCode, 200);
    const denied = await app.inject({ method: 'POST', url: '/v1/streams', headers: bearer(created.key), payload: {} });
    assert.equal(denied.json().code, 'insufficient_capability');

    const second = JSON.parse((await vigil('keys', 'create', '--org', 'Acme Security', '--test', '--json')).stdout);
    assert.equal(second.tenant_id, created.tenant_id, 'organization reused by name');
    assert.match(second.key, /^vk_test_/);
    const home = JSON.parse((await vigil('keys', 'create', '--household', 'The Smiths', '--json')).stdout);
    assert.match(home.tenant_id, /^hh_/);

    const list = JSON.parse((await vigil('keys', 'list', '--json')).stdout);
    assert.equal(list.length, 3);
    assert.ok(!JSON.stringify(list).includes(created.key), 'list never shows a key');

    await vigil('keys', 'revoke', created.id);
    const refused = await app.inject({ url: '/v1/streams', headers: bearer(created.key) });
    assert.equal(refused.json().code, 'api_key_revoked');
  } finally {
    await app.close();
    await ctx.close();
  }
});

test('vigil keys create --household takes --role: owner by default; a member key cannot manage keys', async () => {
  const owner = JSON.parse((await vigil('keys', 'create', '--household', 'The Roles', '--test', '--json')).stdout);
  assert.equal(owner.role, 'owner');
  const member = JSON.parse((await vigil('keys', 'create', '--household', 'The Roles', '--role', 'member', '--name', 'nanny', '--test', '--json')).stdout);
  assert.equal(member.role, 'member');
  assert.equal(member.tenant_id, owner.tenant_id);
  const ctx = await createContext(loadConfig({ dataDir, databaseUrl: null, runSources: false }, {}));
  const app = await buildApp(ctx);
  try {
    const listed = await app.inject({ url: '/v1/keys', headers: bearer(owner.key) });
    assert.deepEqual(
      listed.json().data.map((k: { role: string; name: string | null }) => [k.role, k.name]),
      [
        ['member', 'nanny'],
        ['owner', null],
      ],
    );
    assert.equal((await app.inject({ url: '/v1/keys', headers: bearer(member.key) })).json().code, 'owner_role_required');
  } finally {
    await app.close();
    await ctx.close();
  }
  await assert.rejects(
    vigil('keys', 'create', '--household', 'The Roles', '--role', 'admin'),
    (e: { code: number; stderr: string }) => e.code === 2 && /--role must be owner or member/.test(e.stderr),
  );
  await assert.rejects(
    vigil('keys', 'create', '--org', 'X', '--role', 'member'),
    (e: { code: number; stderr: string }) => e.code === 2 && /household keys only/.test(e.stderr),
  );
});

test('the CLI explains bad usage instead of crashing', async () => {
  await assert.rejects(vigil('keys', 'create'), (e: { code: number; stderr: string }) => e.code === 2 && /exactly one of --org/.test(e.stderr));
  await assert.rejects(
    vigil('keys', 'create', '--org', 'X', '--capabilities', 'fly'),
    (e: { code: number; stderr: string }) => e.code === 2 && /unknown capability fly/.test(e.stderr),
  );
  await assert.rejects(vigil('keys', 'revoke', 'key_nope'), (e: { code: number; stderr: string }) => e.code === 2 && /No API key/.test(e.stderr));
});
