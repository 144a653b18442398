import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { streamRepository } from '../../src/org/streams/stream.repository.ts';

/**
 * Freshness (docs/decisions.md, "Freshness"): a scene whose only camera went offline 15 minutes
 * ago must not answer "There are 6 people in the north gate now". Every read says when its counts
 * are from (`as_of`) and whether a source is live; a present-tense question on a stale scene is
 * answered with the time of the last reading.
 */
for (const dialect of DIALECTS) {
  describe(`scene freshness (${dialect})`, () => {
    let t: TestApp;
    const clock = new ManualClock(Date.parse('2026-03-10T10:00:00Z'));
    before(async () => {
      t = await createTestApp({ dialect, clock });
    });
    after(() => t.close());

    /** what the video ingest writes on a status change (src/org/sources/live-video-sources.ts persistStatus) */
    const setStatus = (id: string, status: string, lastFrameAt: number | null, error: string | null = null) =>
      streamRepository.update(t.ctx.database.db, id, { status, error, last_frame_at: lastFrameAt === null ? null : new Date(lastFrameAt).toISOString() });

    const setup = async (location: string) => {
      const key = await t.orgKey();
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/streams',
        headers: bearer(key),
        payload: { name: 'Gate cam', source_type: 'rtsp', source_url: 'rtsp://gate-cam/1', location },
      });
      assert.equal(res.statusCode, 201, res.body);
      const cam = res.json() as { id: string; scene_id: string };
      await setStatus(cam.id, 'live', null);
      await t.ctx.pipeline.ingest({ id: cam.id, tenant_id: key.tenant_id, scene_id: cam.scene_id, location }, [
        { type: 'person_count', value: 6, confidence: 0.9, at: clock.now() },
      ]);
      return { key, cam };
    };
    const ask = (key: { key: string }, cam: { id: string; scene_id: string }, query: string) =>
      t.app.inject({ method: 'POST', url: `/v1/scenes/${cam.scene_id}/query`, headers: bearer(key), payload: { stream_id: cam.id, query, window: '15m' } });

    test('a live scene says its counts are current; 15 minutes after its camera went offline it gives the last reading and its time, never "now"', async () => {
      const { key, cam } = await setup('north_gate');
      const live = (await t.app.inject({ url: `/v1/scenes/${cam.scene_id}`, headers: bearer(key) })).json();
      assert.equal(live.people_count, 6);
      assert.equal(live.sources_live, true);
      assert.equal(live.stale, false);
      assert.equal(live.as_of, new Date(clock.now()).toISOString());
      const liveAnswer = (await ask(key, cam, 'How many people are in the north gate now?')).json();
      assert.match(liveAnswer.answer, /6 people/);
      assert.equal(liveAnswer.sources_live, true);
      assert.equal(liveAnswer.as_of, new Date(clock.now()).toISOString());

      // the camera is unplugged: its last frame was now; 15 minutes pass
      const lastFrame = clock.now();
      await setStatus(cam.id, 'offline', lastFrame, 'no frames for 10 s');
      await clock.advance(15 * 60_000);

      const stale = (await t.app.inject({ url: `/v1/scenes/${cam.scene_id}`, headers: bearer(key) })).json();
      assert.equal(stale.people_count, 6, 'the last reading is kept');
      assert.equal(stale.sources_live, false);
      assert.equal(stale.stale, true);
      assert.equal(stale.as_of, new Date(lastFrame).toISOString());
      const listed = (await t.app.inject({ url: '/v1/scenes', headers: bearer(key) })).json().data.find((s: { id: string }) => s.id === cam.scene_id);
      assert.equal(listed.stale, true);
      assert.equal(listed.as_of, new Date(lastFrame).toISOString());

      for (const q of ['How many people are in the north gate now?', 'Is the north gate empty?']) {
        const res = await ask(key, cam, q);
        assert.equal(res.statusCode, 200, res.body);
        const a = res.json();
        assert.doesNotMatch(a.answer, /\bnow\b|there are|^no,/i, `${q} → ${a.answer}`);
        assert.match(a.answer, /last reading.*15 minutes ago.*6 people.*camera is offline/, `${q} → ${a.answer}`);
        assert.equal(a.stale, true);
        assert.equal(a.sources_live, false);
        assert.equal(a.as_of, new Date(lastFrame).toISOString());
      }
      // a question about the past is not about freshness
      const past = (await ask(key, cam, 'What was the peak number of people in the last hour?')).json();
      assert.match(past.answer, /6/);
    });

    test('a camera that is reconnecting for less than the silence threshold still counts as current; a camera that never connected has no reading', async () => {
      const { key, cam } = await setup('dock');
      await setStatus(cam.id, 'reconnecting', clock.now(), 'connection refused');
      await clock.advance(10_000);
      const blip = (await t.app.inject({ url: `/v1/scenes/${cam.scene_id}`, headers: bearer(key) })).json();
      assert.equal(blip.sources_live, false);
      assert.equal(blip.stale, false);

      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/streams',
        headers: bearer(key),
        payload: { name: 'Yard cam', source_type: 'rtsp', source_url: 'rtsp://yard-cam/1', location: 'yard' },
      });
      const yard = res.json() as { id: string; scene_id: string };
      const never = (await t.app.inject({ url: `/v1/scenes/${yard.scene_id}`, headers: bearer(key) })).json();
      assert.equal(never.as_of, null);
      assert.equal(never.stale, true);
      const a = (await ask(key, yard, 'How many people are in the yard right now?')).json();
      assert.match(a.answer, /no reading from the yard yet: the camera has not connected yet/, a.answer);
    });
  });
}
