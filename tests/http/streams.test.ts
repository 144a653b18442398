import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';

const lobby = { name: 'North lobby camera', source_type: 'sandbox', source_url: 'sandbox://lobby?scenario=lobby&seed=7', location: 'north_lobby' };

for (const dialect of DIALECTS) {
  describe(`streams (${dialect})`, () => {
    let t: TestApp;
    let key: { key: string; tenant_id: string };
    before(async () => {
      t = await createTestApp({ dialect });
      key = await t.orgKey();
    });
    after(() => t.close());

    const post = (body: unknown, k: { key: string } = key, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/v1/streams', headers: { ...bearer(k), ...headers }, payload: body as object });
    const count = async () => (await t.app.inject({ method: 'GET', url: '/v1/streams?limit=100', headers: bearer(key) })).json().data.length;

    test('creating a stream returns it with a stream_ id, its scene and status', async () => {
      const res = await post(lobby);
      assert.equal(res.statusCode, 201);
      const s = res.json();
      assert.match(s.id, /^stream_[0-9a-z]{26}$/);
      assert.match(s.scene_id, /^scene_[0-9a-z]{26}$/);
      assert.equal(s.status, 'live');
      assert.equal(s.sandbox, true);
      assert.equal(s.location, 'north_lobby');
      assert.match(s.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.ok(res.headers['x-request-id']);
      // same location → same scene
      const again = (await post({ ...lobby, name: 'Lobby cam 2' })).json();
      assert.equal(again.scene_id, s.scene_id);
    });

    test('an rtsp stream on a live key waits in connecting; a test key sandboxes it', async () => {
      const rtsp = { name: 'Gate', source_type: 'rtsp', source_url: 'rtsp://admin:hunter2@10.0.0.5:554/stream1', location: 'gate' };
      const live = (await post(rtsp)).json();
      assert.equal(live.status, 'connecting');
      assert.equal(live.sandbox, false);
      assert.equal(live.source_url, 'rtsp://admin:****@10.0.0.5:554/stream1', 'password masked');
      const testKey = await t.orgKey({ mode: 'test' });
      const sim = (await post(rtsp, testKey)).json();
      assert.equal(sim.sandbox, true);
      assert.equal(sim.status, 'live');
    });

    test('list is newest first and pages with cursors', async () => {
      const k = await t.orgKey();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await post({ ...lobby, name: `cam ${i}` }, k)).json().id);
      const p1 = (await t.app.inject({ url: '/v1/streams?limit=2', headers: bearer(k) })).json();
      assert.equal(p1.object, 'list');
      assert.deepEqual(
        p1.data.map((s: { id: string }) => s.id),
        [ids[4], ids[3]],
      );
      assert.equal(p1.has_more, true);
      const p2 = (await t.app.inject({ url: `/v1/streams?limit=2&starting_after=${ids[3]}`, headers: bearer(k) })).json();
      assert.deepEqual(
        p2.data.map((s: { id: string }) => s.id),
        [ids[2], ids[1]],
      );
      const p3 = (await t.app.inject({ url: `/v1/streams?limit=10&starting_after=${ids[1]}`, headers: bearer(k) })).json();
      assert.deepEqual(
        p3.data.map((s: { id: string }) => s.id),
        [ids[0]],
      );
      assert.equal(p3.has_more, false);
      const back = (await t.app.inject({ url: `/v1/streams?limit=2&ending_before=${ids[1]}`, headers: bearer(k) })).json();
      assert.deepEqual(
        back.data.map((s: { id: string }) => s.id),
        [ids[3], ids[2]],
      );
      const bad = await t.app.inject({ url: '/v1/streams?limit=500', headers: bearer(k) });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().param, 'limit');
    });

    test('get, patch and delete; another tenant sees 404', async () => {
      const s = (await post(lobby)).json();
      const got = await t.app.inject({ url: `/v1/streams/${s.id}`, headers: bearer(key) });
      assert.equal(got.json().name, lobby.name);
      const moved = await t.app.inject({
        method: 'PATCH',
        url: `/v1/streams/${s.id}`,
        headers: bearer(key),
        payload: { name: 'Renamed', location: 'south_lobby' },
      });
      assert.equal(moved.statusCode, 200);
      assert.equal(moved.json().name, 'Renamed');
      assert.notEqual(moved.json().scene_id, s.scene_id);
      const other = await t.orgKey();
      for (const [method, url] of [
        ['GET', `/v1/streams/${s.id}`],
        ['PATCH', `/v1/streams/${s.id}`],
        ['DELETE', `/v1/streams/${s.id}`],
      ] as const) {
        const r = await t.app.inject({ method, url, headers: bearer(other), ...(method === 'PATCH' ? { payload: { name: 'x' } } : {}) });
        assert.equal(r.statusCode, 404, `${method} foreign`);
        assert.equal(r.json().code, 'not_found');
      }
      const del = await t.app.inject({ method: 'DELETE', url: `/v1/streams/${s.id}`, headers: bearer(key) });
      assert.deepEqual(del.json(), { id: s.id, object: 'stream', deleted: true });
      assert.equal((await t.app.inject({ url: `/v1/streams/${s.id}`, headers: bearer(key) })).statusCode, 404);
    });

    test('bad input answers problem+json naming the field, and writes nothing', async () => {
      const before = await count();
      const cases: Array<[unknown, number, string, string | undefined]> = [
        [{ ...lobby, name: 5 }, 400, 'validation_failed', 'name'],
        [{ ...lobby, source_type: 'carrier_pigeon' }, 400, 'validation_failed', 'source_type'],
        [{ ...lobby, location: 'North Lobby' }, 400, 'validation_failed', 'location'],
        [{ ...lobby, colour: 'red' }, 400, 'unknown_field', 'colour'],
        [{ name: 'x', source_type: 'sandbox', location: 'a' }, 400, 'validation_failed', 'source_url'],
        [{ ...lobby, source_url: 'sandbox://lobby?scenario=volcano' }, 400, 'unsupported_source', 'source_url'],
        [{ ...lobby, source_type: 'rtsp', source_url: 'http://cam/x' }, 400, 'unsupported_source', 'source_url'],
        [{ ...lobby, source_type: 'rtsp', source_url: 'not a url' }, 400, 'validation_failed', 'source_url'],
      ];
      for (const [body, status, code, param] of cases) {
        const r = await post(body);
        assert.equal(r.statusCode, status, JSON.stringify(body));
        assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8');
        const p = r.json();
        assert.equal(p.code, code, JSON.stringify(p));
        assert.equal(p.param, param);
        assert.equal(p.status, status);
        assert.ok(p.request_id && p.title && p.detail && p.type.endsWith(`#${code}`));
      }
      const malformed = await t.app.inject({
        method: 'POST',
        url: '/v1/streams',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        payload: '{"name": "x",',
      });
      assert.equal(malformed.statusCode, 400);
      assert.equal(malformed.json().code, 'invalid_json');
      const huge = await t.app.inject({
        method: 'POST',
        url: '/v1/streams',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        payload: JSON.stringify({ ...lobby, name: 'x'.repeat(1_100_000) }),
      });
      assert.equal(huge.statusCode, 413);
      assert.equal(huge.json().code, 'payload_too_large');
      const text = await t.app.inject({ method: 'POST', url: '/v1/streams', headers: { ...bearer(key), 'content-type': 'text/plain' }, payload: 'hello' });
      assert.equal(text.statusCode, 415);
      assert.equal(text.json().code, 'unsupported_media_type');
      const notJsonObject = await post([1, 2]);
      assert.equal(notJsonObject.statusCode, 400);
      assert.equal(await count(), before, 'nothing half-written');
    });

    test('capabilities, surfaces and location restrictions', async () => {
      const readOnly = await t.orgKey({ capabilities: ['streams:read'] });
      const denied = await post(lobby, readOnly);
      assert.equal(denied.statusCode, 403);
      assert.equal(denied.json().code, 'insufficient_capability');
      assert.equal(denied.json().param, 'streams:write');
      const home = await t.householdKey();
      const wrong = await t.app.inject({ url: '/v1/streams', headers: bearer(home) });
      assert.equal(wrong.statusCode, 403);
      assert.equal(wrong.json().code, 'wrong_surface');
      const tenantName = 'Restricted Org';
      const all = await t.orgKey({ name: tenantName });
      const lobbyOnly = await t.orgKey({ name: tenantName, locations: ['north_lobby'] });
      const dock = (await post({ ...lobby, location: 'loading_dock' }, all)).json();
      const elsewhere = await post({ ...lobby, location: 'loading_dock' }, lobbyOnly);
      assert.equal(elsewhere.statusCode, 403);
      assert.equal(elsewhere.json().code, 'location_not_allowed');
      assert.equal((await t.app.inject({ url: `/v1/streams/${dock.id}`, headers: bearer(lobbyOnly) })).statusCode, 404);
      const mine = await post(lobby, lobbyOnly);
      assert.equal(mine.statusCode, 201);
      const listed = (await t.app.inject({ url: '/v1/streams', headers: bearer(lobbyOnly) })).json();
      assert.deepEqual(
        listed.data.map((s: { location: string }) => s.location),
        ['north_lobby'],
      );
    });
  });
}
