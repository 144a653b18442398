/**
 * The pipeline's ingest gate: a detection already queued when its sensor is muted
 * or left alone is dropped too, before the scene, the rules or the database see it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/harness.ts';
import { bearer, createHouseholdTestApp } from './household-harness.ts';
import type { WithheldReason } from '../../src/org/pipeline/detection-pipeline.ts';

for (const dialect of DIALECTS) {
  test(`a detection queued before the mute is dropped with it (${dialect})`, async () => {
    const t = await createHouseholdTestApp({ dialect });
    try {
      const key = await t.householdKey();
      const home = (await t.app.inject({ url: '/v1/household', headers: bearer(key) })).json();
      const porch = home.sensors.find((s: { name: string }) => s.name === 'Front porch camera');
      const stream = await t.ctx.database.db.selectFrom('streams').selectAll().where('id', '=', porch.id).executeTakeFirstOrThrow();
      await t.ctx.pipeline.drain(); // the simulated home's first readings are in
      let reason: WithheldReason | null = null;
      t.ctx.pipeline.setGate({ withheldReason: (id) => (id === porch.id ? reason : null) });
      const ref = { id: stream.id, tenant_id: stream.tenant_id, scene_id: stream.scene_id, location: stream.location };
      const input = { type: 'person_count' as const, value: 7, confidence: 0.9, at: t.clock.now() + 1 };
      const before = t.ctx.pipeline.withheld;
      const queued = t.ctx.pipeline.ingest(ref, [input]);
      reason = 'muted'; // the mute lands while the detection waits for the next group commit
      assert.deepEqual(await queued, []);
      assert.equal(t.ctx.pipeline.withheld, before + 1);
      assert.deepEqual(await t.ctx.pipeline.ingest(ref, [input]), [], 'refused at the door once muted');
      const rows = await t.ctx.database.db.selectFrom('detections').select('id').where('stream_id', '=', porch.id).where('at', '=', input.at).execute();
      assert.equal(rows.length, 0);
      assert.notEqual(t.ctx.engine.get(stream.scene_id)?.people, 7, 'the scene never saw it');
      reason = null;
      const [stored] = await t.ctx.pipeline.ingest(ref, [input]);
      assert.equal(stored.stream_id, porch.id, 'looked at again: recorded');
    } finally {
      await t.close();
    }
  });
}
