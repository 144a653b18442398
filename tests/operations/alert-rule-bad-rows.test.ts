import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer } from '../helpers/harness.ts';
import { createOperationsFixture, type OperationsFixture } from './operations-fixture.ts';

/**
 * `1e400` (Infinity to JSON.parse) as a threshold was stored as null, answered 500,
 * broke `GET /v1/alert-rules` and `GET /v1/alerts` for the whole organization, and the rule fired
 * on any person. Non-finite and out-of-range numbers are refused; a row that is stored broken
 * anyway (written by an older version, or by hand) is listed as unreadable and never fires.
 */
for (const dialect of DIALECTS) {
  describe(`alert rules with bad thresholds (${dialect})`, () => {
    let f: OperationsFixture;
    before(async () => {
      f = await createOperationsFixture(dialect);
    });
    after(() => f.t.close());

    const raw = (url: string, text: string, method: 'POST' | 'PATCH' = 'POST') =>
      f.t.app.inject({ method, url, headers: { ...bearer(f.key), 'content-type': 'application/json' }, payload: text });

    test('the probe: a threshold of 1e400 (raw JSON text) is refused with 400 naming the field, and nothing is stored', async () => {
      const before = (await f.request('GET', '/v1/alert-rules?limit=100')).body.data.length;
      for (const [text, param] of [
        ['{"name":"Crowd","condition":{"type":"person_count","above":1e400}}', 'condition.above'],
        ['{"name":"Crowd","condition":{"type":"person_count","above":-1e400}}', 'condition.above'],
        ['{"name":"Crowd","condition":{"type":"person_count","above":100001}}', 'condition'],
        ['{"name":"Dense","condition":{"type":"crowd_density","at_least":1e400}}', 'condition.at_least'],
        ['{"name":"Crowd","condition":{"type":"person_count","above":3},"min_confidence":1e400}', 'min_confidence'],
        ['{"name":"Crowd","condition":{"type":"person_count","above":3},"cooldown_s":1e999}', 'cooldown_s'],
      ] as const) {
        const res = await raw('/v1/alert-rules', text);
        assert.equal(res.statusCode, 400, text);
        assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
        const body = res.json();
        assert.equal(body.code, 'validation_failed', text);
        assert.ok(String(body.param).startsWith(param), `${text}: param ${body.param}`);
        assert.equal(body.request_id, res.headers['x-request-id']);
      }
      assert.equal((await f.request('GET', '/v1/alert-rules?limit=100')).body.data.length, before);

      const created = await f.request('POST', '/v1/alert-rules', { name: 'Crowd', condition: { type: 'person_count', above: 3 } });
      const patched = await raw(`/v1/alert-rules/${created.body.id}`, '{"condition":{"type":"vehicle","above":1e400}}', 'PATCH');
      assert.equal(patched.statusCode, 400);
      assert.equal(patched.json().param, 'condition.above');
      assert.deepEqual((await f.request('GET', `/v1/alert-rules/${created.body.id}`)).body.condition, { type: 'person_count', above: 3 });
    });

    test('rows stored with a null or NaN threshold never break the lists and never fire', async () => {
      const { key, stream } = await f.newOrg('gate');
      const good = await f.request('POST', '/v1/alert-rules', { name: 'Busy gate', condition: { type: 'person_count', above: 2 } }, { key });
      assert.equal(good.status, 201);
      // what an older version stored for 1e400, and text that is not JSON at all
      const db = f.t.ctx.database.db;
      const template = await db.selectFrom('alert_rules').selectAll().where('id', '=', good.body.id).executeTakeFirstOrThrow();
      const broken = [
        { id: 'rule_01jd3k8e7f9g2h4j6k8m0n2p4a', condition: '{"type":"person_count","above":null}' },
        { id: 'rule_01jd3k8e7f9g2h4j6k8m0n2p4b', condition: '{"type":"person","above":NaN' },
        { id: 'rule_01jd3k8e7f9g2h4j6k8m0n2p4c', condition: '{"type":"vehicle","above":"many"}' },
      ];
      for (const b of broken)
        await db
          .insertInto('alert_rules')
          .values({ ...template, ...b, name: `broken ${b.id.slice(-1)}` })
          .execute();
      // an alert fired from a rule whose stored condition is broken
      await f.ingest(stream, [{ type: 'person_count', value: 5 }]);
      const alerts = await f.request('GET', '/v1/alerts', undefined, { key });
      assert.equal(alerts.status, 200);
      const alertRow = await db.selectFrom('alerts').selectAll().where('rule_id', '=', good.body.id).executeTakeFirstOrThrow();
      await db.updateTable('alerts').set({ condition: '{"type":"person_count","above":null}' }).where('id', '=', alertRow.id).execute();
      await f.t.ctx.operations.alertEngine.loadAll(db); // as at a restart

      const rules = await f.request('GET', '/v1/alert-rules?limit=100', undefined, { key });
      assert.equal(rules.status, 200, JSON.stringify(rules.body));
      const byId = new Map(rules.body.data.map((r: any) => [r.id, r]));
      for (const b of broken) {
        const r: any = byId.get(b.id);
        assert.equal(r.condition.type, 'unreadable', b.condition);
        assert.equal(typeof r.condition.detail, 'string');
      }
      assert.deepEqual((byId.get(good.body.id) as any).condition, { type: 'person_count', above: 2 });
      assert.equal((await f.request('GET', `/v1/alert-rules/${broken[0].id}`, undefined, { key })).status, 200);
      const listed = await f.request('GET', '/v1/alerts?limit=100', undefined, { key });
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.equal(listed.body.data.find((a: any) => a.id === alertRow.id).condition.type, 'unreadable');
      assert.equal((await f.request('GET', `/v1/alerts/${alertRow.id}`, undefined, { key })).status, 200);

      // a person walks in: only the readable rule may fire, never the broken ones ("fires on any person")
      await f.ingest(stream, [
        { type: 'person', subtype: 'unrecognized' },
        { type: 'person_count', value: 9 },
        { type: 'vehicle', count: 4 },
      ]);
      const fired = new Set((await f.request('GET', '/v1/alerts?limit=100', undefined, { key })).body.data.map((a: any) => a.rule_id));
      for (const b of broken) assert.ok(!fired.has(b.id), `${b.condition} fired`);

      // the owner can repair a broken rule with PATCH
      const fixed = await f.request('PATCH', `/v1/alert-rules/${broken[0].id}`, { condition: { type: 'person_count', above: 4 } }, { key });
      assert.equal(fixed.status, 200);
      assert.deepEqual(fixed.body.condition, { type: 'person_count', above: 4 });
    });
  });
}
