import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { verifyExportOffline } from './offline-verifier.ts';

for (const dialect of DIALECTS) {
  describe(`audit trail (${dialect})`, () => {
    let t: TestApp;
    let key: { key: string; tenant_id: string; id: string };
    const hooks: string[] = [];
    before(async () => {
      t = await createTestApp({ dialect, config: { webhookAllowPrivate: true } });
      key = await t.orgKey();
      for (const [i, op] of ['ana', 'ben', 'ana'].entries()) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/webhooks',
          headers: { ...bearer(key), 'x-operator': op },
          payload: { url: `http://127.0.0.1:9/${i}` },
        });
        hooks.push(res.json().id);
      }
      await t.app.inject({
        method: 'PATCH',
        url: `/v1/webhooks/${hooks[0]}`,
        headers: { ...bearer(key), 'x-operator': 'ben' },
        payload: { description: 'front desk' },
      });
      await t.app.inject({ method: 'POST', url: `/v1/webhooks/${hooks[1]}/rotate-secret`, headers: bearer(key) });
    });
    after(() => t.close());

    const get = (url: string, k: { key: string } = key) => t.app.inject({ url, headers: bearer(k) });

    test('lists entries newest first with actor, action, resource, request id and before/after', async () => {
      const page = (await get('/v1/audit?limit=100')).json();
      assert.equal(page.object, 'list');
      const actions = page.data.map((e: { action: string }) => e.action);
      assert.deepEqual(actions, ['webhook.secret_rotated', 'webhook.updated', 'webhook.created', 'webhook.created', 'webhook.created', 'api_key.created']);
      const ids = page.data.map((e: { id: string }) => e.id);
      assert.deepEqual(ids, [...ids].sort().reverse(), 'newest first');
      const upd = page.data[1];
      assert.equal(upd.actor.key_id, key.id);
      assert.equal(upd.actor.operator, 'ben');
      assert.deepEqual(upd.resource, { type: 'webhook_endpoint', id: hooks[0] });
      assert.match(upd.request_id, /^req_/);
      assert.equal(upd.data.before.description, null);
      assert.equal(upd.data.after.description, 'front desk');
      assert.match(upd.hash, /^[0-9a-f]{64}$/);
    });

    test('filters by resource, actor, action and time range, and pages by id', async () => {
      const byResource = (await get(`/v1/audit?resource_type=webhook_endpoint&resource_id=${hooks[0]}`)).json();
      assert.deepEqual(
        byResource.data.map((e: { action: string }) => e.action),
        ['webhook.updated', 'webhook.created'],
      );
      const byOperator = (await get('/v1/audit?actor=ana')).json();
      assert.equal(byOperator.data.length, 2);
      assert.ok(byOperator.data.every((e: { actor: { operator: string } }) => e.actor.operator === 'ana'));
      const byKey = (await get(`/v1/audit?actor=${key.id}`)).json();
      assert.equal(byKey.data.length, 5);
      assert.equal((await get('/v1/audit?action=webhook.created')).json().data.length, 3);
      assert.equal((await get('/v1/audit?action=webhook.*')).json().data.length, 5);
      const all = (await get('/v1/audit?limit=100')).json().data;
      const oldest = all.at(-1).at;
      assert.equal((await get(`/v1/audit?until=${encodeURIComponent(oldest)}`)).json().data.length, all.filter((e: { at: string }) => e.at <= oldest).length);
      assert.equal((await get('/v1/audit?since=2999-01-01T00:00:00.000Z')).json().data.length, 0);
      const p1 = (await get('/v1/audit?limit=2')).json();
      assert.equal(p1.has_more, true);
      const p2 = (await get(`/v1/audit?limit=2&starting_after=${p1.data[1].id}`)).json();
      assert.deepEqual(
        p2.data.map((e: { id: string }) => e.id),
        all.slice(2, 4).map((e: { id: string }) => e.id),
      );
      const bad = await get('/v1/audit?since=yesterday');
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().param, 'since');
    });

    test('needs audit:read; another tenant sees only its own trail', async () => {
      const noCap = await t.orgKey({ capabilities: ['streams:read'] });
      const res = await get('/v1/audit', noCap);
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().param, 'audit:read');
      const other = await t.orgKey();
      const theirs = (await get('/v1/audit', other)).json().data;
      assert.deepEqual(
        theirs.map((e: { action: string }) => e.action),
        ['api_key.created'],
      );
      assert.equal((await get(`/v1/audit?resource_id=${hooks[0]}`, other)).json().data.length, 0);
      const home = await t.householdKey();
      const mine = (await get('/v1/audit', home)).json().data;
      assert.deepEqual(
        mine.map((e: { action: string }) => e.action),
        ['api_key.created'],
      );
      assert.equal((await get('/v1/audit/verify', home)).json().valid, true);
    });

    test('verify and export stream long chains in chunks', async () => {
      const big = await t.orgKey();
      const entries = Array.from({ length: 2100 }, (_, i) => ({
        tenantId: big.tenant_id,
        action: 'scene.queried',
        resourceType: 'scene',
        resourceId: `scene_${i}`,
        data: { n: i },
      }));
      await t.ctx.audit.append({ keyId: big.id, operator: null }, ...entries);
      assert.deepEqual((await get('/v1/audit/verify', big)).json().entries_checked, 2101);
      const exp = (await get('/v1/audit/export', big)).body;
      assert.deepEqual(verifyExportOffline(exp), { valid: true, checked: 2101, checkpointMatches: true });
    });

    test('verify recomputes the chain; export re-verifies offline; a row changed behind the database is named', async () => {
      const ok = (await get('/v1/audit/verify')).json();
      assert.deepEqual(ok, { valid: true, entries_checked: 6, head_hash: ok.head_hash, checkpoint: null });
      const exp = await get('/v1/audit/export');
      assert.equal(exp.statusCode, 200);
      assert.match(String(exp.headers['content-type']), /^application\/x-ndjson/);
      const [header, ...lines] = exp.body
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      assert.equal(header.object, 'audit_checkpoint');
      assert.equal(header.head_id, lines.at(-1).id);
      assert.equal(header.entry_count, 6);
      assert.equal(lines.length, 6);
      assert.deepEqual(Object.keys(lines[0]).sort(), [
        'action',
        'actor_key_id',
        'actor_operator',
        'at',
        'data',
        'data_hash',
        'format',
        'hash',
        'id',
        'location',
        'prev_hash',
        'request_id',
        'resource_id',
        'resource_type',
        'salt',
        'stream_id',
        'tenant_id',
      ]);
      assert.deepEqual(verifyExportOffline(exp.body), { valid: true, checked: 6, checkpointMatches: true });
      assert.equal(lines.at(-1).hash, ok.head_hash);

      // the database refuses the change while the trigger is in place
      const { db } = t.ctx.database;
      const victim = lines[3];
      await assert.rejects(sql`UPDATE audit_log SET data = ${'{"after":{"url":"http://evil.example"}}'} WHERE id = ${victim.id}`.execute(db), /append-only/);
      // someone with database access drops the trigger and edits a row
      if (dialect === 'postgres') await sql`DROP TRIGGER audit_log_no_update ON audit_log`.execute(db);
      else await sql`DROP TRIGGER audit_log_no_update`.execute(db);
      await sql`UPDATE audit_log SET data = ${'{"after":{"url":"http://evil.example"}}'} WHERE id = ${victim.id}`.execute(db);

      const broken = (await get('/v1/audit/verify')).json();
      assert.equal(broken.valid, false);
      assert.equal(broken.first_broken_id, victim.id);
      assert.equal(broken.entries_checked, 4);
      const tampered = (await get('/v1/audit/export')).body;
      assert.deepEqual(verifyExportOffline(tampered), { valid: false, checked: 4, firstBroken: victim.id });
      // the other tenants' chains are untouched
      const other = await t.orgKey();
      assert.equal((await get('/v1/audit/verify', other)).json().valid, true);
    });
  });
}
