import type { Principal } from '../../src/platform/identity/principal.ts';
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { DEFAULT_KEY_CACHE_TTL_MS } from '../../src/platform/keys/key.service.ts';
import { hashKey } from '../../src/platform/identity/key-format.ts';
import { VerifiedKeyCache } from '../../src/platform/identity/verified-key-cache.ts';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';

/**
 * Verified keys are cached for a few seconds; revocation must still take effect on
 * the very next request, with no clock movement between the last good request and the revoke.
 */
for (const dialect of DIALECTS) {
  describe(`verified-key cache and revocation (${dialect})`, () => {
    let t: TestApp;
    const clock = new ManualClock('2026-11-23T04:00:00.000Z');
    before(async () => {
      t = await createTestApp({ dialect, clock });
    });
    after(() => t.close());

    const get = (key: { key: string } | string, url = '/v1/streams') => t.app.inject({ url, headers: bearer(key) });

    test('a key used a moment ago answers 401 api_key_revoked on the next request after DELETE /v1/keys/:id', async () => {
      const admin = await t.orgKey();
      const victim = await t.orgKey({ name: 'Victim Org' });
      const same = await t.app.inject({ method: 'POST', url: '/v1/keys', headers: bearer(victim), payload: { name: 'door tablet' } });
      assert.equal(same.statusCode, 201);
      const tablet = same.json() as { id: string; key: string };
      for (let i = 0; i < 3; i++) assert.equal((await get(tablet)).statusCode, 200);
      const revoked = await t.app.inject({ method: 'DELETE', url: `/v1/keys/${tablet.id}`, headers: bearer(victim) });
      assert.equal(revoked.statusCode, 200);
      const after = await get(tablet);
      assert.equal(after.statusCode, 401);
      assert.equal(after.json().code, 'api_key_revoked');
      // the revoking key and other tenants' keys are unaffected
      assert.equal((await get(victim)).statusCode, 200);
      assert.equal((await get(admin)).statusCode, 200);
    });

    test('rotating a key in use revokes the old secret at once; the new one works', async () => {
      const owner = await t.orgKey({ name: 'Rotating Org' });
      const made = (await t.app.inject({ method: 'POST', url: '/v1/keys', headers: bearer(owner), payload: { name: 'kiosk' } })).json() as {
        id: string;
        key: string;
      };
      assert.equal((await get(made)).statusCode, 200);
      const rotated = await t.app.inject({ method: 'POST', url: `/v1/keys/${made.id}/rotate`, headers: bearer(owner) });
      assert.equal(rotated.statusCode, 201, rotated.body);
      const old = await get(made);
      assert.equal(old.statusCode, 401);
      assert.equal(old.json().code, 'api_key_revoked');
      assert.equal((await get(rotated.json() as { key: string })).statusCode, 200);
    });

    test('the admin CLI revoke (KeyService.revokeKey) takes effect on the next request', async () => {
      const k = await t.orgKey();
      assert.equal((await get(k)).statusCode, 200);
      await t.ctx.keys.revokeKey(k.id);
      assert.equal((await get(k)).json().code, 'api_key_revoked');
    });

    test('a revoke written by another process (no in-process signal) is seen once the cache entry expires', async () => {
      const k = await t.orgKey();
      assert.equal((await get(k)).statusCode, 200);
      await t.ctx.database.db
        .updateTable('api_keys')
        .set({ revoked_at: new Date(clock.now()).toISOString() })
        .where('id', '=', k.id)
        .execute();
      // within the TTL this node still trusts its verified copy: the bounded staleness that cache invalidation across nodes removes
      assert.equal((await get(k)).statusCode, 200);
      await clock.advance(DEFAULT_KEY_CACHE_TTL_MS);
      assert.equal((await get(k)).json().code, 'api_key_revoked');
    });
  });
}

describe('VerifiedKeyCache', () => {
  const principal = (keyId: string): Principal => ({
    keyId,
    tenantId: 'org_x',
    tenantKind: 'organization',
    mode: 'live',
    capabilities: new Set(),
    locations: null,
    rateLimitPerMinute: null,
    role: 'owner',
  });

  test('a lookup that started before a key was forgotten does not put the stale row back', () => {
    const cache = new VerifiedKeyCache(5_000);
    const h = hashKey('vk_live_example');
    const generation = cache.generation; // lookup starts, reads the row (not yet revoked)
    cache.forgetKey('key_a'); // the revoke commits meanwhile
    cache.set(h, principal('key_a'), 0, generation); // the lookup finishes
    assert.equal(cache.get(h, 1), undefined);
  });

  test('entries expire after the TTL, are forgotten by key id, and the oldest makes room when full', () => {
    const cache = new VerifiedKeyCache(1_000, 2);
    cache.set('h1', principal('k1'), 0, cache.generation);
    assert.equal(cache.get('h1', 999)?.keyId, 'k1');
    assert.equal(cache.get('h1', 1_000), undefined);
    cache.set('h1', principal('k1'), 0, cache.generation);
    cache.set('h2', principal('k2'), 0, cache.generation);
    cache.set('h3', principal('k3'), 0, cache.generation);
    assert.equal(cache.get('h1', 1), undefined, 'the oldest entry was evicted');
    assert.equal(cache.get('h3', 1)?.keyId, 'k3');
    cache.forgetKey('k2');
    assert.equal(cache.get('h2', 1), undefined);
  });

  test('a TTL of 0 caches nothing', () => {
    const cache = new VerifiedKeyCache(0);
    cache.set('h', principal('k'), 0, cache.generation);
    assert.equal(cache.get('h', 0), undefined);
  });
});
