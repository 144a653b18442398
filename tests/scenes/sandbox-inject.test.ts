import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';

for (const dialect of DIALECTS) {
  describe(`sandbox: inject a detection on demand (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ dialect });
    });
    after(() => t.close());

    test('an injected unrecognized person updates the scene, raises the anomaly and opens an incident', async () => {
      const key = await t.orgKey();
      const stream = (
        await t.app.inject({
          method: 'POST',
          url: '/v1/streams',
          headers: bearer(key),
          payload: { name: 'Gate', source_type: 'sandbox', source_url: 'sandbox://gate?scenario=lobby&seed=1', location: 'back_gate' },
        })
      ).json();
      const count = await t.app.inject({
        method: 'POST',
        url: '/v1/sandbox/detections',
        headers: bearer(key),
        payload: { stream_id: stream.id, type: 'person_count', value: 3 },
      });
      assert.equal(count.statusCode, 201, count.body);
      assert.equal((await t.app.inject({ url: `/v1/scenes/${stream.scene_id}`, headers: bearer(key) })).json().people_count, 3);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/sandbox/detections',
        headers: bearer(key),
        payload: { stream_id: stream.id, type: 'person', subtype: 'unrecognized', confidence: 0.93 },
      });
      assert.equal(res.statusCode, 201);
      const det = res.json();
      assert.match(det.id, /^det_/);
      assert.equal(det.subtype, 'unrecognized');
      assert.equal(det.location, 'back_gate');
      const incidents = (await t.app.inject({ url: '/v1/incidents', headers: bearer(key) })).json();
      assert.equal(incidents.data.length, 1, 'automatic incident opened');
      const scene = (await t.app.inject({ url: `/v1/scenes/${stream.scene_id}`, headers: bearer(key) })).json();
      assert.equal(scene.anomaly_flag, true);
    });

    test('real streams, foreign streams and incomplete readings are refused', async () => {
      const key = await t.orgKey();
      const cam = (
        await t.app.inject({
          method: 'POST',
          url: '/v1/streams',
          headers: bearer(key),
          payload: { name: 'Cam', source_type: 'rtsp', source_url: 'rtsp://cam/1', location: 'gate' },
        })
      ).json();
      const real = await t.app.inject({ method: 'POST', url: '/v1/sandbox/detections', headers: bearer(key), payload: { stream_id: cam.id, type: 'person' } });
      assert.equal(real.statusCode, 409);
      assert.equal(real.json().code, 'stream_not_sandbox');
      const other = await t.orgKey();
      const foreign = await t.app.inject({
        method: 'POST',
        url: '/v1/sandbox/detections',
        headers: bearer(other),
        payload: { stream_id: cam.id, type: 'person' },
      });
      assert.equal(foreign.statusCode, 404);
      const sim = (
        await t.app.inject({
          method: 'POST',
          url: '/v1/streams',
          headers: bearer(key),
          payload: { name: 'Sim', source_type: 'sandbox', source_url: 'sandbox://lobby', location: 'lobby' },
        })
      ).json();
      const noValue = await t.app.inject({
        method: 'POST',
        url: '/v1/sandbox/detections',
        headers: bearer(key),
        payload: { stream_id: sim.id, type: 'person_count' },
      });
      assert.equal(noValue.statusCode, 400);
      assert.equal(noValue.json().param, 'value');
      const badType = await t.app.inject({
        method: 'POST',
        url: '/v1/sandbox/detections',
        headers: bearer(key),
        payload: { stream_id: sim.id, type: 'dragon' },
      });
      assert.equal(badType.statusCode, 400);
      assert.equal(badType.json().param, 'type');
      const badConf = await t.app.inject({
        method: 'POST',
        url: '/v1/sandbox/detections',
        headers: bearer(key),
        payload: { stream_id: sim.id, type: 'person', confidence: 2 },
      });
      assert.equal(badConf.json().param, 'confidence');
    });
  });

  describe(`sandbox: an injected cat and the question about it (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      // a sandbox stream runs its scenario from 15 minutes back; at 03:00 with a clock that moves
      // only when told, nobody from the scenario is about in the last minute
      t = await createTestApp({ dialect, clock: new ManualClock('2026-11-22T03:00:00.000Z'), sandboxTickMs: 3_600_000 });
    });
    after(() => t.close());

    test('an injected cat is an animal detection; "was it just the cat?" then answers yes, until a person shows up', async () => {
      const key = await t.orgKey();
      const stream = (
        await t.app.inject({
          method: 'POST',
          url: '/v1/streams',
          headers: bearer(key),
          payload: { name: 'Yard', source_type: 'sandbox', source_url: 'sandbox://yard?scenario=lobby&seed=1', location: 'yard' },
        })
      ).json();
      const inject = (payload: Record<string, unknown>) =>
        t.app.inject({ method: 'POST', url: '/v1/sandbox/detections', headers: bearer(key), payload: { stream_id: stream.id, ...payload } });
      const ask = (query: string) =>
        t.app.inject({
          method: 'POST',
          url: `/v1/scenes/${stream.scene_id}/query`,
          headers: bearer(key),
          payload: { stream_id: stream.id, query, window: '1m' },
        });
      // the yard's simulated scenario is frozen at 03:00 (the clock only moves when told): only the injected detections are in the last minute
      await inject({ type: 'person_count', value: 0 });
      const cat = await inject({ type: 'animal', subtype: 'cat', track_id: 'tom' });
      assert.equal(cat.statusCode, 201, cat.body);
      assert.equal(cat.json().type, 'animal');
      assert.equal(cat.json().subtype, 'cat');
      assert.equal((await t.app.inject({ url: `/v1/scenes/${stream.scene_id}`, headers: bearer(key) })).json().people_count, 0);

      const res = await ask('was it just the cat?');
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.interpretation.metric, 'animals');
      assert.equal(body.interpretation.aggregate, 'only');
      assert.match(body.answer, /^Yes, only animals were seen in the yard in the last minute: 1 cat sighting/);
      assert.ok(body.detections.some((d: { type: string; subtype: string }) => d.type === 'animal' && d.subtype === 'cat'));

      await inject({ type: 'person', track_id: 'kid' });
      assert.match((await ask('was it just the cat?')).json().answer, /^No, not only animals: 1 cat sighting .* seen too\./);

      const noKind = await inject({ type: 'animal' });
      assert.equal(noKind.statusCode, 400);
      assert.equal(noKind.json().param, 'subtype');
      const horse = await inject({ type: 'animal', subtype: 'horse' });
      assert.equal(horse.statusCode, 400);
      assert.equal(horse.json().param, 'subtype');
      const badType = await inject({ type: 'horse' });
      assert.equal(badType.statusCode, 400);
      assert.equal(badType.json().param, 'type');
    });
  });
}
