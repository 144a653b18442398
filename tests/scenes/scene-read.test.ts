import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';

/**
 * GET /v1/scenes/:id reads the scene and its stream ids in one statement; what the
 * caller sees must not change: every stream of the scene, newest first, the location scoping and
 * tenancy of the key (404, no existence leaks), and a change visible on the next read.
 */
for (const dialect of DIALECTS) {
  describe(`scene read (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ dialect });
    });
    after(() => t.close());

    const createStream = async (key: { key: string }, name: string, location: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/streams',
        headers: bearer(key),
        payload: { name, source_type: 'sandbox', source_url: 'sandbox://lobby', location },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json() as { id: string; scene_id: string };
    };
    const getScene = (key: { key: string }, id: string) => t.app.inject({ url: `/v1/scenes/${id}`, headers: bearer(key) });

    test('lists every stream of the scene, newest first, and follows stream changes and PATCH at once', async () => {
      const key = await t.orgKey();
      const a = await createStream(key, 'lobby-a', 'lobby');
      const b = await createStream(key, 'lobby-b', 'lobby');
      const other = await createStream(key, 'dock', 'dock');
      assert.equal(a.scene_id, b.scene_id);
      const first = await getScene(key, a.scene_id);
      assert.equal(first.statusCode, 200);
      assert.equal(first.json().location, 'lobby');
      assert.deepEqual(first.json().stream_ids, [b.id, a.id].sort().reverse());
      assert.ok(!first.json().stream_ids.includes(other.id));

      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/streams/${a.id}`, headers: bearer(key) })).statusCode < 300, true);
      assert.deepEqual((await getScene(key, a.scene_id)).json().stream_ids, [b.id]);

      const patched = await t.app.inject({ method: 'PATCH', url: `/v1/scenes/${a.scene_id}`, headers: bearer(key), payload: { capacity: 42 } });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal((await getScene(key, a.scene_id)).json().capacity, 42);
    });

    test('a scene with no streams left answers with an empty stream list', async () => {
      const key = await t.orgKey();
      const s = await createStream(key, 'yard', 'yard');
      assert.ok((await t.app.inject({ method: 'DELETE', url: `/v1/streams/${s.id}`, headers: bearer(key) })).statusCode < 300);
      const res = await getScene(key, s.scene_id);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().stream_ids, []);
    });

    test('a key limited to other locations, or of another organization, gets 404 for the scene', async () => {
      const name = `Scoped ${dialect}`;
      const owner = await t.orgKey({ name });
      const s = await createStream(owner, 'gate', 'gate');
      const garageOnly = await t.orgKey({ name, locations: ['garage'] });
      const gateOnly = await t.orgKey({ name, locations: ['gate'] });
      const stranger = await t.orgKey();
      for (const k of [garageOnly, stranger]) {
        const res = await getScene(k, s.scene_id);
        assert.equal(res.statusCode, 404);
        assert.equal(res.json().code, 'not_found');
      }
      assert.equal((await getScene(gateOnly, s.scene_id)).statusCode, 200);
      assert.equal((await getScene(owner, 'scene_01JZZZZZZZZZZZZZZZZZZZZZZZ')).statusCode, 404);
    });
  });
}
