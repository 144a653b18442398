import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';

// The console's audit page offers action families ("protocol_run.*") and a way to hide the
// detection entries that make up most of a busy trail: both must find the same rows on SQLite and
// PostgreSQL.
for (const dialect of DIALECTS) {
  describe(`audit filter by action families (${dialect})`, () => {
    let t: TestApp;
    let key: { key: string };
    before(async () => {
      t = await createTestApp({ dialect, config: { webhookAllowPrivate: true } });
      key = await t.orgKey();
      const hook = (await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url: 'http://127.0.0.1:9/a' } })).json();
      await t.app.inject({ method: 'POST', url: `/v1/webhooks/${hook.id}/rotate-secret`, headers: bearer(key) });
    });
    after(() => t.close());

    const actions = async (query: string) => {
      const res = await t.app.inject({ url: `/v1/audit?limit=100&${query}`, headers: bearer(key) });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.map((e: { action: string }) => e.action);
    };

    test('a family whose name has an underscore finds its entries', async () => {
      assert.deepEqual(await actions('action=api_key.*'), ['api_key.created']);
      // an underscore is a character, not a wildcard: "api_key" does not match "apiXkey"
      assert.deepEqual(await actions('action=api_ke.*'), []);
    });

    test('several actions and families at once, and leaving families out', async () => {
      assert.deepEqual(await actions('action=api_key.*,webhook.created'), ['webhook.created', 'api_key.created']);
      assert.deepEqual(await actions('exclude_action=webhook.*'), ['api_key.created']);
      assert.deepEqual(await actions('action=webhook.*&exclude_action=webhook.secret_rotated'), ['webhook.created']);
    });

    test('a malformed action list is a 400 naming the field', async () => {
      for (const [field, value] of [
        ['action', 'webhook.%'],
        ['exclude_action', "x' or 1=1"],
        ['action', 'webhook.*,'],
        ['exclude_action', '*'],
      ]) {
        const res = await t.app.inject({ url: `/v1/audit?${field}=${encodeURIComponent(value)}`, headers: bearer(key) });
        assert.equal(res.statusCode, 400, `${field}=${value}`);
        assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
        assert.match(res.body, new RegExp(field));
      }
    });
  });
}
