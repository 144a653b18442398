import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createTestDatabase } from '../helpers/harness.ts';
import { loadConfig } from '../../src/platform/config/index.ts';
import { createContext, type VigilContext } from '../../src/context.ts';
import { SocketCacheInvalidation } from '../../src/platform/coordination/socket-cache-invalidation.ts';
import { VigilError } from '../../src/platform/lib/index.ts';

// The serving process on a SQLite file hears the other processes on it over a Unix socket
// (src/platform/coordination/socket-cache-invalidation.ts) and then stops asking SQLite on every
// request whether another process committed: a revoke elsewhere must still be refused at once.

async function contexts(dataDir?: string) {
  const dbase = await createTestDatabase('sqlite');
  const config = loadConfig({ runSources: false, seedDemo: false, ...dbase.overrides, ...(dataDir ? { dataDir } : {}) }, {});
  const server = await createContext(config);
  const cli = await createContext(config);
  return { server, cli, dbase, close: async () => (await cli.close(), await server.close(), await dbase.drop()) };
}

async function cachedKey(ctx: VigilContext) {
  const created = await ctx.keys.createKey({
    tenantKind: 'organization',
    tenantName: 'Acme',
    mode: 'live',
    capabilities: 'all',
    locations: null,
    rateLimitPerMinute: 100,
  });
  assert.equal((await ctx.keys.authenticate(created.key)).keyId, created.id, 'verified, and now cached');
  assert.equal(ctx.keys.cachedPrincipal(created.key)?.keyId, created.id);
  return created;
}

const revoked = (err: unknown) => err instanceof VigilError && err.code === 'api_key_revoked';

test('the serving process owns the socket; a key the CLI revokes is refused at the next request, without asking SQLite', async () => {
  const t = await contexts();
  try {
    await t.server.coordination.serve();
    assert.equal(t.server.coordination.invalidation.othersAnnounce, true);
    assert.equal(t.cli.coordination.invalidation.othersAnnounce, false, 'the CLI never listens');
    const created = await cachedKey(t.server);
    // the revoke resolves once the server has forgotten the key
    await t.cli.keys.revokeKey(created.id);
    assert.equal(t.server.keys.cachedPrincipal(created.key), undefined);
    await assert.rejects(t.server.keys.authenticate(created.key), revoked);
  } finally {
    await t.close();
  }
});

test('a revoke committed before the server began listening is seen by its one last look at SQLite', async () => {
  const t = await contexts();
  try {
    const created = await cachedKey(t.server);
    // nobody listens yet: the CLI has nobody to tell
    await t.cli.keys.revokeKey(created.id);
    await t.server.coordination.serve();
    await assert.rejects(t.server.keys.authenticate(created.key), revoked);
  } finally {
    await t.close();
  }
});

test('a second server on the same file does not take the socket and keeps asking SQLite', async () => {
  const t = await contexts();
  try {
    await t.server.coordination.serve();
    await t.cli.coordination.serve();
    assert.equal(t.server.coordination.invalidation.othersAnnounce, true);
    assert.equal(t.cli.coordination.invalidation.othersAnnounce, false);
    const created = await cachedKey(t.cli);
    // revoked through the first server: it announces nothing to the second, whose check sees the commit
    await t.server.keys.revokeKey(created.id);
    await assert.rejects(t.cli.keys.authenticate(created.key), revoked);
  } finally {
    await t.close();
  }
});

test('a socket file left by a process that died is replaced', async () => {
  const dbase = await createTestDatabase('sqlite');
  const dir = dbase.overrides.dataDir!;
  try {
    const path = join(dir, 'left-behind.sock');
    writeFileSync(path, '');
    const shared = new SocketCacheInvalidation(path);
    await shared.listen();
    assert.equal(shared.othersAnnounce, true);
    const heard: string[] = [];
    shared.subscribe('api_key', (key) => void heard.push(key));
    await new SocketCacheInvalidation(path).publish('api_key', 'key_1');
    assert.deepEqual(heard, ['key_1']);
    shared.close();
  } finally {
    await dbase.drop();
  }
});

test('a socket path too long to listen on: the server keeps asking SQLite, and the CLI has nobody to tell', async () => {
  const base = await createTestDatabase('sqlite');
  const dataDir = join(base.overrides.dataDir!, 'x'.repeat(100));
  mkdirSync(dataDir);
  const t = await contexts(dataDir);
  try {
    await t.server.coordination.serve();
    assert.equal(t.server.coordination.invalidation.othersAnnounce, false);
    const created = await cachedKey(t.server);
    await t.cli.keys.revokeKey(created.id);
    await assert.rejects(t.server.keys.authenticate(created.key), revoked);
  } finally {
    await t.close();
    await base.drop();
  }
});

test('a publisher that cannot tell the listening process reports it', async () => {
  const dbase = await createTestDatabase('sqlite');
  const path = join(dbase.overrides.dataDir!, 'refusing.sock');
  const listener = createServer((socket) => socket.end('error: handler failed\n'));
  await new Promise<void>((resolve) => listener.listen(path, resolve));
  try {
    await assert.rejects(new SocketCacheInvalidation(path).publish('api_key', 'key_1'), /was not told: error: handler failed/);
  } finally {
    listener.close();
    await dbase.drop();
  }
});
