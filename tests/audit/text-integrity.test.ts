import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { auditRepository } from '../../src/platform/audit/audit.repository.ts';
import { computeDataHash, newSalt, type AuditFields } from '../../src/platform/audit/audit-chain.ts';
import { newId } from '../../src/platform/lib/index.ts';
import { verifyAuditLines } from '../../src/platform/audit/audit-trail.service.ts';

/** What someone with database access does: lift the append-only triggers. */
async function dropTriggers(t: TestApp, dialect: string) {
  const { db } = t.ctx.database;
  for (const name of ['audit_log_no_update', 'audit_log_no_delete']) {
    if (dialect === 'postgres') await sql`DROP TRIGGER IF EXISTS ${sql.raw(name)} ON audit_log`.execute(db);
    else await sql`DROP TRIGGER IF EXISTS ${sql.raw(name)}`.execute(db);
  }
}

for (const dialect of DIALECTS) {
  describe(`text integrity: unpaired surrogates never reach storage or the chain (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ dialect, config: { webhookAllowPrivate: true } });
    });
    after(() => t.close());

    const post = (url: string, key: { key: string }, raw: string) =>
      t.app.inject({ method: 'POST', url, headers: { ...bearer(key), 'content-type': 'application/json' }, payload: raw });

    test('a lone surrogate in any JSON string or field name is 400 problem+json naming the field; the chain stays valid', async () => {
      const key = await t.orgKey();
      const home = await t.householdKey();
      const cases: Array<[string, { key: string }, string, string]> = [
        ['/v1/console/sessions', key, '{"operator":"\\ud800x"}', 'operator'],
        ['/v1/console/sessions', key, '{"operator":"x\\udfff"}', 'operator'],
        ['/v1/webhooks', key, '{"url":"http://127.0.0.1:9/a","description":"front \\udc00 desk"}', 'description'],
        ['/v1/webhooks', key, '{"url":"http://127.0.0.1:9/a","metadata":{"note":"\\ud83d"}}', 'metadata.note'],
        ['/v1/conversations', home, '{"message":"watch the \\ud800 door"}', 'message'],
      ];
      for (const [url, k, raw, param] of cases) {
        const res = await post(url, k, raw);
        assert.equal(res.statusCode, 400, `${url} ${raw}: ${res.body}`);
        assert.match(String(res.headers['content-type']), /application\/problem\+json/);
        assert.equal(res.json().code, 'validation_failed');
        assert.equal(res.json().param, param, raw);
        assert.match(res.json().detail, /surrogate/);
      }
      // a field name holding one is refused too (before it is called unknown)
      const badName = await post('/v1/console/sessions', key, '{"\\ud800":"x"}');
      assert.equal(badName.statusCode, 400);
      assert.match(badName.json().detail, /surrogate/);
      // a well-formed pair (an emoji) is fine, and reads back as sent
      const ok = await post('/v1/console/sessions', key, '{"operator":"Dana \\ud83d\\ude00"}');
      assert.equal(ok.statusCode, 201, ok.body);
      assert.equal(ok.json().operator, 'Dana \u{1F600}');
      for (const k of [key, home]) {
        const v = (await t.app.inject({ url: '/v1/audit/verify', headers: bearer(k) })).json();
        assert.equal(v.valid, true, JSON.stringify(v));
      }
    });

    test('what is hashed is what is stored, even when a caller inside the server passes a lone surrogate', async () => {
      const key = await t.orgKey();
      await t.ctx.audit.append(
        { keyId: key.id, operator: '\ud800op', requestId: null },
        {
          tenantId: key.tenant_id,
          action: 'test.text',
          resourceType: 'test',
          resourceId: 'r\udfff',
          scope: { location: 'lobby\ud800' },
        },
      );
      const row = await t.ctx.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'test.text').executeTakeFirstOrThrow();
      assert.equal(row.actor_operator, '\ufffdop');
      assert.equal(row.resource_id, 'r\ufffd');
      const v = (await t.app.inject({ url: '/v1/audit/verify', headers: bearer(key) })).json();
      assert.equal(v.valid, true, JSON.stringify(v));
    });

    test('a chain already holding a legacy entry (hashed over the surrogate, stored as U+FFFD) verifies, and verify still names a real tampering after it', async () => {
      const key = await t.orgKey();
      // what the earlier code did: hash the fields as given, let the database store U+FFFD
      const at = Date.now();
      const legacy = (operator: string, resourceId: string): AuditFields => {
        const salt = newSalt();
        return {
          id: newId('aud', at),
          tenant_id: key.tenant_id,
          at: new Date(at).toISOString(),
          actor_key_id: key.id,
          actor_operator: operator,
          action: 'console_session.created',
          resource_type: 'console_session',
          resource_id: resourceId,
          request_id: null,
          data: '{"operator":"\\ud800x"}',
          location: null,
          stream_id: null,
          salt,
          data_hash: computeDataHash(salt, resourceId, null, null, '{"operator":"\\ud800x"}'),
          format: 2,
        };
      };
      await t.ctx.database.withWriteLock((trx) =>
        auditRepository.appendChained(trx, [legacy('\ud800x', 'csn_1'), legacy('ok \ufffd', 'csn_\udc01\ufffd')], t.ctx.database.dialect),
      );
      const stored = await t.ctx.database.db
        .selectFrom('audit_log')
        .select(['id', 'actor_operator'])
        .where('tenant_id', '=', key.tenant_id)
        .orderBy('seq', 'asc')
        .execute();
      // PostgreSQL stores one U+FFFD; SQLite stores the surrogate's three bytes, read back as three
      assert.equal(stored[1].actor_operator, dialect === 'postgres' ? '\ufffdx' : '\ufffd\ufffd\ufffdx', 'the database did not store the surrogate');
      const verify = async () => (await t.app.inject({ url: '/v1/audit/verify', headers: bearer(key) })).json();
      const before = await verify();
      assert.equal(before.valid, true, JSON.stringify(before));
      assert.equal(before.entries_checked, 3);
      // the export verifies with the same recognition (verifyAuditLines checks exports as well)
      const exported = (await t.app.inject({ url: '/v1/audit/export', headers: bearer(key) })).body;
      const lines = exported
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .filter((e) => e.object !== 'audit_checkpoint');
      assert.equal(lines.length, 3);
      assert.equal(verifyAuditLines(lines), null);

      // more entries after it, then a real tampering of a later one: verify names it
      for (let i = 0; i < 3; i++) {
        const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url: `http://127.0.0.1:9/${i}` } });
        assert.equal(res.statusCode, 201);
      }
      const ids = (await t.ctx.database.db.selectFrom('audit_log').select('id').where('tenant_id', '=', key.tenant_id).orderBy('seq', 'asc').execute()).map(
        (r) => r.id,
      );
      await dropTriggers(t, dialect);
      await t.ctx.database.db.updateTable('audit_log').set({ data: '{"url":"http://evil.example/"}' }).where('id', '=', ids[4]).execute();
      const after1 = await verify();
      assert.equal(after1.valid, false);
      assert.equal(after1.reason, 'entry_altered');
      assert.equal(after1.first_broken_id, ids[4], 'the tampered entry after the legacy one is named');

      // the recognition accepts only the substitution: any other change to the legacy entry is named
      await t.ctx.database.db
        .updateTable('audit_log')
        .set({ actor_operator: dialect === 'postgres' ? '\ufffdy' : '\ufffd\ufffd\ufffdy' })
        .where('id', '=', ids[1])
        .execute();
      const after2 = await verify();
      assert.equal(after2.reason, 'entry_altered');
      assert.equal(after2.first_broken_id, ids[1]);
    });
  });
}
