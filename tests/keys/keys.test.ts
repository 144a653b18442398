import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/harness.ts';
import { bearer, createHouseholdTestApp, type HouseholdTestApp } from '../household/household-harness.ts';

type Key = { key: string };

for (const dialect of DIALECTS) {
  describe(`keys in account settings, household roles (${dialect})`, () => {
    let t: HouseholdTestApp;
    before(async () => {
      t = await createHouseholdTestApp({ dialect, start: '2026-11-21T17:30:00.000Z' });
    });
    after(() => t.close());

    const call = (key: Key, method: string, url: string, payload?: object, headers: Record<string, string> = {}) =>
      t.app.inject({ method: method as 'GET', url, headers: { ...bearer(key), ...headers }, ...(payload ? { payload } : {}) });
    const say = (key: Key, message: string) => call(key, 'POST', '/v1/conversations', { message });
    const audit = (tenantId: string, action: string) =>
      t.ctx.database.db.selectFrom('audit_log').selectAll().where('tenant_id', '=', tenantId).where('action', '=', action).orderBy('id').execute();

    test('a member adds boundaries and mutes but never lifts them; the agent says only an owner can; the owner lifts', async () => {
      const owner = await t.householdKey({ name: 'Role Home' });
      const created = await call(owner, 'POST', '/v1/keys', { name: 'nanny phone' });
      assert.equal(created.statusCode, 201);
      const member = created.json();
      assert.equal(member.role, 'member', 'a household key created in settings defaults to member');
      assert.equal(member.mode, 'test', 'a test key creates test keys');
      assert.match(member.key, /^vk_test_/);

      // the member sets the boundary; lifting it is refused in words, with no action
      const set = (await say(member, 'leave the nursery alone')).json();
      assert.equal(set.actions[0].type, 'boundary.set');
      const refused = await say(member, 'you can watch the nursery again');
      assert.equal(refused.statusCode, 200);
      assert.deepEqual(refused.json().actions, []);
      assert.match(refused.json().reply, /only an owner/i);
      const home = (await call(member, 'GET', '/v1/household')).json();
      assert.equal(home.rooms.find((r: { name: string }) => r.name === 'nursery').left_alone, true, 'the boundary still holds');
      assert.equal((await audit(owner.tenant_id, 'boundary.cleared')).length, 0);

      // mute yes, unmute no
      assert.equal((await say(member, 'mute the driveway camera')).json().actions[0].type, 'sensor.muted');
      const unmute = (await say(member, 'unmute the driveway camera')).json();
      assert.deepEqual(unmute.actions, []);
      assert.match(unmute.reply, /only an owner/i);

      // the owner can do both, and the audit says which key did what
      assert.equal((await say(owner, 'you can watch the nursery again')).json().actions[0].type, 'boundary.cleared');
      assert.equal((await say(owner, 'unmute the driveway camera')).json().actions[0].type, 'sensor.unmuted');
      const [setEntry] = await audit(owner.tenant_id, 'boundary.set');
      const [clearedEntry] = await audit(owner.tenant_id, 'boundary.cleared');
      assert.equal(setEntry.actor_key_id, member.id);
      assert.equal(clearedEntry.actor_key_id, owner.id);
    });

    test('a member cannot manage keys; an owner creates owner or member keys, lists, revokes and rotates them', async () => {
      const owner = await t.householdKey({ name: 'Settings Home' });
      const member = (await call(owner, 'POST', '/v1/keys', { role: 'member' })).json();
      for (const [method, url, body] of [
        ['GET', '/v1/keys'],
        ['POST', '/v1/keys', { role: 'member' }],
        ['GET', `/v1/keys/${owner.id}`],
        ['DELETE', `/v1/keys/${owner.id}`],
        ['POST', `/v1/keys/${owner.id}/rotate`],
      ] as const) {
        const res = await call(member, method, url, body as object | undefined);
        assert.equal(res.statusCode, 403, `${method} ${url}`);
        assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
        assert.equal(res.json().code, 'owner_role_required');
      }
      assert.equal((await call(owner, 'GET', '/v1/household')).statusCode, 200, 'the owner key still works');

      const second = (await call(owner, 'POST', '/v1/keys', { role: 'owner', name: 'partner' })).json();
      assert.equal(second.role, 'owner');
      const list = (await call(second, 'GET', '/v1/keys')).json();
      assert.deepEqual(
        list.data.map((k: { id: string }) => k.id),
        [second.id, member.id, owner.id],
        'newest first',
      );
      assert.ok(
        list.data.every((k: Record<string, unknown>) => k.key === undefined),
        'a secret is never listed',
      );
      assert.equal((await call(second, 'GET', '/v1/keys?limit=1&starting_after=' + member.id)).json().data[0].id, owner.id);

      const rotated = await call(second, 'POST', `/v1/keys/${member.id}/rotate`);
      assert.equal(rotated.statusCode, 201);
      const fresh = rotated.json();
      assert.notEqual(fresh.id, member.id);
      assert.equal(fresh.role, 'member', 'same role');
      assert.equal((await call(member, 'GET', '/v1/household')).json().code, 'api_key_revoked');
      assert.equal((await call(fresh, 'GET', '/v1/household')).statusCode, 200);
      assert.equal((await call(second, 'POST', `/v1/keys/${member.id}/rotate`)).json().code, 'invalid_state_transition', 'a revoked key is not rotated');

      const revoked = await call(second, 'DELETE', `/v1/keys/${fresh.id}`);
      assert.equal(revoked.statusCode, 200);
      assert.ok(revoked.json().revoked_at);
      const after = await call(fresh, 'GET', '/v1/household');
      assert.equal(after.statusCode, 401);
      assert.equal(after.json().code, 'api_key_revoked');

      // every key management action is audited with the acting key
      const created = await audit(owner.tenant_id, 'api_key.created');
      assert.deepEqual(
        created.filter((e) => e.actor_key_id).map((e) => [e.actor_key_id, e.resource_id]),
        [
          [owner.id, member.id],
          [owner.id, second.id],
        ],
      );
      const [rot] = await audit(owner.tenant_id, 'api_key.rotated');
      assert.equal(rot.actor_key_id, second.id);
      assert.equal(JSON.parse(rot.data!).replaces, member.id);
      const revokes = await audit(owner.tenant_id, 'api_key.revoked');
      assert.deepEqual(revokes.map((e) => e.resource_id).sort(), [member.id, fresh.id].sort());
      assert.ok(revokes.every((e) => e.actor_key_id === second.id));
    });

    test('bad input: organization fields on a household key, unknown role, foreign key ids, a test key minting a live key', async () => {
      const owner = await t.householdKey({ name: 'Input Home' });
      const other = await t.householdKey({ name: 'Other Home' });
      const caps = await call(owner, 'POST', '/v1/keys', { capabilities: ['streams:read'] });
      assert.equal(caps.statusCode, 400);
      assert.equal(caps.json().param, 'capabilities');
      const role = await call(owner, 'POST', '/v1/keys', { role: 'admin' });
      assert.equal(role.statusCode, 400);
      assert.equal(role.json().param, 'role');
      const blank = await call(owner, 'POST', '/v1/keys', { name: '   ' });
      assert.equal(blank.statusCode, 400);
      assert.equal(blank.json().param, 'name');
      const live = await call(owner, 'POST', '/v1/keys', { mode: 'live' });
      assert.equal(live.statusCode, 403);
      assert.deepEqual([live.json().code, live.json().param], ['key_scope_exceeded', 'mode']);
      for (const [method, url] of [
        ['GET', `/v1/keys/${other.id}`],
        ['DELETE', `/v1/keys/${other.id}`],
        ['POST', `/v1/keys/${other.id}/rotate`],
      ] as const) {
        const res = await call(owner, method, url);
        assert.equal(res.statusCode, 404, `${method} ${url}: another household's key is not found, never forbidden`);
      }
      assert.equal((await call(other, 'GET', '/v1/household')).statusCode, 200, 'and it was not revoked');
    });

    test('an Idempotency-Key is not replayed on key creation: the secret is never stored to replay it', async () => {
      const owner = await t.householdKey({ name: 'Idem Home' });
      const headers = { 'idempotency-key': 'same-request' };
      const a = (await call(owner, 'POST', '/v1/keys', { role: 'member' }, headers)).json();
      const b = (await call(owner, 'POST', '/v1/keys', { role: 'member' }, headers)).json();
      assert.notEqual(a.id, b.id);
      const stored = await t.ctx.database.db.selectFrom('idempotency_keys').select('response').execute();
      assert.ok(stored.every((r) => !String(r.response ?? '').includes(a.key)));
    });
  });
}
