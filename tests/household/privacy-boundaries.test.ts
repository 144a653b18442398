/**
 * A place left alone is out of reach on every household read path, for every key of
 * the household (one created later included), and a muted sensor is not taken in at all while
 * muted. Reproduces the probe: "leave the nursery alone", then a synthetic detection into the
 * nursery, then a key created afterwards reads everything it can.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/harness.ts';
import { bearer, createHouseholdTestApp, type HouseholdTestApp } from './household-harness.ts';
import { REDACTED_REPLY } from '../../src/home/conversations/conversation-privacy.ts';

const HOUR = 3600_000;

interface EventRow {
  id: string;
  type: string;
  sensor_id: string | null;
  room: string | null;
  occurred_at: string;
}
interface DeliveryRow {
  id: string;
  event: string;
  status: string;
  payload: { sensor_id?: string | null; room?: string | null };
}

for (const dialect of DIALECTS) {
  describe(`boundaries and mutes on every read path (${dialect})`, () => {
    let t: HouseholdTestApp;
    let owner: { key: string; id: string; tenant_id: string };
    let nurseryId: string;
    let drivewayId: string;
    let hookId: string;
    let conversationId: string;
    let boundarySetAt: number;
    before(async () => {
      // 14:00 in Lisbon on a Saturday: the nursery is in use in the afternoon
      t = await createHouseholdTestApp({ dialect, start: '2026-11-21T14:00:00.000Z' });
      owner = await t.householdKey({ name: 'Privacy Home' });
    });
    after(() => t.close());

    const get = (url: string, k: { key: string } = owner) => t.app.inject({ url, headers: bearer(k) });
    const say = (k: { key: string }, message: string, conversation_id?: string) =>
      t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(k), payload: { message, ...(conversation_id ? { conversation_id } : {}) } });
    const inject = (k: { key: string }, streamId: string) =>
      t.app.inject({ method: 'POST', url: '/v1/sandbox/detections', headers: bearer(k), payload: { stream_id: streamId, type: 'person', confidence: 0.9 } });
    const detectionsOf = async (streamId: string, fromMs: number, toMs = Number.MAX_SAFE_INTEGER) =>
      (
        await t.ctx.database.db
          .selectFrom('detections')
          .select('id')
          .where('stream_id', '=', streamId)
          .where('at', '>', fromMs)
          .where('at', '<=', toMs)
          .execute()
      ).length;
    const recordedAudits = async (streamId: string, fromIso: string) =>
      (await t.ctx.database.db.selectFrom('audit_log').select(['data']).where('action', '=', 'detection.recorded').where('at', '>', fromIso).execute()).filter(
        (r) => (JSON.parse(r.data ?? '{}') as { stream_id?: string }).stream_id === streamId,
      ).length;
    const allEvents = async (k: { key: string }) => (await get('/v1/events?limit=100', k)).json().data as EventRow[];
    const allDeliveries = async (k: { key: string }) => (await get(`/v1/webhooks/${hookId}/deliveries?limit=100`, k)).json().data as DeliveryRow[];

    test('before any boundary the nursery is readable: its events, deliveries and a description', async () => {
      const home = (await get('/v1/household')).json();
      nurseryId = home.sensors.find((s: { name: string }) => s.name === 'Nursery camera').id;
      drivewayId = home.sensors.find((s: { name: string }) => s.name === 'Driveway camera').id;
      const hook = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(owner), payload: { url: 'http://127.0.0.1:9/hook' } });
      assert.equal(hook.statusCode, 201, hook.body);
      hookId = hook.json().id;
      const watch = (await say(owner, 'watch the nursery and the driveway until 8pm')).json();
      // one request is one watch over both places
      assert.deepEqual(
        watch.actions.map((a: { type: string }) => a.type),
        ['watch.created'],
        watch.reply,
      );
      assert.equal((await inject(owner, nurseryId)).statusCode, 201);
      assert.equal((await inject(owner, drivewayId)).statusCode, 201);
      await t.advance(HOUR);
      const events = await allEvents(owner);
      assert.ok(
        events.some((e) => e.sensor_id === nurseryId),
        'a nursery observation is listed',
      );
      assert.ok(
        (await allDeliveries(owner)).some((d) => d.payload.sensor_id === nurseryId),
        'and went out as a delivery',
      );
      const described = (await say(owner, "what's happening in the nursery?")).json();
      conversationId = described.id;
      assert.equal(described.actions[0]?.type, 'scene.described', described.reply);
      assert.match(described.reply, /nursery/i);
    });

    test('"leave the nursery alone", then a detection into the nursery: refused, and nothing recorded', async () => {
      const set = (await say(owner, 'leave the nursery alone', conversationId)).json();
      assert.equal(set.actions[0]?.type, 'boundary.set', set.reply);
      boundarySetAt = t.clock.now();
      const before = await detectionsOf(nurseryId, 0);
      const res = await inject(owner, nurseryId);
      assert.equal(res.statusCode, 409);
      assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
      assert.equal(res.json().code, 'sensor_left_alone');
      assert.equal(res.json().param, 'stream_id');
      const withheldBefore = t.ctx.pipeline.withheld;
      await t.advance(2 * HOUR); // the simulated nursery keeps "seeing" people; none of it is taken in
      assert.equal(await detectionsOf(nurseryId, 0), before, 'no nursery detection row written while left alone');
      assert.equal(await recordedAudits(nurseryId, new Date(boundarySetAt).toISOString()), 0, 'no detection.recorded entry either');
      assert.ok(t.ctx.pipeline.withheld > withheldBefore, 'the simulation was dropped and counted');
      assert.ok((await detectionsOf(drivewayId, boundarySetAt)) > 0, 'other rooms are still looked at');
    });

    test('a key created later reads nothing about the nursery: events, deliveries, history, descriptions, scenes, snapshots', async () => {
      const later = await t.householdKey({ name: 'Privacy Home' });
      assert.equal(later.tenant_id, owner.tenant_id);
      for (const k of [owner, later]) {
        const events = await allEvents(k);
        assert.equal(events.filter((e) => e.sensor_id === nurseryId).length, 0, 'not even events recorded before the boundary');
        assert.ok(
          events.some((e) => e.type === 'boundary.set'),
          'that the boundary was set stays readable',
        );
        assert.ok(
          events.some((e) => e.sensor_id === drivewayId),
          'the driveway is still listed',
        );

        const deliveries = await allDeliveries(k);
        assert.equal(deliveries.filter((d) => d.payload.sensor_id === nurseryId).length, 0);
        assert.ok(deliveries.some((d) => d.event === 'boundary.set'));

        const history = (await get(`/v1/conversations/${conversationId}`, k)).json();
        const [describedTurn, boundaryTurn] = history.messages;
        assert.equal(describedTurn.message, "what's happening in the nursery?", 'the person’s own words stay');
        assert.equal(describedTurn.reply, REDACTED_REPLY);
        assert.equal(describedTurn.redacted, true);
        assert.deepEqual(describedTurn.actions, [{ type: 'scene.described', subject: 'nursery', redacted: true }]);
        assert.equal(boundaryTurn.actions[0].type, 'boundary.set');
        assert.equal(boundaryTurn.redacted, undefined);

        for (const question of ["what's happening in the nursery?", 'what happened in the nursery today?']) {
          const asked = (await say(k, question)).json();
          assert.deepEqual(asked.actions, [], `${question} → ${asked.reply}`);
          assert.match(asked.reply, /leave .*alone/i);
        }
        // scene reads and snapshots are Surface B routes: a household key never reaches them
        for (const url of ['/v1/scenes', `/v1/detections/det_x/snapshot`]) {
          const res = await get(url, k);
          assert.equal(res.statusCode, 403);
          assert.equal(res.json().code, 'wrong_surface');
        }
      }
      // what was queued about the nursery is not sent after the boundary either
      const open = await t.ctx.database.db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('household_events as e', 'e.id', 'd.event_id')
        .select(['d.id', 'd.status'])
        .where('e.sensor_id', '=', nurseryId)
        .execute();
      assert.ok(open.length > 0);
      assert.deepEqual([...new Set(open.map((d) => d.status))], ['cancelled']);
      const redeliver = await t.app.inject({ method: 'POST', url: `/v1/webhooks/${hookId}/deliveries/${open[0].id}/redeliver`, headers: bearer(later) });
      assert.equal(redeliver.statusCode, 404, 'a hidden delivery cannot be fetched back by redelivering it');
      const home = (await get('/v1/household', later)).json();
      assert.equal(home.rooms.find((r: { name: string }) => r.name === 'nursery').left_alone, true);
    });

    test('lifting the boundary resumes looking; what was not recorded stays unrecorded', async () => {
      const lifted = (await say(owner, 'you can watch the nursery again')).json();
      assert.equal(lifted.actions[0]?.type, 'boundary.cleared', lifted.reply);
      const liftedAt = t.clock.now();
      // the audit keeps that the boundary was set and lifted, and by which key
      const audit = await t.ctx.database.db
        .selectFrom('audit_log')
        .select(['action', 'actor_key_id'])
        .where('tenant_id', '=', owner.tenant_id)
        .where('action', 'in', ['boundary.set', 'boundary.cleared'])
        .orderBy('seq')
        .execute();
      assert.deepEqual(audit, [
        { action: 'boundary.set', actor_key_id: owner.id },
        { action: 'boundary.cleared', actor_key_id: owner.id },
      ]);
      assert.equal((await inject(owner, nurseryId)).statusCode, 201);
      await t.ctx.pipeline.drain();
      assert.ok((await detectionsOf(nurseryId, liftedAt - 1)) > 0, 'new nursery detections are recorded again');
      assert.equal(await detectionsOf(nurseryId, boundarySetAt, liftedAt - 1), 0, 'the boundary’s hours stay empty');
      const history = (await get(`/v1/conversations/${conversationId}`)).json();
      assert.notEqual(history.messages[0].reply, REDACTED_REPLY, 'what was seen before the boundary is readable again');
    });

    test('a boundary on one sensor binds that sensor only', async () => {
      const home = (await get('/v1/household')).json();
      const living = home.sensors.find((s: { name: string }) => s.name === 'Living room camera').id;
      const set = (await say(owner, 'leave the living room camera alone')).json();
      assert.equal(set.actions[0]?.type, 'boundary.set', set.reply);
      const res = await inject(owner, living);
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().code, 'sensor_left_alone');
      assert.equal((await inject(owner, nurseryId)).statusCode, 201, 'the nursery is looked at again');
      const cleared = (await say(owner, 'you can watch the living room camera again')).json();
      assert.equal(cleared.actions[0]?.type, 'boundary.cleared', cleared.reply);
      assert.equal((await inject(owner, living)).statusCode, 201);
    });

    test('a muted sensor is not taken in while muted; unmuting resumes it, and what it saw before stays', async () => {
      const seenBefore = (await allEvents(owner)).filter((e) => e.sensor_id === drivewayId).length;
      assert.ok(seenBefore > 0);
      const muted = (await say(owner, 'mute the driveway camera')).json();
      assert.equal(muted.actions[0]?.type, 'sensor.muted', muted.reply);
      const mutedAt = t.clock.now();
      const res = await inject(owner, drivewayId);
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().code, 'sensor_muted');
      assert.equal(res.json().param, 'stream_id');
      await t.advance(2 * HOUR);
      // (readings stamped at the very instant of the mute were taken in before it)
      assert.equal(await detectionsOf(drivewayId, mutedAt), 0, 'no driveway detection row while muted');
      assert.equal(await recordedAudits(drivewayId, new Date(mutedAt).toISOString()), 0);
      assert.equal((await allEvents(owner)).filter((e) => e.sensor_id === drivewayId).length, seenBefore, 'muting hides nothing it saw before');

      const unmuted = (await say(owner, 'unmute the driveway camera')).json();
      assert.equal(unmuted.actions[0]?.type, 'sensor.unmuted', unmuted.reply);
      const unmutedAt = t.clock.now();
      assert.equal((await inject(owner, drivewayId)).statusCode, 201);
      await t.ctx.pipeline.drain();
      assert.ok((await detectionsOf(drivewayId, unmutedAt - 1)) > 0, 'ingest resumes after unmuting');
      assert.equal(await detectionsOf(drivewayId, mutedAt, unmutedAt - 1), 0, 'the muted hours stay empty');
    });
  });
}
