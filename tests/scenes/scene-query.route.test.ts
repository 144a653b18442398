import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';

for (const dialect of DIALECTS) {
  describe(`scenes and queries on sandbox data (${dialect})`, () => {
    let t: TestApp;
    let key: { key: string };
    let clock: ManualClock;
    let lobby: { id: string; scene_id: string };
    let lot: { id: string; scene_id: string };
    let vault: { id: string; scene_id: string };
    const q = (sceneId: string, body: object, k = key) =>
      t.app.inject({ method: 'POST', url: `/v1/scenes/${sceneId}/query`, headers: bearer(k), payload: body });

    before(async () => {
      // 2026-11-23 is a Monday; start at 07:00 UTC and let the sandbox run through the morning
      clock = new ManualClock('2026-11-23T07:00:00.000Z');
      t = await createTestApp({ dialect, clock, config: { runSources: true }, sandboxTickMs: 10_000, start: true });
      key = await t.orgKey();
      const mk = async (name: string, location: string, url: string) =>
        (
          await t.app.inject({ method: 'POST', url: '/v1/streams', headers: bearer(key), payload: { name, source_type: 'sandbox', source_url: url, location } })
        ).json();
      lobby = await mk('Lobby', 'north_lobby', 'sandbox://lobby?scenario=lobby&seed=7');
      lot = await mk('Lot', 'parking_lot', 'sandbox://lot?scenario=parking_lot&seed=3');
      vault = await mk('Vault', 'vault', 'sandbox://vault?scenario=after_hours_intrusion&seed=11');
      await clock.advance(3 * 3600_000); // to 10:00 UTC
      await t.ctx.pipeline.drain();
    });
    after(() => t.close());

    test('the scene fills from its sandbox stream and matches the last detections', async () => {
      const scene = (await t.app.inject({ url: `/v1/scenes/${lobby.scene_id}`, headers: bearer(key) })).json();
      assert.equal(scene.location, 'north_lobby');
      assert.deepEqual(scene.stream_ids, [lobby.id]);
      assert.ok(scene.last_detection_at > '2026-11-23T09:00:00.000Z', scene.last_detection_at);
      const rows = await t.ctx.database.db
        .selectFrom('detections')
        .selectAll()
        .where('scene_id', '=', lobby.scene_id)
        .where('type', '=', 'person_count')
        .orderBy('at', 'desc')
        .limit(1)
        .execute();
      assert.equal(scene.people_count, rows[0].value);
      assert.equal(scene.crowd_density, Math.round((scene.people_count / scene.capacity) * 1000) / 1000);
      const list = (await t.app.inject({ url: '/v1/scenes', headers: bearer(key) })).json();
      assert.equal(list.data.length, 3);
    });

    test('capacity changes crowd_density', async () => {
      const res = await t.app.inject({ method: 'PATCH', url: `/v1/scenes/${lobby.scene_id}`, headers: bearer(key), payload: { capacity: 10 } });
      assert.equal(res.statusCode, 200);
      const s = res.json();
      assert.equal(s.capacity, 10);
      assert.equal(s.crowd_density, Math.round((s.people_count / 10) * 1000) / 1000);
      const bad = await t.app.inject({ method: 'PATCH', url: `/v1/scenes/${lobby.scene_id}`, headers: bearer(key), payload: { time_zone: 'Mars/Olympus' } });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().param, 'time_zone');
    });

    test('"how many people now" answers with the spec’s fields and the current count', async () => {
      const res = await q(lobby.scene_id, { stream_id: lobby.id, query: 'How many people are in the lobby right now?', window: '15m' });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      for (const f of ['stream_id', 'query', 'answered_at', 'detections', 'crowd_density', 'anomaly_flag', 'answer', 'interpretation']) {
        assert.ok(f in body, f);
      }
      assert.equal(body.answered_at, '2026-11-23T10:00:00.000Z');
      assert.equal(body.interpretation.metric, 'people');
      const scene = (await t.app.inject({ url: `/v1/scenes/${lobby.scene_id}`, headers: bearer(key) })).json();
      assert.ok(body.answer.includes(String(scene.people_count)), `${body.answer} mentions ${scene.people_count}`);
      for (const d of body.detections) {
        assert.equal(d.location, 'north_lobby');
        assert.ok(d.confidence >= 0 && d.confidence <= 1);
      }
    });

    test('peak over a time phrase and vehicles in the lot', async () => {
      const peak = (await q(lobby.scene_id, { stream_id: lobby.id, query: 'what was the peak number of people in the last 2 hours', window: '15m' })).json();
      assert.equal(peak.interpretation.aggregate, 'peak');
      assert.equal(peak.interpretation.from, '2026-11-23T08:00:00.000Z');
      const counts = await t.ctx.database.db
        .selectFrom('detections')
        .select('value')
        .where('scene_id', '=', lobby.scene_id)
        .where('type', '=', 'person_count')
        .where('at', '>=', Date.parse('2026-11-23T08:00:00.000Z'))
        .execute();
      const max = Math.max(...counts.map((c) => c.value ?? 0));
      assert.ok(peak.answer.includes(String(max)), `${peak.answer} mentions ${max}`);
      const cars = (await q(lot.scene_id, { stream_id: lot.id, query: 'were any vehicles in the lot?', window: '1h' })).json();
      assert.equal(cars.interpretation.metric, 'vehicles');
      assert.ok(cars.detections.some((d: { type: string }) => d.type === 'vehicle'));
    });

    test('an intrusion at night raises anomaly_flag', async () => {
      const res = (await q(vault.scene_id, { stream_id: vault.id, query: 'any unrecognized people?', window: '12h' })).json();
      assert.equal(res.interpretation.metric, 'anomalies');
      const unrecognized = await t.ctx.database.db
        .selectFrom('detections')
        .select('id')
        .where('scene_id', '=', vault.scene_id)
        .where('subtype', '=', 'unrecognized')
        .where('at', '>=', Date.parse('2026-11-22T22:00:00.000Z'))
        .execute();
      assert.equal(res.anomaly_flag, unrecognized.length > 0);
    });

    test('queries and detections are in the audit trail', async () => {
      const rows = await t.ctx.database.db.selectFrom('audit_log').select(['action']).execute();
      const actions = new Set(rows.map((r) => r.action));
      assert.ok(actions.has('scene.queried'));
      assert.ok(actions.has('detection.recorded'));
      assert.ok(actions.has('stream.created'));
      const dets = await t.ctx.database.db.selectFrom('detections').select('id').execute();
      const audited = await t.ctx.database.db.selectFrom('audit_log').select('resource_id').where('action', '=', 'detection.recorded').execute();
      assert.equal(audited.length, dets.length, 'one audit entry per detection');
    });

    test('bad queries: window, empty query, not understood, wrong stream, foreign scene', async () => {
      const base = { stream_id: lobby.id, query: 'how many people now', window: '15m' };
      for (const window of ['15', '15x', '-5m', '0m', 'fifteen minutes', '']) {
        const r = await q(lobby.scene_id, { ...base, window });
        assert.equal(r.statusCode, 400, window);
        assert.equal(r.json().param, 'window');
      }
      for (const query of ['', '   ']) {
        const r = await q(lobby.scene_id, { ...base, query });
        assert.equal(r.statusCode, 400);
        assert.equal(r.json().param, 'query');
      }
      const nope = await q(lobby.scene_id, { ...base, query: 'what is the meaning of life' });
      assert.equal(nope.statusCode, 422);
      assert.equal(nope.json().code, 'query_not_understood');
      assert.ok(nope.json().examples.length >= 3);
      const wrong = await q(lobby.scene_id, { ...base, stream_id: lot.id });
      assert.equal(wrong.statusCode, 400);
      assert.equal(wrong.json().code, 'stream_not_in_scene');
      const missing = await q(lobby.scene_id, { ...base, stream_id: 'stream_nope' });
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.json().param, 'stream_id');
      const other = await t.orgKey();
      assert.equal((await q(lobby.scene_id, base, other)).statusCode, 404);
      assert.equal((await q('scene_nope', base)).statusCode, 404);
      const noCap = await t.orgKey({ capabilities: ['scenes:read'] });
      assert.equal((await q(lobby.scene_id, base, noCap)).json().code, 'insufficient_capability');
    });

    test('scene questions through the route: empty, crowded, threshold, last seen, usual, refusal', async () => {
      const scene = (await t.app.inject({ url: `/v1/scenes/${lobby.scene_id}`, headers: bearer(key) })).json();
      const ask = async (sceneId: string, streamId: string, query: string, window = '1h') => {
        const res = await q(sceneId, { stream_id: streamId, query, window });
        assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
        return res.json();
      };
      // "is the lobby empty": the yes/no follows the live count, the right way round
      const empty = await ask(lobby.scene_id, lobby.id, 'is the lobby empty');
      assert.equal(empty.interpretation.aggregate, 'presence');
      if (scene.people_count > 0) assert.match(empty.answer, new RegExp(`^No, ${scene.people_count} (person is|people are) in the north lobby now`));
      else assert.match(empty.answer, /^Yes, the north lobby is empty now/);

      const crowded = await ask(lobby.scene_id, lobby.id, 'is the lobby crowded');
      const share = scene.people_count / scene.capacity;
      assert.match(crowded.answer, share >= 0.75 ? /^Yes, / : /^No, /);
      assert.match(crowded.answer, new RegExp(`capacity of ${scene.capacity}`));

      const threshold = await ask(lobby.scene_id, lobby.id, 'were there more than 2 people at any point in the last hour?');
      assert.equal(threshold.interpretation.aggregate, 'threshold');
      const rows = await t.ctx.database.db
        .selectFrom('detections')
        .select(['value', 'at'])
        .where('scene_id', '=', lobby.scene_id)
        .where('type', '=', 'person_count')
        .where('at', '<=', Date.parse('2026-11-23T10:00:00.000Z'))
        .orderBy('at', 'desc')
        .execute();
      const hourAgo = Date.parse('2026-11-23T09:00:00.000Z');
      const inForce = [...rows.filter((r) => r.at > hourAgo), rows.find((r) => r.at <= hourAgo)].filter(Boolean);
      const max = Math.max(...inForce.map((r) => r!.value ?? 0));
      assert.match(threshold.answer, max > 2 ? /^Yes, the most at once in the last hour was / : /^No, /);
      assert.ok(threshold.answer.includes(String(max)), `${threshold.answer} mentions ${max}`);

      // last seen looks back beyond the request window, through the repository
      const last = await ask(lot.scene_id, lot.id, 'when was the last car seen?', '5m');
      assert.equal(last.interpretation.aggregate, 'last_seen');
      assert.equal(last.interpretation.from, '2026-10-24T10:00:00.000Z');
      assert.match(last.answer, /^(The last vehicle was seen in the parking lot at \d\d:\d\d|\d+ vehicles? (is|are) in the parking lot now)/);

      // more than usual: no readings on earlier days here, and it says so instead of guessing
      const usual = await ask(lobby.scene_id, lobby.id, 'are there more people than usual right now?');
      assert.equal(usual.interpretation.aggregate, 'vs_usual');
      assert.match(usual.answer, /^I cannot say what is usual: there are no readings for the north lobby at this time of day/);

      const suspicious = await ask(vault.scene_id, vault.id, 'any suspicious activity?', '12h');
      assert.equal(suspicious.interpretation.metric, 'anomalies');

      // a count with nothing named is of people at a lobby; where cars park it could be either
      // (docs/decisions.md, "Scene questions: round C")
      const ambiguous = await q(lot.scene_id, { stream_id: lot.id, query: 'how many in the lot', window: '15m' });
      assert.equal(ambiguous.statusCode, 422);
      assert.match(ambiguous.json().detail, /^People or vehicles\?/);
      assert.equal(ambiguous.json().code, 'query_not_understood');
    });

    test('deleting a stream stops its ingest', async () => {
      const before = t.ctx.sources.running;
      await t.app.inject({ method: 'DELETE', url: `/v1/streams/${lot.id}`, headers: bearer(key) });
      assert.equal(t.ctx.sources.running, before - 1);
      const count = async () => (await t.ctx.database.db.selectFrom('detections').select('id').where('stream_id', '=', lot.id).execute()).length;
      const n = await count();
      await clock.advance(600_000);
      await t.ctx.pipeline.drain();
      assert.equal(await count(), n);
    });
  });
}
