import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createTestApp } from '../helpers/harness.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';

/**
 * A sandbox follows its scene's local day (docs/decisions.md, "Sandbox"): setting a scene's time
 * zone restarts its sandbox streams there at once, not at the next server start. Two lobbies with
 * the same seed at 02:00 UTC on a Monday: the one moved to UTC+11 (13:00 there, lunchtime) fills,
 * the one left in UTC stays near empty.
 */
test('a scene moved to another time zone has its sandbox follow that local day from then on', async () => {
  const clock = new ManualClock('2026-11-23T02:00:00.000Z');
  const t = await createTestApp({ clock, config: { runSources: true }, sandboxTickMs: 10_000, start: true });
  try {
    const key = await t.orgKey();
    const mk = async (location: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/v1/streams',
          headers: bearer(key),
          payload: { name: location, source_type: 'sandbox', source_url: 'sandbox://lobby?seed=5', location },
        })
      ).json();
    const moved = await mk('east_lobby');
    const stayed = await mk('west_lobby');
    const res = await t.app.inject({ method: 'PATCH', url: `/v1/scenes/${moved.scene_id}`, headers: bearer(key), payload: { time_zone: 'Etc/GMT-11' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().time_zone, 'Etc/GMT-11');
    const from = clock.now();
    await clock.advance(20 * 60_000);
    await t.ctx.pipeline.drain();
    const sightings = async (streamId: string) =>
      (
        await t.ctx.database.db
          .selectFrom('detections')
          .select('id')
          .where('stream_id', '=', streamId)
          .where('type', '=', 'person')
          .where('at', '>=', from)
          .execute()
      ).length;
    const [east, west] = [await sightings(moved.id), await sightings(stayed.id)];
    // lunchtime on a weekday: about 200 arrivals an hour; 2 a.m.: about one
    assert.ok(east >= 20, `the lobby where it is lunchtime saw ${east} people in 20 minutes`);
    assert.ok(west <= 3, `the lobby where it is 2 a.m. saw ${west} people in 20 minutes`);
  } finally {
    await t.close();
  }
});
