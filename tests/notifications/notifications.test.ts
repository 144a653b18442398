import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/platform/time/clock.ts';
import type { DetectionInput } from '../../src/platform/kinds/index.ts';
import { bearer, createTestApp, DIALECTS, type TestApp } from '../helpers/harness.ts';
import { startPushService, type PushService } from '../helpers/push-service.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { MAX_PUSH_PLAINTEXT } from '../../src/platform/outbox/index.ts';

/** Friday 23:00 UTC: after business hours, so an unrecognized person is an anomaly. */
const FRIDAY_LATE = Date.parse('2026-11-20T23:00:00.000Z');
const BASE = 'https://vigil.example.com';

async function call(t: TestApp, key: { key: string }, method: string, url: string, body?: unknown) {
  const res = await t.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(body !== undefined ? { payload: body as object } : {}) });
  return { status: res.statusCode, body: res.body ? res.json() : null };
}

/** Waits until `check` holds (the delivery worker runs in real time). */
async function until<T>(what: string, check: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const dialect of DIALECTS) {
  describe(`paging responders: anomaly → incident → protocol → push and email (${dialect})`, () => {
    let push: PushService;
    let smtp: SmtpSink;
    let t: TestApp;
    const clock = new ManualClock(FRIDAY_LATE);
    before(async () => {
      push = await startPushService();
      smtp = await startSmtpSink();
      t = await createTestApp({
        dialect,
        clock,
        start: true,
        config: { webhookAllowPrivate: true, smtpUrl: smtp.url, outboundCa: push.ca, publicBaseUrl: BASE },
      });
    });
    after(async () => {
      await t.close();
      await push.close();
      await smtp.close();
    });

    test('each responder’s push and email arrive; responders_notified counts those reached; a gone endpoint is reported', async () => {
      const key = await t.orgKey();
      const stream = (
        await call(t, key, 'POST', '/v1/streams', {
          name: 'Lobby cam',
          source_type: 'sandbox',
          source_url: 'sandbox://north_lobby?scenario=lobby&seed=1',
          location: 'north_lobby',
        })
      ).body;
      // responders reached by email and push only (no webhook), one whose only device is gone
      const mk = async (name: string, level: number, email?: string) => {
        const r = await call(t, key, 'POST', '/v1/responders', { name, kind: 'person', escalation_level: level, contact: email ? { email } : {} });
        assert.equal(r.status, 201, JSON.stringify(r.body));
        assert.equal(r.body.contact.webhook_url, null);
        return r.body.id as string;
      };
      const ana = await mk('Ana', 1, 'ana@example.com');
      const ben = await mk('Ben', 1);
      const cy = await mk('Cy', 2, 'cy@example.com');
      const devices = { ana: push.device('ana'), ben: push.device('ben', { gone: true }), cy: push.device('cy'), desk: push.device('desk') };
      for (const [responder, d] of [
        [ana, devices.ana],
        [ben, devices.ben],
        [cy, devices.cy],
      ] as const) {
        const s = await call(t, key, 'POST', '/v1/notification-subscriptions', {
          channel: 'push',
          endpoint: d.endpoint,
          keys: d.keys,
          responder_id: responder,
          label: 'phone',
        });
        assert.equal(s.status, 201, JSON.stringify(s.body));
        assert.equal(s.body.responder_id, responder);
        assert.deepEqual(s.body.events, ['protocol.triggered']);
      }
      // the operator's own device, told of new incidents
      const desk = await call(t, key, 'POST', '/v1/notification-subscriptions', {
        channel: 'push',
        endpoint: devices.desk.endpoint,
        keys: devices.desk.keys,
        events: ['incident.created'],
      });
      assert.equal(desk.status, 201, JSON.stringify(desk.body));
      assert.equal(desk.body.key_id, key.id);

      // an anomaly opens an incident; the desk's device is told
      await t.ctx.pipeline.ingest({ id: stream.id, tenant_id: key.tenant_id, scene_id: stream.scene_id, location: 'north_lobby' }, [
        { type: 'person', subtype: 'unrecognized', confidence: 0.9, track_id: 'intruder-1', at: clock.now() } as DetectionInput,
      ]);
      const [deskPush] = await push.waitFor(1);
      assert.equal(deskPush.path, '/push/desk');
      const incidentId = deskPush.payload.incident_id as string;
      assert.match(incidentId, /^incident_/);
      assert.equal(deskPush.payload.event, 'incident.created');
      assert.equal(deskPush.payload.url, `${BASE}/console/#/incidents?id=${incidentId}`);
      assert.equal(deskPush.payload.tag, `incident:${incidentId}`);
      assert.equal(deskPush.payload.location, 'north_lobby');

      const vapid = (await call(t, key, 'GET', '/v1/notifications/vapid-public-key')).body.public_key;
      assert.equal(deskPush.vapidKey, vapid, 'signed with the server’s VAPID key');
      assert.equal(deskPush.claims.aud, push.origin);
      assert.ok(deskPush.claims.exp * 1000 > Date.now() && deskPush.claims.exp * 1000 <= Date.now() + 24 * 3600_000 + 60_000);
      assert.match(deskPush.claims.sub, /^(mailto:|https:)/);
      assert.equal(deskPush.headers['content-encoding'], 'aes128gcm');
      assert.ok(Number(deskPush.headers.ttl) > 0);

      // protocol at level 2 with notify_responders: Ana, Ben and Cy are paged
      const run = await call(t, key, 'POST', `/v1/incidents/${incidentId}/protocol`, {
        protocol_type: 'intrusion',
        notify_responders: true,
        escalation_level: 2,
      });
      assert.equal(run.status, 201, JSON.stringify(run.body));
      assert.equal(run.body.responders_notified, 2, 'Ana and Cy reached (push and email); Ben’s only device is gone');
      assert.equal(run.body.responders_unreached, 1);

      const pushes = await push.waitFor(3);
      const byPath = new Map(pushes.slice(1).map((p) => [p.path, p]));
      assert.deepEqual([...byPath.keys()].sort(), ['/push/ana', '/push/cy']);
      for (const p of byPath.values()) {
        const m = p.payload;
        assert.equal(m.event, 'protocol.triggered');
        assert.equal(m.title, 'Protocol: intrusion — Unrecognized person at north_lobby after hours');
        assert.equal(m.body, 'Level 2 at north_lobby. Open the incident to acknowledge.');
        assert.equal(m.url, `${BASE}/console/#/incidents?id=${incidentId}`);
        assert.equal(m.tag, `incident:${incidentId}`);
        assert.equal(m.severity, 'critical');
        assert.equal(m.count, 1);
        assert.equal(m.incident_id, incidentId);
        assert.equal(m.location, 'north_lobby');
        assert.match(m.event_id, /^evt_/);
        assert.match(m.delivery_id, /^dlv_/);
        assert.equal(m.truncated, false);
        assert.equal(p.headers.urgency, 'high');
        assert.ok(p.headers.topic, 'a Topic so the push service keeps only the newest');
      }
      assert.deepEqual(push.errors, []);

      const mails = await smtp.waitFor(2);
      assert.deepEqual(mails.map((m) => m.envelopeTo[0]).sort(), ['ana@example.com', 'cy@example.com']);
      for (const mail of mails) {
        assert.equal(mail.subject, 'Protocol: intrusion — Unrecognized person at north_lobby after hours');
        assert.deepEqual(
          mail.from?.value.map((v) => [v.name, v.address]),
          [['Vigil', 'alerts@vigil.test']],
        );
        assert.match(mail.text ?? '', /Level 2 at north_lobby/);
        assert.ok((mail.text ?? '').includes(`Open: ${BASE}/console/#/incidents?id=${incidentId}`));
        assert.ok(String(mail.html).includes(`href="${BASE}/console/#/incidents?id=${incidentId}"`));
      }

      // Ben is reported as not reached, with the reason; his subscription is removed
      const report = (await call(t, key, 'GET', `/v1/protocol-runs/${run.body.id}/notifications`)).body.data as Array<any>;
      const benRow = report.find((r) => r.responder_id === ben)!;
      assert.equal(benRow.reached, false);
      assert.equal(benRow.pending, false);
      assert.equal(benRow.channels.length, 1);
      assert.equal(benRow.channels[0].channel, 'push');
      assert.equal(benRow.channels[0].status, 'dropped');
      assert.match(benRow.channels[0].error, /subscription gone \(HTTP 410\)/);
      assert.ok(report.find((r) => r.responder_id === ana)!.reached);
      assert.deepEqual(
        report
          .find((r) => r.responder_id === cy)!
          .channels.map((c: any) => c.channel)
          .sort(),
        ['email', 'push'],
      );
      const benDevices = (await call(t, key, 'GET', `/v1/notification-subscriptions?responder_id=${ben}`)).body.data;
      assert.equal(benDevices[0].status, 'gone');
      const got = (await call(t, key, 'GET', `/v1/protocol-runs/${run.body.id}`)).body;
      assert.equal(got.responders_notified, 2);
      assert.equal(got.responders_unreached, 1);

      // the delivery log of a device, and redelivery as a new series
      const anaSub = (await call(t, key, 'GET', `/v1/notification-subscriptions?responder_id=${ana}`)).body.data[0];
      const log = (await call(t, key, 'GET', `/v1/notification-subscriptions/${anaSub.id}/deliveries`)).body.data;
      assert.equal(log.length, 1);
      assert.equal(log[0].status, 'delivered');
      assert.equal(log[0].attempts[0].status_code, 201);
      const again = await call(t, key, 'POST', `/v1/notification-subscriptions/${anaSub.id}/deliveries/${log[0].id}/redeliver`);
      assert.equal(again.status, 200);
      assert.equal(again.body.series, 2);
      await push.waitFor(4);
      assert.equal(push.received[3].path, '/push/ana');
    });
  });

  describe(`deleting a responder revokes its devices; nothing queued for it is sent afterwards (${dialect})`, () => {
    let push: PushService;
    let smtp: SmtpSink;
    let t: TestApp;
    const clock = new ManualClock(FRIDAY_LATE);
    before(async () => {
      push = await startPushService();
      smtp = await startSmtpSink();
      // the delivery worker is started by the test, after the responder is deleted
      t = await createTestApp({ dialect, clock, config: { webhookAllowPrivate: true, smtpUrl: smtp.url, outboundCa: push.ca, publicBaseUrl: BASE } });
    });
    after(async () => {
      await t.close();
      await push.close();
      await smtp.close();
    });

    test('the deleted responder’s push, email device and contact email are stopped and audited; the kept responder is reached', async () => {
      const key = await t.orgKey();
      const stream = (
        await call(t, key, 'POST', '/v1/streams', {
          name: 'Lobby cam',
          source_type: 'sandbox',
          source_url: 'sandbox://north_lobby?scenario=lobby&seed=1',
          location: 'north_lobby',
        })
      ).body;
      const mk = async (name: string, email: string) =>
        (await call(t, key, 'POST', '/v1/responders', { name, kind: 'person', escalation_level: 1, contact: { email } })).body.id as string;
      const ana = await mk('Ana', 'ana@example.com');
      const dee = await mk('Dee', 'dee@example.com');
      const sub = async (responder: string, body: object) => {
        const s = await call(t, key, 'POST', '/v1/notification-subscriptions', { ...body, responder_id: responder });
        assert.equal(s.status, 201, JSON.stringify(s.body));
        return s.body.id as string;
      };
      const anaPhone = push.device('ana');
      await sub(ana, { channel: 'push', endpoint: anaPhone.endpoint, keys: anaPhone.keys });
      const deePhone = push.device('dee');
      const deePush = await sub(dee, { channel: 'push', endpoint: deePhone.endpoint, keys: deePhone.keys, label: 'phone' });
      const deeMail = await sub(dee, { channel: 'email', address: 'dee.pager@example.com' });

      await t.ctx.pipeline.ingest({ id: stream.id, tenant_id: key.tenant_id, scene_id: stream.scene_id, location: 'north_lobby' }, [
        { type: 'person', subtype: 'unrecognized', confidence: 0.9, track_id: 'intruder-1', at: clock.now() } as DetectionInput,
      ]);
      const incidentId = await until('the incident', async () => (await call(t, key, 'GET', '/v1/incidents')).body.data[0]?.id as string | undefined);
      const run = await call(t, key, 'POST', `/v1/incidents/${incidentId}/protocol`, {
        protocol_type: 'intrusion',
        notify_responders: true,
        escalation_level: 1,
      });
      assert.equal(run.status, 201, JSON.stringify(run.body));
      // queued, not yet sent (the worker is not running): Dee's push, device email and contact email
      const deeQueued = (await call(t, key, 'GET', `/v1/notification-subscriptions/${deePush}/deliveries`)).body.data;
      assert.equal(deeQueued.length, 1);
      assert.equal(deeQueued[0].status, 'pending');

      const del = await call(t, key, 'DELETE', `/v1/responders/${dee}`);
      assert.equal(del.status, 200, JSON.stringify(del.body));
      // the run's counts agree with its report at once: Dee, all cancelled, is not reached; Ana still pending
      const recounted = (await call(t, key, 'GET', `/v1/protocol-runs/${run.body.id}`)).body;
      assert.equal(recounted.responders_unreached, 1, 'the deleted responder is counted as not reached');
      assert.equal(recounted.responders_notified, 0);
      const early = (await call(t, key, 'GET', `/v1/protocol-runs/${run.body.id}/notifications`)).body.data as Array<any>;
      assert.deepEqual(
        early.filter((r) => !r.reached && !r.pending).map((r) => r.responder_id),
        [dee],
      );
      await t.ctx.deliveryWorker.start();

      // Ana is reached on both channels; Dee on none
      const [anaPush] = await push.waitFor(1);
      assert.equal(anaPush.path, '/push/ana');
      const [mail] = await smtp.waitFor(1);
      assert.deepEqual(mail.envelopeTo, ['ana@example.com']);
      // the worker has had every chance to send Dee's: a further round of deliveries to Ana arrives after them
      const report = await until('the run’s deliveries settled', async () => {
        const rows = (await call(t, key, 'GET', `/v1/protocol-runs/${run.body.id}/notifications`)).body.data as Array<any>;
        return rows.every((r) => !r.pending) && rows;
      });
      const deeRow = report.find((r) => r.responder_id === dee)!;
      assert.equal(deeRow.reached, false);
      assert.deepEqual(deeRow.channels.map((c: any) => c.status).sort(), ['cancelled', 'cancelled', 'cancelled']);
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(
        push.received.map((p) => p.path),
        ['/push/ana'],
      );
      assert.deepEqual(
        smtp.mails.map((m) => m.envelopeTo[0]),
        ['ana@example.com'],
      );

      // the devices show as revoked (the listing by responder still answers for the record)
      for (const id of [deePush, deeMail]) {
        const got = await call(t, key, 'GET', `/v1/notification-subscriptions?responder_id=${dee}`);
        assert.equal(got.body.data.find((d: any) => d.id === id).status, 'revoked');
      }
      // a device cannot be added to the deleted responder
      const late = await call(t, key, 'POST', '/v1/notification-subscriptions', {
        channel: 'push',
        endpoint: deePhone.endpoint,
        keys: deePhone.keys,
        responder_id: dee,
      });
      assert.equal(late.status, 404);
      assert.equal(late.body.param, 'responder_id');
      // audited: the deletion names what it revoked and stopped, and each device is revoked in the trail
      const deleted = (await call(t, key, 'GET', '/v1/audit?action=responder.deleted')).body.data[0];
      assert.equal(deleted.resource.id, dee);
      assert.deepEqual([...deleted.data.revoked_devices].sort(), [deePush, deeMail].sort());
      assert.equal(deleted.data.cancelled_deliveries, 3);
      const revoked = (await call(t, key, 'GET', '/v1/audit?action=notification_subscription.revoked')).body.data;
      assert.deepEqual(revoked.map((e: any) => e.resource.id).sort(), [deePush, deeMail].sort());
      for (const e of revoked) assert.equal(e.data.reason, 'responder deleted');
      assert.equal((await call(t, key, 'GET', '/v1/audit/verify')).body.valid, true);
      const settled = (await call(t, key, 'GET', `/v1/protocol-runs/${run.body.id}`)).body;
      assert.equal(settled.responders_notified, report.filter((r) => r.reached).length);
      assert.equal(settled.responders_unreached, report.filter((r) => !r.reached && !r.pending).length);
      assert.deepEqual([settled.responders_notified, settled.responders_unreached], [1, 1]);
    });

    test('revoking a responder’s only device before it is sent: the run counts the responder as not reached, as its report says', async () => {
      const key = await t.orgKey();
      await t.ctx.deliveryWorker.stop();
      const stream = (
        await call(t, key, 'POST', '/v1/streams', {
          name: 'Dock cam',
          source_type: 'sandbox',
          source_url: 'sandbox://dock?scenario=lobby&seed=2',
          location: 'dock',
        })
      ).body;
      const eve = (await call(t, key, 'POST', '/v1/responders', { name: 'Eve', kind: 'person', escalation_level: 1, contact: {} })).body.id as string;
      const evePhone = push.device('eve');
      const device = await call(t, key, 'POST', '/v1/notification-subscriptions', {
        channel: 'push',
        endpoint: evePhone.endpoint,
        keys: evePhone.keys,
        responder_id: eve,
      });
      assert.equal(device.status, 201, JSON.stringify(device.body));
      await t.ctx.pipeline.ingest({ id: stream.id, tenant_id: key.tenant_id, scene_id: stream.scene_id, location: 'dock' }, [
        { type: 'person', subtype: 'unrecognized', confidence: 0.9, track_id: 'intruder-2', at: clock.now() } as DetectionInput,
      ]);
      const incidentId = await until('the incident', async () => (await call(t, key, 'GET', '/v1/incidents')).body.data[0]?.id as string | undefined);
      const run = await call(t, key, 'POST', `/v1/incidents/${incidentId}/protocol`, {
        protocol_type: 'intrusion',
        notify_responders: true,
        escalation_level: 1,
      });
      assert.equal(run.status, 201, JSON.stringify(run.body));
      assert.equal(run.body.responders_unreached, 0, 'queued: not yet known');
      assert.equal((await call(t, key, 'DELETE', `/v1/notification-subscriptions/${device.body.id}`)).status, 200);
      const after = (await call(t, key, 'GET', `/v1/protocol-runs/${run.body.id}`)).body;
      const report = (await call(t, key, 'GET', `/v1/protocol-runs/${run.body.id}/notifications`)).body.data as Array<any>;
      assert.deepEqual(
        report.map((r) => [r.responder_id, r.reached, r.pending, r.channels.map((c: any) => c.status)]),
        [[eve, false, false, ['cancelled']]],
      );
      assert.equal(after.responders_unreached, 1);
      assert.equal(after.responders_notified, 0);
    });
  });
}

describe('household devices and addresses: grouping, quiet hours, exclusions, privacy, bad input (sqlite)', () => {
  let push: PushService;
  let smtp: SmtpSink;
  let t: TestApp;
  const clock = new ManualClock(Date.parse('2026-11-20T21:00:00.000Z'));
  before(async () => {
    push = await startPushService();
    smtp = await startSmtpSink();
    t = await createTestApp({ clock, start: true, config: { webhookAllowPrivate: true, smtpUrl: smtp.url, outboundCa: push.ca, publicBaseUrl: BASE } });
  });
  after(async () => {
    await t.close();
    await push.close();
    await smtp.close();
  });

  /** A watch event as the watch observer records it. */
  const observe = (tenantId: string, o: { watch: string; room?: string; summary?: string; alert?: boolean; sensor?: string }) =>
    t.ctx.database.withWriteLock((trx) =>
      t.ctx.events.recordIn(trx, {
        tenantId,
        kind: o.alert ? 'alert' : 'observation',
        type: 'person',
        watchId: o.watch,
        sensorId: o.sensor ?? 'sen_porch',
        room: o.room ?? 'front porch',
        summary: o.summary ?? 'The front porch camera saw a person',
        occurredAt: clock.now(),
      }),
    );

  test('a visit is one notification with a count, at most one a minute unless severity rises, with one tag; email too', async () => {
    const home = await t.householdKey();
    const phone = push.device('hh-phone');
    const s = await call(t, home, 'POST', '/v1/notification-subscriptions', {
      channel: 'push',
      endpoint: phone.endpoint,
      keys: phone.keys,
      label: 'Maria’s phone',
    });
    assert.equal(s.status, 201, JSON.stringify(s.body));
    assert.deepEqual(s.body.events, ['watch.observation', 'watch.alert']);
    assert.equal(s.body.endpoint_origin, push.origin);
    assert.equal((await call(t, home, 'POST', '/v1/notification-subscriptions', { channel: 'email', address: 'maria@example.com' })).status, 201);
    const start = push.received.length;

    for (let i = 0; i < 14; i++) {
      await observe(home.tenant_id, { watch: 'wat_porch' });
      await clock.advance(3000);
    }
    const first = (await push.waitFor(start + 1))[start];
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(push.received.length, start + 1, '14 observations in 42 s: one notification');
    assert.equal(first.payload.count, 1);
    assert.equal(first.payload.tag, 'watch:wat_porch');
    assert.equal(first.payload.title, 'The front porch camera saw a person');
    assert.equal(first.payload.room, 'front porch');
    assert.equal(first.payload.watch_id, 'wat_porch');
    assert.equal(first.payload.severity, 'info');
    assert.match(first.payload.url, new RegExp(`^${BASE}/console/#/events\\?event=evt_`));
    assert.equal(first.headers.urgency, 'normal');

    await clock.advance(20_000);
    await observe(home.tenant_id, { watch: 'wat_porch' });
    const update = (await push.waitFor(start + 2))[start + 1];
    assert.equal(update.payload.count, 15, 'the visit so far');
    assert.equal(update.payload.title, 'The front porch camera saw a person (15)');
    assert.equal(update.payload.tag, first.payload.tag, 'the same tag: the phone replaces it');
    assert.equal(update.headers.topic, first.headers.topic);

    await clock.advance(5000);
    await observe(home.tenant_id, { watch: 'wat_porch', alert: true, summary: 'Someone is at the back door' });
    const alert = (await push.waitFor(start + 3))[start + 2];
    assert.equal(alert.payload.severity, 'critical', 'severity rose: sent within the minute');
    assert.equal(alert.payload.event, 'watch.alert');
    assert.equal(alert.payload.title, 'Alert: Someone is at the back door (16)');

    const mails = await smtp.waitFor(3);
    assert.ok(mails.every((m) => m.envelopeTo[0] === 'maria@example.com'));
    assert.equal(mails[0].subject, 'The front porch camera saw a person');
    assert.match(mails[0].text ?? '', /Room: front porch/);
  });

  test('quiet hours and “not the garage” per person; the household default; revoked key’s devices stop at once', async () => {
    const home = await t.householdKey();
    const phone = push.device('quiet-phone');
    const sub = (await call(t, home, 'POST', '/v1/notification-subscriptions', { channel: 'push', endpoint: phone.endpoint, keys: phone.keys })).body;
    // "notify me only between 11pm and 7am": quiet 07:00–23:00 (UTC household; it is 21:0x now)
    const prefs = await call(t, home, 'PUT', '/v1/notification-preferences', { quiet_hours: { from: '07:00', to: '23:00' } });
    assert.equal(prefs.status, 200, JSON.stringify(prefs.body));
    assert.deepEqual(prefs.body.quiet_hours, { from: '07:00', to: '23:00' });
    assert.equal(prefs.body.time_zone, 'UTC');
    const before = push.received.length;
    await observe(home.tenant_id, { watch: 'wat_quiet1' });
    await t.ctx.deliveryWorker.whenIdle();
    assert.equal(await deliveriesOf(sub.id), 0, 'quiet hours: nothing queued');

    // "don't send me the garage ones", outside quiet hours
    await call(t, home, 'PUT', '/v1/notification-preferences', { quiet_hours: null, exclude: { rooms: ['Garage'] } });
    await observe(home.tenant_id, { watch: 'wat_garage', room: 'garage', summary: 'The garage camera saw a car' });
    await observe(home.tenant_id, { watch: 'wat_door', room: 'hall', summary: 'The hall camera saw a person' });
    const got = await push.waitFor(before + 1);
    await t.ctx.deliveryWorker.whenIdle();
    const mine = got.slice(before).filter((p) => p.path === '/push/quiet-phone');
    assert.deepEqual(
      mine.map((p) => p.payload.room),
      ['hall'],
    );

    // the household default is separate from the person's own
    assert.equal((await call(t, home, 'GET', '/v1/notification-preferences?scope=household')).body.quiet_hours, null);

    // the key is revoked: its devices get nothing more
    await t.ctx.keys.revokeKey(home.id);
    await observe(home.tenant_id, { watch: 'wat_after', room: 'hall' });
    await t.ctx.deliveryWorker.whenIdle();
    const rows = await t.ctx.database.db.selectFrom('webhook_deliveries').select(['status']).where('subscription_id', '=', sub.id).execute();
    assert.equal(rows.length, 1, 'only the hall one; nothing after the revocation');
  });

  const deliveriesOf = async (subId: string) =>
    (await t.ctx.database.db.selectFrom('webhook_deliveries').select('id').where('subscription_id', '=', subId).execute()).length;

  /** Pushes to one device so far, once the worker has had every chance to send what is queued. */
  const pushesTo = async (device: string) => {
    await t.ctx.deliveryWorker.whenIdle();
    await new Promise((r) => setTimeout(r, 300));
    await t.ctx.deliveryWorker.whenIdle();
    return push.received.filter((p) => p.path === `/push/${device}`);
  };
  const waitForPushTo = (device: string, n: number) =>
    until(`${n} pushes to ${device}`, async () => push.received.filter((p) => p.path === `/push/${device}`).length >= n);

  test('quiet hours are per person: one member’s quiet hours do not silence another’s phone', async () => {
    const owner = await t.householdKey();
    const member = await call(t, owner, 'POST', '/v1/keys', { role: 'member', name: 'João' });
    assert.equal(member.status, 201, JSON.stringify(member.body));
    const maria = push.device('pp-maria');
    const joao = push.device('pp-joao');
    assert.equal((await call(t, owner, 'POST', '/v1/notification-subscriptions', { channel: 'push', endpoint: maria.endpoint, keys: maria.keys })).status, 201);
    assert.equal(
      (await call(t, member.body, 'POST', '/v1/notification-subscriptions', { channel: 'push', endpoint: joao.endpoint, keys: joao.keys })).status,
      201,
    );
    // Maria (the owner's key): "only between 11pm and 7am"; it is 21:0x
    assert.equal((await call(t, owner, 'PUT', '/v1/notification-preferences', { quiet_hours: { from: '07:00', to: '23:00' } })).status, 200);
    await observe(owner.tenant_id, { watch: 'wat_per_person' });
    await waitForPushTo('pp-joao', 1);
    assert.equal((await pushesTo('pp-maria')).length, 0, 'Maria’s quiet hours hold for her phone only');
    assert.equal((await pushesTo('pp-joao')).length, 1);
  });

  test('an incident is one notification a minute on an operator’s device unless severity rises, under one tag', async () => {
    const org = await t.orgKey();
    const desk = push.device('inc-desk');
    const s = await call(t, org, 'POST', '/v1/notification-subscriptions', {
      channel: 'push',
      endpoint: desk.endpoint,
      keys: desk.keys,
      events: ['incident.created', 'alert.fired', 'protocol.triggered'],
    });
    assert.equal(s.status, 201, JSON.stringify(s.body));
    const enqueue = (kind: string, payload: Record<string, unknown>) =>
      t.ctx.database.withWriteLock((trx) => t.ctx.webhooks.enqueueIn(trx, { tenantId: org.tenant_id, kind, payload }));
    const incident = { id: 'incident_thr1', title: 'Door forced', location: 'north_lobby' };
    const alert = { incident_id: incident.id, rule_name: 'Door forced', location: 'north_lobby' };

    await enqueue('incident.created', { incident });
    await waitForPushTo('inc-desk', 1);
    await clock.advance(10_000);
    await enqueue('alert.fired', { alert });
    let got = await pushesTo('inc-desk');
    assert.equal(got.length, 1, 'an alert of the same incident within the minute, no higher: held');
    assert.deepEqual([got[0].payload.tag, got[0].payload.severity, got[0].payload.count], [`incident:${incident.id}`, 'warning', 1]);

    await clock.advance(5000);
    await enqueue('protocol.triggered', { incident, protocol_run: { protocol_type: 'intrusion', escalation_level: 1 } });
    await waitForPushTo('inc-desk', 2);
    got = await pushesTo('inc-desk');
    assert.equal(got.length, 2);
    assert.deepEqual(
      [got[1].payload.tag, got[1].payload.severity, got[1].payload.count],
      [`incident:${incident.id}`, 'critical', 3],
      'severity rose: sent within the minute',
    );

    await clock.advance(20_000);
    await enqueue('alert.fired', { alert });
    assert.equal((await pushesTo('inc-desk')).length, 2, 'held: within the minute of the last');
    await clock.advance(45_000);
    await enqueue('alert.fired', { alert });
    await waitForPushTo('inc-desk', 3);
    got = await pushesTo('inc-desk');
    assert.equal(got.length, 3);
    assert.deepEqual([got[2].payload.tag, got[2].payload.count], [`incident:${incident.id}`, 5], 'a minute on: the update, counting what was held');
  });

  test('privacy: a key confined to a location is never told of another; a key without incidents:read cannot subscribe to them', async () => {
    const lobby = await t.orgKey({ locations: ['north_lobby'] });
    const phone = push.device('loc-phone');
    const s = await call(t, lobby, 'POST', '/v1/notification-subscriptions', {
      channel: 'push',
      endpoint: phone.endpoint,
      keys: phone.keys,
      events: ['incident.created'],
    });
    assert.equal(s.status, 201, JSON.stringify(s.body));
    const enqueue = (kind: string, payload: Record<string, unknown>) =>
      t.ctx.database.withWriteLock((trx) => t.ctx.webhooks.enqueueIn(trx, { tenantId: lobby.tenant_id, kind, payload }));
    await enqueue('incident.created', { incident: { id: 'incident_dock1', title: 'Forklift collision', location: 'dock' } });
    await enqueue('incident.created', { incident: { id: 'incident_lobby1', title: 'Tailgating', location: 'north_lobby' } });
    await waitForPushTo('loc-phone', 1);
    const got = await pushesTo('loc-phone');
    assert.deepEqual(
      got.map((p) => [p.payload.incident_id, p.payload.location]),
      [['incident_lobby1', 'north_lobby']],
    );
    assert.ok(!JSON.stringify(got.map((p) => p.payload)).includes('dock'), 'nothing of the other location');
    const queued = await t.ctx.database.db.selectFrom('webhook_deliveries').select('id').where('subscription_id', '=', s.body.id).execute();
    assert.equal(queued.length, 1, 'the other location was never queued for it');

    // a key that may not read incidents cannot be told of them
    const alertsOnly = await t.orgKey({ capabilities: ['alerts:read'] });
    const device = push.device('alerts-only');
    const refused = await call(t, alertsOnly, 'POST', '/v1/notification-subscriptions', {
      channel: 'push',
      endpoint: device.endpoint,
      keys: device.keys,
      events: ['incident.created'],
    });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.param, 'events');
    const allowed = await call(t, alertsOnly, 'POST', '/v1/notification-subscriptions', { channel: 'push', endpoint: device.endpoint, keys: device.keys });
    assert.deepEqual(allowed.body.events, ['alert.fired']);
  });

  test('a payload over 4 KB is trimmed to fit, keeping the link', async () => {
    const home = await t.householdKey();
    const phone = push.device('long-phone');
    await call(t, home, 'POST', '/v1/notification-subscriptions', { channel: 'push', endpoint: phone.endpoint, keys: phone.keys });
    const n = push.received.length;
    await observe(home.tenant_id, { watch: 'wat_long', summary: `A very long story ${'é'.repeat(5000)}` });
    const p = (await push.waitFor(n + 1))[n];
    assert.equal(p.path, '/push/long-phone');
    assert.equal(p.payload.truncated, true);
    assert.ok(p.plaintextBytes <= MAX_PUSH_PLAINTEXT, `${p.plaintextBytes} bytes`);
    assert.ok(p.bodyBytes <= 4096, `${p.bodyBytes} bytes on the wire`);
    assert.match(p.payload.url, /events\?event=evt_/);
    assert.ok(p.payload.body.endsWith('…'));
  });

  test('an SMTP server that refuses is retried and logged, never blocking pushes', async () => {
    const home = await t.householdKey();
    const phone = push.device('smtp-phone');
    await call(t, home, 'POST', '/v1/notification-subscriptions', { channel: 'push', endpoint: phone.endpoint, keys: phone.keys });
    const mail = (await call(t, home, 'POST', '/v1/notification-subscriptions', { channel: 'email', address: 'later@example.com' })).body;
    smtp.refuse = true;
    const n = push.received.length;
    await observe(home.tenant_id, { watch: 'wat_smtp' });
    await push.waitFor(n + 1);
    const retrying = await until('a retrying email', async () => {
      const d = (await call(t, home, 'GET', `/v1/notification-subscriptions/${mail.id}/deliveries`)).body.data[0];
      return d?.status === 'retrying' ? d : null;
    });
    assert.equal(retrying.attempts[0].status_code, 451);
    assert.match(retrying.last_error, /try again later/);
    smtp.refuse = false;
    const mailsBefore = smtp.mails.length;
    await clock.advance(3600_000);
    await smtp.waitFor(mailsBefore + 1);
    const delivered = await until('the email delivered', async () => {
      const d = (await call(t, home, 'GET', `/v1/notification-subscriptions/${mail.id}/deliveries`)).body.data[0];
      return d?.status === 'delivered' ? d : null;
    });
    assert.equal(delivered.attempts.length, 2);
  });

  test('bad subscriptions: not https, bad keys, oversized keys, private address when not allowed → 400 naming the field; revoke; another key sees nothing', async () => {
    const home = await t.householdKey();
    const d = push.device('bad');
    const post = (body: object, k = home) => call(t, k, 'POST', '/v1/notification-subscriptions', body);
    const http = await post({ channel: 'push', endpoint: 'http://push.example.com/x', keys: d.keys });
    assert.equal(http.status, 400);
    assert.equal(http.body.param, 'endpoint');
    const big = await post({ channel: 'push', endpoint: d.endpoint, keys: { p256dh: 'A'.repeat(500), auth: d.keys.auth } });
    assert.equal(big.status, 400);
    assert.equal(big.body.param, 'keys.p256dh');
    const notPoint = await post({ channel: 'push', endpoint: d.endpoint, keys: { p256dh: Buffer.alloc(65, 7).toString('base64url'), auth: d.keys.auth } });
    assert.equal(notPoint.status, 400);
    assert.equal(notPoint.body.param, 'keys.p256dh');
    const shortAuth = await post({ channel: 'push', endpoint: d.endpoint, keys: { p256dh: d.keys.p256dh, auth: 'AAAA' } });
    assert.equal(shortAuth.status, 400);
    assert.equal(shortAuth.body.param, 'keys.auth');
    const noKeys = await post({ channel: 'push', endpoint: d.endpoint });
    assert.equal(noKeys.body.param, 'keys');
    const mixed = await post({ channel: 'email', address: 'a@example.com', endpoint: d.endpoint });
    assert.equal(mixed.body.param, 'endpoint');
    const wrongKind = await post({ channel: 'email', address: 'a@example.com', events: ['incident.created'] });
    assert.equal(wrongKind.body.param, 'events');

    const strict = await createTestApp({ config: { webhookAllowPrivate: false } });
    try {
      const k = await strict.householdKey();
      for (const endpoint of ['https://127.0.0.1/push/x', 'https://10.1.2.3/push/x', 'https://[::1]/push/x']) {
        const r = await call(strict, k, 'POST', '/v1/notification-subscriptions', { channel: 'push', endpoint, keys: d.keys });
        assert.equal(r.status, 400, endpoint);
        assert.equal(r.body.param, 'endpoint', endpoint);
      }
    } finally {
      await strict.close();
    }

    const ok = await post({ channel: 'push', endpoint: d.endpoint, keys: d.keys });
    assert.equal(ok.status, 201);
    assert.equal((await post({ channel: 'push', endpoint: d.endpoint, keys: d.keys })).body.id, ok.body.id, 'subscribing again returns it');
    const other = await t.householdKey();
    assert.equal((await call(t, other, 'DELETE', `/v1/notification-subscriptions/${ok.body.id}`)).status, 404);
    assert.equal((await call(t, other, 'GET', '/v1/notification-subscriptions')).body.data.length, 0);
    assert.equal((await call(t, home, 'DELETE', `/v1/notification-subscriptions/${ok.body.id}`)).body.revoked, true);
    const listed = (await call(t, home, 'GET', '/v1/notification-subscriptions')).body.data;
    assert.equal(listed[0].status, 'revoked');
  });
});

describe('a revoked key’s devices stop at once: what was already queued for them is not sent (sqlite)', () => {
  let push: PushService;
  let t: TestApp;
  const clock = new ManualClock(Date.parse('2026-11-20T21:00:00.000Z'));
  before(async () => {
    push = await startPushService();
    // the delivery worker is started by the test, after the key is revoked
    t = await createTestApp({ clock, config: { webhookAllowPrivate: true, outboundCa: push.ca, publicBaseUrl: BASE } });
  });
  after(async () => {
    await t.close();
    await push.close();
  });

  test('queued before the revocation, never sent after it', async () => {
    const home = await t.householdKey();
    const kept = await call(t, home, 'POST', '/v1/keys', { role: 'member', name: 'João' });
    assert.equal(kept.status, 201, JSON.stringify(kept.body));
    const phone = push.device('rv-phone');
    const other = push.device('rv-other');
    const sub = (await call(t, home, 'POST', '/v1/notification-subscriptions', { channel: 'push', endpoint: phone.endpoint, keys: phone.keys })).body;
    assert.equal(
      (await call(t, kept.body, 'POST', '/v1/notification-subscriptions', { channel: 'push', endpoint: other.endpoint, keys: other.keys })).status,
      201,
    );
    await t.ctx.database.withWriteLock((trx) =>
      t.ctx.events.recordIn(trx, {
        tenantId: home.tenant_id,
        kind: 'observation',
        type: 'person',
        watchId: 'wat_revoked',
        sensorId: 'sen_porch',
        room: 'front porch',
        summary: 'The front porch camera saw a person',
        occurredAt: clock.now(),
      }),
    );
    const queued = await t.ctx.database.db.selectFrom('webhook_deliveries').select('status').where('subscription_id', '=', sub.id).execute();
    assert.deepEqual(
      queued.map((d) => d.status),
      ['pending'],
      'queued before the revocation',
    );
    await t.ctx.keys.revokeKey(home.id);
    await t.ctx.deliveryWorker.start();
    // the other person's phone is reached: the worker has sent what it would
    await until('the kept key’s push', async () => push.received.some((p) => p.path === '/push/rv-other'));
    await t.ctx.deliveryWorker.whenIdle();
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(
      push.received.map((p) => p.path),
      ['/push/rv-other'],
      'nothing reached the revoked key’s phone',
    );
    const rows = await t.ctx.database.db.selectFrom('webhook_deliveries').select('status').where('subscription_id', '=', sub.id).execute();
    assert.deepEqual(
      rows.map((d) => d.status),
      ['cancelled'],
    );
  });
});
