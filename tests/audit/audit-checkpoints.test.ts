import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { sql } from 'kysely';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { verifyExportOffline } from './offline-verifier.ts';

const sha = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');

/** What someone with database access does: lift the append-only triggers. */
async function dropTriggers(t: TestApp, dialect: string) {
  const { db } = t.ctx.database;
  for (const name of ['audit_log_no_update', 'audit_log_no_delete']) {
    if (dialect === 'postgres') await sql`DROP TRIGGER IF EXISTS ${sql.raw(name)} ON audit_log`.execute(db);
    else await sql`DROP TRIGGER IF EXISTS ${sql.raw(name)}`.execute(db);
  }
}

/** Rewrites a row's data and recomputes data_hash and hash with the published formula, so the row is consistent with itself. */
async function rewriteAndRehash(t: TestApp, id: string, data: unknown) {
  const { db } = t.ctx.database;
  const r = await db.selectFrom('audit_log').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const text = JSON.stringify(data);
  const dataHash = sha([r.salt, r.resource_id, r.location, r.stream_id, text]);
  const hash = sha(['v2', r.prev_hash, r.id, r.tenant_id, r.at, r.actor_key_id, r.actor_operator, r.action, r.resource_type, r.request_id, dataHash]);
  await db.updateTable('audit_log').set({ data: text, data_hash: dataHash, hash }).where('id', '=', id).execute();
}

for (const dialect of DIALECTS) {
  describe(`audit checkpoints make truncation and re-hashing visible (${dialect})`, () => {
    let t: TestApp;
    const clock = new ManualClock('2026-11-22T10:00:00.000Z');
    before(async () => {
      t = await createTestApp({ dialect, clock, config: { webhookAllowPrivate: true } });
    });
    after(() => t.close());

    const get = (url: string, k: { key: string }) => t.app.inject({ url, headers: bearer(k) });
    /** a tenant with `n` more entries (webhook.created each) */
    async function tenantWith(n: number) {
      const key = await t.orgKey();
      await addEntries(key, n);
      return key;
    }
    async function addEntries(key: { key: string }, n: number) {
      for (let i = 0; i < n; i++) {
        const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url: `http://127.0.0.1:9/${i}` } });
        assert.equal(res.statusCode, 201);
      }
    }
    const entryIds = async (tenantId: string) =>
      (await t.ctx.database.db.selectFrom('audit_log').select('id').where('tenant_id', '=', tenantId).orderBy('seq', 'asc').execute()).map((r) => r.id);

    test('every export checkpoints the head; checkpoints are listed and signed with the server key', async () => {
      const key = await tenantWith(3);
      assert.deepEqual((await get('/v1/audit/checkpoints', key)).json().data, []);
      const exp = (await get('/v1/audit/export', key)).body;
      const header = JSON.parse(exp.split('\n')[0]);
      const ids = await entryIds(key.tenant_id);
      assert.equal(header.object, 'audit_checkpoint');
      assert.equal(header.head_id, ids.at(-1));
      assert.equal(header.entry_count, 4);
      const listed = (await get('/v1/audit/checkpoints', key)).json().data;
      assert.deepEqual(listed, [header]);
      // the key was generated once and kept in a 0600 file in the data directory, not in the database
      // (the old expectation, a key in server_secrets, was itself the defect: whoever writes the
      // database could re-sign; docs/audit-threat-model.md); the MAC is HMAC-SHA256 over the documented message
      const stored = { value: readFileSync(join(t.config.dataDir, 'audit-checkpoint.key'), 'utf8').trim() };
      const message = JSON.stringify(['vigil-audit-checkpoint-v1', header.tenant_id, header.head_id, header.head_hash, header.entry_count, header.created_at]);
      assert.equal(header.mac, createHmac('sha256', Buffer.from(stored.value, 'hex')).update(message).digest('hex'));
      // an unchanged head is not checkpointed twice
      await get('/v1/audit/export', key);
      assert.equal((await get('/v1/audit/checkpoints', key)).json().data.length, 1);
      const v = (await get('/v1/audit/verify', key)).json();
      assert.equal(v.valid, true);
      assert.deepEqual(v.checkpoint, header);
    });

    test('a checkpoint is made at least every minute while the trail grows', async () => {
      const key = await tenantWith(1);
      await t.ctx.auditCheckpoints.start();
      try {
        const count = async () => (await get('/v1/audit/checkpoints', key)).json().data.length;
        const waitFor = async (n: number) => {
          for (let i = 0; i < 200 && (await count()) < n; i++) await new Promise((r) => setTimeout(r, 10));
          return count();
        };
        assert.equal(await waitFor(1), 1, 'the first pass runs at start');
        await addEntries(key, 2);
        await clock.advance(60_000);
        assert.equal(await waitFor(2), 2, 'a minute later the new head is signed');
        const [latest] = (await get('/v1/audit/checkpoints', key)).json().data;
        assert.equal(latest.entry_count, 4);
        assert.equal(latest.head_id, (await entryIds(key.tenant_id)).at(-1));
        await clock.advance(60_000);
        await new Promise((r) => setTimeout(r, 100));
        assert.equal(await count(), 2, 'an unchanged head is not signed again');
      } finally {
        await t.ctx.auditCheckpoints.stop();
      }
    });

    test('deleting the last entry, or the last N, makes verify fail against the checkpoint', async () => {
      const one = await tenantWith(4);
      const many = await tenantWith(6);
      for (const k of [one, many]) await get('/v1/audit/export', k);
      await dropTriggers(t, dialect);
      const { db } = t.ctx.database;
      const oneIds = await entryIds(one.tenant_id);
      await db.deleteFrom('audit_log').where('id', '=', oneIds.at(-1)!).execute();
      const manyIds = await entryIds(many.tenant_id);
      await db.deleteFrom('audit_log').where('id', 'in', manyIds.slice(-3)).execute();

      const v1 = (await get('/v1/audit/verify', one)).json();
      assert.equal(v1.valid, false);
      assert.equal(v1.reason, 'truncated');
      assert.equal(v1.entries_checked, 4);
      assert.match(v1.detail, /signed 5 entries ending with aud_/);
      assert.match(v1.detail, /1 or more entries were removed/);
      const v3 = (await get('/v1/audit/verify', many)).json();
      assert.equal(v3.valid, false);
      assert.equal(v3.reason, 'truncated');
      assert.match(v3.detail, /3 or more entries were removed/);

      // the truncated head is never signed, so the export's checkpoint still shows the loss offline
      const exp = (await get('/v1/audit/export', one)).body;
      assert.equal(JSON.parse(exp.split('\n')[0]).head_id, oneIds.at(-1));
      assert.equal(verifyExportOffline(exp).valid, false);

      // the service goes on appending after the cut: the chain links again, the checkpoint still names the gap
      await addEntries(one, 2);
      const after = (await get('/v1/audit/verify', one)).json();
      assert.equal(after.valid, false);
      assert.equal(after.reason, 'entry_missing');
      assert.equal(after.first_broken_id, oneIds.at(-1));
    });

    test("an entry whose data and hash were both recomputed is named: by the next entry's link, or by the checkpoint when it is the head", async () => {
      await dropTriggers(t, dialect);
      const middle = await tenantWith(5);
      await get('/v1/audit/export', middle);
      const ids = await entryIds(middle.tenant_id);
      await rewriteAndRehash(t, ids[2], { after: { url: 'http://evil.example/' } });
      const v = (await get('/v1/audit/verify', middle)).json();
      assert.equal(v.valid, false);
      assert.equal(v.reason, 'link_broken');
      assert.equal(v.first_broken_id, ids[2]);
      assert.equal(v.entries_checked, 4);
      const offline = verifyExportOffline((await get('/v1/audit/export', middle)).body);
      assert.deepEqual(offline, { valid: false, checked: 4, firstBroken: ids[2] });

      const head = await tenantWith(3);
      await get('/v1/audit/export', head);
      const headIds = await entryIds(head.tenant_id);
      await rewriteAndRehash(t, headIds.at(-1)!, { after: { url: 'http://evil.example/' } });
      const vh = (await get('/v1/audit/verify', head)).json();
      assert.equal(vh.valid, false);
      assert.equal(vh.reason, 'checkpoint_mismatch');
      assert.equal(vh.first_broken_id, headIds.at(-1));
    });

    test("a checkpoint without the server's signature is refused", async () => {
      const key = await tenantWith(2);
      const ids = await entryIds(key.tenant_id);
      const head = await t.ctx.database.db.selectFrom('audit_log').select(['seq', 'hash']).where('id', '=', ids.at(-1)!).executeTakeFirstOrThrow();
      await t.ctx.database.db
        .insertInto('audit_checkpoints')
        .values({
          id: 'ackp_01jd3k8e7f9g2h4j6k8m0n2p4q',
          tenant_id: key.tenant_id,
          head_seq: Number(head.seq),
          head_id: ids.at(-1)!,
          head_hash: head.hash,
          entry_count: 3,
          created_at: '2026-11-22T10:00:00.000Z',
          mac: '0'.repeat(64),
        })
        .execute();
      const v = (await get('/v1/audit/verify', key)).json();
      assert.equal(v.valid, false);
      assert.equal(v.reason, 'checkpoint_invalid');
    });
  });

  test(`VIGIL_AUDIT_CHECKPOINT_KEY signs checkpoints when set (${dialect})`, async () => {
    const secret = 'a-checkpoint-key-kept-outside-the-database';
    const t = await createTestApp({ dialect, config: { auditCheckpointKey: secret } });
    try {
      const key = await t.orgKey();
      const header = JSON.parse((await t.app.inject({ url: '/v1/audit/export', headers: bearer(key) })).body.split('\n')[0]);
      const message = JSON.stringify(['vigil-audit-checkpoint-v1', header.tenant_id, header.head_id, header.head_hash, header.entry_count, header.created_at]);
      assert.equal(header.mac, createHmac('sha256', secret).update(message).digest('hex'));
      assert.equal(await t.ctx.database.db.selectFrom('server_secrets').selectAll().executeTakeFirst(), undefined, 'nothing stored');
    } finally {
      await t.close();
    }
  });
}
