import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/platform/config/index.ts';

const PG = 'postgres://vigil@127.0.0.1:5432/vigil';
const REDIS = 'redis://127.0.0.1:6379';

test('the single-node default: no Redis, role all, a node id of hostname-pid', () => {
  const c = loadConfig({}, {});
  assert.equal(c.cluster, false);
  assert.equal(c.role, 'all');
  assert.match(c.nodeId, new RegExp(`-${process.pid}$`));
  assert.equal(loadConfig({}, { DATABASE_URL: PG }).cluster, false, 'PostgreSQL alone is still one node');
});

test('DATABASE_URL=postgres:// + REDIS_URL turn on cluster mode; VIGIL_ROLE and VIGIL_NODE_ID are read', () => {
  const c = loadConfig({}, { DATABASE_URL: PG, REDIS_URL: REDIS, VIGIL_ROLE: 'worker', VIGIL_NODE_ID: 'node-2' });
  assert.deepEqual([c.cluster, c.role, c.nodeId], [true, 'worker', 'node-2']);
  assert.equal(loadConfig({}, { DATABASE_URL: PG, REDIS_URL: REDIS, VIGIL_ROLE: 'api' }).role, 'api');
});

test('bad cluster settings stop the start with a message naming the variable', () => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ VIGIL_ROLE: 'bogus' }, /VIGIL_ROLE must be one of all, api, worker, got "bogus"/],
    [{ REDIS_URL: REDIS }, /REDIS_URL turns on cluster mode, which needs DATABASE_URL=postgres:\/\/.*SQLite database serves one node only/],
    [{ DATABASE_URL: PG, REDIS_URL: 'http://redis:6379' }, /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
    [{ VIGIL_ROLE: 'worker' }, /VIGIL_ROLE=worker needs cluster mode/],
    [{ DATABASE_URL: PG, VIGIL_ROLE: 'api' }, /VIGIL_ROLE=api needs cluster mode/],
    [{ VIGIL_NODE_ID: 'node 1; drop' }, /VIGIL_NODE_ID must be 1–64 letters/],
    [{ VIGIL_NODE_ID: 'x'.repeat(65) }, /VIGIL_NODE_ID must be 1–64/],
  ];
  for (const [env, message] of cases) assert.throws(() => loadConfig({}, env), message, JSON.stringify(env));
});
