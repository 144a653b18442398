import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import SunCalc from 'suncalc';
import { DIALECTS } from '../helpers/harness.ts';
import { bearer, createHouseholdTestApp, type HouseholdTestApp } from './household-harness.ts';

const LISBON = { lat: 38.7223, lon: -9.1393 };
const HOUR = 3600_000;

/** A sun time as the watch states it: to the nearest minute. */
function nearestMinute(d: Date): string {
  return new Date(Math.round(d.getTime() / 60_000) * 60_000).toISOString();
}

for (const dialect of DIALECTS) {
  describe(`watches and events (${dialect})`, () => {
    let t: HouseholdTestApp;
    let key: { key: string; id: string; tenant_id: string };
    let watch: { id: string; starts_at: string; ends_at: string };
    let backDoorId: string;
    before(async () => {
      // 16:30 in Lisbon on a Saturday in November: the back door is busy, sunset is at about 17:18
      t = await createHouseholdTestApp({ dialect, start: '2026-11-21T16:30:00.000Z' });
      key = await t.householdKey();
    });
    after(() => t.close());

    const get = (url: string, k: { key: string } = key) => t.app.inject({ url, headers: bearer(k) });
    const say = (message: string, extra: Record<string, unknown> = {}) =>
      t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(key), payload: { message, ...extra } });
    const countDetections = async (streamId: string, from: string, to: string) =>
      (
        await t.ctx.database.db
          .selectFrom('detections')
          .select('id')
          .where('stream_id', '=', streamId)
          .where('at', '>', Date.parse(from))
          .where('at', '<=', Date.parse(to))
          .execute()
      ).length;

    test('a test key gets the simulated home in Lisbon on first use', async () => {
      const home = (await get('/v1/household')).json();
      assert.equal(home.time_zone, 'Europe/Lisbon');
      assert.equal(home.city, 'Lisbon');
      assert.deepEqual(home.sensors.map((s: { name: string }) => s.name).sort(), [
        'Back door contact',
        'Backyard camera',
        'Driveway camera',
        'Front porch camera',
        'Garage motion sensor',
        'Living room camera',
        'Nursery camera',
      ]);
      const backDoor = home.sensors.find((s: { name: string }) => s.name === 'Back door contact');
      assert.equal(backDoor.kind, 'contact');
      assert.equal(backDoor.location, 'back_door');
      assert.match(backDoor.id, /^stream_/);
      backDoorId = backDoor.id;
    });

    test('"keep an eye on the back door from sunset to sunrise" creates a watch with the home\'s sun times', async () => {
      const res = await say('keep an eye on the back door from sunset to sunrise');
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.match(body.id, /^conv_/);
      assert.equal(body.actions.length, 1);
      const a = body.actions[0];
      assert.equal(a.type, 'watch.created');
      assert.match(a.id, /^wat_/);
      assert.equal(a.subject, 'back door');
      assert.match(a.window, /sunset to sunrise/);
      const sunset = SunCalc.getTimes(new Date('2026-11-21T12:00:00Z'), LISBON.lat, LISBON.lon).sunset;
      const sunrise = SunCalc.getTimes(new Date('2026-11-22T12:00:00Z'), LISBON.lat, LISBON.lon).sunrise;
      assert.equal(a.starts_at, nearestMinute(sunset));
      assert.equal(a.ends_at, nearestMinute(sunrise));
      watch = a;
      const listed = (await get('/v1/watches')).json();
      assert.deepEqual(
        listed.data.map((w: { id: string }) => w.id),
        [a.id],
      );
      const one = (await get(`/v1/watches/${a.id}`)).json();
      assert.deepEqual(one.sensor_ids, [backDoorId]);
      assert.equal(one.status, 'active');
      assert.equal(one.observing, false, 'not yet sunset');
    });

    test('sandbox door openings inside the window appear in GET /v1/events, newest first, and go out as webhooks', async () => {
      const hook = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url: 'http://127.0.0.1:9/hook' } });
      assert.equal(hook.statusCode, 201, hook.body);
      await t.advance(3 * HOUR);
      assert.ok((await countDetections(backDoorId, '2026-11-21T16:30:00.000Z', watch.starts_at)) > 0, 'the door opened before sunset too');
      const res = await get(`/v1/events?watch_id=${watch.id}&kind=observation&limit=100`);
      assert.equal(res.statusCode, 200);
      const events = res.json().data as {
        id: string;
        type: string;
        sensor_id: string;
        room: string;
        summary: string;
        occurred_at: string;
        detection: { type: string };
      }[];
      assert.ok(events.length >= 2, `expected door openings after sunset, got ${events.length}`);
      for (const e of events) {
        assert.equal(e.type, 'door_opened');
        assert.equal(e.sensor_id, backDoorId);
        assert.equal(e.room, 'back door');
        assert.equal(e.summary, 'The back door was opened.');
        assert.equal(e.detection.type, 'door_open');
        assert.ok(e.occurred_at >= watch.starts_at, `${e.occurred_at} is before the window`);
      }
      const ids = events.map((e) => e.id);
      assert.deepEqual(ids, [...ids].sort().reverse(), 'newest first');
      assert.ok((await (await get('/v1/watches/' + watch.id)).json()).observing);

      // each event was enqueued for the household's webhook in the transaction that stored it, under the same id
      const pushed = await t.ctx.database.db.selectFrom('webhook_events').select(['id', 'kind', 'body']).where('tenant_id', '=', key.tenant_id).execute();
      for (const e of events) {
        const w = pushed.find((p) => p.id === e.id);
        assert.ok(w, `event ${e.id} was not enqueued`);
        assert.equal(w.kind, 'watch.observation');
        assert.equal(JSON.parse(w.body).summary, e.summary);
      }
      const all = (await get('/v1/events?limit=100')).json().data as { kind: string; watch_id: string }[];
      assert.ok(
        all.some((e) => e.kind === 'watch.created' && e.watch_id === watch.id),
        'the creation is in the event log',
      );
      const since = events[1].occurred_at;
      const recent = (await get(`/v1/events?watch_id=${watch.id}&since=${since}`)).json().data as { occurred_at: string }[];
      assert.ok(recent.length >= 2 && recent.every((e) => e.occurred_at >= since));
      const page1 = (await get(`/v1/events?watch_id=${watch.id}&kind=observation&limit=1`)).json();
      assert.equal(page1.has_more, true);
      assert.equal(page1.data[0].id, ids[0]);
      const page2 = (await get(`/v1/events?watch_id=${watch.id}&kind=observation&limit=1&starting_after=${ids[0]}`)).json();
      assert.equal(page2.data[0].id, ids[1]);
      const bad = await get('/v1/events?kind=nonsense');
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().param, 'kind');
    });

    test('DELETE stands the watch down at once: logged, audited, and no event from it afterwards', async () => {
      const res = await t.app.inject({ method: 'DELETE', url: `/v1/watches/${watch.id}`, headers: bearer(key) });
      assert.equal(res.statusCode, 200);
      const w = res.json();
      assert.equal(w.status, 'stood_down');
      assert.equal(w.observing, false);
      const downAt = w.stood_down_at as string;
      assert.deepEqual((await get('/v1/watches')).json().data, []);
      assert.deepEqual(
        (await get('/v1/watches?status=stood_down')).json().data.map((x: { id: string }) => x.id),
        [watch.id],
      );
      const again = await t.app.inject({ method: 'DELETE', url: `/v1/watches/${watch.id}`, headers: bearer(key) });
      assert.equal(again.json().stood_down_at, downAt, 'a second stand-down changes nothing');

      await t.advance(1.5 * HOUR);
      assert.ok((await countDetections(backDoorId, downAt, new Date(t.clock.now()).toISOString())) > 0, 'the door kept opening');
      const after = (await get(`/v1/events?watch_id=${watch.id}&limit=100`)).json().data as { kind: string; occurred_at: string; created_at: string }[];
      const later = after.filter((e) => e.created_at > downAt || e.occurred_at > downAt);
      assert.deepEqual(later, [], 'no event after the stand-down');
      const logged = after.filter((e) => e.kind === 'watch.stood_down');
      assert.equal(logged.length, 1);
      const audit = await t.ctx.database.db
        .selectFrom('audit_log')
        .select(['action', 'actor_key_id'])
        .where('resource_id', '=', watch.id)
        .where('action', '=', 'watch.stood_down')
        .execute();
      assert.deepEqual(audit, [{ action: 'watch.stood_down', actor_key_id: key.id }]);
    });

    test('while a sensor is muted, GET /v1/events shows nothing of it from the moment it was muted', async () => {
      const principal = await t.ctx.keys.authenticate(key.key);
      const before = (await get('/v1/events?limit=100')).json().data.filter((e: { sensor_id: string }) => e.sensor_id === backDoorId);
      assert.ok(before.length > 0);
      await t.ctx.household.muteSensor(principal, { keyId: key.id }, backDoorId, true);
      // an observation that raced the mute (decided before it, stored after it) stays out of sight
      const raced = await t.ctx.database.withWriteLock((trx) =>
        t.ctx.events.recordIn(trx, {
          tenantId: key.tenant_id,
          kind: 'observation',
          type: 'door_opened',
          sensorId: backDoorId,
          room: 'back door',
          summary: 'The back door was opened.',
          occurredAt: t.clock.now() + 1000,
        }),
      );
      const after = (await get('/v1/events?limit=100')).json().data as { id: string; sensor_id: string; kind: string }[];
      assert.ok(!after.some((e) => e.id === raced.id), 'the raced event is hidden');
      assert.deepEqual(
        after.filter((e) => e.sensor_id === backDoorId).map((e) => e.id),
        before.map((e: { id: string }) => e.id),
        'earlier events stay',
      );
      assert.ok(after.some((e) => e.kind === 'sensor.muted'));
    });

    test("another household's watch answers 404, and its events are not listed", async () => {
      const other = await t.householdKey({ mode: 'live' });
      for (const [method, url] of [
        ['GET', `/v1/watches/${watch.id}`],
        ['DELETE', `/v1/watches/${watch.id}`],
        ['GET', '/v1/watches/wat_00000000000000000000000000'],
      ] as const) {
        const r = await t.app.inject({ method, url, headers: bearer(other) });
        assert.equal(r.statusCode, 404, `${method} ${url}`);
        assert.equal(r.json().code, 'not_found');
      }
      assert.deepEqual((await get(`/v1/events?watch_id=${watch.id}`, other)).json().data, []);
      const org = await t.orgKey();
      const wrong = await get('/v1/watches', org);
      assert.equal(wrong.statusCode, 403);
      assert.equal(wrong.json().code, 'wrong_surface');
    });
  });
}
