/**
 * Boundaries (docs/design.md "Privacy") for real sources: a real household camera that is muted or left alone is stopped,
 * so its frames are not even decoded or run through the detector; looking again starts it.
 * A phone (mobile) source runs without ffmpeg, so the test needs no camera.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/harness.ts';
import { bearer, createHouseholdTestApp } from './household-harness.ts';

for (const dialect of DIALECTS) {
  test(`a real household camera is not run while muted or left alone (${dialect})`, async () => {
    const t = await createHouseholdTestApp({ dialect });
    try {
      t.ctx.sources.startLive(); // as the serving process does
      const key = await t.householdKey({ name: 'Live Home', mode: 'live' });
      const say = async (message: string) =>
        (await t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(key), payload: { message } })).json();
      const added = await say('add the camera at mobile://hallway-phone as the hallway camera in the hallway');
      assert.equal(added.actions[0]?.type, 'sensor.added', added.reply);
      const id = added.actions[0].id as string;
      assert.equal(t.ctx.sources.isLive(id), true, 'a live key’s real camera runs');

      assert.equal((await say('mute the hallway camera')).actions[0]?.type, 'sensor.muted');
      assert.equal(t.ctx.sources.isLive(id), false, 'muted: not decoded at all');
      assert.equal((await say('unmute the hallway camera')).actions[0]?.type, 'sensor.unmuted');
      assert.equal(t.ctx.sources.isLive(id), true);

      assert.equal((await say('leave the hallway alone')).actions[0]?.type, 'boundary.set');
      assert.equal(t.ctx.sources.isLive(id), false, 'left alone: not decoded at all');
      // a restart of the sources (server start) does not bring it back while the boundary holds
      const row = await t.ctx.database.db.selectFrom('streams').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      t.ctx.sources.start(row);
      assert.equal(t.ctx.sources.isLive(id), false);
      assert.equal((await say('you can watch the hallway again')).actions[0]?.type, 'boundary.cleared');
      assert.equal(t.ctx.sources.isLive(id), true);
    } finally {
      await t.close();
    }
  });
}
