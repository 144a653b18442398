import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import type { CreatedKey } from '../../src/platform/keys/key.service.ts';

/**
 * Console sign-in: a key is exchanged for an HttpOnly, SameSite=Strict
 * session cookie (Secure over HTTPS) with exactly the key's rights; requests with the cookie that
 * change state need the console header and the server's own origin; sign-out and key revocation
 * end the session.
 */
for (const dialect of DIALECTS) {
  describe(`console sessions (${dialect})`, () => {
    let t: TestApp;
    let org: CreatedKey;
    before(async () => {
      t = await createTestApp({ dialect });
      org = await t.orgKey({ name: 'Console Org' });
    });
    after(() => t.close());

    const signIn = async (key: CreatedKey, operator?: string, headers: Record<string, string> = {}) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/console/sessions',
        headers: { ...bearer(key), ...headers },
        payload: operator ? { operator } : {},
      });
      assert.equal(res.statusCode, 201, res.body);
      const setCookie = String(res.headers['set-cookie']);
      return { res, setCookie, cookie: setCookie.split(';')[0] };
    };

    test('the cookie is HttpOnly, SameSite=Strict, 8 hours, not Secure over plain HTTP, Secure when forwarded HTTPS is trusted', async () => {
      const { res, setCookie } = await signIn(org, 'Dana Reyes');
      assert.match(setCookie, /^vigil_console=vcs_[A-Za-z0-9_-]{43}; /);
      assert.match(setCookie, /HttpOnly/);
      assert.match(setCookie, /SameSite=Strict/);
      assert.match(setCookie, /Max-Age=28800/);
      assert.match(setCookie, /Path=\//);
      assert.doesNotMatch(setCookie, /Secure/);
      assert.equal(res.headers['cache-control'], 'no-store');
      const body = res.json();
      assert.equal(body.operator, 'Dana Reyes');
      assert.equal(body.key_id, org.id);
      assert.ok(!JSON.stringify(body).includes('vcs_'), 'the token is only in the cookie');

      const https = await createTestApp({ dialect: 'sqlite', config: { publicBaseUrl: 'https://vigil.example' } });
      try {
        const k = await https.orgKey();
        const r = await https.app.inject({ method: 'POST', url: '/v1/console/sessions', headers: bearer(k), payload: {} });
        assert.match(String(r.headers['set-cookie']), /; Secure/);
      } finally {
        await https.close();
      }
    });

    test("the console spends a budget of its own: clicking through it never uses up the key's integrations, nor they the console", async () => {
      const app = await createTestApp({ dialect, config: { consoleRateLimitPerMinute: 8 } });
      try {
        const key = await app.orgKey({ name: 'Budget Org', rate: 5 });
        const res = await app.app.inject({ method: 'POST', url: '/v1/console/sessions', headers: bearer(key), payload: {} });
        assert.equal(res.statusCode, 201, res.body);
        const cookie = String(res.headers['set-cookie']).split(';')[0];
        // eight console reads: all answered, counted against the console's 8, not the key's 5
        for (let i = 0; i < 8; i++) {
          const r = await app.app.inject({ url: '/v1/streams', headers: { cookie } });
          assert.equal(r.statusCode, 200, `console read ${i + 1}: ${r.body}`);
          assert.match(String(r.headers['ratelimit-policy']), /^"per-console";q=8;w=60$/);
        }
        const ninth = await app.app.inject({ url: '/v1/streams', headers: { cookie } });
        assert.equal(ninth.statusCode, 429);
        assert.equal(ninth.json().code, 'rate_limit_exceeded');
        assert.match(ninth.json().detail, /console/);
        // the key's integrations still have their budget: the sign-in spent one of 5
        const api = await app.app.inject({ url: '/v1/streams', headers: bearer(key) });
        assert.equal(api.statusCode, 200, api.body);
        assert.match(String(api.headers.ratelimit), /^"per-key";r=3;/);
        for (let i = 0; i < 3; i++) assert.equal((await app.app.inject({ url: '/v1/streams', headers: bearer(key) })).statusCode, 200);
        assert.equal((await app.app.inject({ url: '/v1/streams', headers: bearer(key) })).statusCode, 429, "the key's own limit still holds for integrations");
      } finally {
        await app.close();
      }
    });

    test('the session acts as its key: same capabilities and locations; a narrower key gets 403 on what it lacks', async () => {
      const narrow = await t.orgKey({ name: 'Console Org', capabilities: ['streams:read'], locations: ['north_gate'] });
      const { cookie } = await signIn(narrow);
      const me = await t.app.inject({ url: '/v1/console/session', headers: { cookie } });
      assert.equal(me.statusCode, 200);
      assert.deepEqual([me.json().capabilities, me.json().locations], [['streams:read'], ['north_gate']]);
      assert.equal((await t.app.inject({ url: '/v1/streams', headers: { cookie } })).statusCode, 200);
      const forged = await t.app.inject({
        method: 'POST',
        url: '/v1/incidents',
        headers: { cookie, 'x-vigil-console': '1' },
        payload: { stream_id: 'stream_01jd3k8e7f9g2h4j6k8m0n2p4q' },
      });
      assert.equal(forged.statusCode, 403);
      assert.equal(forged.json().code, 'insufficient_capability');
    });

    test("CSRF: a state change with the cookie needs X-Vigil-Console: 1 and the server's own Origin; reads need neither", async () => {
      const { cookie } = await signIn(org);
      const stream = { name: 'Desk', source_type: 'sandbox', source_url: 'sandbox://desk?scenario=lobby&seed=1', location: 'front_desk' };
      const noHeader = await t.app.inject({ method: 'POST', url: '/v1/streams', headers: { cookie }, payload: stream });
      assert.equal(noHeader.statusCode, 403);
      assert.deepEqual([noHeader.json().code, noHeader.json().param], ['csrf_check_failed', 'x-vigil-console']);
      const otherOrigin = await t.app.inject({
        method: 'POST',
        url: '/v1/streams',
        headers: { cookie, 'x-vigil-console': '1', origin: 'https://evil.example', host: 'vigil.test' },
        payload: stream,
      });
      assert.equal(otherOrigin.statusCode, 403);
      assert.equal(otherOrigin.json().param, 'Origin');
      const ok = await t.app.inject({
        method: 'POST',
        url: '/v1/streams',
        headers: { cookie, 'x-vigil-console': '1', origin: 'http://vigil.test', host: 'vigil.test' },
        payload: stream,
      });
      assert.equal(ok.statusCode, 201, ok.body);
      assert.equal((await t.app.inject({ url: '/v1/streams', headers: { cookie } })).statusCode, 200);
      // nothing was written by the refused requests
      const list = (await t.app.inject({ url: '/v1/streams', headers: bearer(org) })).json();
      assert.equal(list.data.filter((s: { name: string }) => s.name === 'Desk').length, 1);
    });

    test('sign-out revokes the session (401 console_session_expired after), and is audited with the operator', async () => {
      const { cookie } = await signIn(org, 'Sam Ortiz');
      const out = await t.app.inject({ method: 'DELETE', url: '/v1/console/session', headers: { cookie, 'x-vigil-console': '1', 'x-operator': 'Sam Ortiz' } });
      assert.equal(out.statusCode, 200, out.body);
      assert.equal(out.json().revoked_sessions, 1);
      assert.match(String(out.headers['set-cookie']), /vigil_console=; Max-Age=0/);
      const after = await t.app.inject({ url: '/v1/console/session', headers: { cookie } });
      assert.equal(after.statusCode, 401);
      assert.equal(after.json().code, 'console_session_expired');
      const audit = (await t.app.inject({ url: '/v1/audit?action=console_session.revoked', headers: bearer(org) })).json();
      assert.ok(audit.data.some((e: { actor: { operator: string } }) => e.actor.operator === 'Sam Ortiz'));
    });

    test('revoking the key ends its sessions at once; a session cannot mint another session; a forged cookie is refused', async () => {
      const k = await t.orgKey({ name: 'Console Org' });
      const { cookie } = await signIn(k);
      const again = await t.app.inject({ method: 'POST', url: '/v1/console/sessions', headers: { cookie, 'x-vigil-console': '1' }, payload: {} });
      assert.equal(again.statusCode, 401);
      await t.app.inject({ method: 'DELETE', url: `/v1/keys/${k.id}`, headers: bearer(org) });
      const res = await t.app.inject({ url: '/v1/console/session', headers: { cookie } });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().code, 'api_key_revoked');
      for (const forged of ['vcs_x', `vcs_${'A'.repeat(43)}`, 'garbage']) {
        const r = await t.app.inject({ url: '/v1/streams', headers: { cookie: `vigil_console=${forged}` } });
        assert.equal(r.statusCode, 401, forged);
        assert.equal(r.json().code, 'console_session_expired');
      }
      // a Bearer key wins over a cookie: integrators are never affected by a stale cookie
      assert.equal((await t.app.inject({ url: '/v1/streams', headers: { ...bearer(org), cookie: 'vigil_console=garbage' } })).statusCode, 200);
    });

    test('a session expires after 8 hours', async () => {
      const k = await t.orgKey({ name: 'Console Org' });
      const created = await t.ctx.consoleSessions.create(await t.ctx.keys.authenticate(k.key), { keyId: k.id, operator: null }, null);
      const row = await t.ctx.database.db.selectFrom('console_sessions').selectAll().where('id', '=', created.view.id!).executeTakeFirstOrThrow();
      assert.equal(Date.parse(row.expires_at) - Date.parse(row.created_at), 8 * 3600_000);
      await t.ctx.database.db
        .updateTable('console_sessions')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', row.id)
        .execute();
      const r = await t.app.inject({ url: '/v1/console/session', headers: { cookie: `vigil_console=${created.token}` } });
      assert.equal(r.json().code, 'console_session_expired');
    });
  });
}
