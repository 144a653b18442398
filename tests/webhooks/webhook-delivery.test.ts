import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { createContext, type VigilContext } from '../../src/context.ts';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { TestReceiver, householdSecretOf, signatureMatches } from './receiver.ts';

const HOUR = 3600_000;

/** The detection.anomaly payload, as README "Security operations walkthrough" shows it. */
const anomaly = {
  stream_id: 'stream_01jd3k8e7f9g2h4j6k8m0n2p4q',
  incident_id: 'incident_01jd3k8e7f9g2h4j6k8m0n2p4r',
  detection: { type: 'person', subtype: 'unrecognized', confidence: 0.91, location: 'north_lobby', timestamp: '2026-11-21T20:40:00.000Z' },
};

async function waitUntil(what: string, pred: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await pred())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

for (const dialect of DIALECTS) {
  describe(`webhook delivery (${dialect})`, () => {
    let t: TestApp;
    let clock: ManualClock;
    let key: { key: string; tenant_id: string };
    const receivers: TestReceiver[] = [];

    before(async () => {
      clock = new ManualClock();
      t = await createTestApp({ dialect, clock, config: { webhookAllowPrivate: true } });
      // only the worker: the context's other clock timers would make 24 h of ManualClock slow
      await t.ctx.deliveryWorker.start();
      key = await t.orgKey();
    });
    after(async () => {
      for (const r of receivers) await r.stop();
      await t.close();
    });

    async function receiver(respond: (n: number) => number = () => 200) {
      const r = new TestReceiver();
      r.respond = respond;
      receivers.push(r);
      return { r, url: await r.start() };
    }

    async function register(url: string, k: { key: string } = key, events?: string[]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(k), payload: { url, ...(events ? { events } : {}) } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json() as { id: string; secret?: string };
    }

    /** What the alerts/incidents code does: enqueue inside its own write transaction. */
    async function enqueue(tenantId: string, kind: string, payload: Record<string, unknown>, ctx: VigilContext = t.ctx) {
      return ctx.database.withWriteLock((trx) => ctx.webhooks.enqueueIn(trx, { tenantId, kind, payload }));
    }

    const row = (id: string, ctx: VigilContext = t.ctx) =>
      ctx.database.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    /** Moves the clock to the delivery's next attempt and waits until that attempt is recorded. */
    async function stepToNextAttempt(id: string, ctx: VigilContext = t.ctx) {
      const before = await row(id, ctx);
      assert.ok(before.next_attempt_at !== null, 'an attempt is scheduled');
      await clock.advance(Math.max(0, Number(before.next_attempt_at) - clock.now()));
      await waitUntil(`attempt ${before.attempt_count + 1} of ${id}`, async () => {
        const now = await row(id, ctx);
        return now.attempt_count !== before.attempt_count || now.status !== before.status;
      });
    }

    const deliveries = async (endpointId: string) => (await t.app.inject({ url: `/v1/webhooks/${endpointId}/deliveries`, headers: bearer(key) })).json();

    test('a delivery is POSTed with the exact signed body, signature and headers', async () => {
      const { r, url } = await receiver();
      const w = await register(url, key, ['detection.anomaly']);
      const { eventId, deliveryIds } = await enqueue(key.tenant_id, 'detection.anomaly', anomaly);
      assert.equal(deliveryIds.length, 1);
      await r.waitFor(1);
      const got = r.received[0];
      assert.ok(signatureMatches(w.secret!, got.raw, got.headers['x-service-signature']), 'signature verifies with the whsec_ secret');
      assert.equal(got.headers['content-type'], 'application/json');
      assert.equal(got.headers['user-agent'], 'Vigil-Webhooks/1');
      assert.equal(got.headers['x-service-delivery'], deliveryIds[0]);
      assert.equal(got.headers['x-service-timestamp'], new Date(clock.now()).toISOString());
      assert.equal(got.headers['x-service-signature-previous'], undefined);
      // delivery_id and sent_at travel inside the signed body
      assert.deepEqual(got.body, {
        id: eventId,
        event: 'detection.anomaly',
        created_at: new Date(clock.now()).toISOString(),
        ...anomaly,
        delivery_id: deliveryIds[0],
        sent_at: got.headers['x-service-timestamp'],
      });
      assert.match(eventId, /^evt_[0-9a-z]{26}$/);

      await waitUntil('delivered', async () => (await row(deliveryIds[0])).status === 'delivered');
      const log = await deliveries(w.id);
      assert.equal(log.data.length, 1);
      const d = log.data[0];
      assert.equal(d.status, 'delivered');
      assert.equal(d.event, 'detection.anomaly');
      assert.deepEqual(d.payload, got.body);
      assert.equal(d.attempts.length, 1);
      assert.equal(d.attempts[0].status_code, 200);
      assert.equal(d.attempts[0].outcome, 'delivered');
      assert.equal(d.attempts[0].error, null);
      assert.equal(typeof d.attempts[0].duration_ms, 'number');

      // an event nobody subscribed to creates no delivery
      assert.deepEqual((await enqueue(key.tenant_id, 'alert.fired', { alert_id: 'alert_x' })).deliveryIds, []);
    });

    test('household deliveries are signed with the secret the client derives from its key', async () => {
      const home = await t.householdKey();
      const { r, url } = await receiver();
      const w = await register(url, home);
      assert.equal(w.secret, undefined);
      await enqueue(home.tenant_id, 'watch.alert', { watch_id: 'wat_01jd3k8e7f9g2h4j6k8m0n2p4q', summary: 'Person at the back door' });
      await r.waitFor(1);
      const got = r.received[0];
      assert.ok(signatureMatches(householdSecretOf(home.key), got.raw, got.headers['x-service-signature']));
      assert.equal(got.body.event, 'watch.alert');
      assert.equal(got.body.delivery_id, got.headers['x-service-delivery'], 'household bodies carry the delivery id too');
      assert.equal(got.body.sent_at, got.headers['x-service-timestamp']);
      // an organization event of another tenant never reaches it
      await enqueue(key.tenant_id, 'detection.anomaly', anomaly);
      await t.ctx.deliveryWorker.whenIdle();
      assert.equal(r.received.length, 1);
    });

    test('a receiver that fails and then recovers gets the delivery exactly once after recovering', async () => {
      const { r, url } = await receiver((n) => (n <= 3 ? 500 : 200));
      const w = await register(url, key, ['incident.created']);
      const {
        deliveryIds: [id],
      } = await enqueue(key.tenant_id, 'incident.created', { incident_id: 'incident_a' });
      await waitUntil('first attempt recorded', async () => (await row(id)).attempt_count === 1);
      for (let i = 0; i < 3; i++) await stepToNextAttempt(id);
      assert.equal((await row(id)).status, 'delivered');
      assert.equal(r.received.filter((x) => x.status === 200).length, 1);
      assert.equal(r.received.length, 4);
      for (const x of r.received) {
        assert.ok(signatureMatches(w.secret!, x.raw, x.headers['x-service-signature']));
        assert.equal(x.headers['x-service-delivery'], id, 'retries keep the delivery id');
        // a retry is the same delivery (same delivery_id, same event) sent at its own time
        const { sent_at: sentAt, ...rest } = x.body;
        const { sent_at: firstSentAt, ...firstRest } = r.received[0].body;
        assert.deepEqual(rest, firstRest, 'retries send the same event and delivery id');
        assert.equal(rest.delivery_id, id);
        assert.equal(sentAt, x.headers['x-service-timestamp'], "sent_at is the attempt's time");
        assert.ok(x === r.received[0] || String(sentAt) > String(firstSentAt));
      }
      // nothing more, however long we wait
      await clock.advance(30 * HOUR);
      await t.ctx.deliveryWorker.whenIdle();
      assert.equal(r.received.length, 4);
      const d = (await deliveries(w.id)).data[0];
      assert.deepEqual(
        d.attempts.map((a: { outcome: string }) => a.outcome),
        ['retrying', 'retrying', 'retrying', 'delivered'],
      );
      assert.deepEqual(
        d.attempts.map((a: { status_code: number }) => a.status_code),
        [500, 500, 500, 200],
      );
      for (const a of d.attempts.slice(0, 3)) assert.ok(a.next_attempt_at > a.started_at, 'each failure schedules the next attempt');
      assert.match(d.attempts[0].error, /HTTP 500/);
    });

    test('a receiver that never recovers: retried with backoff, dropped 24 h after the first attempt, every attempt logged; redeliver starts a new series', async () => {
      let down = true;
      const { r, url } = await receiver(() => (down ? 503 : 204));
      const w = await register(url, key, ['protocol.triggered']);
      const {
        deliveryIds: [id],
      } = await enqueue(key.tenant_id, 'protocol.triggered', { protocol_run_id: 'prot_a' });
      await waitUntil('first attempt recorded', async () => (await row(id)).attempt_count === 1);
      const first = clock.now();
      let guard = 0;
      while ((await row(id)).status === 'retrying') {
        assert.ok(++guard < 500, 'the retries end');
        await stepToNextAttempt(id);
      }
      const d = (await deliveries(w.id)).data.find((x: { id: string }) => x.id === id);
      assert.equal(d.status, 'dropped');
      assert.equal(d.attempts.length, r.received.length, 'every attempt the receiver saw is logged');
      assert.ok(d.attempts.length > 10, `backoff retried ${d.attempts.length} times over 24 h`);
      const starts = d.attempts.map((a: { started_at: string }) => Date.parse(a.started_at));
      assert.equal(starts[0], first);
      assert.equal(starts.at(-1) - first, 24 * HOUR, 'the last attempt is at the end of the 24 h window');
      for (let i = 1; i < starts.length; i++) assert.ok(starts[i] > starts[i - 1]);
      // exponential: early gaps are short, later ones reach the hour range
      assert.ok(starts[1] - starts[0] <= 10_000);
      assert.ok(Math.max(...starts.slice(1).map((s: number, i: number) => s - starts[i])) > 10 * 60_000);
      assert.equal(d.attempts.at(-1).outcome, 'dropped');
      assert.equal(d.attempts.at(-1).next_attempt_at, null);
      assert.ok(d.attempts.every((a: { status_code: number; error: string }) => a.status_code === 503 && /503/.test(a.error)));

      // no more attempts once dropped
      const seen = r.received.length;
      await clock.advance(2 * HOUR);
      await t.ctx.deliveryWorker.whenIdle();
      assert.equal(r.received.length, seen);

      down = false;
      const again = await t.app.inject({ method: 'POST', url: `/v1/webhooks/${w.id}/deliveries/${id}/redeliver`, headers: bearer(key) });
      assert.equal(again.statusCode, 200);
      assert.equal(again.json().series, 2);
      await r.waitFor(seen + 1);
      await waitUntil('redelivered', async () => (await row(id)).status === 'delivered');
      const after = (await deliveries(w.id)).data.find((x: { id: string }) => x.id === id);
      assert.equal(after.attempts.at(-1).series, 2);
      assert.equal(after.attempts.at(-1).attempt, 1);
      assert.equal(after.attempts.at(-1).status_code, 204);
      // a redelivery by hand is the same delivery (a receiver that processed it drops it) sent now
      const redelivered = r.received.at(-1)!.body;
      assert.equal(redelivered.delivery_id, id);
      assert.equal(redelivered.sent_at, after.attempts.at(-1).started_at);
      assert.ok(String(redelivered.sent_at) > String(r.received[0].body.sent_at));
      assert.deepEqual(after.payload, redelivered, 'the delivery log shows the body as last sent');
    });

    test('rotate-secret: the new secret signs; the old one signs alongside for 24 h, then stops', async () => {
      const { r, url } = await receiver();
      const w = await register(url, key, ['alert.fired']);
      const rot = await t.app.inject({ method: 'POST', url: `/v1/webhooks/${w.id}/rotate-secret`, headers: bearer(key) });
      assert.equal(rot.statusCode, 200);
      const rotated = rot.json();
      assert.match(rotated.secret, /^whsec_/);
      assert.notEqual(rotated.secret, w.secret);
      assert.equal(rotated.previous_secret_expires_at, new Date(clock.now() + 24 * HOUR).toISOString());

      await enqueue(key.tenant_id, 'alert.fired', { alert_id: 'alert_1' });
      await r.waitFor(1);
      const during = r.received[0];
      assert.ok(signatureMatches(rotated.secret, during.raw, during.headers['x-service-signature']));
      assert.ok(signatureMatches(w.secret!, during.raw, during.headers['x-service-signature-previous']));
      assert.ok(!signatureMatches(w.secret!, during.raw, during.headers['x-service-signature']));

      await clock.advance(24 * HOUR + 1);
      await enqueue(key.tenant_id, 'alert.fired', { alert_id: 'alert_2' });
      await r.waitFor(2);
      const afterOverlap = r.received[1];
      assert.ok(signatureMatches(rotated.secret, afterOverlap.raw, afterOverlap.headers['x-service-signature']));
      assert.equal(afterOverlap.headers['x-service-signature-previous'], undefined);
      assert.equal((await t.app.inject({ url: `/v1/webhooks/${w.id}`, headers: bearer(key) })).json().previous_secret_expires_at, null);
    });

    test('disabling an endpoint cancels its pending deliveries and stops new ones', async () => {
      const { r, url } = await receiver(() => 500);
      const w = await register(url, key, ['stream.status_changed']);
      const {
        deliveryIds: [id],
      } = await enqueue(key.tenant_id, 'stream.status_changed', { stream_id: 's', status: 'offline' });
      await r.waitFor(1);
      await waitUntil('retrying', async () => (await row(id)).status === 'retrying');
      await t.app.inject({ method: 'PATCH', url: `/v1/webhooks/${w.id}`, headers: bearer(key), payload: { enabled: false } });
      assert.equal((await row(id)).status, 'cancelled');
      assert.deepEqual((await enqueue(key.tenant_id, 'stream.status_changed', { stream_id: 's', status: 'live' })).deliveryIds, []);
      await clock.advance(HOUR);
      await t.ctx.deliveryWorker.whenIdle();
      assert.equal(r.received.length, 1);
      const redeliver = await t.app.inject({ method: 'POST', url: `/v1/webhooks/${w.id}/deliveries/${id}/redeliver`, headers: bearer(key) });
      assert.equal(redeliver.statusCode, 409);
      assert.equal(redeliver.json().code, 'webhook_endpoint_disabled');
    });

    test('deliveries survive a restart: a pending retry and a send cut off mid-flight are sent by the next process', async () => {
      let up = false;
      const { r, url } = await receiver(() => (up ? 200 : 500));
      await register(url, key, ['incident.updated']);
      const {
        deliveryIds: [retry],
      } = await enqueue(key.tenant_id, 'incident.updated', { incident_id: 'incident_r' });
      await r.waitFor(1);
      await waitUntil('retrying', async () => (await row(retry)).status === 'retrying');
      await t.ctx.deliveryWorker.stop();

      // a second delivery claimed by a worker that then died mid-send (lease held, nothing recorded)
      const {
        deliveryIds: [orphan],
      } = await enqueue(key.tenant_id, 'incident.updated', { incident_id: 'incident_o' });
      await t.ctx.database.db
        .updateTable('webhook_deliveries')
        .set({ lease_until: clock.now() + 120_000 })
        .where('id', '=', orphan)
        .execute();

      up = true;
      const next = await createContext(t.config, { clock });
      try {
        await next.start();
        await stepToNextAttempt(retry, next);
        assert.equal((await row(retry, next)).status, 'delivered');
        await clock.advance(120_000);
        await waitUntil('orphan delivered', async () => (await row(orphan, next)).status === 'delivered');
        const ok = r.received
          .filter((x) => x.status === 200)
          .map((x) => x.headers['x-service-delivery'])
          .sort();
        assert.deepEqual(ok, [orphan, retry].sort(), 'each delivered exactly once');
      } finally {
        await next.close();
      }
    });
  });
}

describe('delivery-time address check (DNS rebinding)', () => {
  let t: TestApp;
  let r: TestReceiver;
  before(async () => {
    t = await createTestApp({ start: true, config: { webhookAllowPrivate: false } });
    r = new TestReceiver();
  });
  after(async () => {
    await r.stop();
    await t.close();
  });

  test('a host that resolves to loopback at delivery time is not contacted; the attempt says why', async () => {
    const url = await r.start();
    const key = await t.orgKey();
    // registered while it resolved elsewhere; now "localhost" (127.0.0.1) is what it resolves to
    const w = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/webhooks',
        headers: bearer(key),
        payload: { url: 'https://93.184.215.14/hooks', events: ['alert.fired'] },
      })
    ).json();
    await t.ctx.database.db
      .updateTable('webhook_endpoints')
      .set({ url: url.replace('127.0.0.1', 'localhost') })
      .where('id', '=', w.id)
      .execute();
    const {
      deliveryIds: [id],
    } = await t.ctx.database.withWriteLock((trx) =>
      t.ctx.webhooks.enqueueIn(trx, { tenantId: key.tenant_id, kind: 'alert.fired', payload: { alert_id: 'alert_r' } }),
    );
    await waitUntil(
      'attempt',
      async () =>
        (await t.ctx.database.db.selectFrom('webhook_deliveries').select('attempt_count').where('id', '=', id).executeTakeFirstOrThrow()).attempt_count > 0,
    );
    const d = (await t.app.inject({ url: `/v1/webhooks/${w.id}/deliveries`, headers: bearer(key) })).json().data[0];
    assert.equal(d.status, 'retrying');
    assert.equal(d.attempts[0].status_code, null);
    assert.match(d.attempts[0].error, /not allowed.*loopback/);
    assert.equal(r.received.length, 0);
  });
});
