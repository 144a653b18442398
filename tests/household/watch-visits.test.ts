/**
 * Watch events grouped per visit (docs/decisions.md, "Watch events: one per visit"): a busy real
 * camera whose tracker loses and re-finds people reports a new track every few seconds; the watch
 * records one observation per visit with a count and first/last seen, and a webhook receiver gets
 * one delivery per visit plus at most one update a minute, unless the severity rises. A household
 * with a live key and its own camera (no simulated home to add sightings of its own); detections
 * go through the real pipeline with their times; a real receiver on loopback.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/harness.ts';
import { TestReceiver } from '../webhooks/receiver.ts';
import { bearer, createHouseholdTestApp, type HouseholdTestApp } from './household-harness.ts';
import type { DetectionInput } from '../../src/platform/kinds/index.ts';

interface EventJson {
  id: string;
  kind: string;
  type: string;
  summary: string;
  count: number;
  first_seen_at: string | null;
  last_seen_at: string | null;
  occurred_at: string;
  detection: { track_id?: string } | null;
}

for (const dialect of DIALECTS) {
  describe(`watch events: one per visit, for the event list and webhooks (${dialect})`, () => {
    let t: HouseholdTestApp;
    let key: { key: string; id: string; tenant_id: string };
    let porch: { id: string; tenant_id: string; scene_id: string; location: string };
    let watchId: string;
    const receiver = new TestReceiver();
    before(async () => {
      t = await createHouseholdTestApp({ dialect, start: '2026-11-21T20:00:00.000Z' });
      key = await t.householdKey({ name: 'Porch Home', mode: 'live' });
      const url = await receiver.start();
      const hook = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url } });
      assert.equal(hook.statusCode, 201, hook.body);
      await t.ctx.deliveryWorker.start();
    });
    after(async () => {
      await t.close();
      await receiver.stop();
    });

    const say = async (message: string) =>
      (await t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(key), payload: { message } })).json();
    const events = async () => (await t.app.inject({ url: `/v1/events?watch_id=${watchId}&limit=100`, headers: bearer(key) })).json().data as EventJson[];
    /** one person detection through the pipeline, at the clock's time (a new track each time: the tracker lost them) */
    const see = async (track: string, extra: Partial<DetectionInput> = {}) => {
      await t.ctx.pipeline.ingest(porch, [{ type: 'person', confidence: 0.9, track_id: track, at: t.clock.now(), ...extra } as DetectionInput]);
      await t.ctx.pipeline.drain();
    };
    const watchBodies = () =>
      receiver.received.map((r) => r.body as Record<string, any>).filter((b) => b.event === 'watch.observation' || b.event === 'watch.alert');
    /**
     * The watch deliveries the receiver has had: waits (real time, bounded) until `atLeast` arrived,
     * then gives the worker time to send anything else it would (so "no more" is shown, not assumed).
     */
    const delivered = async (atLeast = 0) => {
      const deadline = Date.now() + 10_000;
      while (watchBodies().length < atLeast && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await t.ctx.deliveryWorker.whenIdle();
      await new Promise((r) => setTimeout(r, 400));
      await t.ctx.deliveryWorker.whenIdle();
      return watchBodies();
    };

    test('a camera of its own and a watch on it', async () => {
      const added = await say('add a camera in the front porch at http://192.168.1.20/porch.mjpg');
      assert.equal(added.actions[0]?.type, 'sensor.added', added.reply);
      porch = await t.ctx.database.db
        .selectFrom('streams')
        .select(['id', 'tenant_id', 'scene_id', 'location'])
        .where('id', '=', added.actions[0].id)
        .executeTakeFirstOrThrow();
      const watch = await say('keep an eye on the front porch for the next 3 hours');
      assert.equal(watch.actions[0]?.type, 'watch.created', watch.reply);
      watchId = watch.actions[0].id;
      assert.deepEqual((await t.app.inject({ url: `/v1/watches/${watchId}`, headers: bearer(key) })).json().sensor_ids, [porch.id]);
    });

    test('14 sightings of one visit in 52 s: one event with a count and first/last seen, one webhook', async () => {
      const firstAt = new Date(t.clock.now()).toISOString();
      for (let i = 0; i < 14; i++) {
        if (i > 0) await t.clock.advance(4000);
        await see(`churn-${i}`);
      }
      const lastAt = new Date(t.clock.now()).toISOString();
      const list = await events();
      const observations = list.filter((e) => e.kind === 'observation');
      assert.equal(observations.length, 1, JSON.stringify(observations));
      const [e] = observations;
      assert.equal(e.type, 'person_detected');
      assert.match(e.summary, /saw a person/);
      assert.equal(e.count, 14);
      assert.equal(e.first_seen_at, firstAt);
      assert.equal(e.occurred_at, firstAt);
      assert.equal(e.last_seen_at, lastAt);
      assert.equal(e.detection?.track_id, 'churn-0', 'the sighting that began the visit');
      // a change is not grouped: count 1, no first/last seen
      const created = list.find((x) => x.kind === 'watch.created')!;
      assert.deepEqual([created.count, created.first_seen_at, created.last_seen_at], [1, null, null]);

      const got = await delivered(1);
      assert.equal(got.length, 1, `one delivery for the visit, got ${got.length}`);
      assert.equal(got[0].id, e.id, 'the webhook event is the listed event');
      assert.equal(got[0].event, 'watch.observation');
      assert.equal(got[0].count, 1, 'sent when the visit began');
      assert.equal(got[0].update_of, null);
      assert.equal(got[0].first_seen_at, firstAt);
    });

    test('as the visit goes on: at most one update a minute, naming the event; the list always current', async () => {
      const [visit] = (await events()).filter((e) => e.kind === 'observation');
      await t.clock.advance(10_000); // 62 s after the first delivery
      await see('churn-14');
      let got = await delivered(2);
      assert.equal(got.length, 2);
      const update = got[1];
      assert.notEqual(update.id, visit.id, 'an update is an outbox event of its own');
      assert.equal(update.update_of, visit.id);
      assert.equal(update.event, 'watch.observation');
      assert.equal(update.count, 15);
      assert.equal(update.first_seen_at, visit.first_seen_at);
      assert.equal(update.last_seen_at, new Date(t.clock.now()).toISOString());
      for (let i = 15; i < 25; i++) {
        await t.clock.advance(5000);
        await see(`churn-${i}`);
      }
      got = await delivered(2);
      assert.equal(got.length, 2, 'ten more sightings within the minute: no further delivery');
      const now = (await events()).filter((e) => e.kind === 'observation');
      assert.equal(now.length, 1);
      assert.equal(now[0].count, 25);
      assert.equal(now[0].last_seen_at, new Date(t.clock.now()).toISOString());
      await t.clock.advance(15_000); // 65 s after the update
      await see('churn-25');
      got = await delivered(3);
      assert.equal(got.length, 3);
      assert.equal(got[2].count, 26);
      assert.equal(got[2].update_of, visit.id);
    });

    test('severity rises: a stranger during the visit is an alert of its own, sent at once', async () => {
      const before = (await delivered()).length;
      await t.clock.advance(5000);
      await see('stranger-1', { subtype: 'unrecognized' });
      const got = await delivered(before + 1);
      assert.equal(got.length, before + 1);
      assert.equal(got[before].event, 'watch.alert');
      assert.equal(got[before].type, 'unrecognized_person');
      assert.equal(got[before].update_of, null);
      const alerts = (await events()).filter((e) => e.kind === 'alert');
      assert.equal(alerts.length, 1);
      assert.equal(alerts[0].id, got[before].id);
    });

    test('a new visit after a quiet gap is a new event and a new delivery', async () => {
      const before = (await delivered()).length;
      const [old] = (await events()).filter((e) => e.kind === 'observation');
      await t.clock.advance(6 * 60_000);
      await see('later-1');
      await t.clock.advance(2000);
      await see('later-2');
      const observations = (await events()).filter((e) => e.kind === 'observation');
      assert.equal(observations.length, 2);
      assert.notEqual(observations[0].id, old.id);
      assert.equal(observations[0].count, 2);
      assert.equal(observations[1].id, old.id);
      assert.equal(observations[1].count, 26, 'the earlier visit is closed as it was');
      const got = await delivered(before + 1);
      assert.equal(got.length, before + 1);
      assert.equal(got[before].id, observations[0].id);
      assert.equal(got[before].update_of, null);
    });

    test('leaving the porch alone hides its visits from the delivery log, updates included, and withdraws what is queued', async () => {
      const hooks = (await t.app.inject({ url: '/v1/webhooks', headers: bearer(key) })).json().data as Array<{ id: string }>;
      const log = async () =>
        (await t.app.inject({ url: `/v1/webhooks/${hooks[0].id}/deliveries?limit=100`, headers: bearer(key) })).json().data as Array<{
          id: string;
          status: string;
          payload: Record<string, any>;
        }>;
      const before = await log();
      assert.ok(
        before.some((d) => d.payload.update_of),
        'updates are in the log before the boundary',
      );
      // an update queued but not yet sent when the boundary is set: the worker is stopped for it
      await t.ctx.deliveryWorker.stop();
      await t.clock.advance(61_000);
      await see('later-3');
      const queued = await t.ctx.database.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'status'])
        .where('endpoint_id', '=', hooks[0].id)
        .where('status', '=', 'pending')
        .execute();
      assert.equal(queued.length, 1, 'the update is queued');
      const set = await say('leave the front porch alone');
      assert.equal(set.actions[0]?.type, 'boundary.set', set.reply);
      const after = await log();
      assert.deepEqual(
        after.filter((d) => d.payload.sensor_id === porch.id),
        [],
        'nothing about the porch is readable, updates included',
      );
      const withdrawn = await t.ctx.database.db.selectFrom('webhook_deliveries').select('status').where('id', '=', queued[0].id).executeTakeFirstOrThrow();
      assert.equal(withdrawn.status, 'cancelled');
    });
  });
}
