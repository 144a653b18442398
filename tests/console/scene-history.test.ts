import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';
import type { CreatedKey } from '../../src/platform/keys/key.service.ts';

/** GET /v1/scenes/{id}/history: the wall's people-over-time chart, from stored detections. */
for (const dialect of DIALECTS) {
  describe(`scene history (${dialect})`, () => {
    let t: TestApp;
    let org: CreatedKey;
    const clock = new ManualClock('2026-11-21T12:00:30.000Z');
    before(async () => {
      t = await createTestApp({ dialect, clock, sandboxTickMs: 100 * 3600_000 }); // scenarios stay still: only injected readings move
      org = await t.orgKey();
    });
    after(() => t.close());

    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: bearer(org), ...(payload ? { payload } : {}) });

    test("peaks per minute over the last hour, each stream's count holding until its next reading, summed over the scene's streams", async () => {
      const a = (
        await call('POST', '/v1/streams', { name: 'Lobby A', source_type: 'sandbox', source_url: 'sandbox://a?scenario=lobby&seed=1', location: 'north_lobby' })
      ).json();
      const b = (
        await call('POST', '/v1/streams', { name: 'Lobby B', source_type: 'sandbox', source_url: 'sandbox://b?scenario=lobby&seed=2', location: 'north_lobby' })
      ).json();
      assert.equal(a.scene_id, b.scene_id);
      const inject = async (stream: string, value: number) => {
        assert.equal((await call('POST', '/v1/sandbox/detections', { stream_id: stream, type: 'person_count', value })).statusCode, 201);
        await t.ctx.pipeline.drain();
      };
      // sandbox streams write their scenario's recent past on creation; start two hours later, from zero
      await clock.advance(2 * 3600_000);
      await t.ctx.pipeline.drain();
      const carried = (await call('GET', `/v1/scenes/${a.scene_id}/history`)).json().points.map((p: { people: number }) => p.people);
      assert.ok(
        carried.every((n: number) => n === carried[0]),
        'the last readings hold over a quiet hour',
      );
      await inject(a.id, 0); // 14:00:30
      await inject(b.id, 0);
      await inject(a.id, 5);
      await inject(a.id, 8); // same minute: the peak is kept
      await clock.advance(10 * 60_000);
      await inject(a.id, 2); // 14:10:30
      await clock.advance(10 * 60_000);
      await inject(b.id, 3); // 14:20:30: A still has 2

      const res = await call('GET', `/v1/scenes/${a.scene_id}/history`);
      assert.equal(res.statusCode, 200, res.body);
      const h = res.json();
      assert.deepEqual([h.range, h.bucket_s, h.points.length, h.location], ['1h', 60, 60, 'north_lobby']);
      const at = (iso: string) => h.points.find((p: { at: string }) => p.at === iso)?.people;
      assert.equal(h.points[h.points.length - 1].at, '2026-11-21T14:20:00.000Z');
      assert.equal(at('2026-11-21T13:59:00.000Z'), carried[0], 'before the first reading of the hour: what was carried in');
      assert.equal(at('2026-11-21T14:00:00.000Z'), 9, "each stream's peak that minute: A 8, B the 1 it held before its 0");
      assert.equal(at('2026-11-21T14:05:00.000Z'), 8, 'held until the next reading');
      assert.equal(at('2026-11-21T14:10:00.000Z'), 8, 'A held 8 until its 2 at 14:10:30');
      assert.equal(at('2026-11-21T14:11:00.000Z'), 2);
      assert.equal(at('2026-11-21T14:20:00.000Z'), 5, 'A (2) + B (3)');

      const day = (await call('GET', `/v1/scenes/${a.scene_id}/history?range=24h`)).json();
      assert.deepEqual([day.bucket_s, day.points.length], [900, 96]);
      assert.deepEqual(
        day.points.slice(-2).map((p: { at: string; people: number }) => [p.at, p.people]),
        [
          ['2026-11-21T14:00:00.000Z', 9],
          ['2026-11-21T14:15:00.000Z', 5],
        ],
      );
      assert.equal(day.points[0].at, '2026-11-20T14:30:00.000Z');

      const bad = await call('GET', `/v1/scenes/${a.scene_id}/history?range=7d`);
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().param, 'range');
    });

    test("GET /v1/scenes/history: every scene of a page with its chart in one request, equal to each scene's own history", async () => {
      await call('POST', '/v1/streams', { name: 'Gate', source_type: 'sandbox', source_url: 'sandbox://g?scenario=lobby&seed=4', location: 'north_gate' });
      await t.ctx.pipeline.drain(); // the new sandbox stream's recent past is written
      const scenes = (await call('GET', '/v1/scenes?limit=100')).json().data as Array<{ id: string; location: string }>;
      assert.ok(scenes.length >= 2);
      for (const range of ['1h', '24h']) {
        const res = await call('GET', `/v1/scenes/history?limit=100&range=${range}`);
        assert.equal(res.statusCode, 200, res.body);
        const all = res.json();
        assert.equal(all.object, 'list');
        assert.deepEqual(
          all.data.map((h: { scene_id: string }) => h.scene_id),
          scenes.map((s) => s.id),
          'the scenes of GET /v1/scenes, in its order',
        );
        for (const h of all.data) assert.deepEqual(h, (await call('GET', `/v1/scenes/${h.scene_id}/history?range=${range}`)).json(), `${h.scene_id} ${range}`);
      }
      // paged as the scene list is
      const first = (await call('GET', '/v1/scenes/history?limit=1')).json();
      assert.deepEqual([first.data.length, first.has_more, first.data[0].scene_id], [1, true, scenes[0].id]);
      const next = (await call('GET', `/v1/scenes/history?limit=1&starting_after=${scenes[0].id}`)).json();
      assert.equal(next.data[0].scene_id, scenes[1].id);
      // a key limited to a location sees only that location's charts
      const gate = await t.orgKey({ name: 'Org 1', locations: ['north_gate'] });
      assert.equal(gate.tenant_id, org.tenant_id, 'the same organization');
      const limited = (await t.app.inject({ url: '/v1/scenes/history?limit=100', headers: bearer(gate) })).json();
      assert.deepEqual(
        limited.data.map((h: { location: string }) => h.location),
        ['north_gate'],
      );
      const bad = await call('GET', '/v1/scenes/history?range=7d');
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().param, 'range');
    });
  });
}
