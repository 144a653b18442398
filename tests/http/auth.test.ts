import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { generateKey } from '../../src/platform/identity/key-format.ts';

describe('authentication, rate limits, idempotency', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('missing, garbled, unknown and revoked keys answer 401 with their own code', async () => {
    const key = await t.orgKey();
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'missing_api_key'],
      [{ authorization: 'Basic abc' }, 'invalid_api_key'],
      [{ authorization: 'Bearer vk_live_short' }, 'invalid_api_key'],
      [{ authorization: `Bearer ${key.key.slice(0, -1)}${key.key.endsWith('A') ? 'B' : 'A'}` }, 'invalid_api_key'],
      [bearer(generateKey('live')), 'invalid_api_key'],
    ];
    for (const [headers, code] of cases) {
      const r = await t.app.inject({ url: '/v1/streams', headers });
      assert.equal(r.statusCode, 401, JSON.stringify(headers));
      assert.equal(r.json().code, code);
      assert.ok(r.headers['x-request-id']);
    }
    assert.equal((await t.app.inject({ url: '/v1/streams', headers: bearer(key) })).statusCode, 200);
    await t.ctx.keys.revokeKey(key.id);
    const revoked = await t.app.inject({ url: '/v1/streams', headers: bearer(key) });
    assert.equal(revoked.statusCode, 401);
    assert.equal(revoked.json().code, 'api_key_revoked');
  });

  test('keys are stored only as SHA-256 hashes', async () => {
    const key = await t.orgKey();
    const rows = await t.ctx.database.db.selectFrom('api_keys').selectAll().execute();
    assert.ok(!JSON.stringify(rows).includes(key.key));
  });

  test('60 requests per minute per key by default, shared across routes, with RateLimit headers and Retry-After', async () => {
    const limited = await t.ctx.keys.createKey({ tenantKind: 'organization', tenantName: 'Busy Org', mode: 'live' });
    let last;
    for (let i = 0; i < 60; i++) {
      last = await t.app.inject({ url: i % 2 ? '/v1/streams' : '/v1/scenes', headers: bearer(limited) });
      assert.equal(last.statusCode, 200, `request ${i + 1}`);
    }
    assert.match(String(last!.headers['ratelimit-policy']), /q=60;w=60/);
    assert.match(String(last!.headers.ratelimit), /r=0;t=\d+/);
    const over = await t.app.inject({ url: '/v1/streams', headers: bearer(limited) });
    assert.equal(over.statusCode, 429);
    assert.equal(over.json().code, 'rate_limit_exceeded');
    assert.ok(Number(over.headers['retry-after']) >= 1);
    // another key is not affected
    assert.equal((await t.app.inject({ url: '/v1/streams', headers: bearer(await t.orgKey()) })).statusCode, 200);
  });

  test('a per-key rate limit set at creation applies', async () => {
    const k = await t.orgKey({ rate: 2 });
    assert.equal((await t.app.inject({ url: '/v1/streams', headers: bearer(k) })).statusCode, 200);
    assert.equal((await t.app.inject({ url: '/v1/streams', headers: bearer(k) })).statusCode, 200);
    assert.equal((await t.app.inject({ url: '/v1/streams', headers: bearer(k) })).statusCode, 429);
  });

  test('Idempotency-Key replays the first response and refuses a different body', async () => {
    const k = await t.orgKey();
    const body = { name: 'Cam', source_type: 'sandbox', source_url: 'sandbox://lobby', location: 'lobby' };
    const headers = { ...bearer(k), 'idempotency-key': 'create-cam-1' };
    const first = await t.app.inject({ method: 'POST', url: '/v1/streams', headers, payload: body });
    const second = await t.app.inject({ method: 'POST', url: '/v1/streams', headers, payload: body });
    assert.equal(first.statusCode, 201);
    assert.equal(second.statusCode, 201);
    assert.equal(second.json().id, first.json().id);
    assert.equal(second.headers['idempotent-replayed'], 'true');
    const list = (await t.app.inject({ url: '/v1/streams', headers: bearer(k) })).json();
    assert.equal(list.data.length, 1, 'created once');
    const other = await t.app.inject({ method: 'POST', url: '/v1/streams', headers, payload: { ...body, name: 'Other' } });
    assert.equal(other.statusCode, 409);
    assert.equal(other.json().code, 'idempotency_key_reused');
    // the same Idempotency-Key under another API key is independent
    const k2 = await t.orgKey();
    const third = await t.app.inject({ method: 'POST', url: '/v1/streams', headers: { ...bearer(k2), 'idempotency-key': 'create-cam-1' }, payload: body });
    assert.equal(third.statusCode, 201);
    assert.notEqual(third.json().id, first.json().id);
  });

  test('health, readiness, unknown routes and the error catalogue page', async () => {
    assert.deepEqual((await t.app.inject({ url: '/healthz' })).json(), { status: 'ok' });
    assert.deepEqual((await t.app.inject({ url: '/readyz' })).json(), { status: 'ready' });
    const nf = await t.app.inject({ url: '/v1/nothing-here' });
    assert.equal(nf.statusCode, 404);
    assert.equal(nf.json().code, 'route_not_found');
    const doc = await t.app.inject({ url: '/docs/errors' });
    assert.match(doc.body, /rate_limit_exceeded/);
  });
});
