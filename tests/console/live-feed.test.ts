import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import type { CreatedKey } from '../../src/platform/keys/key.service.ts';
import { openEventFeed as openFeed } from './console-app.ts';

for (const dialect of DIALECTS) {
  describe(`organization live feed GET /v1/events/stream (${dialect})`, () => {
    let t: TestApp;
    let base: string;
    let org: CreatedKey;
    let lobby: { id: string; scene_id: string };
    before(async () => {
      t = await createTestApp({ dialect });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
      org = await t.orgKey({ name: 'Feed Org' });
      const r = await t.app.inject({
        method: 'POST',
        url: '/v1/streams',
        headers: bearer(org),
        payload: { name: 'Lobby', source_type: 'sandbox', source_url: 'sandbox://lobby?scenario=lobby&seed=7', location: 'north_lobby' },
      });
      lobby = r.json();
    });
    after(() => t.close());

    const inject = (key: CreatedKey, body: object) =>
      t.app.inject({ method: 'POST', url: '/v1/sandbox/detections', headers: bearer(key), payload: { stream_id: lobby.id, ...body } });

    test("scene counts and organization events reach the tenant's feed, filtered by capability and location, and no other tenant's", async () => {
      const other = await t.orgKey({ name: 'Other Org' });
      const elsewhere = await t.orgKey({ name: 'Feed Org', locations: ['front_desk'] });
      const noIncidents = await t.orgKey({ name: 'Feed Org', capabilities: ['scenes:read'] });
      const feeds = {
        all: await openFeed(base, org.key),
        other: await openFeed(base, other.key),
        elsewhere: await openFeed(base, elsewhere.key),
        noIncidents: await openFeed(base, noIncidents.key),
      };
      try {
        assert.equal(feeds.all.res.status, 200);
        assert.match(feeds.all.res.headers.get('content-type')!, /^text\/event-stream/);
        const ready = await feeds.all.waitFor((f) => f.event === 'ready');
        assert.ok(ready.data.kinds.includes('scene.updated') && ready.data.kinds.includes('incident.created'));
        assert.deepEqual((await feeds.noIncidents.waitFor((f) => f.event === 'ready')).data.kinds, ['scene.updated', 'detection.anomaly']);

        const started = Date.now();
        assert.equal((await inject(org, { type: 'person_count', value: 6 })).statusCode, 201);
        const upd = await feeds.all.waitFor((f) => f.event === 'scene.updated' && f.data.data.scene.people_count === 6);
        assert.ok(Date.now() - started < 2000, 'within 2 s');
        assert.equal(upd.data.data.scene.id, lobby.scene_id);
        assert.equal(upd.data.location, 'north_lobby');
        assert.equal(upd.data.data.detection.value, 6);
        const scene = (await t.app.inject({ url: `/v1/scenes/${lobby.scene_id}`, headers: bearer(org) })).json();
        assert.equal(scene.people_count, 6, 'the feed says what the API says');

        const inc = await t.app.inject({ method: 'POST', url: '/v1/incidents', headers: bearer(org), payload: { stream_id: lobby.id, title: 'Tailgating' } });
        assert.equal(inc.statusCode, 201);
        const created = await feeds.all.waitFor((f) => f.event === 'incident.created');
        assert.match(created.data.id, /^evt_/);
        assert.ok(JSON.stringify(created.data.data).includes(inc.json().id));
        await feeds.noIncidents.waitFor((f) => f.event === 'scene.updated');

        await new Promise((r) => setTimeout(r, 400));
        assert.deepEqual(
          feeds.other.frames.map((f) => f.event),
          ['ready'],
          'another organization sees nothing',
        );
        assert.deepEqual(
          feeds.elsewhere.frames.map((f) => f.event),
          ['ready'],
          'a key limited to front_desk sees nothing of north_lobby',
        );
        assert.ok(!feeds.noIncidents.frames.some((f) => f.event.startsWith('incident.')), 'incidents need incidents:read');
        for (const f of feeds.all.frames) assert.equal(typeof f.data.sequence_number, 'number');
      } finally {
        for (const f of Object.values(feeds)) await f.close();
      }
    });

    test('without Accept: text/event-stream: 406 problem+json; household keys: 403; the 11th open stream of a key: 429', async () => {
      const plain = await t.app.inject({ url: '/v1/events/stream', headers: bearer(org) });
      assert.equal(plain.statusCode, 406);
      assert.match(String(plain.headers['content-type']), /^application\/problem\+json/);
      assert.deepEqual([plain.json().code, plain.json().param], ['not_acceptable', 'Accept']);
      const home = await t.householdKey();
      const h = await fetch(`${base}/v1/events/stream`, { headers: { ...bearer(home), accept: 'text/event-stream' } });
      assert.equal(h.status, 403);
      assert.equal((await h.json()).code, 'wrong_surface');

      const k = await t.orgKey({ name: 'Feed Org' });
      const open = [];
      for (let i = 0; i < 10; i++) open.push(await openFeed(base, k.key));
      try {
        for (const f of open) assert.equal(f.res.status, 200);
        const eleventh = await fetch(`${base}/v1/events/stream`, { headers: { ...bearer(k), accept: 'text/event-stream' } });
        assert.equal(eleventh.status, 429);
        assert.equal((await eleventh.json()).code, 'concurrent_stream_limit_exceeded');
      } finally {
        for (const f of open) await f.close();
      }
      // closing frees the slots
      await new Promise((r) => setTimeout(r, 100));
      const again = await openFeed(base, k.key);
      assert.equal(again.res.status, 200);
      await again.close();
      // and a closed connection leaves no subscription behind
      for (let i = 0; i < 50 && t.ctx.liveFeed.subscribers(k.tenant_id) > 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(t.ctx.liveFeed.subscribers(k.tenant_id), 0);
    });
  });
}
