import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';

/**
 * POST /v1/scenes/{id}/query with `window` optional (docs/decisions.md, "Scene questions: an
 * optional window"): present, it is the span of a question with no time of its own; absent, the
 * question's own time phrase sets the span, else the default window, which the interpretation
 * reports (never silently); a bad value is a 400 naming `window`.
 */

let t: TestApp;
let key: { key: string };
let lobby: { id: string; scene_id: string };
const NOW = Date.parse('2026-11-23T10:00:00.000Z');

const q = (body: object) =>
  t.app.inject({ method: 'POST', url: `/v1/scenes/${lobby.scene_id}/query`, headers: bearer(key), payload: { stream_id: lobby.id, ...body } });

before(async () => {
  const clock = new ManualClock(NOW - 3 * 3600_000);
  t = await createTestApp({ dialect: 'sqlite', clock });
  key = await t.orgKey();
  lobby = (
    await t.app.inject({
      method: 'POST',
      url: '/v1/streams',
      headers: bearer(key),
      payload: { name: 'Lobby', source_type: 'rtsp', source_url: 'rtsp://camera.example/lobby', location: 'lobby' },
    })
  ).json();
  await t.app.inject({ method: 'PATCH', url: `/v1/scenes/${lobby.scene_id}`, headers: bearer(key), payload: { time_zone: 'UTC' } });
  const ref = await t.ctx.database.db
    .selectFrom('streams')
    .select(['id', 'tenant_id', 'scene_id', 'location'])
    .where('id', '=', lobby.id)
    .executeTakeFirstOrThrow();
  // people counted every 10 minutes from 07:00 to 10:00 UTC: 2 at first, 9 at 08:00, then 4
  for (let at = NOW - 3 * 3600_000; at <= NOW; at += 10 * 60_000) {
    if (at > clock.now()) await clock.advance(at - clock.now());
    const value = at === NOW - 2 * 3600_000 ? 9 : at < NOW - 2 * 3600_000 ? 2 : 4;
    await t.ctx.pipeline.ingest(ref, [{ type: 'person_count', subtype: null, value, count: null, confidence: 0.9, at, track_id: null, dwell_s: null }]);
  }
  await t.ctx.pipeline.drain();
  await t.ctx.database.db
    .updateTable('streams')
    .set({ status: 'live', last_frame_at: new Date(NOW).toISOString() })
    .where('id', '=', lobby.id)
    .execute();
});
after(() => t.close());

test("window present: a question with no time of its own is answered over it, and the interpretation says it was the request's", async () => {
  const res = await q({ query: 'what was the peak number of people', window: '3h' });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.equal(body.interpretation.from, '2026-11-23T07:00:00.000Z');
  assert.deepEqual(body.interpretation.window, { duration: '3h', source: 'request' });
  assert.match(body.answer, /Peak of 9 people/);
  // a time in the question wins over the window, and no window is reported then
  const phrased = (await q({ query: 'what was the peak number of people in the last 30 minutes', window: '3h' })).json();
  assert.equal(phrased.interpretation.time_phrase !== undefined, true);
  assert.equal(phrased.interpretation.window, undefined);
  assert.match(phrased.answer, /Peak of 4 people/);
});

test("window absent: the question's own time phrase sets the span", async () => {
  const res = await q({ query: 'what was the peak number of people since 7:30' });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.equal(body.interpretation.from, '2026-11-23T07:30:00.000Z');
  assert.equal(body.interpretation.window, undefined);
  assert.match(body.answer, /Peak of 9 people/);
  // a question about now needs no window either
  const now = (await q({ query: 'how many people are in the lobby right now?' })).json();
  assert.equal(now.interpretation.window, undefined);
  assert.match(now.answer, /\b4 people\b/);
});

test('window absent and no time in the question: the default window, which the interpretation reports', async () => {
  const res = await q({ query: 'what was the peak number of people' });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.deepEqual(body.interpretation.window, { duration: '15m', source: 'default' });
  assert.equal(body.interpretation.from, '2026-11-23T09:45:00.000Z');
  assert.match(body.interpretation.summary, /default window, 15m/);
  assert.match(body.answer, /in the last 15 minutes/);
});

test('a bad window is a 400 naming `window`, never a default', async () => {
  for (const window of ['15', '15x', '-5m', '0m', '31d', 'fifteen minutes', '', 15, null]) {
    const res = await q({ query: 'what was the peak number of people', window });
    assert.equal(res.statusCode, 400, `${JSON.stringify(window)}: ${res.body}`);
    assert.equal(res.json().param, 'window', JSON.stringify(window));
    assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
  }
});
