/**
 * Questions about the past say how far back the household's readings reach ("I have
 * readings since 00:31", not "nothing in 24 hours"), never counting a muted sensor.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/harness.ts';
import { bearer, createHouseholdTestApp, type HouseholdTestApp } from '../household/household-harness.ts';

for (const dialect of DIALECTS) {
  describe(`questions about the past state their coverage (${dialect})`, () => {
    let t: HouseholdTestApp;
    before(async () => {
      t = await createHouseholdTestApp({ dialect, start: '2026-11-21T16:30:00.000Z' });
    });
    after(() => t.close());

    test('"what\'s been going on?" answers with the time of the first reading; a muted sensor is not counted', async () => {
      const key = await t.householdKey();
      const say = async (message: string) =>
        (await t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(key), payload: { message } })).json();
      const home = (await t.app.inject({ url: '/v1/household', headers: bearer(key) })).json();
      await t.advance(2 * 3600_000);
      const ids = home.sensors.map((s: { id: string }) => s.id) as string[];
      const first = await t.ctx.database.db
        .selectFrom('detections')
        .select((eb) => eb.fn.min('at').as('first'))
        .where('stream_id', 'in', ids)
        .executeTakeFirst();
      assert.ok(first?.first, 'the sandbox recorded readings');

      const body = await say("what's been going on?");
      const listed = body.actions.find((a: { type: string }) => a.type === 'events.listed');
      assert.ok(listed, JSON.stringify(body.actions));
      assert.equal(listed.readings_since, new Date(Number(first!.first)).toISOString());
      assert.match(body.reply, /I have readings since \d\d:\d\d\./);

      // a muted sensor's readings are not the agent's to report
      const backDoor = home.sensors.find((s: { name: string }) => s.name === 'Back door contact');
      assert.notEqual((await t.ctx.household.getReadingsSince(key.tenant_id, [backDoor.id])).since, null);
      await say('mute the back door contact');
      assert.equal((await t.ctx.household.getReadingsSince(key.tenant_id, [backDoor.id])).since, null);
    });
  });
}
