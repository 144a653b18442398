/**
 * The conversation service puts each sensor's feed status and last frame in the agent's context
 * (src/home/conversations/household-context.ts), so "is the side gate contact working?" is answered from it: live,
 * then offline with its last report, and the question changes nothing (docs/decisions.md, "Before round R: feed status").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/harness.ts';
import { bearer, createHouseholdTestApp } from './household-harness.ts';

for (const dialect of DIALECTS) {
  test(`a question about a sensor's feed is answered from its stream's status and last frame (${dialect})`, async () => {
    const t = await createHouseholdTestApp({ dialect, config: { mqtt: { allowPrivate: true, publish: null } } });
    try {
      const key = await t.householdKey({ name: 'Feed Home', mode: 'live' });
      const say = async (message: string) =>
        (await t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(key), payload: { message } })).json();
      const added = await say('add the side gate contact sensor at mqtt://127.0.0.1:1883/zigbee2mqtt/side_gate in the side gate');
      assert.equal(added.actions[0]?.type, 'sensor.added', added.reply);
      const id = added.actions[0].id as string;
      const { db } = t.ctx.database;

      await db.updateTable('streams').set({ status: 'live', error: null }).where('id', '=', id).execute();
      const live = await say('is the side gate contact working?');
      assert.match(live.reply, /side gate contact(?: sensor)? is live/i, live.reply);
      assert.deepEqual(live.actions, [], live.reply);

      await db
        .updateTable('streams')
        .set({ status: 'offline', error: 'battery flat', last_frame_at: '2026-11-21T09:40:00.000Z' })
        .where('id', '=', id)
        .execute();
      const offline = await say('is the side gate contact working?');
      assert.match(offline.reply, /side gate contact(?: sensor)? is offline: its last report came at (?:\w+ \d+ )?\d\d:\d\d/i, offline.reply);
      assert.deepEqual(offline.actions, [], offline.reply);
    } finally {
      await t.close();
    }
  });
}
