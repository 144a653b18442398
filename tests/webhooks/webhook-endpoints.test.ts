import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';

const hook = { url: 'http://127.0.0.1:9/hooks', events: ['detection.anomaly', 'incident.created'], description: 'SOC' };

for (const dialect of DIALECTS) {
  describe(`webhook endpoints (${dialect})`, () => {
    let t: TestApp;
    let key: { key: string; tenant_id: string };
    before(async () => {
      t = await createTestApp({ dialect, config: { webhookAllowPrivate: true } });
      key = await t.orgKey();
    });
    after(() => t.close());

    const post = (body: unknown, k: { key: string } = key, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: { ...bearer(k), ...headers }, payload: body as object });

    test('registering returns the endpoint with a whsec_ secret that is never shown again', async () => {
      const res = await post(hook);
      assert.equal(res.statusCode, 201);
      const w = res.json();
      assert.match(w.id, /^whk_[0-9a-z]{26}$/);
      assert.match(w.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
      assert.equal(w.secret_source, 'generated');
      assert.deepEqual(w.events, hook.events);
      assert.equal(w.enabled, true);
      const got = (await t.app.inject({ url: `/v1/webhooks/${w.id}`, headers: bearer(key) })).json();
      assert.equal(got.secret, undefined, 'GET never returns the secret');
      assert.equal(got.url, hook.url);
      const list = (await t.app.inject({ url: '/v1/webhooks', headers: bearer(key) })).json();
      assert.ok(list.data.some((e: { id: string; secret?: string }) => e.id === w.id && e.secret === undefined));
    });

    test('events default to every organization kind; patch and delete; each change is audited', async () => {
      const w = (await post({ url: 'http://127.0.0.1:9/all' }, key, { 'x-operator': 'dana' })).json();
      assert.ok(w.events.includes('detection.anomaly') && w.events.includes('stream.status_changed'));
      assert.ok(!w.events.includes('watch.alert'));
      const patched = await t.app.inject({
        method: 'PATCH',
        url: `/v1/webhooks/${w.id}`,
        headers: bearer(key),
        payload: { events: ['alert.fired'], enabled: false, description: null },
      });
      assert.equal(patched.statusCode, 200);
      assert.deepEqual(patched.json().events, ['alert.fired']);
      assert.equal(patched.json().enabled, false);
      const del = await t.app.inject({ method: 'DELETE', url: `/v1/webhooks/${w.id}`, headers: bearer(key) });
      assert.deepEqual(del.json(), { id: w.id, object: 'webhook_endpoint', deleted: true });
      assert.equal((await t.app.inject({ url: `/v1/webhooks/${w.id}`, headers: bearer(key) })).statusCode, 404);
      const audit = (await t.app.inject({ url: `/v1/audit?resource_id=${w.id}`, headers: bearer(key) })).json();
      assert.deepEqual(
        audit.data.map((e: { action: string }) => e.action),
        ['webhook.deleted', 'webhook.updated', 'webhook.created'],
      );
      const created = audit.data[2];
      assert.equal(created.actor.operator, 'dana');
      assert.equal(JSON.stringify(created.data).includes('whsec_'), false, 'the secret is not written to the audit trail');
    });

    test('unknown or other-surface event kinds are 400 naming events', async () => {
      for (const events of [['detection.anomaly', 'detection.banana'], ['watch.alert'], []]) {
        const res = await post({ url: hook.url, events });
        assert.equal(res.statusCode, 400, JSON.stringify(events));
        assert.equal(res.json().param, 'events');
      }
      const bad = await post({ url: hook.url, events: ['detection.banana'] });
      assert.match(bad.json().detail, /detection\.banana/);
    });

    test('bad URLs are 400: other schemes, no host, not a URL', async () => {
      const ftp = await post({ url: 'ftp://example.com/hooks' });
      assert.equal(ftp.statusCode, 400);
      assert.equal(ftp.json().code, 'webhook_url_not_allowed');
      assert.equal(ftp.json().param, 'url');
      for (const url of ['http://', 'not a url', '/relative/path']) {
        const res = await post({ url });
        assert.equal(res.statusCode, 400, url);
        assert.equal(res.json().code, 'validation_failed', url);
        assert.equal(res.json().param, 'url', url);
      }
      const patch = await t.app.inject({
        method: 'PATCH',
        url: `/v1/webhooks/${(await post(hook)).json().id}`,
        headers: bearer(key),
        payload: { url: 'file:///etc/passwd' },
      });
      assert.equal(patch.json().code, 'webhook_url_not_allowed');
    });

    test("another organization's webhook ids answer 404 everywhere", async () => {
      const w = (await post(hook)).json();
      const other = await t.orgKey();
      const dlv = 'dlv_01jd3k8e7f9g2h4j6k8m0n2p4q';
      for (const [method, url, payload] of [
        ['GET', `/v1/webhooks/${w.id}`, undefined],
        ['PATCH', `/v1/webhooks/${w.id}`, { description: 'x' }],
        ['DELETE', `/v1/webhooks/${w.id}`, undefined],
        ['POST', `/v1/webhooks/${w.id}/rotate-secret`, undefined],
        ['GET', `/v1/webhooks/${w.id}/deliveries`, undefined],
        ['POST', `/v1/webhooks/${w.id}/deliveries/${dlv}/redeliver`, undefined],
      ] as const) {
        const r = await t.app.inject({ method, url, headers: bearer(other), ...(payload ? { payload } : {}) });
        assert.equal(r.statusCode, 404, `${method} ${url}`);
        assert.equal(r.json().code, 'not_found');
      }
      const missing = await t.app.inject({ method: 'POST', url: `/v1/webhooks/${w.id}/deliveries/${dlv}/redeliver`, headers: bearer(key) });
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.json().param, 'delivery_id');
      assert.equal((await t.app.inject({ url: '/v1/webhooks', headers: bearer(other) })).json().data.length, 0);
    });

    test('an organization key without webhooks:manage gets 403', async () => {
      const reader = await t.orgKey({ capabilities: ['streams:read'] });
      const res = await post(hook, reader);
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().code, 'insufficient_capability');
      assert.equal(res.json().param, 'webhooks:manage');
    });

    test('a household key registers {url} alone: household kinds, signed with the key, no secret returned', async () => {
      const home = await t.householdKey();
      const res = await post({ url: 'http://127.0.0.1:9/home' }, home);
      assert.equal(res.statusCode, 201);
      const w = res.json();
      assert.equal(w.secret_source, 'api_key');
      assert.equal(w.secret, undefined);
      assert.ok(w.events.includes('watch.alert') && w.events.includes('watch.observation'));
      assert.ok(!w.events.includes('detection.anomaly'));
      const org = await post({ url: 'http://127.0.0.1:9/home', events: ['detection.anomaly'] }, home);
      assert.equal(org.statusCode, 400);
      assert.equal(org.json().param, 'events');
      // the organization cannot see it, and the household cannot see the organization's
      assert.equal((await t.app.inject({ url: `/v1/webhooks/${w.id}`, headers: bearer(key) })).statusCode, 404);
      assert.equal((await t.app.inject({ url: '/v1/webhooks', headers: bearer(home) })).json().data.length, 1);
    });
  });
}

describe('webhook URL safety with private receivers not allowed', () => {
  let t: TestApp;
  let key: { key: string };
  before(async () => {
    t = await createTestApp({ config: { webhookAllowPrivate: false } });
    key = await t.orgKey();
  });
  after(() => t.close());

  test('loopback, private, link-local, CGNAT, unspecified and metadata receivers are refused', async () => {
    for (const url of [
      'http://127.0.0.1/hooks',
      'http://localhost:8080/hooks',
      'http://10.1.2.3/',
      'http://172.20.0.1/',
      'http://192.168.1.10/',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://[fd00:ec2::254]/',
      'http://[fe80::1]/',
      'http://[::ffff:127.0.0.1]/',
      'https://2130706433/', // 127.0.0.1 as a decimal integer
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url } });
      assert.equal(res.statusCode, 400, url);
      assert.equal(res.json().code, 'webhook_url_not_allowed', url);
      assert.equal(res.json().param, 'url');
      // a developer with a receiver on localhost learns the setting that allows it
      assert.match(res.json().detail, /VIGIL_WEBHOOK_ALLOW_PRIVATE=1/, url);
    }
  });

  test('a public address is accepted', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url: 'https://93.184.215.14/hooks' } });
    assert.equal(res.statusCode, 201);
  });
});
