import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/harness.ts';
import { createOperationsFixture, type OperationsFixture } from './operations-fixture.ts';

const at = (iso: string) => Date.parse(iso);

for (const dialect of DIALECTS) {
  describe(`alert rules and alerts (${dialect})`, () => {
    let f: OperationsFixture;
    before(async () => {
      f = await createOperationsFixture(dialect);
    });
    after(() => f.t.close());

    const rule = (body: object, key?: { key: string }) => f.request('POST', '/v1/alert-rules', body, { key });
    const alertsOf = async (ruleId: string, key?: { key: string }) =>
      (await f.request('GET', `/v1/alerts?rule_id=${ruleId}&limit=100`, undefined, { key })).body.data as Array<Record<string, any>>;

    test('a person_count rule fires on hand-fed detections; the alert is listed, fetched, acknowledged once and published', async () => {
      const { key, stream } = await f.newOrg();
      await f.subscribe(key);
      const created = await rule({ name: 'Lobby crowded', condition: { type: 'person_count', above: 3 } }, key);
      assert.equal(created.status, 201);
      assert.match(created.body.id, /^rule_[0-9a-z]{26}$/);
      assert.equal(created.body.status, 'active');
      assert.equal(created.body.cooldown_s, 300);

      await f.ingest(stream, [{ type: 'person_count', value: 3 }]);
      assert.equal((await alertsOf(created.body.id, key)).length, 0, '3 is not above 3');
      await f.ingest(stream, [{ type: 'person_count', value: 5 }]);
      const [alert] = await alertsOf(created.body.id, key);
      assert.equal(alert.status, 'open');
      assert.equal(alert.observed, 5);
      assert.equal(alert.location, 'north_lobby');
      assert.equal(alert.stream_id, stream.id);
      assert.equal(alert.detection.type, 'person_count');

      const got = await f.request('GET', `/v1/alerts/${alert.id}`, undefined, { key });
      assert.equal(got.body.rule_name, 'Lobby crowded');
      const ack = await f.request('POST', `/v1/alerts/${alert.id}/acknowledge`, undefined, { key, headers: { 'x-operator': 'dana' } });
      assert.equal(ack.status, 200);
      assert.equal(ack.body.status, 'acknowledged');
      assert.deepEqual(ack.body.acknowledged_by, { key_id: ack.body.acknowledged_by.key_id, operator: 'dana' });
      const again = await f.request('POST', `/v1/alerts/${alert.id}/acknowledge`, undefined, { key });
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'invalid_state_transition');
      assert.equal((await f.request('GET', `/v1/alerts?status=open&rule_id=${created.body.id}`, undefined, { key })).body.data.length, 0);

      const events = await f.outbox('alert.fired', key.tenant_id);
      assert.equal(events.length, 1);
      assert.equal(events[0].event, 'alert.fired');
      assert.equal(events[0].alert.id, alert.id);

      // another organization sees none of it
      const other = await f.newOrg();
      assert.equal((await f.request('GET', `/v1/alert-rules/${created.body.id}`, undefined, { key: other.key })).status, 404);
      assert.equal((await f.request('GET', `/v1/alerts/${alert.id}`, undefined, { key: other.key })).status, 404);
    });

    test('the cooldown keeps a rule quiet at a location until it has passed', async () => {
      const { key, stream } = await f.newOrg();
      const r = (await rule({ name: 'any stranger', condition: { type: 'person', subtype: 'unrecognized' }, cooldown_s: 60 }, key)).body;
      const t0 = f.clock.now();
      await f.ingest(stream, [{ type: 'person', subtype: 'unrecognized', at: t0, track_id: 'a' }]);
      await f.ingest(stream, [{ type: 'person', subtype: 'unrecognized', at: t0 + 30_000, track_id: 'b' }]);
      await f.ingest(stream, [{ type: 'person', subtype: null, at: t0 + 90_000, track_id: 'c' }]);
      assert.equal((await alertsOf(r.id, key)).length, 1, 'second within 60 s suppressed; a recognized person never matches');
      await f.ingest(stream, [{ type: 'person', subtype: 'unrecognized', at: t0 + 61_000, track_id: 'd' }]);
      assert.equal((await alertsOf(r.id, key)).length, 2);
    });

    test('a location filter limits the rule to its locations', async () => {
      const { key, stream } = await f.newOrg();
      const garage = await f.addStream('garage', key);
      const r = (await rule({ name: 'garage vehicles', condition: { type: 'vehicle', above: 1 }, locations: ['garage'], cooldown_s: 0 }, key)).body;
      await f.ingest(stream, [{ type: 'vehicle', count: 4 }]);
      assert.equal((await alertsOf(r.id, key)).length, 0, 'lobby is not garage');
      await f.ingest(garage, [{ type: 'vehicle', count: 2 }]);
      const list = await alertsOf(r.id, key);
      assert.equal(list.length, 1);
      assert.equal(list[0].location, 'garage');
      assert.equal(list[0].observed, 2);
      const byLocation = await f.request('GET', '/v1/alerts?location=north_lobby', undefined, { key });
      assert.equal(byLocation.body.data.length, 0);
    });

    test('schedule windows apply in the rule’s time zone, overnight spans belong to the day they start', async () => {
      const { key, stream } = await f.newOrg();
      const r = (
        await rule(
          {
            name: 'Friday night',
            condition: { type: 'person', subtype: 'unrecognized' },
            schedule: { days: ['fri'], start: '22:00', end: '06:00', time_zone: 'America/New_York' },
            cooldown_s: 0,
          },
          key,
        )
      ).body;
      const cases: Array<[string, boolean, string]> = [
        ['2026-11-21T04:00:00.000Z', true, 'Friday 23:00 New York'],
        ['2026-11-21T08:00:00.000Z', true, 'Saturday 03:00 New York, Friday’s night'],
        ['2026-11-20T08:00:00.000Z', false, 'Friday 03:00 New York belongs to Thursday’s night'],
        ['2026-11-20T17:00:00.000Z', false, 'Friday noon New York'],
        ['2026-11-21T12:00:00.000Z', false, 'Saturday 07:00 New York, after the window'],
      ];
      let expected = 0;
      for (const [iso, fires, why] of cases) {
        await f.ingest(stream, [{ type: 'person', subtype: 'unrecognized', at: at(iso), track_id: iso }]);
        if (fires) expected++;
        assert.equal((await alertsOf(r.id, key)).length, expected, why);
      }
      const bad = await rule({ name: 'x', condition: { type: 'person' }, schedule: { start: '22:00', end: '06:00', time_zone: 'Mars/Olympus' } }, key);
      assert.equal(bad.status, 400);
      assert.equal(bad.body.param, 'schedule.time_zone');
    });

    test('crowd density, dwell and vehicle conditions', async () => {
      const { key, stream } = await f.newOrg();
      const density = (await rule({ name: 'dense', condition: { type: 'crowd_density', at_least: 0.5 }, cooldown_s: 0 }, key)).body;
      const dwell = (await rule({ name: 'loiter', condition: { type: 'dwell', min_s: 120 }, cooldown_s: 0 }, key)).body;
      await f.ingest(stream, [{ type: 'person_count', value: 20 }]); // 20/50 = 0.4
      await f.ingest(stream, [{ type: 'person_count', value: 25 }]); // 0.5
      await f.ingest(stream, [{ type: 'person', track_id: 'p', dwell_s: 100 }]);
      await f.ingest(stream, [{ type: 'person', track_id: 'p', dwell_s: 130 }]);
      const d = await alertsOf(density.id, key);
      assert.equal(d.length, 1);
      assert.equal(d[0].observed, 0.5);
      const w = await alertsOf(dwell.id, key);
      assert.equal(w.length, 1);
      assert.equal(w[0].observed, 130);
    });

    test('an animal condition fires on cats and dogs (or only the named one), never on people; a bad animal subtype is 400', async () => {
      const { key, stream } = await f.newOrg();
      const any = (await rule({ name: 'pet about', condition: { type: 'animal' }, cooldown_s: 0 }, key)).body;
      const dogs = await rule({ name: 'dog about', condition: { type: 'animal', subtype: 'dog' }, cooldown_s: 0 }, key);
      assert.equal(dogs.status, 201);
      assert.deepEqual(dogs.body.condition, { type: 'animal', subtype: 'dog' });
      await f.ingest(stream, [{ type: 'person', track_id: 'p1', dwell_s: 0 }]);
      await f.ingest(stream, [{ type: 'animal', subtype: 'cat', track_id: 'a1', dwell_s: 0 }]);
      await f.ingest(stream, [{ type: 'animal', subtype: 'dog', track_id: 'a2', dwell_s: 0 }]);
      const fired = await alertsOf(any.id, key);
      assert.deepEqual(fired.map((a) => a.detection.subtype).sort(), ['cat', 'dog']);
      assert.ok(fired.every((a) => a.detection.type === 'animal' && a.observed === null));
      const dogAlerts = await alertsOf(dogs.body.id, key);
      assert.equal(dogAlerts.length, 1);
      assert.equal(dogAlerts[0].detection.subtype, 'dog');

      const bad = await rule({ name: 'horse', condition: { type: 'animal', subtype: 'horse' } }, key);
      assert.equal(bad.status, 400);
      assert.match(bad.body.param, /^condition/);
    });

    test('a paused rule does not fire until resumed; pause needs the operator capability and is audited', async () => {
      const { key, stream } = await f.newOrg();
      const r = (await rule({ name: 'crowd', condition: { type: 'person_count', above: 1 }, cooldown_s: 0 }, key)).body;
      const noOperator = await f.t.orgKey({ capabilities: ['alerts:read', 'alerts:manage'] });
      const refused = await f.request('POST', `/v1/alert-rules/${r.id}/pause`, undefined, { key: noOperator });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'insufficient_capability');

      const paused = await f.request('POST', `/v1/alert-rules/${r.id}/pause`, undefined, { key, headers: { 'x-operator': 'sam' } });
      assert.equal(paused.status, 200);
      assert.equal(paused.body.status, 'paused');
      assert.equal((await f.request('POST', `/v1/alert-rules/${r.id}/pause`, undefined, { key })).status, 409);
      await f.ingest(stream, [{ type: 'person_count', value: 5 }]);
      assert.equal((await alertsOf(r.id, key)).length, 0);
      assert.equal((await f.request('POST', `/v1/alert-rules/${r.id}/resume`, undefined, { key })).body.status, 'active');
      await f.ingest(stream, [{ type: 'person_count', value: 6 }]);
      assert.equal((await alertsOf(r.id, key)).length, 1);

      const audit = await f.t.ctx.database.db
        .selectFrom('audit_log')
        .selectAll()
        .where('resource_id', '=', r.id)
        .where('action', '=', 'alert_rule.paused')
        .execute();
      assert.equal(audit.length, 1);
      assert.equal(audit[0].actor_operator, 'sam');
      const data = JSON.parse(audit[0].data!);
      assert.equal(data.before.status, 'active');
      assert.equal(data.after.status, 'paused');
    });

    test('CRUD: patch, list, delete; bad input answers 400 and a read-only key 403', async () => {
      const { key } = await f.newOrg();
      const r = (await rule({ name: 'n', condition: { type: 'vehicle', above: 2 } }, key)).body;
      const patched = await f.request(
        'PATCH',
        `/v1/alert-rules/${r.id}`,
        { name: 'renamed', cooldown_s: 10, schedule: { start: '08:00', end: '18:00' } },
        { key },
      );
      assert.equal(patched.status, 200);
      assert.equal(patched.body.name, 'renamed');
      assert.equal(patched.body.schedule.start, '08:00');
      assert.deepEqual(
        (await f.request('GET', '/v1/alert-rules', undefined, { key })).body.data.map((x: { id: string }) => x.id),
        [r.id],
      );
      assert.equal((await rule({ name: 'x', condition: { type: 'weather', above: 1 } }, key)).status, 400);
      assert.equal((await rule({ name: 'x', condition: { type: 'person_count', above: 1 }, stream_ids: ['stream_nope'] }, key)).status, 400);
      const reader = await f.t.orgKey({ capabilities: ['alerts:read'] });
      assert.equal((await rule({ name: 'x', condition: { type: 'person' } }, reader)).status, 403);
      assert.equal((await f.request('DELETE', `/v1/alert-rules/${r.id}`, undefined, { key })).body.deleted, true);
      assert.equal((await f.request('GET', `/v1/alert-rules/${r.id}`, undefined, { key })).status, 404);
    });
  });
}
