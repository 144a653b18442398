/**
 * Recognized and unrecognized people in Surface B: alert rules on
 * `subtype: recognized|unrecognized` and `person_id` (validated), detection.anomaly only for an
 * unrecognized person (never a recognized one, never a person whose face was not seen) with
 * `person_id` carried where there is one, on both databases.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/harness.ts';
import { createOperationsFixture, type OperationsFixture } from './operations-fixture.ts';

for (const dialect of DIALECTS) {
  describe(`recognized people in rules and anomalies (${dialect})`, () => {
    let f: OperationsFixture;
    before(async () => {
      f = await createOperationsFixture(dialect);
    });
    after(() => f.t.close());

    const rule = (body: object, key: { key: string }) => f.request('POST', '/v1/alert-rules', body, { key });
    const alertsOf = async (ruleId: string, key: { key: string }) =>
      (await f.request('GET', `/v1/alerts?rule_id=${ruleId}&limit=100`, undefined, { key })).body.data as Array<Record<string, any>>;

    test('a rule on a person_id fires only when that person is recognized; an unknown person id is refused naming the field', async () => {
      const { key, stream } = await f.newOrg();
      const maria = (await f.request('POST', '/v1/people', { name: 'Maria' }, { key })).body;
      const tom = (await f.request('POST', '/v1/people', { name: 'Tom' }, { key })).body;
      const arrives = await rule({ name: 'Maria arrives', condition: { type: 'person', person_id: maria.id }, cooldown_s: 1 }, key);
      assert.equal(arrives.status, 201, JSON.stringify(arrives.body));
      assert.deepEqual(arrives.body.condition, { type: 'person', person_id: maria.id });

      const t0 = f.clock.now();
      await f.ingest(stream, [{ type: 'person', subtype: 'recognized', person_id: tom.id, at: t0, track_id: 't' }]);
      await f.ingest(stream, [{ type: 'person', subtype: 'unrecognized', at: t0 + 1000, track_id: 'u' }]);
      await f.ingest(stream, [{ type: 'person', subtype: null, at: t0 + 2000, track_id: 'n' }]);
      assert.equal((await alertsOf(arrives.body.id, key)).length, 0, 'Tom, a stranger and a face unseen are not Maria');
      await f.ingest(stream, [{ type: 'person', subtype: 'recognized', person_id: maria.id, at: t0 + 5000, track_id: 'm' }]);
      const [alert] = await alertsOf(arrives.body.id, key);
      assert.ok(alert, 'fired for Maria');
      assert.equal(alert.detection.person_id, maria.id);
      assert.equal(alert.detection.subtype, 'recognized');

      const unknown = await rule({ name: 'ghost', condition: { type: 'person', person_id: 'person_01jd3k8e7f9g2h4j6k8m0n2p4q' } }, key);
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.param, 'condition.person_id');
      const otherOrg = await f.newOrg('east_gate');
      const foreign = await rule({ name: 'their Maria', condition: { type: 'person', person_id: maria.id } }, otherOrg.key);
      assert.equal(foreign.status, 400, 'a person of another organization is unknown here');
      assert.equal(foreign.body.param, 'condition.person_id');
      const contradiction = await rule({ name: 'x', condition: { type: 'person', subtype: 'unrecognized', person_id: maria.id } }, key);
      assert.equal(contradiction.status, 400);
      assert.equal(contradiction.body.param, 'condition.subtype');
      const badSubtype = await rule({ name: 'y', condition: { type: 'person', subtype: 'vip' } }, key);
      assert.equal(badSubtype.status, 400);
      const patched = await f.request(
        'PATCH',
        `/v1/alert-rules/${arrives.body.id}`,
        { condition: { type: 'person', person_id: 'person_01jd3k8e7f9g2h4j6k8m0n2p4q' } },
        { key },
      );
      assert.equal(patched.status, 400);
      assert.equal(patched.body.param, 'condition.person_id');
      assert.equal(
        (await f.request('GET', `/v1/alert-rules/${arrives.body.id}`, undefined, { key })).body.condition.person_id,
        maria.id,
        'nothing half-written',
      );
    });

    test('subtype recognized matches anyone recognized; subtype unrecognized only strangers', async () => {
      const { key, stream } = await f.newOrg('staff_door');
      const maria = (await f.request('POST', '/v1/people', { name: 'Maria' }, { key })).body;
      const known = (await rule({ name: 'staff', condition: { type: 'person', subtype: 'recognized' }, cooldown_s: 1 }, key)).body;
      const strangers = (await rule({ name: 'strangers', condition: { type: 'person', subtype: 'unrecognized' }, cooldown_s: 1 }, key)).body;
      const t0 = f.clock.now();
      await f.ingest(stream, [{ type: 'person', subtype: 'recognized', person_id: maria.id, at: t0, track_id: 'm' }]);
      await f.ingest(stream, [{ type: 'person', subtype: null, at: t0 + 5000, track_id: 'n' }]);
      assert.deepEqual([(await alertsOf(known.id, key)).length, (await alertsOf(strangers.id, key)).length], [1, 0]);
      await f.ingest(stream, [{ type: 'person', subtype: 'unrecognized', at: t0 + 10_000, track_id: 'u' }]);
      assert.deepEqual([(await alertsOf(known.id, key)).length, (await alertsOf(strangers.id, key)).length], [1, 1]);
    });

    test('detection.anomaly: an unrecognized person only; a recognized one never, even loitering; a face unseen only when loitering', async () => {
      const { key, stream } = await f.newOrg('reception');
      await f.subscribe(key);
      const maria = (await f.request('POST', '/v1/people', { name: 'Maria' }, { key })).body;
      const t0 = f.clock.now();
      await f.ingest(stream, [{ type: 'person', subtype: 'recognized', person_id: maria.id, at: t0, track_id: 'm', dwell_s: 0 }]);
      await f.ingest(stream, [{ type: 'person', subtype: 'recognized', person_id: maria.id, at: t0 + 400_000, track_id: 'm', dwell_s: 400 }]);
      await f.ingest(stream, [{ type: 'person', subtype: null, at: t0 + 1000, track_id: 'n', dwell_s: 0 }]);
      assert.equal((await f.outbox('detection.anomaly', key.tenant_id)).length, 0, 'staff at the desk all day and a passer-by are no anomaly');
      await f.ingest(stream, [{ type: 'person', subtype: 'unrecognized', at: t0 + 401_000, track_id: 'u', dwell_s: 0 }]);
      const events = await f.outbox('detection.anomaly', key.tenant_id);
      assert.equal(events.length, 1);
      assert.equal(events[0].detection.subtype, 'unrecognized');
      assert.equal('person_id' in events[0].detection, false);
    });
  });
}
