import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';

for (const dialect of DIALECTS) {
  describe(`GET /v1/streams/{id}/detections (${dialect})`, () => {
    let t: TestApp;
    let clock: ManualClock;
    before(async () => {
      clock = new ManualClock('2026-11-22T03:00:00.000Z');
      t = await createTestApp({ dialect, clock, sandboxTickMs: 3_600_000 });
    });
    after(() => t.close());

    test('lists a stream’s detections newest first, pages by id both ways, filters by type and time, and says what is wrong with bad input', async () => {
      const key = await t.orgKey();
      const stream = (
        await t.app.inject({
          method: 'POST',
          url: '/v1/streams',
          headers: bearer(key),
          payload: { name: 'Gate', source_type: 'sandbox', source_url: 'sandbox://gate?scenario=lobby&seed=1', location: 'gate' },
        })
      ).json();
      // after the scenario's own history: everything from here on is what this test injected
      await clock.advance(60 * 60_000);
      // (the scenario's hourly tick fell due at this very moment: start just after it)
      const start = new Date(clock.now() + 1).toISOString();
      const injected: Array<{ id: string; type: string; timestamp: string }> = [];
      for (const payload of [
        { type: 'person_count', value: 1 },
        { type: 'person', track_id: 'a' },
        { type: 'person_count', value: 2 },
        { type: 'person', track_id: 'b' },
        { type: 'animal', subtype: 'cat', track_id: 'c' },
      ]) {
        await clock.advance(10_000);
        const res = await t.app.inject({ method: 'POST', url: '/v1/sandbox/detections', headers: bearer(key), payload: { stream_id: stream.id, ...payload } });
        assert.equal(res.statusCode, 201, res.body);
        injected.push(res.json());
      }
      const list = async (qs: string) => t.app.inject({ url: `/v1/streams/${stream.id}/detections?${qs}`, headers: bearer(key) });
      const ids = async (qs: string) => {
        const res = await list(qs);
        assert.equal(res.statusCode, 200, res.body);
        return res.json() as { object: string; data: Array<{ id: string; type: string; stream_id: string }>; has_more: boolean };
      };
      const newestFirst = injected.map((d) => d.id).reverse();

      const first = await ids(`from=${start}&limit=2`);
      assert.equal(first.object, 'list');
      assert.deepEqual(
        first.data.map((d) => d.id),
        newestFirst.slice(0, 2),
        'newest first',
      );
      assert.equal(first.has_more, true);
      assert.ok(first.data.every((d) => d.stream_id === stream.id));
      const second = await ids(`from=${start}&limit=2&starting_after=${first.data[1].id}`);
      assert.deepEqual(
        second.data.map((d) => d.id),
        newestFirst.slice(2, 4),
        'the next page is older',
      );
      const last = await ids(`from=${start}&limit=2&starting_after=${second.data[1].id}`);
      assert.deepEqual(
        last.data.map((d) => d.id),
        newestFirst.slice(4),
      );
      assert.equal(last.has_more, false);
      const back = await ids(`from=${start}&limit=2&ending_before=${second.data[0].id}`);
      assert.deepEqual(
        back.data.map((d) => d.id),
        newestFirst.slice(0, 2),
        'ending_before pages back to newer items, still newest first',
      );

      const counts = await ids(`type=person_count&from=${start}`);
      assert.deepEqual(
        counts.data.map((d) => d.id),
        [injected[2].id, injected[0].id],
      );
      const window = await ids(`from=${injected[1].timestamp}&to=${injected[3].timestamp}`);
      assert.deepEqual(
        window.data.map((d) => d.id),
        [injected[3].id, injected[2].id, injected[1].id],
        'from and to are inclusive',
      );
      // the scenario's own history is there too, before the injected ones
      const all = await ids('limit=100');
      assert.ok(all.data.length > injected.length, 'the sandbox scenario recorded detections of its own');
      assert.deepEqual(
        all.data.slice(0, 5).map((d) => d.id),
        newestFirst,
      );

      const problem = async (qs: string, status: number, param: string) => {
        const res = await list(qs);
        assert.equal(res.statusCode, status, `${qs}: ${res.body}`);
        assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
        assert.equal(res.json().param, param, qs);
      };
      await problem(`from=${injected[3].timestamp}&to=${injected[1].timestamp}`, 400, 'from');
      await problem('from=yesterday', 400, 'from');
      await problem('type=dragon', 400, 'type');
      await problem('limit=0', 400, 'limit');
      await problem('starting_after=det_01JXXXXXXXXXXXXXXXXXXXXXXX', 400, 'starting_after');
      await problem(`starting_after=${injected[0].id}&ending_before=${injected[1].id}`, 400, 'ending_before');
      await problem('colour=red', 400, 'colour');

      // another stream's detection is not a cursor here; another organization and another location see no stream
      const other = (
        await t.app.inject({
          method: 'POST',
          url: '/v1/streams',
          headers: bearer(key),
          payload: { name: 'Dock', source_type: 'sandbox', source_url: 'sandbox://dock?scenario=lobby&seed=2', location: 'dock' },
        })
      ).json();
      const theirs = (
        await t.app.inject({
          method: 'POST',
          url: '/v1/sandbox/detections',
          headers: bearer(key),
          payload: { stream_id: other.id, type: 'person_count', value: 4 },
        })
      ).json();
      await problem(`starting_after=${theirs.id}`, 400, 'starting_after');
      const stranger = await t.orgKey();
      assert.equal((await t.app.inject({ url: `/v1/streams/${stream.id}/detections`, headers: bearer(stranger) })).statusCode, 404);
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1/keys',
        headers: bearer(key),
        payload: { name: 'dock kiosk', capabilities: ['streams:read'], locations: ['dock'] },
      });
      assert.equal(created.statusCode, 201, created.body);
      const dockOnly = created.json();
      assert.equal((await t.app.inject({ url: `/v1/streams/${stream.id}/detections`, headers: bearer(dockOnly) })).statusCode, 404);
      assert.equal((await t.app.inject({ url: `/v1/streams/${other.id}/detections`, headers: bearer(dockOnly) })).statusCode, 200);
    });
  });
}
