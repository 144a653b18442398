import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { generateKey } from '../../src/platform/identity/key-format.ts';

/** HTTP hardening (docs/decisions.md, 'HTTP hardening') through app.inject(); the protocol-level probes that need a real socket are in http-sockets.test.ts. */
describe('HTTP hardening (inject)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ config: { webhookAllowPrivate: true } });
  });
  after(() => t.close());

  test('a replayed Idempotency-Key 4xx is the original byte for byte, Content-Type included', async () => {
    const key = await t.orgKey();
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/streams',
        headers: { ...bearer(key), 'idempotency-key': 'bad-source-1' },
        payload: { name: 'Cam', source_type: 'rtsp', source_url: 'ftp://camera.example/stream', location: 'gate' },
      });
    const first = await send();
    assert.equal(first.statusCode, 400);
    assert.equal(first.json().code, 'unsupported_source');
    const replay = await send();
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.statusCode, first.statusCode);
    assert.equal(replay.headers['content-type'], first.headers['content-type']);
    assert.match(String(replay.headers['content-type']), /^application\/problem\+json/);
    assert.equal(replay.body, first.body);

    // a replayed 201 keeps its own type and bytes too
    const ok = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/webhooks',
        headers: { ...bearer(key), 'idempotency-key': 'hook-1' },
        payload: { url: 'http://127.0.0.1:9/hook' },
      });
    const created = await ok();
    const again = await ok();
    assert.equal(created.statusCode, 201);
    assert.equal(again.statusCode, 201);
    assert.equal(again.headers['content-type'], created.headers['content-type']);
    assert.equal(again.body, created.body);
  });

  test('integer query parameters are plain decimal digits: 0x10, 1e1, +5, " 16", 16.0 are refused naming the parameter', async () => {
    const key = await t.orgKey();
    for (const bad of ['0x10', '1e1', '%2B5', '%2016', '16%20', '16.0', '0b1', '1_0', '']) {
      const res = await t.app.inject({ url: `/v1/streams?limit=${bad}`, headers: bearer(key) });
      assert.equal(res.statusCode, 400, `limit=${bad}`);
      assert.equal(res.json().param, 'limit', `limit=${bad}`);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    }
    assert.equal((await t.app.inject({ url: '/v1/streams?limit=16', headers: bearer(key) })).statusCode, 200);
    const lvl = await t.app.inject({ url: '/v1/responders?escalation_level=0x2', headers: bearer(key) });
    assert.equal(lvl.statusCode, 400);
    assert.equal(lvl.json().param, 'escalation_level');
  });

  test('blank, NUL- or control-character names are refused everywhere a name is stored; nothing is written', async () => {
    const key = await t.orgKey();
    const stream = await t.app.inject({
      method: 'POST',
      url: '/v1/streams',
      headers: bearer(key),
      payload: { name: 'Gate', source_type: 'sandbox', source_url: 'sandbox://gate?scenario=lobby&seed=1', location: 'gate' },
    });
    assert.equal(stream.statusCode, 201);
    const cases: Array<[string, string, object, string]> = [
      ['POST', '/v1/streams', { name: '   ', source_type: 'sandbox', source_url: 'sandbox://g?scenario=lobby&seed=1', location: 'gate' }, 'name'],
      ['POST', '/v1/streams', { name: 'Ga\u0000te', source_type: 'sandbox', source_url: 'sandbox://g?scenario=lobby&seed=1', location: 'gate' }, 'name'],
      ['PATCH', `/v1/streams/${stream.json().id}`, { name: 'tab\there' }, 'name'],
      ['POST', '/v1/alert-rules', { name: '\u0007', condition: { type: 'person', subtype: 'x' } }, 'name'],
      ['POST', '/v1/alert-rules', { name: 'ok', condition: { type: 'person', subtype: ' ' } }, 'condition'],
      ['POST', '/v1/responders', { name: '\n', kind: 'person', escalation_level: 1, contact: { webhook_url: 'http://127.0.0.1:9/x' } }, 'name'],
      ['POST', '/v1/incidents', { stream_id: stream.json().id, title: '\u0000' }, 'title'],
      ['POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/x', description: '  \n ' }, 'description'],
      ['POST', '/v1/protocols', { name: 'gate_check', steps: ['Call the guard', '\u001b[31m'] }, 'steps.1'],
    ];
    for (const [method, url, payload, param] of cases) {
      const res = await t.app.inject({ method: method as 'POST', url, headers: bearer(key), payload });
      assert.equal(res.statusCode, 400, `${method} ${url} ${JSON.stringify(payload)}: ${res.body}`);
      assert.ok(String(res.json().param).startsWith(param), `${JSON.stringify(payload)} names ${res.json().param}`);
    }
    const names = (await t.app.inject({ url: '/v1/streams', headers: bearer(key) })).json().data.map((s: { name: string }) => s.name);
    assert.deepEqual(names, ['Gate']);
    // free text keeps its line breaks
    const home = await t.householdKey();
    const msg = await t.app.inject({
      method: 'POST',
      url: '/v1/conversations',
      headers: bearer(home),
      payload: { message: 'What is happening\nat the back door?' },
    });
    assert.equal(msg.statusCode, 200);
    const blank = await t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(home), payload: { message: ' \n\t ' } });
    assert.equal(blank.statusCode, 400);
    assert.equal(blank.json().param, 'message');
  });

  test('150 bad keys from one address: 401 up to the limit, then 429 with RateLimit headers; other addresses are unaffected', async () => {
    const good = await t.orgKey();
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 150; i++) {
      last = await t.app.inject({ url: '/v1/streams', remoteAddress: '203.0.113.7', headers: bearer(generateKey('live')) });
      statuses.push(last.statusCode);
    }
    const limit = t.config.http.authFailuresPerMinute;
    assert.deepEqual(statuses.slice(0, limit), Array(limit).fill(401));
    assert.deepEqual(statuses.slice(limit), Array(150 - limit).fill(429));
    assert.equal(last!.json().code, 'rate_limit_exceeded');
    assert.match(String(last!.headers['content-type']), /^application\/problem\+json/);
    assert.match(String(last!.headers['ratelimit-policy']), new RegExp(`"failed-auth";q=${limit};w=60`));
    assert.match(String(last!.headers.ratelimit), /"failed-auth";r=0;t=\d+/);
    assert.ok(Number(last!.headers['retry-after']) >= 1);
    // failures lock out attempts, not the address: a valid key from the same address still works
    // (behind a proxy, one client's bad guesses must not lock everyone out), while bad keys stay 429
    assert.equal((await t.app.inject({ url: '/v1/streams', remoteAddress: '203.0.113.7', headers: bearer(good) })).statusCode, 200);
    assert.equal((await t.app.inject({ url: '/v1/streams', remoteAddress: '203.0.113.7', headers: bearer(generateKey('live')) })).statusCode, 429);
    // good keys from another address work; a missing key elsewhere is still a plain 401
    assert.equal((await t.app.inject({ url: '/v1/streams', remoteAddress: '198.51.100.20', headers: bearer(good) })).statusCode, 200);
    const missing = await t.app.inject({ url: '/v1/streams', remoteAddress: '198.51.100.21' });
    assert.equal(missing.statusCode, 401);
    assert.match(String(missing.headers.ratelimit), new RegExp(`r=${limit - 1};`));
  });

  test('failed authentications also count per key prefix: guesses at one key from many addresses are 429, the key itself still works', async () => {
    const limited = await createTestApp({ config: { http: { ...t.config.http, authFailuresPerMinute: 3 } } });
    try {
      const good = await limited.orgKey();
      const prefix = good.key.slice(0, 12);
      // same prefix, wrong rest: each from its own address, so only the prefix counter sees them all
      const guesses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const guess = prefix + generateKey('live').slice(12);
        const res = await limited.app.inject({ url: '/v1/streams', remoteAddress: `192.0.2.${10 + i}`, headers: bearer(guess) });
        guesses.push(res.statusCode);
        if (i === 5) assert.match(String(res.headers['ratelimit-policy']), /"failed-auth";q=3;w=60/);
      }
      assert.deepEqual(guesses, [401, 401, 401, 429, 429, 429]);
      // the key whose prefix was guessed at is not refused, from a fresh address or one that failed
      assert.equal((await limited.app.inject({ url: '/v1/streams', remoteAddress: '198.51.100.50', headers: bearer(good.key) })).statusCode, 200);
      assert.equal((await limited.app.inject({ url: '/v1/streams', remoteAddress: '192.0.2.15', headers: bearer(good.key) })).statusCode, 200);
      // another prefix from a fresh address is a plain 401
      assert.equal((await limited.app.inject({ url: '/v1/streams', remoteAddress: '198.51.100.51', headers: bearer(generateKey('live')) })).statusCode, 401);
    } finally {
      await limited.close();
    }
  });

  test('behind a trusted proxy, failed authentications count per X-Forwarded-For client, not per proxy', async () => {
    const proxied = await createTestApp({ config: { http: { ...t.config.http, trustProxy: ['10.0.0.1'], authFailuresPerMinute: 3 } } });
    try {
      const good = await proxied.orgKey();
      const via = (client: string, key: string) =>
        proxied.app.inject({ url: '/v1/streams', remoteAddress: '10.0.0.1', headers: { ...bearer(key), 'x-forwarded-for': client } });
      const bad = await Promise.all([1, 2, 3, 4].map(() => via('192.0.2.1', generateKey('live'))));
      assert.deepEqual(bad.map((r) => r.statusCode).sort(), [401, 401, 401, 429]);
      // another client behind the same proxy is not blocked
      assert.equal((await via('192.0.2.2', good.key)).statusCode, 200);
      // an untrusted peer cannot pick its address with X-Forwarded-For
      const spoof = await Promise.all(
        [1, 2, 3, 4].map((i) =>
          proxied.app.inject({
            url: '/v1/streams',
            remoteAddress: '198.51.100.9',
            headers: { ...bearer(generateKey('live')), 'x-forwarded-for': `192.0.2.${100 + i}` },
          }),
        ),
      );
      assert.deepEqual(spoof.map((r) => r.statusCode).sort(), [401, 401, 401, 429]);
    } finally {
      await proxied.close();
    }
  });
});
