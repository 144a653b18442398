import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer, createTestDatabase } from '../helpers/harness.ts';
import { loadConfig } from '../../src/platform/config/config.ts';
import { createContext } from '../../src/context.ts';
import { buildApp } from '../../src/app.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';

for (const dialect of DIALECTS) {
  test(`boundaries and mutes survive a restart, and still bind a key created after it (${dialect})`, async () => {
    const dbase = await createTestDatabase(dialect);
    const config = loadConfig({ ...dbase.overrides, runSources: false, seedDemo: false }, {});
    const clock = new ManualClock('2026-11-21T12:00:00.000Z');
    const open = async () => {
      const ctx = await createContext(config, { clock });
      return { ctx, app: await buildApp(ctx) };
    };
    let { ctx, app } = await open();
    const key = await ctx.keys.createKey({ tenantKind: 'household', tenantName: 'Restart Home', mode: 'test', rateLimitPerMinute: 1000 });
    const say = (k: { key: string }, message: string) => app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(k), payload: { message } });
    assert.equal((await say(key, 'leave the nursery alone')).json().actions[0].type, 'boundary.set');
    assert.equal((await say(key, 'mute the driveway camera')).json().actions[0].type, 'sensor.muted');
    await app.close();
    await ctx.close();

    ({ ctx, app } = await open());
    const later = await ctx.keys.createKey({ tenantKind: 'household', tenantName: 'Restart Home', mode: 'test', rateLimitPerMinute: 1000 });
    for (const k of [key, later]) {
      const nursery = (await say(k, 'watch the nursery tonight')).json();
      assert.deepEqual(nursery.actions, []);
      assert.match(nursery.reply, /leave the nursery alone/i);
      const driveway = (await say(k, 'keep an eye on the driveway tonight')).json();
      assert.deepEqual(driveway.actions, []);
      assert.match(driveway.reply, /muted/);
    }
    const home = (await app.inject({ url: '/v1/household', headers: bearer(later) })).json();
    assert.equal(home.boundaries.length, 1);
    assert.equal(home.sensors.find((s: { name: string }) => s.name === 'Driveway camera').muted, true);
    await app.close();
    await ctx.close();
    await dbase.drop();
  });
}
