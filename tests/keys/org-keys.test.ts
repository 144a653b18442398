import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';

type Key = { key: string; id?: string; tenant_id?: string };

for (const dialect of DIALECTS) {
  describe(`organization keys over HTTP and location-confined webhooks (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ dialect, config: { webhookAllowPrivate: true } });
    });
    after(() => t.close());

    const call = async (key: Key, method: string, url: string, payload?: object) => {
      const res = await t.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload ? { payload } : {}) });
      return { status: res.statusCode, body: res.body ? res.json() : null, type: res.headers['content-type'] };
    };

    test('keys:manage is needed; a key never mints wider capabilities or locations than its own', async () => {
      const admin = await t.orgKey({ name: 'Scope Org' });
      const plain = await t.orgKey({ name: 'Scope Org', capabilities: ['streams:read'] });
      const denied = await call(plain, 'POST', '/v1/keys', {});
      assert.equal(denied.status, 403);
      assert.deepEqual([denied.body.code, denied.body.param], ['insufficient_capability', 'keys:manage']);

      const manager = (
        await call(admin, 'POST', '/v1/keys', {
          name: 'gate manager',
          capabilities: ['keys:manage', 'streams:read', 'webhooks:manage'],
          locations: ['north_gate'],
        })
      ).body;
      assert.deepEqual([manager.capabilities, manager.locations, manager.role], [['keys:manage', 'streams:read', 'webhooks:manage'], ['north_gate'], null]);

      const moreCaps = await call(manager, 'POST', '/v1/keys', { capabilities: ['streams:read', 'streams:write'] });
      assert.equal(moreCaps.status, 403);
      assert.equal(moreCaps.type, 'application/problem+json; charset=utf-8');
      assert.deepEqual([moreCaps.body.code, moreCaps.body.param], ['key_scope_exceeded', 'capabilities']);
      assert.match(moreCaps.body.detail, /streams:write/);
      for (const locations of [null, ['front_desk'], ['north_gate', 'front_desk']]) {
        const wider = await call(manager, 'POST', '/v1/keys', { capabilities: ['streams:read'], locations });
        assert.equal(wider.status, 403, JSON.stringify(locations));
        assert.deepEqual([wider.body.code, wider.body.param], ['key_scope_exceeded', 'locations']);
      }
      const role = await call(manager, 'POST', '/v1/keys', { role: 'owner' });
      assert.deepEqual([role.status, role.body.param], [400, 'role']);
      const unknown = await call(manager, 'POST', '/v1/keys', { capabilities: ['everything'] });
      assert.deepEqual([unknown.status, unknown.body.param], [400, 'capabilities.0']);

      const narrow = await call(manager, 'POST', '/v1/keys', { capabilities: ['streams:read'] });
      assert.equal(narrow.status, 201);
      assert.deepEqual([narrow.body.capabilities, narrow.body.locations], [['streams:read'], ['north_gate']], "locations default to the creator's own");

      // the restricted manager sees only keys within its scope: not the admin key, not the plain org-wide key
      const list = (await call(manager, 'GET', '/v1/keys')).body.data.map((k: { id: string }) => k.id);
      assert.deepEqual(list, [narrow.body.id, manager.id]);
      for (const [method, url] of [
        ['GET', `/v1/keys/${admin.id}`],
        ['DELETE', `/v1/keys/${admin.id}`],
        ['POST', `/v1/keys/${admin.id}/rotate`],
        ['DELETE', `/v1/keys/${plain.id}`],
      ] as const) {
        assert.equal((await call(manager, method, url)).status, 404, `${method} ${url}`);
      }
      assert.equal((await call(admin, 'GET', '/v1/streams')).status, 200, 'the admin key was not touched');

      // rotation keeps capabilities and locations; the old key answers 401 api_key_revoked
      const rotated = await call(manager, 'POST', `/v1/keys/${narrow.body.id}/rotate`);
      assert.equal(rotated.status, 201);
      assert.deepEqual([rotated.body.capabilities, rotated.body.locations], [['streams:read'], ['north_gate']]);
      assert.equal((await call(narrow.body, 'GET', '/v1/streams')).body.code, 'api_key_revoked');
      assert.equal((await call(rotated.body, 'GET', '/v1/streams')).status, 200);

      // another organization's key is 404, and the organization's admin sees every key
      const stranger = await t.orgKey({ name: 'Stranger Org' });
      assert.equal((await call(stranger, 'GET', `/v1/keys/${manager.id}`)).status, 404);
      assert.equal((await call(stranger, 'DELETE', `/v1/keys/${manager.id}`)).status, 404);
      assert.equal((await call(admin, 'GET', '/v1/keys?limit=100')).body.data.length, 5);
    });

    test("a restricted key registers only webhooks confined to its locations, and those receive only its locations' events", async () => {
      const admin = await t.orgKey({ name: 'Hook Org' });
      const gate = await t.orgKey({ name: 'Hook Org', locations: ['north_gate'] });
      const streams: Record<string, string> = {};
      for (const location of ['north_gate', 'front_desk']) {
        const s = await call(admin, 'POST', '/v1/streams', {
          name: `${location} cam`,
          source_type: 'sandbox',
          source_url: `sandbox://${location}?scenario=lobby&seed=1`,
          location,
        });
        assert.equal(s.status, 201);
        streams[location] = s.body.id;
      }
      const wide = await call(gate, 'POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hook', locations: null });
      assert.equal(wide.status, 403);
      assert.deepEqual([wide.body.code, wide.body.param], ['location_not_allowed', 'locations']);
      assert.equal((await call(gate, 'POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hook', locations: ['front_desk'] })).status, 403);

      const gateHook = await call(gate, 'POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/gate' });
      assert.equal(gateHook.status, 201);
      assert.deepEqual(gateHook.body.locations, ['north_gate'], "confined to the key's locations by default");
      const orgHook = (await call(admin, 'POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/all', events: ['incident.created'] })).body;
      assert.equal(orgHook.locations, null);

      const incidentAt: Record<string, string> = {};
      for (const location of ['north_gate', 'front_desk']) {
        const incident = await call(admin, 'POST', '/v1/incidents', { stream_id: streams[location], title: `at ${location}` });
        assert.equal(incident.status, 201);
        incidentAt[incident.body.id] = location;
        // protocol.triggered carries the incident; protocol.state_changed only its id (the producer names the location)
        const run = await call(admin, 'POST', `/v1/incidents/${incident.body.id}/protocol`, {
          protocol_type: 'intrusion',
          notify_responders: false,
          escalation_level: 1,
        });
        assert.equal(run.status, 201);
        assert.equal((await call(admin, 'POST', `/v1/protocol-runs/${run.body.id}/pause`)).status, 200);
      }
      const deliveries = (await call(gate, 'GET', `/v1/webhooks/${gateHook.body.id}/deliveries?limit=100`)).body.data as {
        event: string;
        payload: { incident?: { id: string }; incident_id?: string };
      }[];
      assert.deepEqual(deliveries.map((d) => d.event).sort(), ['incident.created', 'protocol.state_changed', 'protocol.triggered']);
      assert.deepEqual(
        deliveries.map((d) => incidentAt[d.payload.incident?.id ?? d.payload.incident_id!]),
        ['north_gate', 'north_gate', 'north_gate'],
      );
      const all = (await call(admin, 'GET', `/v1/webhooks/${orgHook.id}/deliveries`)).body.data;
      assert.deepEqual(all.map((d: { payload: { incident: { location: string } } }) => d.payload.incident.location).sort(), ['front_desk', 'north_gate']);

      // the organization-wide endpoint and its deliveries are out of the restricted key's reach
      assert.deepEqual(
        (await call(gate, 'GET', '/v1/webhooks')).body.data.map((w: { id: string }) => w.id),
        [gateHook.body.id],
      );
      for (const url of [`/v1/webhooks/${orgHook.id}`, `/v1/webhooks/${orgHook.id}/deliveries`]) {
        assert.equal((await call(gate, 'GET', url)).status, 404, url);
      }
      assert.equal((await call(gate, 'POST', `/v1/webhooks/${orgHook.id}/deliveries/${all[0].id}/redeliver`)).status, 404);
      assert.equal((await call(gate, 'DELETE', `/v1/webhooks/${orgHook.id}`)).status, 404);
      assert.equal((await call(admin, 'GET', `/v1/webhooks/${orgHook.id}`)).status, 200);

      // organization-wide settings act on every location: a restricted key reads them but cannot change them
      assert.equal((await call(gate, 'GET', '/v1/automation')).status, 200);
      for (const [method, url, body] of [
        ['PATCH', '/v1/automation', { incident_gap_s: 60 }],
        ['POST', '/v1/automation/escalation/pause', undefined],
        ['POST', '/v1/responders', { name: 'Me', kind: 'system', escalation_level: 5, contact: { webhook_url: 'http://127.0.0.1:9/me' } }],
        ['POST', '/v1/protocols', { name: 'gate_drill', steps: ['x'] }],
      ] as const) {
        const res = await call(gate, method, url, body);
        assert.deepEqual([res.status, res.body.code, res.body.param], [403, 'location_not_allowed', 'locations'], `${method} ${url}`);
      }
      assert.equal((await call(admin, 'GET', '/v1/automation')).body.escalation.paused, false);

      const household = await t.householdKey();
      const hh = await call(household, 'POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/home', locations: ['kitchen'] });
      assert.deepEqual([hh.status, hh.body.param], [400, 'locations']);
    });
  });
}
