import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/platform/config/config.ts';
import { createContext } from '../../src/context.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { DIALECTS, createTestDatabase } from '../helpers/harness.ts';
import { createOperationsFixture, type OperationsFixture } from './operations-fixture.ts';

for (const dialect of DIALECTS) {
  describe(`responders and protocols (${dialect})`, () => {
    let f: OperationsFixture;
    before(async () => {
      f = await createOperationsFixture(dialect);
    });
    after(() => f.t.close());

    /** An organization with responders at the given levels, an open incident, and escalation after 60 s. */
    async function setup(levels: number[]) {
      const { key, stream } = await f.newOrg();
      await f.subscribe(key);
      await f.request('PATCH', '/v1/automation', { escalation_after_s: 60 }, { key });
      const responders: Array<{ id: string; level: number }> = [];
      for (const [i, level] of levels.entries()) {
        const r = await f.request(
          'POST',
          '/v1/responders',
          { name: `R${i}`, kind: i % 2 ? 'system' : 'person', escalation_level: level, contact: { webhook_url: `http://127.0.0.1:9/r${i}` } },
          { key },
        );
        assert.equal(r.status, 201, JSON.stringify(r.body));
        responders.push({ id: r.body.id, level });
      }
      const incident = (await f.request('POST', '/v1/incidents', { stream_id: stream.id, title: 'Intruder' }, { key })).body;
      return { key, stream, incident, responders };
    }
    /** responder ids notified by signed deliveries to their own URLs, per run */
    const notifiedOf = async (runId: string) =>
      await f.t.ctx.database.db
        .selectFrom('protocol_notifications')
        .select(['responder_id', 'escalation_level'])
        .where('run_id', '=', runId)
        .orderBy('escalation_level')
        .execute();
    const responderDeliveries = async (tenantId: string) =>
      f.t.ctx.database.db
        .selectFrom('webhook_deliveries')
        .select(['target_url', 'target_secret', 'event_kind'])
        .where('tenant_id', '=', tenantId)
        .where('endpoint_id', 'is', null)
        .execute();
    const advance = async (ms: number) => {
      await f.clock.advance(ms);
      await f.t.ctx.operations.protocolRuns.settled();
    };

    test('responders: create (secret shown once), get, list, patch, delete; unsafe URLs refused', async () => {
      const { key } = await f.newOrg();
      const created = await f.request(
        'POST',
        '/v1/responders',
        {
          name: 'Night desk',
          kind: 'person',
          escalation_level: 2,
          contact: { webhook_url: 'http://127.0.0.1:9/desk', email: 'desk@example.com', sms: '+351912345678' },
        },
        { key },
      );
      assert.equal(created.status, 201);
      assert.match(created.body.id, /^rsp_[0-9a-z]{26}$/);
      assert.match(created.body.signing_secret, /^whsec_/);
      assert.deepEqual(created.body.contact, { webhook_url: 'http://127.0.0.1:9/desk', email: 'desk@example.com', sms: '+351912345678' });
      const got = await f.request('GET', `/v1/responders/${created.body.id}`, undefined, { key });
      assert.equal(got.body.signing_secret, undefined, 'secret is shown only at creation');
      const patched = await f.request('PATCH', `/v1/responders/${created.body.id}`, { escalation_level: 3, contact: { sms: null } }, { key });
      assert.equal(patched.body.escalation_level, 3);
      assert.equal(patched.body.contact.sms, null);
      assert.equal(patched.body.contact.email, 'desk@example.com');
      assert.equal((await f.request('GET', '/v1/responders?escalation_level=3', undefined, { key })).body.data.length, 1);
      const ftp = await f.request(
        'POST',
        '/v1/responders',
        { name: 'x', kind: 'system', escalation_level: 1, contact: { webhook_url: 'ftp://example.com/x' } },
        { key },
      );
      assert.equal(ftp.status, 400);
      assert.equal(ftp.body.code, 'webhook_url_not_allowed');
      assert.equal(ftp.body.param, 'contact.webhook_url');
      for (const level of [0, 6]) {
        assert.equal(
          (
            await f.request(
              'POST',
              '/v1/responders',
              { name: 'x', kind: 'person', escalation_level: level, contact: { webhook_url: 'http://127.0.0.1:9/' } },
              { key },
            )
          ).status,
          400,
        );
      }
      const other = await f.newOrg();
      assert.equal((await f.request('GET', `/v1/responders/${created.body.id}`, undefined, { key: other.key })).status, 404);
      assert.equal((await f.request('DELETE', `/v1/responders/${created.body.id}`, undefined, { key })).body.deleted, true);
      const noCap = await f.t.orgKey({ capabilities: ['incidents:read'] });
      assert.equal((await f.request('GET', '/v1/responders', undefined, { key: noCap })).status, 403);
    });

    test('triggering a protocol notifies every responder at or below the level, by signed delivery, and answers the spec’s result', async () => {
      const { key, incident, responders } = await setup([1, 2, 2, 3, 5]);
      const res = await f.request(
        'POST',
        `/v1/incidents/${incident.id}/protocol`,
        { protocol_type: 'unauthorized_access', notify_responders: true, escalation_level: 2 },
        { key },
      );
      assert.equal(res.status, 201);
      const run = res.body;
      assert.match(run.id, /^prot_[0-9a-z]{26}$/);
      assert.equal(run.incident_id, incident.id);
      assert.equal(run.protocol_type, 'unauthorized_access');
      assert.equal(run.status, 'active');
      assert.equal(run.escalation_level, 2);
      // responders_notified counts responders reached; this fixture runs no delivery worker, so the
      // three are sent to (protocol_notifications, deliveries below) but none is reached yet
      assert.equal(run.responders_notified, 0);
      assert.equal(run.responders_unreached, 0, 'still pending, not unreached');
      assert.equal((await notifiedOf(run.id)).length, 3);
      assert.match(run.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.deepEqual(
        (await notifiedOf(run.id)).map((n) => n.responder_id).sort(),
        responders
          .filter((r) => r.level <= 2)
          .map((r) => r.id)
          .sort(),
      );
      const deliveries = await responderDeliveries(key.tenant_id);
      assert.equal(deliveries.length, 3);
      assert.ok(deliveries.every((d) => d.target_secret?.startsWith('whsec_') && d.event_kind === 'protocol.triggered'));
      const all = await f.outbox('protocol.triggered', key.tenant_id);
      assert.equal(all.filter((e) => e.responder).length, 3, 'one notification per responder');
      assert.equal(all.find((e) => e.responder)!.reason, 'triggered');
      const triggered = all.filter((e) => !e.responder);
      assert.equal(triggered.length, 1, 'one organization event');
      assert.equal(triggered[0].protocol_run.id, run.id);

      const quiet = await f.request(
        'POST',
        `/v1/incidents/${incident.id}/protocol`,
        { protocol_type: 'fire', notify_responders: false, escalation_level: 5 },
        { key },
      );
      assert.equal(quiet.body.responders_notified, 0);
      assert.equal((await f.request('GET', `/v1/protocol-runs/${run.id}`, undefined, { key })).body.id, run.id);
    });

    test('bad triggers: escalation 0 or 6 → 400, unknown type → 400, foreign or missing incident → 404, missing capability → 403', async () => {
      const { key, incident } = await setup([]);
      const trigger = (body: object, id = incident.id, k: { key: string } = key) => f.request('POST', `/v1/incidents/${id}/protocol`, body, { key: k });
      for (const level of [0, 6]) {
        const r = await trigger({ protocol_type: 'intrusion', notify_responders: true, escalation_level: level });
        assert.equal(r.status, 400, `level ${level}`);
        assert.equal(r.body.param, 'escalation_level');
      }
      const unknown = await trigger({ protocol_type: 'alien_invasion', notify_responders: false, escalation_level: 1 });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.code, 'unknown_protocol_type');
      const other = await f.newOrg();
      assert.equal((await trigger({ protocol_type: 'intrusion', notify_responders: false, escalation_level: 1 }, incident.id, other.key)).status, 404);
      assert.equal(
        (await trigger({ protocol_type: 'intrusion', notify_responders: false, escalation_level: 1 }, 'incident_01jd3k8e7f9g2h4j6k8m0n2p4q')).status,
        404,
      );
      const noCap = await f.t.orgKey({ capabilities: ['incidents:read', 'incidents:write'] });
      const denied = await trigger({ protocol_type: 'intrusion', notify_responders: false, escalation_level: 1 }, incident.id, noCap);
      assert.equal(denied.status, 403);
      assert.equal(denied.body.code, 'insufficient_capability');
    });

    test('organization-defined protocol types are listed with the built-ins and can be triggered', async () => {
      const { key, incident } = await setup([]);
      const created = await f.request(
        'POST',
        '/v1/protocols',
        { name: 'gas_leak', description: 'Gas smell', steps: ['Evacuate', 'Call the gas company'] },
        { key },
      );
      assert.equal(created.status, 201);
      assert.match(created.body.id, /^ptype_/);
      assert.equal((await f.request('POST', '/v1/protocols', { name: 'gas_leak', steps: ['x'] }, { key })).body.code, 'protocol_type_exists');
      assert.equal((await f.request('POST', '/v1/protocols', { name: 'fire', steps: ['x'] }, { key })).status, 409, 'built-in names are taken');
      const names = (await f.request('GET', '/v1/protocols', undefined, { key })).body.data.map((p: { name: string }) => p.name);
      for (const n of ['unauthorized_access', 'intrusion', 'fire', 'medical', 'crowd_control', 'suspicious_vehicle', 'gas_leak'])
        assert.ok(names.includes(n), n);
      const run = await f.request(
        'POST',
        `/v1/incidents/${incident.id}/protocol`,
        { protocol_type: 'gas_leak', notify_responders: false, escalation_level: 1 },
        { key },
      );
      assert.equal(run.status, 201);
      assert.deepEqual(run.body.steps, ['Evacuate', 'Call the gas company']);
      const other = await f.newOrg();
      const elsewhere = await f.request('POST', '/v1/protocols', { name: 'gas_leak', steps: ['mine'] }, { key: other.key });
      assert.equal(elsewhere.status, 201, 'names are per organization');
    });

    test('an unacknowledged run escalates one level per delay, notifying the new responders; acknowledging the incident stops it', async () => {
      const { key, incident, responders } = await setup([1, 2, 3]);
      const run = (
        await f.request('POST', `/v1/incidents/${incident.id}/protocol`, { protocol_type: 'intrusion', notify_responders: true, escalation_level: 1 }, { key })
      ).body;
      assert.equal((await notifiedOf(run.id)).length, 1);
      await advance(59_000);
      assert.equal((await f.request('GET', `/v1/protocol-runs/${run.id}`, undefined, { key })).body.escalation_level, 1);
      await advance(1_000);
      const escalated = (await f.request('GET', `/v1/protocol-runs/${run.id}`, undefined, { key })).body;
      assert.equal(escalated.escalation_level, 2);
      assert.equal((await notifiedOf(run.id)).length, 2);
      assert.deepEqual(
        (await notifiedOf(run.id)).map((n) => n.responder_id),
        [responders[0].id, responders[1].id],
      );
      const changed = (await f.outbox('protocol.state_changed', key.tenant_id)).filter((e) => !e.responder);
      assert.equal(changed.at(-1)!.change, 'escalated');
      assert.equal(changed.at(-1)!.previous.escalation_level, 1);

      await f.request('PATCH', `/v1/incidents/${incident.id}`, { status: 'acknowledged' }, { key });
      await advance(300_000);
      const acked = (await f.request('GET', `/v1/protocol-runs/${run.id}`, undefined, { key })).body;
      assert.equal(acked.escalation_level, 2, 'acknowledged: no further escalation');
      assert.ok(acked.acknowledged_at);
      const timeline = (await f.request('GET', `/v1/incidents/${incident.id}`, undefined, { key })).body.timeline;
      const actions = timeline.filter((e: { kind: string }) => e.kind === 'action').map((e: { action: { action: string } }) => e.action.action);
      assert.ok(actions.includes('protocol_run.escalated'));
      assert.ok(actions.includes('protocol_run.acknowledged'));
      assert.ok(timeline.some((e: { kind: string; id: string }) => e.kind === 'protocol_run' && e.id === run.id));
      await f.request('PATCH', `/v1/incidents/${incident.id}`, { status: 'resolved' }, { key });
      assert.equal((await f.request('GET', `/v1/protocol-runs/${run.id}`, undefined, { key })).body.status, 'completed');
    });

    test('operator pause stops escalation until resume; override changes the level or dismisses; every action is audited in the timeline', async () => {
      const { key, incident } = await setup([1, 2, 3, 4]);
      const run = (
        await f.request('POST', `/v1/incidents/${incident.id}/protocol`, { protocol_type: 'intrusion', notify_responders: true, escalation_level: 1 }, { key })
      ).body;
      const op = (action: string, body?: object, k: { key: string } = key) =>
        f.request('POST', `/v1/protocol-runs/${run.id}/${action}`, body, { key: k, headers: { 'x-operator': 'morgan' } });

      const noOperator = await f.t.orgKey({ capabilities: ['incidents:read', 'protocols:trigger'] });
      assert.equal((await op('pause', undefined, noOperator)).status, 403);
      const paused = await op('pause');
      assert.equal(paused.status, 200);
      assert.equal(paused.body.status, 'paused');
      assert.equal(paused.body.next_escalation_at, null);
      assert.equal((await op('pause')).body.code, 'invalid_state_transition');
      await advance(600_000);
      assert.equal((await f.request('GET', `/v1/protocol-runs/${run.id}`, undefined, { key })).body.escalation_level, 1, 'paused: no automated step');

      assert.equal((await op('resume')).body.status, 'active');
      await advance(60_000);
      assert.equal((await f.request('GET', `/v1/protocol-runs/${run.id}`, undefined, { key })).body.escalation_level, 2, 'escalates after resume');

      const raised = await op('override', { escalation_level: 4, reason: 'confirmed break-in' });
      assert.equal(raised.status, 200);
      assert.equal(raised.body.escalation_level, 4);
      assert.equal((await notifiedOf(run.id)).length, 4, 'levels 3 and 4 notified by the override');
      assert.equal((await op('override', {})).status, 400, 'override needs a change');
      const dismissed = await op('override', { dismiss: true });
      assert.equal(dismissed.body.status, 'dismissed');
      assert.equal((await op('resume')).status, 409);

      const audit = await f.t.ctx.database.db.selectFrom('audit_log').selectAll().where('resource_id', '=', run.id).orderBy('seq').execute();
      const operatorRows = audit.filter((a) => a.actor_operator === 'morgan');
      assert.deepEqual(
        operatorRows.map((a) => a.action),
        ['protocol_run.paused', 'protocol_run.resumed', 'protocol_run.overridden', 'protocol_run.overridden'],
      );
      const overridden = JSON.parse(operatorRows[2].data!);
      assert.equal(overridden.before.escalation_level, 2);
      assert.equal(overridden.after.escalation_level, 4);
      assert.equal(overridden.reason, 'confirmed break-in');
      const timeline = (await f.request('GET', `/v1/incidents/${incident.id}`, undefined, { key })).body.timeline;
      const shown = timeline.filter(
        (e: { kind: string; action?: { actor: { operator: string } } }) => e.kind === 'action' && e.action!.actor.operator === 'morgan',
      );
      assert.equal(shown.length, 4);
    });

    test('terminate is final: every operator call afterwards answers 409 protocol_run_terminated', async () => {
      const { key, incident } = await setup([1]);
      const run = (
        await f.request('POST', `/v1/incidents/${incident.id}/protocol`, { protocol_type: 'medical', notify_responders: true, escalation_level: 1 }, { key })
      ).body;
      const terminated = await f.request('POST', `/v1/protocol-runs/${run.id}/terminate`, undefined, { key });
      assert.equal(terminated.status, 200);
      assert.equal(terminated.body.status, 'terminated');
      assert.ok(terminated.body.ended_at);
      for (const [action, body] of [
        ['pause', undefined],
        ['resume', undefined],
        ['terminate', undefined],
        ['override', { escalation_level: 3 }],
        ['override', { dismiss: true }],
      ] as const) {
        const r = await f.request('POST', `/v1/protocol-runs/${run.id}/${action}`, body, { key });
        assert.equal(r.status, 409, action);
        assert.equal(r.body.code, 'protocol_run_terminated', action);
      }
      await advance(120_000);
      assert.equal((await f.request('GET', `/v1/protocol-runs/${run.id}`, undefined, { key })).body.escalation_level, 1);
      const other = await f.newOrg();
      assert.equal((await f.request('POST', `/v1/protocol-runs/${run.id}/pause`, undefined, { key: other.key })).status, 404);
    });

    test('an organization-wide escalation pause holds every run until resumed', async () => {
      const { key, incident } = await setup([1, 2]);
      const run = (
        await f.request('POST', `/v1/incidents/${incident.id}/protocol`, { protocol_type: 'intrusion', notify_responders: true, escalation_level: 1 }, { key })
      ).body;
      assert.equal((await f.request('POST', '/v1/automation/escalation/pause', undefined, { key })).body.escalation.paused, true);
      await advance(300_000);
      assert.equal((await f.request('GET', `/v1/protocol-runs/${run.id}`, undefined, { key })).body.escalation_level, 1);
      await f.request('POST', '/v1/automation/escalation/resume', undefined, { key });
      await advance(60_000);
      assert.equal((await f.request('GET', `/v1/protocol-runs/${run.id}`, undefined, { key })).body.escalation_level, 2);
    });
  });

  test(`escalation survives a restart: timers are re-armed from the database (${dialect})`, async () => {
    const dbase = await createTestDatabase(dialect);
    const config = loadConfig({ runSources: false, seedDemo: false, publicBaseUrl: 'http://vigil.test', webhookAllowPrivate: true, ...dbase.overrides }, {});
    const clock = new ManualClock('2026-11-20T12:00:00.000Z');
    const first = await createContext(config, { clock });
    const key = await first.keys.createKey({
      tenantKind: 'organization',
      tenantName: 'Restart Co',
      mode: 'live',
      capabilities: 'all',
      rateLimitPerMinute: 100_000,
    });
    const principal = await first.keys.authenticate(key.key);
    const actor = { keyId: key.id, operator: null };
    const stream = await first.streams.create(principal, actor, {
      name: 'cam',
      source_type: 'sandbox',
      source_url: 'sandbox://lobby?scenario=lobby&seed=1',
      location: 'lobby',
    });
    const incident = await first.operations.incidents.create(principal, actor, { stream_id: stream.id });
    await first.operations.automation.update(principal, actor, { escalation_after_s: 60 });
    const run = await first.operations.protocolRuns.trigger(principal, actor, incident.id, {
      protocol_type: 'intrusion',
      notify_responders: false,
      escalation_level: 1,
    });
    await first.close();

    await clock.advance(30_000);
    const second = await createContext(config, { clock });
    await second.start();
    try {
      await clock.advance(29_000);
      await second.operations.protocolRuns.settled();
      assert.equal((await second.operations.protocolRuns.get(principal, run.id)).escalation_level, 1);
      await clock.advance(1_000);
      await second.operations.protocolRuns.settled();
      assert.equal((await second.operations.protocolRuns.get(principal, run.id)).escalation_level, 2, 'escalated at the time stored before the restart');
    } finally {
      await second.close();
      await dbase.drop();
    }
  });
}
