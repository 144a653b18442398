import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { createHouseholdTestApp, type HouseholdTestApp } from '../household/household-harness.ts';
import { verifyExportOffline } from './offline-verifier.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';

interface Entry {
  id: string;
  action: string;
  actor: { key_id: string | null };
  resource: { type: string; id: string | null };
  data: any;
}

async function listAll(app: { inject: TestApp['app']['inject'] }, key: { key: string }): Promise<Entry[]> {
  const out: Entry[] = [];
  let after = '';
  for (;;) {
    const page = (await app.inject({ url: `/v1/audit?limit=100${after}`, headers: bearer(key) })).json();
    out.push(...page.data);
    if (!page.has_more) return out;
    after = `&starting_after=${page.data.at(-1).id}`;
  }
}

async function exportLines(app: { inject: TestApp['app']['inject'] }, key: { key: string }) {
  const res = await app.inject({ url: '/v1/audit/export', headers: bearer(key) });
  assert.equal(res.statusCode, 200);
  return {
    body: res.body,
    lines: res.body
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((l) => l.object !== 'audit_checkpoint'),
  };
}

for (const dialect of DIALECTS) {
  // the probe — "leave the nursery alone", then any key (one made later too) reads the audit trail
  describe(`household audit reads keep left-alone rooms and muted sensors out of view (${dialect})`, () => {
    let h: HouseholdTestApp;
    let owner: { key: string; id: string; tenant_id: string };
    let nurseryCam: string;
    let drivewayCam: string;
    let nurseryDetections: Set<string>;
    before(async () => {
      h = await createHouseholdTestApp({ dialect });
      owner = await h.householdKey({ name: 'Probe Home' });
      const home = (await h.app.inject({ url: '/v1/household', headers: bearer(owner) })).json();
      nurseryCam = home.sensors.find((s: { room: string }) => s.room === 'nursery').id;
      drivewayCam = home.sensors.find((s: { name: string }) => s.name === 'Driveway camera').id;
      // before the boundary: one injected detection and two hours of the simulated home
      const injected = await h.app.inject({
        method: 'POST',
        url: '/v1/sandbox/detections',
        headers: bearer(owner),
        payload: { stream_id: nurseryCam, type: 'person', confidence: 0.87 },
      });
      assert.equal(injected.statusCode, 201);
      await h.advance(2 * 3600_000);
      const said = (
        await h.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(owner), payload: { message: 'leave the nursery alone' } })
      ).json();
      assert.equal(said.actions[0].type, 'boundary.set');
      // after it: whatever still reaches the pipeline from the nursery (a source that was not stopped)
      const stream = await h.ctx.database.db.selectFrom('streams').selectAll().where('id', '=', nurseryCam).executeTakeFirstOrThrow();
      await h.ctx.pipeline.ingest(stream, [{ type: 'person', confidence: 0.8, at: h.clock.now() }]);
      await h.advance(3600_000);
      const rows = await h.ctx.database.db.selectFrom('detections').select('id').where('stream_id', '=', nurseryCam).execute();
      nurseryDetections = new Set(rows.map((r) => r.id));
    });
    after(() => h.close());

    test('the trail holds nursery detections from before and after the boundary, but no key reads them', async () => {
      const recorded = await h.ctx.database.db.selectFrom('audit_log').select(['id', 'at']).where('stream_id', '=', nurseryCam).execute();
      assert.ok(nurseryDetections.size >= 2, 'nursery detections were recorded');
      assert.ok(recorded.length >= nurseryDetections.size, 'and audited');
      const later = await h.householdKey({ name: 'Probe Home' });
      assert.equal(later.tenant_id, owner.tenant_id);
      for (const key of [owner, later]) {
        const entries = await listAll(h.app, key);
        const text = JSON.stringify(entries);
        assert.ok(!text.includes(nurseryCam), 'no entry names the nursery camera');
        for (const e of entries) assert.ok(!nurseryDetections.has(e.resource.id ?? ''), `${e.action} ${e.resource.id} is a nursery detection`);
        // what is not about the nursery is all there
        assert.ok(
          entries.some((e) => e.action === 'detection.recorded' && e.data.stream_id === drivewayCam),
          "other rooms' detections are listed",
        );
        const set = entries.find((e) => e.action === 'boundary.set');
        assert.ok(set, 'that the boundary was set stays visible');
        assert.equal(set.actor.key_id, owner.id, 'and by which key');
        assert.equal(set.data.room, 'nursery');
        // filters cannot reach them either
        for (const id of [...nurseryDetections].slice(0, 3)) {
          assert.deepEqual((await h.app.inject({ url: `/v1/audit?resource_id=${id}`, headers: bearer(key) })).json().data, []);
        }
        assert.ok(
          (await h.app.inject({ url: '/v1/audit?action=sandbox.*', headers: bearer(key) })).json().data.every((e: Entry) => e.data?.stream_id !== nurseryCam),
        );

        const { body, lines } = await exportLines(h.app, key);
        assert.deepEqual(
          body.split('\n').filter((l) => l.includes(nurseryCam)),
          [],
          'the export does not name the nursery camera',
        );
        const redacted = lines.filter((l) => l.redacted);
        assert.ok(redacted.length >= nurseryDetections.size, 'nursery entries are in the export, redacted');
        for (const l of lines) {
          if (l.action === 'detection.recorded' && nurseryDetections.has(l.resource_id)) {
            assert.equal(l.redacted, true);
            assert.equal(l.data, null);
            assert.equal(l.location, null);
            assert.equal(l.salt, null);
            assert.match(l.data_hash, /^[0-9a-f]{64}$/);
          }
        }
        assert.ok(lines.some((l) => l.action === 'boundary.set' && !l.redacted && JSON.parse(l.data).room === 'nursery'));
        assert.deepEqual(
          verifyExportOffline(body),
          { valid: true, checked: lines.length, checkpointMatches: true },
          'the redacted export still verifies offline',
        );
        assert.equal((await h.app.inject({ url: '/v1/audit/verify', headers: bearer(key) })).json().valid, true);
      }
    });

    test("a muted sensor's entries go out of view with the mute; that it was muted, and by whom, stays", async () => {
      const before = await listAll(h.app, owner);
      assert.ok(before.some((e) => e.data?.stream_id === drivewayCam));
      const said = (
        await h.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(owner), payload: { message: 'mute the driveway camera' } })
      ).json();
      assert.equal(said.actions[0].type, 'sensor.muted');
      const later = await h.householdKey({ name: 'Probe Home' });
      const entries = await listAll(h.app, later);
      const aboutDriveway = entries.filter((e) => e.data?.stream_id === drivewayCam || e.resource.id === drivewayCam);
      // what stays: the mute itself and the conversation that asked for it
      assert.deepEqual([...new Set(aboutDriveway.map((e) => e.action))].sort(), ['sensor.muted']);
      assert.ok(!entries.some((e) => e.action === 'detection.recorded' && JSON.stringify(e.data).includes(drivewayCam)));
      const muted = entries.find((e) => e.action === 'sensor.muted');
      assert.equal(muted?.actor.key_id, owner.id);
      const { body } = await exportLines(h.app, later);
      assert.equal(verifyExportOffline(body).valid, true);
    });

    test('a tampered entry out of view is reported without naming it', async () => {
      const { db } = h.ctx.database;
      const victim = await db.selectFrom('audit_log').select('id').where('stream_id', '=', nurseryCam).orderBy('seq', 'asc').executeTakeFirstOrThrow();
      if (dialect === 'postgres') await sql`DROP TRIGGER audit_log_no_update ON audit_log`.execute(db);
      else await sql`DROP TRIGGER audit_log_no_update`.execute(db);
      await sql`UPDATE audit_log SET data = ${'{"stream_id":"x","type":"cat"}'} WHERE id = ${victim.id}`.execute(db);
      const v = (await h.app.inject({ url: '/v1/audit/verify', headers: bearer(owner) })).json();
      assert.equal(v.valid, false);
      assert.equal(v.reason, 'entry_altered');
      assert.equal(v.first_broken_id, undefined);
      assert.match(v.detail, /outside what this key may read/);
      assert.doesNotMatch(v.detail, /aud_/, 'and names no entry in its words either');
    });
  });

  // a key limited to north_gate reads only north_gate entries; organization-wide ones
  // (an unrestricted key's creation, say) are for unrestricted keys
  describe(`organization audit reads are confined to the key's locations (${dialect})`, () => {
    let t: TestApp;
    let admin: { key: string; id: string; tenant_id: string };
    let gateKey: { key: string; id: string };
    const streams: Record<string, string> = {};
    before(async () => {
      // a manual clock: the sandbox generators of the two streams write only what they backfill at
      // creation, so the trail does not grow between an export and the verify it is compared with
      t = await createTestApp({ dialect, clock: new ManualClock(Date.now()) });
      admin = await t.orgKey({ name: 'Confined Org' });
      for (const location of ['north_gate', 'front_desk']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/streams',
          headers: bearer(admin),
          payload: { name: `${location} cam`, source_type: 'sandbox', source_url: `sandbox://lobby?scenario=lobby&seed=${location.length}`, location },
        });
        assert.equal(res.statusCode, 201, res.body);
        streams[location] = res.json().id;
        for (const type of ['person', 'vehicle']) {
          const d = await t.app.inject({
            method: 'POST',
            url: '/v1/sandbox/detections',
            headers: bearer(admin),
            payload: { stream_id: streams[location], type, ...(type === 'vehicle' ? { count: 1 } : {}) },
          });
          assert.equal(d.statusCode, 201, d.body);
        }
      }
      gateKey = await t.orgKey({ name: 'Confined Org', locations: ['north_gate'] });
      await t.ctx.pipeline.drain();
    });
    after(() => t.close());
    const frontDeskEntries = async () =>
      Number(
        (
          await t.ctx.database.db
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('location', '=', 'front_desk')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const organizationWideEntries = async () =>
      Number(
        (
          await t.ctx.database.db
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('location', 'is', null)
            .executeTakeFirstOrThrow()
        ).n,
      );

    test('GET /v1/audit lists north_gate entries only: nothing of front_desk, nothing organization-wide', async () => {
      const mine = await listAll(t.app, gateKey);
      const all = await listAll(t.app, admin);
      assert.ok(!JSON.stringify(mine).includes(streams.front_desk));
      assert.ok(!JSON.stringify(mine).includes('front_desk'));
      assert.ok(mine.some((e) => e.action === 'detection.recorded' && e.data.stream_id === streams.north_gate));
      assert.ok(mine.some((e) => e.action === 'stream.created' && e.resource.id === streams.north_gate));
      assert.ok(
        mine.some((e) => e.action === 'api_key.created' && e.resource.id === gateKey.id),
        'the creation of a key limited to north_gate is a north_gate entry',
      );
      assert.ok(!mine.some((e) => e.resource.id === admin.id), 'an unrestricted key is organization-wide: not for a confined key');
      assert.ok(
        all.some((e) => e.data?.stream_id === streams.front_desk),
        'an unrestricted key sees front_desk',
      );
      const front = await frontDeskEntries();
      assert.ok(front >= 1 + 2 * 2, 'stream.created + 2 × (detection.recorded + sandbox.detection_injected) at least');
      assert.equal(all.length - mine.length, front + (await organizationWideEntries()), 'exactly the front_desk and organization-wide entries are left out');
      const filtered = (await t.app.inject({ url: `/v1/audit?resource_id=${streams.front_desk}`, headers: bearer(gateKey) })).json();
      assert.deepEqual(filtered.data, []);
    });

    test('the export redacts front_desk entries and still verifies offline; verify works for the confined key', async () => {
      const { body, lines } = await exportLines(t.app, gateKey);
      assert.ok(!body.includes('front_desk'));
      const hidden = lines.filter((l) => l.redacted);
      assert.equal(hidden.length, (await frontDeskEntries()) + (await organizationWideEntries()));
      assert.ok(lines.filter((l) => !l.redacted).some((l) => l.stream_id === streams.north_gate && l.location === 'north_gate'));
      assert.deepEqual(verifyExportOffline(body), { valid: true, checked: lines.length, checkpointMatches: true });
      const v = (await t.app.inject({ url: '/v1/audit/verify', headers: bearer(gateKey) })).json();
      assert.equal(v.valid, true);
      assert.equal(v.entries_checked, lines.length, 'verified over the whole chain');
    });

    test('a broken entry is named to a key that may read it, not to one that may not', async () => {
      const { db } = t.ctx.database;
      const front = await db.selectFrom('audit_log').select('id').where('location', '=', 'front_desk').orderBy('seq', 'asc').executeTakeFirstOrThrow();
      if (dialect === 'postgres') await sql`DROP TRIGGER audit_log_no_update ON audit_log`.execute(db);
      else await sql`DROP TRIGGER audit_log_no_update`.execute(db);
      await sql`UPDATE audit_log SET request_id = ${'req_forged'} WHERE id = ${front.id}`.execute(db);
      const confined = (await t.app.inject({ url: '/v1/audit/verify', headers: bearer(gateKey) })).json();
      assert.equal(confined.valid, false);
      assert.equal(confined.first_broken_id, undefined);
      const full = (await t.app.inject({ url: '/v1/audit/verify', headers: bearer(admin) })).json();
      assert.equal(full.first_broken_id, front.id);
      const { body } = await exportLines(t.app, gateKey);
      assert.equal(verifyExportOffline(body).valid, false, 'the offline check of the confined export sees it too');
    });
  });
}
