import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../../src/platform/time/clock.ts';
import { CACHE_TOPICS, alertRuleCacheKey } from '../../../src/platform/coordination/index.ts';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../../helpers/harness.ts';

/**
 * The in-memory copies (verified keys, automation settings, alert rules) hold what they hold until a
 * change is announced through CacheInvalidation: a change another node writes straight to the
 * database is not seen here until it is announced, and is seen on the next request once it is.
 */
for (const dialect of DIALECTS) {
  describe(`cache holders follow announced changes (${dialect})`, () => {
    let t: TestApp;
    const clock = new ManualClock('2026-11-23T05:00:00.000Z');
    before(async () => {
      t = await createTestApp({ dialect, clock });
    });
    after(() => t.close());
    const announce = (topic: string, key: string) => t.ctx.coordination.invalidation.publish(topic, key);

    test('a key revoked elsewhere answers 401 on the next request once the revoke is announced', async () => {
      const k = await t.orgKey();
      assert.equal((await t.app.inject({ url: '/v1/streams', headers: bearer(k) })).statusCode, 200);
      await t.ctx.database.db
        .updateTable('api_keys')
        .set({ revoked_at: new Date(clock.now()).toISOString() })
        .where('id', '=', k.id)
        .execute();
      assert.equal((await t.app.inject({ url: '/v1/streams', headers: bearer(k) })).statusCode, 200, 'the verified copy is still trusted');
      await announce(CACHE_TOPICS.apiKey, k.id);
      const res = await t.app.inject({ url: '/v1/streams', headers: bearer(k) });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().code, 'api_key_revoked');
    });

    test('automation settings written elsewhere are served once announced', async () => {
      const k = await t.orgKey();
      const tenantId = k.tenant_id;
      const patched = await t.app.inject({
        method: 'PATCH',
        url: '/v1/automation',
        headers: { ...bearer(k), 'x-operator': 'sam' },
        payload: { incident_gap_s: 120 },
      });
      assert.equal(patched.statusCode, 200);
      await t.ctx.database.db.updateTable('automation_settings').set({ incident_gap_s: 900 }).where('tenant_id', '=', tenantId).execute();
      const gap = async () => (await t.app.inject({ url: '/v1/automation', headers: bearer(k) })).json().incidents.gap_s;
      assert.equal(await gap(), 120);
      await announce(CACHE_TOPICS.automation, tenantId);
      assert.equal(await gap(), 900);
      assert.equal(t.ctx.operations.automation.incidentGapMs(tenantId), 900_000);
    });

    test('an alert rule deleted elsewhere leaves the engine once announced', async () => {
      const k = await t.orgKey();
      const tenantId = k.tenant_id;
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1/alert-rules',
        headers: bearer(k),
        payload: { name: 'lobby crowd', condition: { type: 'person_count', above: 3 }, locations: ['lobby'] },
      });
      assert.equal(created.statusCode, 201, created.body);
      const id = created.json().id as string;
      const engine = t.ctx.operations.alertEngine;
      assert.deepEqual(engine.ruleIdsWithin(tenantId, ['lobby']), [id]);
      await t.ctx.database.db.deleteFrom('alert_rules').where('id', '=', id).execute();
      assert.deepEqual(engine.ruleIdsWithin(tenantId, ['lobby']), [id], 'the engine keeps its copy until told');
      await announce(CACHE_TOPICS.alertRule, alertRuleCacheKey(tenantId, id));
      assert.deepEqual(engine.ruleIdsWithin(tenantId, ['lobby']), []);
    });
  });
}
