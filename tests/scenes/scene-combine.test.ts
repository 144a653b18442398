import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { streamRepository } from '../../src/org/streams/stream.repository.ts';

/**
 * One location, several cameras (docs/decisions.md, "One location, several cameras"): three
 * cameras on the lobby that each see the same 9 people are 9 people, not 27. A scene says how its
 * streams combine (`max` by default, `sum` for disjoint areas), editable with PATCH; counts, query
 * answers and alerts follow it.
 */
for (const dialect of DIALECTS) {
  describe(`scene stream combine (${dialect})`, () => {
    let t: TestApp;
    const clock = new ManualClock(Date.parse('2026-03-10T10:00:00Z'));
    before(async () => {
      t = await createTestApp({ dialect, clock });
    });
    after(() => t.close());

    test('three overlapping cameras count the lobby once (max); PATCH sum adds them; answers and alerts follow', async () => {
      const key = await t.orgKey();
      const h = bearer(key);
      const rule = await t.app.inject({
        method: 'POST',
        url: '/v1/alert-rules',
        headers: h,
        payload: { name: 'Lobby over 20', condition: { type: 'person_count', above: 20 } },
      });
      assert.equal(rule.statusCode, 201, rule.body);
      const cams: Array<{ id: string; scene_id: string }> = [];
      for (const n of [1, 2, 3]) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/streams',
          headers: h,
          payload: { name: `Lobby cam ${n}`, source_type: 'rtsp', source_url: `rtsp://lobby-${n}/1`, location: 'lobby' },
        });
        assert.equal(res.statusCode, 201, res.body);
        cams.push(res.json());
        await streamRepository.update(t.ctx.database.db, res.json().id, { status: 'live' });
      }
      const sceneId = cams[0].scene_id;
      const feed = async (values: number[]) => {
        for (const [i, c] of cams.entries()) {
          await t.ctx.pipeline.ingest({ id: c.id, tenant_id: key.tenant_id, scene_id: sceneId, location: 'lobby' }, [
            { type: 'person_count', value: values[i], confidence: 0.9, at: clock.now() },
          ]);
        }
        await clock.advance(1000);
      };
      const scene = async () => (await t.app.inject({ url: `/v1/scenes/${sceneId}`, headers: h })).json();
      const now = async () =>
        (
          await t.app.inject({
            method: 'POST',
            url: `/v1/scenes/${sceneId}/query`,
            headers: h,
            payload: { stream_id: cams[0].id, query: 'How many people are in the lobby now?', window: '15m' },
          })
        ).json();
      const peak = async () =>
        (
          await t.app.inject({
            method: 'POST',
            url: `/v1/scenes/${sceneId}/query`,
            headers: h,
            payload: { stream_id: cams[0].id, query: 'What was the peak number of people in the last 15 minutes?', window: '15m' },
          })
        ).json();
      const alerts = async () => (await t.app.inject({ url: `/v1/alerts?rule_id=${rule.json().id}`, headers: h })).json().data as unknown[];

      await feed([9, 9, 8]);
      const s = await scene();
      assert.equal(s.stream_combine, 'max');
      assert.equal(s.people_count, 9, 'overlapping views: the most any camera sees');
      assert.match((await now()).answer, /\b9 people/);
      assert.match((await peak()).answer, /\b9\b/);
      assert.doesNotMatch((await peak()).answer, /\b(26|27)\b/);
      assert.equal((await alerts()).length, 0, 'no alert: 9 people are not over 20');

      const patched = await t.app.inject({ method: 'PATCH', url: `/v1/scenes/${sceneId}`, headers: h, payload: { stream_combine: 'sum' } });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(patched.json().stream_combine, 'sum');
      assert.equal(patched.json().people_count, 26, 'disjoint areas: the counts add up at once');
      await feed([9, 9, 9]);
      assert.equal((await scene()).people_count, 27);
      assert.match((await now()).answer, /\b27 people/);
      assert.equal((await alerts()).length, 1, 'the summed count is over 20');

      const bad = await t.app.inject({ method: 'PATCH', url: `/v1/scenes/${sceneId}`, headers: h, payload: { stream_combine: 'average' } });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.headers['content-type'] as string, /problem\+json/);
      assert.match(bad.body, /stream_combine/);
    });

    test('the mode survives a restart of the engine (read back from the scene row)', async () => {
      const key = await t.orgKey();
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/streams',
        headers: bearer(key),
        payload: { name: 'Hall', source_type: 'rtsp', source_url: 'rtsp://hall/1', location: 'hall' },
      });
      const sceneId = res.json().scene_id;
      await t.app.inject({ method: 'PATCH', url: `/v1/scenes/${sceneId}`, headers: bearer(key), payload: { stream_combine: 'sum' } });
      const stored = await t.ctx.database.db.selectFrom('scenes').select('stream_combine').where('id', '=', sceneId).executeTakeFirstOrThrow();
      assert.equal(stored.stream_combine, 'sum');
    });
  });
}
