/**
 * Sandbox staff and visitors: the after-hours scenario's staff are recognized as the
 * tenant's people with an enrolled face (a track keeps its person), strangers at night stay
 * unrecognized, and a tenant with nobody enrolled gets staff without a subtype (nobody to
 * recognize them as). Through the running sandbox source and the pipeline, on SQLite.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createTestApp } from '../helpers/harness.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { resolveSandboxPeople } from '../../src/org/sources/source-manager.ts';
import { DESCRIPTOR_MODEL, descriptorToBytes } from '../../src/ingest/faces/index.ts';

test('resolveSandboxPeople names recognized sightings by track, or drops the subtype with nobody enrolled', () => {
  const batch = [
    { type: 'person' as const, subtype: 'recognized', confidence: 0.9, at: 1, track_id: 'staff_1' },
    { type: 'person' as const, subtype: 'recognized', confidence: 0.9, at: 2, track_id: 'staff_1' },
    { type: 'person' as const, subtype: 'unrecognized', confidence: 0.9, at: 3, track_id: 'intr_1' },
    { type: 'person' as const, subtype: null, confidence: 0.9, at: 4, track_id: 'walk_1' },
  ];
  const named = resolveSandboxPeople(batch, ['person_a', 'person_b']);
  assert.ok(named[0].person_id && named[0].person_id === named[1].person_id, 'a track keeps its person');
  assert.deepEqual(
    named.slice(2).map((d) => [d.subtype, d.person_id ?? null]),
    [
      ['unrecognized', null],
      [null, null],
    ],
  );
  assert.deepEqual(
    resolveSandboxPeople(batch, []).map((d) => d.subtype),
    [null, null, 'unrecognized', null],
  );
  assert.deepEqual(
    resolveSandboxPeople(batch, null).map((d) => d.subtype),
    [null, null, 'unrecognized', null],
  );
});

test('an after-hours sandbox stream recognizes staff as the enrolled people; strangers stay unrecognized', async () => {
  // Monday 08:00 UTC: staff arrive through the morning
  const clock = new ManualClock('2026-11-23T08:00:00.000Z');
  const t = await createTestApp({ dialect: 'sqlite', clock, config: { runSources: true }, sandboxTickMs: 10_000, start: true });
  try {
    const key = await t.orgKey();
    const people: string[] = [];
    for (const name of ['Maria Santos', 'Tom Baker']) {
      const p = (await t.app.inject({ method: 'POST', url: '/v1/people', headers: bearer(key), payload: { name } })).json();
      // a stored descriptor (the engine is not needed for the sandbox): enrolled as the API would store it
      await t.ctx.database.db
        .insertInto('person_faces')
        .values({
          id: `face_${String(p.id).slice(7)}`,
          tenant_id: key.tenant_id,
          person_id: p.id,
          model: DESCRIPTOR_MODEL,
          descriptor: descriptorToBytes(new Float32Array(1024).fill(0.5)),
          crop: null,
          size: 120,
          created_at: new Date(clock.now()).toISOString(),
        })
        .execute();
      people.push(p.id);
    }
    const stream = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/streams',
        headers: bearer(key),
        payload: { name: 'Office', source_type: 'sandbox', source_url: 'sandbox://office?scenario=after_hours_intrusion&seed=11', location: 'office' },
      })
    ).json();
    await clock.advance(16 * 3600_000); // to 00:00: the day's staff and the night's first hours
    await t.ctx.pipeline.drain();
    const rows = await t.ctx.database.db
      .selectFrom('detections')
      .select(['subtype', 'person_id', 'track_id', 'at'])
      .where('stream_id', '=', stream.id)
      .where('type', '=', 'person')
      .execute();
    const recognized = rows.filter((r) => r.subtype === 'recognized');
    assert.ok(recognized.length > 0, `no recognized staff in ${rows.length} person detections`);
    assert.ok(
      recognized.every((r) => people.includes(r.person_id!)),
      'named as the enrolled people',
    );
    assert.ok(rows.filter((r) => r.subtype === 'unrecognized').every((r) => r.person_id === null));
    const byTrack = new Map<string, Set<string | null>>();
    for (const r of recognized) byTrack.set(r.track_id!, (byTrack.get(r.track_id!) ?? new Set()).add(r.person_id ?? null));
    assert.ok(
      [...byTrack.values()].every((s) => s.size === 1),
      'a track keeps its person',
    );
  } finally {
    await t.close();
  }
});
