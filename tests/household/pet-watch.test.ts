import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/harness.ts';
import { bearer, createHouseholdTestApp, type HouseholdTestApp } from './household-harness.ts';

const HOUR = 3600_000;

// The new detection type `animal` in the household: "tell me if the dog gets into …" is a watch on
// animals, which reports a cat or dog once per tracked animal and nothing for people.
for (const dialect of DIALECTS) {
  describe(`a watch on the pet (${dialect})`, () => {
    let t: HouseholdTestApp;
    let key: { key: string; id: string; tenant_id: string };
    let livingRoomId: string;
    let watchId: string;
    before(async () => {
      t = await createHouseholdTestApp({ dialect, start: '2026-11-21T16:30:00.000Z' });
      key = await t.householdKey();
    });
    after(() => t.close());

    const get = (url: string) => t.app.inject({ url, headers: bearer(key) });
    const say = (message: string) => t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(key), payload: { message } });
    const inject = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/v1/sandbox/detections', headers: bearer(key), payload: { stream_id: livingRoomId, ...payload } });

    test('"tell me if the dog gets into the living room" creates a watch on animals there', async () => {
      const home = (await get('/v1/household')).json();
      livingRoomId = home.sensors.find((s: { name: string }) => s.name === 'Living room camera').id;
      const res = await say('tell me if the dog gets into the living room');
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.actions.length, 1, JSON.stringify(body));
      const [a] = body.actions;
      assert.equal(a.type, 'watch.created');
      watchId = a.id;
      const watch = (await get(`/v1/watches/${a.id}`)).json();
      assert.deepEqual(watch.conditions, ['animal']);
      assert.deepEqual(watch.sensor_ids, [livingRoomId]);
      assert.equal(watch.observing, true, JSON.stringify(watch));
    });

    test('a dog in the living room is one animal_detected event per tracked dog; a person raises none', async () => {
      const person = await inject({ type: 'person', track_id: 'kid-1', dwell_s: 0 });
      assert.equal(person.statusCode, 201, person.body);
      for (const dwell of [0, 10, 20]) {
        const dog = await inject({ type: 'animal', subtype: 'dog', track_id: 'rex', dwell_s: dwell });
        assert.equal(dog.statusCode, 201, dog.body);
        assert.equal(dog.json().type, 'animal');
      }
      await t.ctx.pipeline.drain();
      const events = (await get(`/v1/events?watch_id=${watchId}&kind=observation&limit=100`)).json().data as Array<Record<string, any>>;
      const injected = events.filter((e) => e.detection.track_id === 'rex' || e.detection.type === 'person');
      assert.equal(injected.length, 1, JSON.stringify(events));
      assert.equal(injected[0].type, 'animal_detected');
      assert.equal(injected[0].summary, 'The living room camera saw a dog in the living room.');
      assert.equal(injected[0].detection.type, 'animal');
      assert.ok(
        events.every((e) => e.type === 'animal_detected'),
        'only animals: the watch has no other condition',
      );

      // asked in words, the agent lists the animal events, not the person
      const asked = (await say('has the dog been in the living room today?')).json();
      assert.match(asked.reply, /saw a dog in the living room/);
      assert.doesNotMatch(asked.reply, /person/);
      assert.deepEqual(
        asked.actions.map((a: { type: string }) => a.type),
        ['events.listed'],
      );
    });

    test('the simulated home has a dog: the backyard camera reports it within a day', async () => {
      await t.advance(24 * HOUR);
      const backyard = (await get('/v1/household')).json().sensors.find((s: { name: string }) => s.name === 'Backyard camera').id;
      const rows = await t.ctx.database.db
        .selectFrom('detections')
        .select(['type', 'subtype'])
        .where('stream_id', '=', backyard)
        .where('type', '=', 'animal')
        .execute();
      assert.ok(rows.length > 0, 'no dog in the backyard all day');
      assert.ok(rows.every((r) => r.subtype === 'dog'));
    });

    test('a watch on the pet in a room the home does not have asks which room instead of guessing', async () => {
      const before = (await get('/v1/watches')).json().data.length;
      const res = await say('tell me if the dog gets into the kitchen');
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.actions.length, 0, JSON.stringify(body));
      assert.match(body.reply, /kitchen/i);
      assert.equal((await get('/v1/watches')).json().data.length, before);
    });
  });
}
