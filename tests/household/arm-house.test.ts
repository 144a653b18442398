/**
 * Arming the house through the conversation route (src/home/agent/tools/arm-house.ts): "arm the
 * house" watches every door contact and camera until "disarm"; a question never arms; a member key
 * cannot arm or disarm; "arm" with words it does not follow asks; "disarm" with nothing armed says
 * so and changes nothing.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/harness.ts';
import { bearer, createHouseholdTestApp, type HouseholdTestApp } from './household-harness.ts';

interface WatchRow {
  id: string;
  subject: string;
  window: string;
  sensor_ids: string[];
  status: string;
}
interface SensorRow {
  id: string;
  name: string;
  kind: string;
}

for (const dialect of DIALECTS) {
  describe(`arming the house (${dialect})`, () => {
    let t: HouseholdTestApp;
    let owner: { key: string };
    let member: { key: string };
    before(async () => {
      t = await createHouseholdTestApp({ dialect });
      owner = await t.householdKey({ name: 'Armed Home' });
      const created = await t.app.inject({ method: 'POST', url: '/v1/keys', headers: bearer(owner), payload: { role: 'member', name: 'nanny' } });
      assert.equal(created.statusCode, 201, created.body);
      member = created.json();
    });
    after(() => t.close());

    const say = async (k: { key: string }, message: string) => {
      const r = await t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(k), payload: { message } });
      assert.ok(r.statusCode === 200 || r.statusCode === 201, r.body);
      return r.json() as { reply: string; actions: { type: string; id?: string; ids?: string[]; sensor_ids?: string[] }[] };
    };
    const activeWatches = async () => (await t.app.inject({ url: '/v1/watches?limit=100', headers: bearer(owner) })).json().data as WatchRow[];
    const eventCount = async () => (await t.app.inject({ url: '/v1/events?limit=100', headers: bearer(owner) })).json().data.length as number;

    test('disarm with nothing armed says so and changes nothing', async () => {
      const events = await eventCount();
      const r = await say(owner, 'disarm');
      assert.deepEqual(r.actions, []);
      assert.match(r.reply, /isn't armed/);
      assert.deepEqual(await activeWatches(), []);
      assert.equal(await eventCount(), events);
    });

    test('a question never arms', async () => {
      for (const message of ['is the house armed?', 'should I arm the house?']) {
        const r = await say(owner, message);
        assert.deepEqual(r.actions, [], message);
      }
      assert.match((await say(owner, 'is the house armed?')).reply, /isn't armed/);
      assert.deepEqual(await activeWatches(), []);
    });

    test('"arm" with anything it does not follow asks, and does nothing', async () => {
      for (const message of ['arm the garage at 10pm', 'arm the nursery only']) {
        const r = await say(owner, message);
        assert.deepEqual(r.actions, [], message);
        assert.match(r.reply, /only the whole house/, message);
      }
      assert.deepEqual(await activeWatches(), []);
      // not ours to arm: refused as before, not asked
      const alarm = await say(owner, 'arm the alarm system');
      assert.deepEqual(alarm.actions, []);
      assert.doesNotMatch(alarm.reply, /only the whole house/);
    });

    test('a member key cannot arm: refused with the owner-only error, nothing watched', async () => {
      const r = await say(member, 'arm the house');
      assert.deepEqual(r.actions, []);
      assert.match(r.reply, /Only an owner of the household can arm the house/);
      assert.deepEqual(await activeWatches(), []);
    });

    test('"arm the house" watches every door contact and camera until disarmed', async () => {
      const sensors = (await t.app.inject({ url: '/v1/household', headers: bearer(owner) })).json().sensors as SensorRow[];
      const expected = sensors
        .filter((s) => s.kind === 'camera' || s.kind === 'contact')
        .map((s) => s.id)
        .sort();
      assert.ok(expected.length >= 2 && sensors.some((s) => s.kind === 'motion'), 'the home has doors, cameras and a motion sensor');
      const r = await say(owner, 'arm the house');
      assert.deepEqual(
        r.actions.map((a) => a.type),
        ['house.armed'],
        r.reply,
      );
      assert.match(r.reply, /armed the house/);
      const watches = await activeWatches();
      assert.equal(watches.length, 1);
      assert.equal(watches[0].window, 'armed until disarmed');
      assert.equal(watches[0].id, r.actions[0].id);
      assert.deepEqual([...watches[0].sensor_ids].sort(), expected);
      const created = (await t.app.inject({ url: '/v1/events?kind=watch.created', headers: bearer(owner) })).json().data;
      assert.equal(created.length, 1);
      // already armed: said, nothing more created
      const again = await say(owner, 'arm everything');
      assert.deepEqual(again.actions, []);
      assert.match(again.reply, /already armed/);
      assert.equal((await activeWatches()).length, 1);
      assert.match((await say(owner, 'is the house armed?')).reply, /Yes, the house is armed/);
    });

    test('a member key cannot disarm either', async () => {
      const r = await say(member, 'disarm');
      assert.deepEqual(r.actions, []);
      assert.match(r.reply, /Only an owner of the household can disarm the house/);
      assert.equal((await activeWatches()).length, 1);
    });

    test('"I\'m home, disarm" ends the armed watch', async () => {
      const [armed] = await activeWatches();
      const r = await say(owner, "I'm home, disarm");
      assert.deepEqual(
        r.actions.map((a) => a.type),
        ['house.disarmed'],
        r.reply,
      );
      assert.deepEqual(r.actions[0].ids, [armed.id]);
      assert.deepEqual(await activeWatches(), []);
      const stood = (await t.app.inject({ url: `/v1/watches/${armed.id}`, headers: bearer(owner) })).json();
      assert.equal(stood.status, 'stood_down');
      const events = (await t.app.inject({ url: '/v1/events?kind=watch.stood_down', headers: bearer(owner) })).json().data;
      assert.equal(events.length, 1);
      // and a second disarm changes nothing
      const second = await say(owner, 'disarm');
      assert.deepEqual(second.actions, []);
      assert.match(second.reply, /isn't armed/);
    });
  });
}
