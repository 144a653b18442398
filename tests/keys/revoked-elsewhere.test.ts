import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase } from '../helpers/harness.ts';
import { loadConfig } from '../../src/platform/config/index.ts';
import { createContext } from '../../src/context.ts';
import { VigilError } from '../../src/platform/lib/index.ts';

test('a key revoked by another process on the same SQLite file (the admin CLI) is refused at the next request, despite the verified-key cache', async () => {
  const dbase = await createTestDatabase('sqlite');
  const config = loadConfig({ runSources: false, seedDemo: false, ...dbase.overrides }, {});
  const server = await createContext(config);
  const cli = await createContext(config);
  try {
    const created = await server.keys.createKey({
      tenantKind: 'organization',
      tenantName: 'Acme',
      mode: 'live',
      capabilities: 'all',
      locations: null,
      rateLimitPerMinute: 100,
    });
    assert.equal((await server.keys.authenticate(created.key)).keyId, created.id, 'verified, and now cached');
    assert.equal((await server.keys.authenticate(created.key)).keyId, created.id);
    await cli.keys.revokeKey(created.id);
    await assert.rejects(server.keys.authenticate(created.key), (err: unknown) => err instanceof VigilError && err.code === 'api_key_revoked');
  } finally {
    await cli.close();
    await server.close();
    await dbase.drop();
  }
});
