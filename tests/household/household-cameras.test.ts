/**
 * Household cameras of every kind (docs/decisions.md, "Household cameras of every kind"): "add a
 * camera in the garden at http://…/cam.mjpg" makes an HTTP stream that runs, not a WHIP stream
 * waiting for a publisher; a WebRTC camera gets its publish link in the reply; an http:// address
 * that does not say what it is is asked about. And a household reply about a camera that went
 * offline 15 minutes ago gives the last reading and its time, never "right now" (Freshness).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/harness.ts';
import { bearer, createHouseholdTestApp } from './household-harness.ts';
import { streamRepository } from '../../src/org/streams/stream.repository.ts';

for (const dialect of DIALECTS) {
  test(`household cameras: http, WebRTC with its publish link, asked when unclear; stale replies give the last reading (${dialect})`, async () => {
    const t = await createHouseholdTestApp({ dialect });
    try {
      const key = await t.householdKey({ name: 'Camera Home', mode: 'live' });
      const say = async (message: string) =>
        (await t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(key), payload: { message } })).json();
      const streamOf = (id: string) => t.ctx.database.db.selectFrom('streams').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

      const mjpeg = await say('add a camera in the garden at http://192.168.1.30/cam.mjpg');
      assert.equal(mjpeg.actions[0]?.type, 'sensor.added', mjpeg.reply);
      assert.equal((await streamOf(mjpeg.actions[0].id)).source_type, 'http', 'an MJPEG address is an http stream, which ffmpeg reads');

      const hls = await say('add a camera in the driveway at https://cams.example/drive/index.m3u8');
      assert.equal((await streamOf(hls.actions[0].id)).source_type, 'http');

      const unclear = await say('add a camera in the shed at http://192.168.1.40/');
      assert.equal(unclear.actions.length, 0, unclear.reply);
      assert.match(unclear.reply, /MJPEG or HLS.*WebRTC/, 'asked what kind it is');
      const told = await say('add the MJPEG camera in the shed at http://192.168.1.40/');
      assert.equal(told.actions[0]?.type, 'sensor.added', told.reply);
      assert.equal((await streamOf(told.actions[0].id)).source_type, 'http');

      const whip = await say('add a WebRTC camera in the hallway');
      assert.equal(whip.actions[0]?.type, 'sensor.added', whip.reply);
      assert.equal((await streamOf(whip.actions[0].id)).source_type, 'webrtc');
      assert.match(whip.reply, /http:\/\/vigil\.test\/\S*publish\S*/, 'the reply gives the publish link');
      assert.match(whip.actions[0].publish_url, /^http:\/\/vigil\.test\//);

      // freshness: the garden camera saw 6 people, then went offline; 15 minutes pass
      const cam = await streamOf(mjpeg.actions[0].id);
      await streamRepository.update(t.ctx.database.db, cam.id, { status: 'live' });
      await t.ctx.pipeline.ingest({ id: cam.id, tenant_id: cam.tenant_id, scene_id: cam.scene_id, location: cam.location }, [
        { type: 'person_count', value: 6, confidence: 0.9, at: t.clock.now() },
      ]);
      const live = await say('anyone in the garden right now?');
      assert.match(live.reply, /6 people right now/, live.reply);
      assert.equal(live.actions[0].sources_live, true);
      await streamRepository.update(t.ctx.database.db, cam.id, {
        status: 'offline',
        last_frame_at: new Date(t.clock.now()).toISOString(),
        error: 'no frames for 10 s',
      });
      await t.clock.advance(15 * 60_000);
      const stale = await say('anyone in the garden right now?');
      assert.doesNotMatch(stale.reply, /right now/, stale.reply);
      assert.match(stale.reply, /last reading.*15 minutes ago.*6 people.*camera is offline/, stale.reply);
      assert.equal(stale.actions[0].stale, true);
      assert.equal(stale.actions[0].as_of, new Date(t.clock.now() - 15 * 60_000).toISOString());
    } finally {
      await t.close();
    }
  });
}
