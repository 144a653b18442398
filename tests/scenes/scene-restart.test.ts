import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, createTestDatabase } from '../helpers/harness.ts';
import { loadConfig } from '../../src/platform/config/config.ts';
import { createContext } from '../../src/context.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';

for (const dialect of DIALECTS) {
  test(`a scene with several streams adds up again after a restart (${dialect})`, async () => {
    const dbase = await createTestDatabase(dialect);
    const config = loadConfig({ ...dbase.overrides, runSources: false }, {});
    const clock = new ManualClock();
    let ctx = await createContext(config, { clock });
    const key = await ctx.keys.createKey({ tenantKind: 'organization', tenantName: 'Acme', mode: 'live' });
    const principal = await ctx.keys.authenticate(key.key);
    const actor = { keyId: key.id };
    const mk = (name: string) => ctx.streams.create(principal, actor, { name, source_type: 'rtsp', source_url: `rtsp://cam-${name}/1`, location: 'atrium' });
    const a = await mk('a');
    const b = await mk('b');
    // the two cameras watch different halves of the atrium: their counts add up (docs/decisions.md, "One location, several cameras")
    await ctx.scenes.update(principal, actor, a.scene_id, { stream_combine: 'sum' });
    const ref = (s: typeof a) => ({ id: s.id, tenant_id: key.tenant_id, scene_id: s.scene_id, location: s.location });
    await ctx.pipeline.ingest(ref(a), [{ type: 'person_count', value: 3, confidence: 0.9, at: clock.now() }]);
    await ctx.pipeline.ingest(ref(b), [
      { type: 'person_count', value: 4, confidence: 0.9, at: clock.now() },
      { type: 'vehicle', count: 1, confidence: 0.8, at: clock.now() },
    ]);
    assert.equal((await ctx.scenes.get(principal, a.scene_id)).people_count, 7);
    await ctx.close();

    ctx = await createContext(config, { clock });
    const view = await ctx.scenes.get(principal, a.scene_id);
    assert.equal(view.people_count, 7);
    assert.equal(view.vehicle_count, 1);
    // one stream reports again: the other's last reading still counts
    await ctx.pipeline.ingest(ref(a), [{ type: 'person_count', value: 1, confidence: 0.9, at: clock.now() + 1000 }]);
    assert.equal((await ctx.scenes.get(principal, a.scene_id)).people_count, 5);
    await ctx.close();
    await dbase.drop();
  });
}
