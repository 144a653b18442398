import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { streamRepository } from '../../src/org/streams/stream.repository.ts';

/**
 * Through the route (POST /v1/scenes/:id/query):
 * - the coverage rule (docs/decisions.md, "Scene questions: coverage before an answer"): an unknown
 *   word planted in every slot of a question (before, between and after its words, inside its
 *   time phrase, its object, its place, its comparison) gets a 422 query_not_understood that says
 *   what was understood and names the word, never an answer; the questions include the kinds
 *   added for round C (a moment's stay, "overnight", a day part after the day, a bare count);
 * - freshness (docs/decisions.md, "Freshness"): every answer says how fresh its data is (`as_of`,
 *   `sources_live`, `stale`), and once the camera is offline no present-tense answer states a
 *   count as now.
 */
describe('scene questions through the route: coverage and freshness', () => {
  let t: TestApp;
  const clock = new ManualClock(Date.parse('2026-03-10T14:14:00Z'));
  let key: { key: string; tenant_id: string };
  let cam: { id: string; scene_id: string };
  before(async () => {
    t = await createTestApp({ dialect: 'sqlite', clock });
    key = await t.orgKey();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/streams',
      headers: bearer(key),
      payload: { name: 'Lobby cam', source_type: 'rtsp', source_url: 'rtsp://lobby-cam/1', location: 'lobby' },
    });
    assert.equal(res.statusCode, 201, res.body);
    cam = res.json();
    const ref = { id: cam.id, tenant_id: key.tenant_id, scene_id: cam.scene_id, location: 'lobby' };
    await t.app.inject({ method: 'PATCH', url: `/v1/scenes/${cam.scene_id}`, headers: bearer(key), payload: { capacity: 20 } });
    const start = clock.now() - 3 * 3_600_000;
    await clock.advance(0);
    const readings: Array<[number, number]> = [
      [start, 2],
      [start + 3_600_000, 6],
      [start + 2 * 3_600_000, 4],
      [clock.now() - 5 * 60_000, 5],
    ];
    for (const [at, value] of readings) {
      await t.ctx.pipeline.ingest(ref, [{ type: 'person_count', value, confidence: 0.9, at }]);
    }
    await t.ctx.pipeline.ingest(ref, [{ type: 'person', confidence: 0.9, at: clock.now() - 60_000, track_id: 'p1', dwell_s: 600 }]);
    await t.ctx.pipeline.drain();
    await streamRepository.update(t.ctx.database.db, cam.id, { status: 'live', error: null, last_frame_at: new Date(clock.now()).toISOString() });
  });
  after(() => t.close());

  const ask = (query: string) =>
    t.app.inject({ method: 'POST', url: `/v1/scenes/${cam.scene_id}/query`, headers: bearer(key), payload: { stream_id: cam.id, query, window: '15m' } });

  test('an unknown word in every slot of a question is a 422 that says what was understood and names the word', async () => {
    const questions = [
      'how many people were in the lobby since 9am',
      'were there more than 5 people at any point in the last hour',
      'is the lobby empty right now',
      'when was the first person seen this morning',
      'how long was the person at 9am in the lobby for',
      'anyone in the lobby overnight',
      'how many were there at half two yesterday afternoon',
      'was it busier this morning than yesterday morning',
    ];
    let planted = 0;
    for (const q of questions) {
      const words = q.split(' ');
      for (let i = 0; i <= words.length; i++) {
        for (const word of ['flurbish', 'zorp']) {
          const query = [...words.slice(0, i), word, ...words.slice(i)].join(' ');
          const res = await ask(query);
          assert.equal(res.statusCode, 422, `${query} → ${res.body}`);
          const body = res.json();
          assert.equal(body.code, 'query_not_understood', query);
          assert.match(body.detail, new RegExp(`"${word}"`), `${query} → ${body.detail}`);
          assert.match(body.detail, /^I understood a question about /, `${query} → ${body.detail}`);
          planted++;
        }
      }
    }
    assert.ok(planted > 100, `${planted} planted`);
  });

  const PRESENT = [
    'how many people are in the lobby?',
    'is the lobby empty?',
    'is anyone here right now?',
    'how crowded is it?',
    'is the lobby crowded?',
    'more than 3 people right now?',
    'is it over capacity?',
    'headcount?',
  ];

  test('every answer says how fresh its data is; offline, none says "now" of a count', async () => {
    for (const q of [...PRESENT, 'what was the peak in the last hour?', 'how long has the person been here?']) {
      const res = await ask(q);
      assert.equal(res.statusCode, 200, `${q} → ${res.body}`);
      const a = res.json();
      assert.equal(a.sources_live, true, q);
      assert.equal(a.stale, false, q);
      assert.equal(a.as_of, new Date(clock.now()).toISOString(), q);
    }
    // the camera goes offline; 20 minutes pass
    const lastFrame = clock.now();
    await streamRepository.update(t.ctx.database.db, cam.id, {
      status: 'offline',
      error: 'no frames for 10 s',
      last_frame_at: new Date(lastFrame).toISOString(),
    });
    await clock.advance(20 * 60_000);
    for (const q of PRESENT) {
      const res = await ask(q);
      assert.equal(res.statusCode, 200, `${q} → ${res.body}`);
      const a = res.json();
      assert.equal(a.stale, true, q);
      assert.equal(a.sources_live, false, q);
      assert.equal(a.as_of, new Date(lastFrame).toISOString(), q);
      assert.doesNotMatch(a.answer, /\bnow\b|\bthere (is|are)\b|\bhas \d/i, `${q} → ${a.answer}`);
      assert.match(a.answer, /last reading .*20 minutes ago.*camera is offline/, `${q} → ${a.answer}`);
    }
  });

  // round J (docs/decisions.md, "Round J: scene questions"): still offline from the test above
  test('offline, "any vans?" gives the last reading and says vans are not told apart; "what is the camera showing?" the last reading', async () => {
    const vans = (await ask('any vans in the lobby?')).json();
    assert.equal(vans.stale, true);
    assert.match(
      vans.answer,
      /^The last reading from the lobby, 20 minutes ago .*showed no vehicles; the camera is offline\. The cameras count vehicles of every kind together and cannot tell "vans" from other vehicles/,
      vans.answer,
    );
    const showing = (await ask("what's the lobby camera showing?")).json();
    assert.equal(showing.interpretation.aggregate, 'summary');
    assert.match(
      showing.answer,
      /^The last reading from the lobby, 20 minutes ago .*showed 5 people and no vehicles; the camera is offline\.$/,
      showing.answer,
    );
    assert.doesNotMatch(showing.answer, /\bnow\b/);
  });
});
