import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/harness.ts';
import { FRIDAY_NOON, createOperationsFixture, type OperationsFixture } from './operations-fixture.ts';

const FRIDAY_LATE = Date.parse('2026-11-20T23:00:00.000Z');

for (const dialect of DIALECTS) {
  describe(`anomalies and incidents (${dialect})`, () => {
    let f: OperationsFixture;
    before(async () => {
      f = await createOperationsFixture(dialect, FRIDAY_LATE);
    });
    after(() => f.t.close());

    test('an unrecognized person after hours fires detection.anomaly with exactly the spec payload and opens an automatic incident', async () => {
      const { key, stream } = await f.newOrg();
      await f.subscribe(key);
      const t0 = f.clock.now();
      await f.ingest(stream, [{ type: 'person', subtype: 'unrecognized', confidence: 0.87, track_id: 'intruder-1', at: t0 }]);

      const [event] = await f.outbox('detection.anomaly', key.tenant_id);
      assert.deepEqual(Object.keys(event).sort(), ['created_at', 'detection', 'event', 'id', 'incident_id', 'stream_id']);
      assert.match(event.id, /^evt_/);
      assert.equal(event.event, 'detection.anomaly');
      assert.equal(event.stream_id, stream.id);
      assert.match(event.incident_id, /^incident_[0-9a-z]{26}$/);
      assert.deepEqual(event.detection, {
        type: 'person',
        subtype: 'unrecognized',
        confidence: 0.87,
        location: 'north_lobby',
        timestamp: '2026-11-20T23:00:00.000Z',
      });

      const incident = (await f.request('GET', `/v1/incidents/${event.incident_id}`, undefined, { key })).body;
      assert.equal(incident.source, 'automatic');
      assert.equal(incident.severity, 'high', 'after hours');
      assert.equal(incident.status, 'open');
      assert.match(incident.title, /Unrecognized person at north_lobby after hours/);
      assert.equal(incident.detection_count, 1);
      const created = await f.outbox('incident.created', key.tenant_id);
      assert.equal(created.length, 1);
      assert.equal(created[0].incident.id, event.incident_id);

      // the same person seen again: no second announcement, the incident grows
      await f.ingest(stream, [{ type: 'person', subtype: 'unrecognized', confidence: 0.9, track_id: 'intruder-1', at: t0 + 10_000 }]);
      // someone loitering 5 minutes later: announced, same incident (within the 10 min gap)
      await f.ingest(stream, [{ type: 'person', track_id: 'loiterer', dwell_s: 320, at: t0 + 300_000 }]);
      const events = await f.outbox('detection.anomaly', key.tenant_id);
      assert.equal(events.length, 2);
      assert.equal(events[1].incident_id, event.incident_id);
      assert.equal(events[1].detection.subtype, null);
      const grown = (await f.request('GET', `/v1/incidents/${event.incident_id}`, undefined, { key })).body;
      assert.equal(grown.detection_count, 3);
      assert.deepEqual(grown.timeline.filter((e: { kind: string }) => e.kind === 'detection').length, 3);

      // past the gap after the last anomaly: a new automatic incident
      await f.ingest(stream, [{ type: 'person', subtype: 'unrecognized', track_id: 'intruder-2', at: t0 + 300_000 + 11 * 60_000 }]);
      const third = (await f.outbox('detection.anomaly', key.tenant_id))[2];
      assert.notEqual(third.incident_id, event.incident_id);
      assert.equal((await f.request('GET', '/v1/incidents?source=automatic', undefined, { key })).body.data.length, 2);

      // recognized people and short stays are not anomalies
      await f.ingest(stream, [{ type: 'person', track_id: 'staff', dwell_s: 30 }]);
      assert.equal((await f.outbox('detection.anomaly', key.tenant_id)).length, 3);
    });

    test('an incident stays open while anomalies keep coming within the gap of the last one, however long it runs', async () => {
      const { key, stream } = await f.newOrg();
      await f.subscribe(key);
      const t0 = f.clock.now();
      // 9 minutes apart: each within the 10-minute gap of the one before, the third 18 minutes after the first
      await f.ingest(stream, [{ type: 'person', subtype: 'unrecognized', track_id: 'walker-1', at: t0 }]);
      await f.ingest(stream, [{ type: 'person', subtype: 'unrecognized', track_id: 'walker-2', at: t0 + 9 * 60_000 }]);
      await f.ingest(stream, [
        { type: 'person', subtype: 'unrecognized', track_id: 'walker-3', at: t0 + 18 * 60_000 },
        { type: 'person', subtype: 'unrecognized', track_id: 'walker-4', at: t0 + 18 * 60_000 + 1 },
      ]);
      const events = await f.outbox('detection.anomaly', key.tenant_id);
      assert.equal(events.length, 4);
      assert.equal(new Set(events.map((e) => e.incident_id)).size, 1, 'one incident: its last activity moved with each anomaly');
      const incident = (await f.request('GET', `/v1/incidents/${events[0].incident_id}`, undefined, { key })).body;
      assert.equal(incident.detection_count, 4);
    });

    test('during business hours the automatic incident is medium severity; the grouping gap is the organization’s', async () => {
      const { key, stream } = await f.newOrg();
      const gap = await f.request('PATCH', '/v1/automation', { incident_gap_s: 60 }, { key });
      assert.equal(gap.status, 200);
      assert.equal(gap.body.incidents.gap_s, 60);
      await f.ingest(stream, [{ type: 'person', subtype: 'unrecognized', track_id: 'a', at: FRIDAY_NOON }]);
      await f.ingest(stream, [{ type: 'person', subtype: 'unrecognized', track_id: 'b', at: FRIDAY_NOON + 90_000 }]);
      const list = (await f.request('GET', '/v1/incidents', undefined, { key })).body.data;
      assert.equal(list.length, 2, '90 s apart with a 60 s gap: two incidents');
      assert.ok(list.every((i: { severity: string }) => i.severity === 'medium'));
    });

    test('an operator pause of automatic incidents: anomalies are still announced, with no incident, until resumed', async () => {
      const { key, stream } = await f.newOrg();
      await f.subscribe(key);
      const noOperator = await f.t.orgKey({ capabilities: ['incidents:read'] });
      assert.equal((await f.request('POST', '/v1/automation/incidents/pause', undefined, { key: noOperator })).status, 403);
      const paused = await f.request('POST', '/v1/automation/incidents/pause', undefined, { key, headers: { 'x-operator': 'lee' } });
      assert.equal(paused.status, 200);
      assert.equal(paused.body.incidents.paused, true);
      await f.ingest(stream, [{ type: 'person', subtype: 'unrecognized', track_id: 'x' }]);
      const [ev] = await f.outbox('detection.anomaly', key.tenant_id);
      assert.equal(ev.incident_id, null);
      assert.equal((await f.request('GET', '/v1/incidents', undefined, { key })).body.data.length, 0);
      await f.request('POST', '/v1/automation/incidents/resume', undefined, { key });
      await f.ingest(stream, [{ type: 'person', subtype: 'unrecognized', track_id: 'y' }]);
      assert.equal((await f.request('GET', '/v1/incidents', undefined, { key })).body.data.length, 1);
      const audit = await f.t.ctx.database.db
        .selectFrom('audit_log')
        .selectAll()
        .where('tenant_id', '=', key.tenant_id)
        .where('action', '=', 'automation.incidents_paused')
        .execute();
      assert.equal(audit.length, 1);
      assert.equal(audit[0].actor_operator, 'lee');
    });

    test('incident lifecycle: open → acknowledged → resolved; other transitions 409; notes and actions in the timeline; events published', async () => {
      const { key, stream } = await f.newOrg();
      await f.subscribe(key);
      const [det] = await f.t.ctx.pipeline.ingest(stream, [{ type: 'person_count', value: 4, confidence: 0.9, at: f.clock.now() }]);
      const created = await f.request(
        'POST',
        '/v1/incidents',
        { stream_id: stream.id, title: 'Door forced', severity: 'high', detection_ids: [det.id] },
        { key },
      );
      assert.equal(created.status, 201);
      const id = created.body.id;
      assert.match(id, /^incident_[0-9a-z]{26}$/);
      assert.equal(created.body.status, 'open');
      assert.equal(created.body.source, 'manual');
      assert.equal(created.body.location, 'north_lobby');

      const skip = await f.request('PATCH', `/v1/incidents/${id}`, { status: 'resolved' }, { key });
      assert.equal(skip.status, 409);
      assert.equal(skip.body.code, 'invalid_state_transition');
      assert.equal(skip.body.current_status, 'open');

      await f.clock.advance(1000);
      const ack = await f.request('PATCH', `/v1/incidents/${id}`, { status: 'acknowledged' }, { key, headers: { 'x-operator': 'ana' } });
      assert.equal(ack.status, 200);
      assert.equal(ack.body.status, 'acknowledged');
      assert.ok(ack.body.acknowledged_at);
      await f.clock.advance(1000);
      const note = await f.request('POST', `/v1/incidents/${id}/notes`, { body: 'Guard on the way' }, { key, headers: { 'x-operator': 'ana' } });
      assert.equal(note.status, 201);
      assert.equal(note.body.author.operator, 'ana');
      await f.clock.advance(1000);
      const resolved = await f.request('PATCH', `/v1/incidents/${id}`, { status: 'resolved' }, { key });
      assert.equal(resolved.body.status, 'resolved');
      for (const status of ['open', 'acknowledged', 'dismissed', 'resolved']) {
        assert.equal((await f.request('PATCH', `/v1/incidents/${id}`, { status }, { key })).status, 409, `resolved → ${status}`);
      }

      const detail = (await f.request('GET', `/v1/incidents/${id}`, undefined, { key })).body;
      assert.equal(detail.detection_count, 1);
      const kinds = detail.timeline.map((e: { kind: string; action?: { action: string } }) => (e.kind === 'action' ? e.action!.action : e.kind));
      assert.deepEqual(kinds, ['detection', 'incident.created', 'incident.acknowledged', 'note', 'incident.resolved']);
      const ackEntry = detail.timeline.find((e: { action?: { action: string } }) => e.action?.action === 'incident.acknowledged');
      assert.equal(ackEntry.action.actor.operator, 'ana');
      assert.equal(ackEntry.action.data.before.status, 'open');
      assert.equal(ackEntry.action.data.after.status, 'acknowledged');
      const times = detail.timeline.map((e: { at: string }) => e.at);
      assert.deepEqual([...times].sort(), times, 'time order');

      const updates = await f.outbox('incident.updated', key.tenant_id);
      assert.deepEqual(
        updates.map((u) => u.incident.status),
        ['acknowledged', 'resolved'],
      );
      assert.equal(updates[0].previous.status, 'open');

      const listed = await f.request('GET', '/v1/incidents?status=resolved', undefined, { key });
      assert.deepEqual(
        listed.body.data.map((i: { id: string }) => i.id),
        [id],
      );
    });

    test('acknowledged incidents can be dismissed; foreign and missing ids answer 404; capabilities are enforced', async () => {
      const key = await f.t.orgKey({ name: 'Limited Co' });
      const stream = await f.addStream('north_lobby', key);
      const id = (await f.request('POST', '/v1/incidents', { stream_id: stream.id }, { key })).body.id;
      await f.request('PATCH', `/v1/incidents/${id}`, { status: 'acknowledged' }, { key });
      assert.equal((await f.request('PATCH', `/v1/incidents/${id}`, { status: 'dismissed' }, { key })).body.status, 'dismissed');

      const other = await f.newOrg();
      assert.equal((await f.request('GET', `/v1/incidents/${id}`, undefined, { key: other.key })).status, 404);
      assert.equal((await f.request('PATCH', `/v1/incidents/${id}`, { title: 'x' }, { key: other.key })).status, 404);
      assert.equal((await f.request('POST', `/v1/incidents/${id}/notes`, { body: 'x' }, { key: other.key })).status, 404);
      assert.equal((await f.request('POST', '/v1/incidents', { stream_id: stream.id }, { key: other.key })).status, 404, 'foreign stream');
      assert.equal((await f.request('GET', '/v1/incidents/incident_01jd3k8e7f9g2h4j6k8m0n2p4q', undefined, { key })).status, 404);
      const badDet = await f.request('POST', '/v1/incidents', { stream_id: stream.id, detection_ids: ['det_01jd3k8e7f9g2h4j6k8m0n2p4q'] }, { key });
      assert.equal(badDet.status, 400);

      const reader = await f.t.orgKey({ capabilities: ['incidents:read'] });
      const denied = await f.request('POST', '/v1/incidents', { stream_id: stream.id }, { key: reader });
      assert.equal(denied.status, 403);
      assert.equal(denied.body.code, 'insufficient_capability');
      const limited = await f.t.orgKey({ name: 'Limited Co', capabilities: ['incidents:read'], locations: ['garage'] });
      assert.equal(
        (await f.request('GET', `/v1/incidents/${id}`, undefined, { key: limited })).status,
        404,
        'same organization, key limited to another location',
      );
      const sameOrg = await f.t.orgKey({ name: 'Limited Co', capabilities: ['incidents:read'] });
      assert.equal((await f.request('GET', `/v1/incidents/${id}`, undefined, { key: sameOrg })).status, 200);
    });
  });
}
