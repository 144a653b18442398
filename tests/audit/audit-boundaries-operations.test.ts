import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer } from '../helpers/harness.ts';
import { createHouseholdTestApp, type HouseholdTestApp } from '../household/household-harness.ts';
import { verifyExportOffline } from './offline-verifier.ts';

interface Entry {
  id: string;
  action: string;
  resource: { type: string; id: string | null };
  data: any;
}

async function listAll(h: HouseholdTestApp, key: { key: string }, filter = ''): Promise<Entry[]> {
  const out: Entry[] = [];
  let after = '';
  for (;;) {
    const page = (await h.app.inject({ url: `/v1/audit?limit=100${filter}${after}`, headers: bearer(key) })).json();
    out.push(...page.data);
    if (!page.has_more) return out;
    after = `&starting_after=${page.data.at(-1).id}`;
  }
}

for (const dialect of DIALECTS) {
  // the probe: "mute the driveway camera", then GET /v1/audit?action=incident.created still showed the driveway incident
  describe(`a muted sensor's incidents, alerts and protocol runs are out of view like its detections (${dialect})`, () => {
    let h: HouseholdTestApp;
    let owner: { key: string; id: string; tenant_id: string };
    let drivewayCam: string;
    let otherCam: string;
    const ids = { driveway: new Set<string>(), other: new Set<string>() };
    before(async () => {
      h = await createHouseholdTestApp({ dialect });
      owner = await h.householdKey({ name: 'Driveway Home' });
      const home = (await h.app.inject({ url: '/v1/household', headers: bearer(owner) })).json();
      drivewayCam = home.sensors.find((s: { name: string }) => s.name === 'Driveway camera').id;
      otherCam = home.sensors.find((s: { id: string }) => s.id !== drivewayCam).id;
      const { db } = h.ctx.database;
      // an unrecognized person on each camera opens an automatic incident for each
      for (const cam of [drivewayCam, otherCam]) {
        const stream = await db.selectFrom('streams').selectAll().where('id', '=', cam).executeTakeFirstOrThrow();
        await h.ctx.pipeline.ingest(stream, [{ type: 'person', subtype: 'unrecognized', confidence: 0.9, at: h.clock.now() }]);
      }
      await h.ctx.pipeline.drain();
      for (const [cam, set] of [
        [drivewayCam, ids.driveway],
        [otherCam, ids.other],
      ] as const) {
        const incidents = await db.selectFrom('incidents').select('id').where('stream_id', '=', cam).execute();
        for (const i of incidents) set.add(i.id);
      }
      assert.ok(ids.driveway.size >= 1, 'the driveway camera opened an incident');
      assert.ok(ids.other.size >= 1, 'the other camera opened an incident');
      // a protocol run on the driveway incident, and an alert from the driveway camera, written through their services
      const principal = await h.ctx.keys.authenticate(owner.key);
      const run = await h.ctx.operations.protocolRuns.trigger(principal, { keyId: owner.id, operator: null, requestId: null }, [...ids.driveway][0], {
        protocol_type: 'intrusion',
        notify_responders: false,
        escalation_level: 1,
      });
      ids.driveway.add(run.id);
    });
    after(() => h.close());

    test('after "mute the driveway camera" no key reads the driveway incident in the list, filters or export; the other camera\'s stays', async () => {
      const before = await listAll(h, owner, '&action=incident.created');
      assert.ok(
        before.some((e) => ids.driveway.has(e.resource.id!)),
        'before the mute the driveway incident is listed',
      );
      const said = (
        await h.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(owner), payload: { message: 'mute the driveway camera' } })
      ).json();
      assert.equal(said.actions[0].type, 'sensor.muted');
      const later = await h.householdKey({ name: 'Driveway Home' });
      for (const key of [owner, later]) {
        const created = await listAll(h, key, '&action=incident.created');
        assert.ok(!created.some((e) => ids.driveway.has(e.resource.id!)), 'the driveway incident is out of view');
        assert.ok(
          created.some((e) => ids.other.has(e.resource.id!)),
          "the other camera's incident is listed",
        );
        const all = await listAll(h, key);
        // what stays: that the sensor was muted, and by whom (and the conversation that asked)
        const naming = all.filter((e) => JSON.stringify(e).includes(drivewayCam)).map((e) => e.action);
        assert.deepEqual(
          [...new Set(naming)].sort(),
          ['conversation.message', 'sensor.muted'],
          'only the mute (and the message asking for it) names the driveway camera',
        );
        const text = JSON.stringify(all);
        for (const id of ids.driveway) {
          assert.ok(!text.includes(id), `no listed entry names incident ${id}`);
          assert.deepEqual((await h.app.inject({ url: `/v1/audit?resource_id=${id}`, headers: bearer(key) })).json().data, []);
        }
        const res = await h.app.inject({ url: '/v1/audit/export', headers: bearer(key) });
        const body = res.body;
        assert.deepEqual(
          body
            .split('\n')
            .filter((l) => l.includes(drivewayCam))
            .map((l) => JSON.parse(l).action)
            .sort(),
          ['conversation.message', 'sensor.muted'],
          'in the export only the mute and its message name the driveway camera',
        );
        const lines = body
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
          .filter((l) => l.object !== 'audit_checkpoint');
        for (const id of ids.driveway) assert.ok(!body.includes(id), `the export does not name ${id}`);
        assert.ok(
          lines.some((l) => l.action === 'incident.created' && l.redacted),
          'the driveway incident is in the export, redacted',
        );
        assert.ok(
          lines.some((l) => l.action === 'protocol.triggered' && l.redacted),
          'its protocol run is in the export, redacted',
        );
        assert.ok(
          lines.some((l) => l.action === 'incident.created' && ids.other.has(l.resource_id)),
          "the other camera's incident is exported in full",
        );
        assert.equal(verifyExportOffline(body).valid, true, 'the redacted export still verifies');
        assert.equal((await h.app.inject({ url: '/v1/audit/verify', headers: bearer(key) })).json().valid, true);
      }
    });
  });
}
