import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer, createTestDatabase } from '../helpers/harness.ts';
import { loadConfig } from '../../src/platform/config/config.ts';
import { createContext, type VigilContext } from '../../src/context.ts';
import { buildApp } from '../../src/app.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';

/**
 * A stream that never connects does not stay `connecting` without a word (docs/decisions.md,
 * "Streams that never connect"): a phone that sends no frame and a WHIP stream nobody publishes
 * to become `offline` after the connect deadline with an `error` saying why, for organization
 * streams as for household ones, and again after a restart.
 */
for (const dialect of DIALECTS) {
  test(`a phone or WHIP stream that never connects says why and goes offline, also after a restart (${dialect})`, async () => {
    const dbase = await createTestDatabase(dialect);
    const config = loadConfig({ ...dbase.overrides, runSources: false, seedDemo: false, publicBaseUrl: 'http://vigil.test' }, {});
    const clock = new ManualClock(Date.parse('2026-03-10T10:00:00Z'));
    const video = { connectDeadlineMs: 5_000, detectorWorkers: 1 };
    let ctx: VigilContext = await createContext(config, { clock, video });
    try {
      ctx.sources.startLive(); // as the serving process does
      let app = await buildApp(ctx);
      const key = await ctx.keys.createKey({ tenantKind: 'organization', tenantName: 'Acme', mode: 'live', capabilities: 'all', rateLimitPerMinute: 100_000 });
      const create = async (source_type: string, source_url: string) => {
        const res = await app.inject({
          method: 'POST',
          url: '/v1/streams',
          headers: bearer(key),
          payload: { name: source_type, source_type, source_url, location: 'gate' },
        });
        assert.equal(res.statusCode, 201, res.body);
        return res.json() as { id: string; status: string };
      };
      const phone = await create('mobile', 'mobile://gate-phone');
      const whip = await create('webrtc', 'webrtc://gate-phone');
      const stored = async (id: string) => ctx.database.db.selectFrom('streams').select(['status', 'error']).where('id', '=', id).executeTakeFirstOrThrow();
      const settle = async (id: string, status: string) => {
        for (let i = 0; i < 100 && (await stored(id)).status !== status; i++) await new Promise((r) => setTimeout(r, 20));
      };
      assert.equal((await app.inject({ url: `/v1/streams/${phone.id}`, headers: bearer(key) })).json().status, 'connecting');

      await clock.advance(5_000);
      for (const [s, why] of [
        [phone, /no frame within 5 s/],
        [whip, /no publisher within 5 s/],
      ] as const) {
        await settle(s.id, 'offline');
        const view = (await app.inject({ url: `/v1/streams/${s.id}`, headers: bearer(key) })).json();
        assert.equal(view.status, 'offline', JSON.stringify(view));
        assert.match(view.error, why);
        assert.match((await stored(s.id)).error ?? '', why, 'written to the row, for every node and after a restart');
      }

      // a restart: the streams start again; they do not sit in `connecting` forever
      await app.close();
      await ctx.close();
      ctx = await createContext(config, { clock, video });
      ctx.sources.startLive();
      app = await buildApp(ctx);
      await ctx.streams.startAll();
      await clock.advance(5_000);
      await settle(phone.id, 'offline');
      for (const s of [phone, whip]) {
        const view = (await app.inject({ url: `/v1/streams/${s.id}`, headers: bearer(key) })).json();
        assert.equal(view.status, 'offline', JSON.stringify(view));
        assert.ok(view.error, `${s.id} says why it is offline`);
      }
      await app.close();
    } finally {
      await ctx.close();
      await dbase.drop();
    }
  });
}
