/**
 * The audit threat model (docs/audit-threat-model.md): the checkpoint key lives outside the
 * database, every checkpoint goes out as an audit.checkpoint webhook event that subscribers keep,
 * and each tampering of the probe is caught: entries newer than the last checkpoint deleted, the
 * last entry deleted together with its checkpoint rows, the tail re-hashed and checkpoints re-signed.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { CHECKPOINT_INTERVAL_MS } from '../../src/platform/audit/audit-checkpoint.service.ts';

const sha = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
const message = (c: { tenant_id: string; head_id: string; head_hash: string; entry_count: number; created_at: string }) =>
  JSON.stringify(['vigil-audit-checkpoint-v1', c.tenant_id, c.head_id, c.head_hash, c.entry_count, c.created_at]);

async function dropTriggers(t: TestApp, dialect: string) {
  const { db } = t.ctx.database;
  for (const name of ['audit_log_no_update', 'audit_log_no_delete', 'audit_checkpoints_no_update', 'audit_checkpoints_no_delete']) {
    const table = name.startsWith('audit_log') ? 'audit_log' : 'audit_checkpoints';
    if (dialect === 'postgres') await sql`DROP TRIGGER IF EXISTS ${sql.raw(name)} ON ${sql.raw(table)}`.execute(db);
    else await sql`DROP TRIGGER IF EXISTS ${sql.raw(name)}`.execute(db);
  }
}

/** What a subscriber does with a kept checkpoint: the export must hold its head as the entry_count-th entry, with its hash. */
function exportKeepsCheckpoint(ndjson: string, kept: { head_id: string; head_hash: string; entry_count: number }): boolean {
  const entries = ndjson
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((e) => e.object !== 'audit_checkpoint');
  const e = entries[kept.entry_count - 1];
  return !!e && e.id === kept.head_id && e.hash === kept.head_hash;
}

for (const dialect of DIALECTS) {
  describe(`audit threat model (${dialect})`, () => {
    let t: TestApp;
    const clock = new ManualClock('2026-11-22T10:00:00.000Z');
    before(async () => {
      t = await createTestApp({ dialect, clock, config: { webhookAllowPrivate: true } });
    });
    after(() => t.close());

    const get = (url: string, k: { key: string }) => t.app.inject({ url, headers: bearer(k) });
    async function addEntries(key: { key: string }, n: number) {
      for (let i = 0; i < n; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/webhooks',
          headers: bearer(key),
          payload: { url: `http://127.0.0.1:9/${i}`, events: ['audit.checkpoint'] },
        });
        assert.equal(res.statusCode, 201, res.body);
      }
    }
    const entryIds = async (tenantId: string) =>
      (await t.ctx.database.db.selectFrom('audit_log').select('id').where('tenant_id', '=', tenantId).orderBy('seq', 'asc').execute()).map((r) => r.id);
    /** the audit.checkpoint events sent to the tenant's subscribers: what they keep */
    const sentCheckpoints = async (tenantId: string) =>
      (
        await t.ctx.database.db
          .selectFrom('webhook_events')
          .select('body')
          .where('tenant_id', '=', tenantId)
          .where('kind', '=', 'audit.checkpoint')
          .orderBy('id', 'asc')
          .execute()
      ).map((r) => JSON.parse(r.body).checkpoint);

    test('the checkpoint key is a 0600 file in the data directory, not a database row', async () => {
      const key = await t.orgKey();
      const header = JSON.parse((await get('/v1/audit/export', key)).body.split('\n')[0]);
      assert.equal(await t.ctx.database.db.selectFrom('server_secrets').selectAll().executeTakeFirst(), undefined, 'no key in the database');
      const file = join(t.config.dataDir, 'audit-checkpoint.key');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      const hex = readFileSync(file, 'utf8').trim();
      assert.equal(header.mac, createHmac('sha256', Buffer.from(hex, 'hex')).update(message(header)).digest('hex'));
    });

    test('every checkpoint is sent as an audit.checkpoint webhook event to endpoints that name it (and only those)', async () => {
      const key = await t.orgKey();
      const plain = (await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url: 'http://127.0.0.1:9/plain' } })).json();
      assert.ok(!plain.events.includes('audit.checkpoint'), 'not in the default subscription');
      await addEntries(key, 1);
      const header = JSON.parse((await get('/v1/audit/export', key)).body.split('\n')[0]);
      const sent = await sentCheckpoints(key.tenant_id);
      assert.deepEqual(sent, [header]);
      const deliveries = await t.ctx.database.db
        .selectFrom('webhook_deliveries')
        .select(['endpoint_id', 'event_kind'])
        .where('tenant_id', '=', key.tenant_id)
        .where('event_kind', '=', 'audit.checkpoint')
        .execute();
      assert.equal(deliveries.length, 1);
      assert.notEqual(deliveries[0].endpoint_id, plain.id);
      // a household endpoint may name it too
      const home = await t.householdKey();
      const h = await t.app.inject({
        method: 'POST',
        url: '/v1/webhooks',
        headers: bearer(home),
        payload: { url: 'http://127.0.0.1:9/home', events: ['audit.checkpoint', 'sensor.muted'] },
      });
      assert.equal(h.statusCode, 201, h.body);
    });

    test('entries newer than the last checkpoint are signed within one interval, so deleting them afterwards is caught', async () => {
      const key = await t.orgKey();
      await addEntries(key, 2);
      await get('/v1/audit/export', key);
      await t.ctx.auditCheckpoints.start();
      try {
        await addEntries(key, 3);
        const ids = await entryIds(key.tenant_id);
        await clock.advance(CHECKPOINT_INTERVAL_MS);
        // the checkpoint start() takes at once may land while this waits: wait for one that signs the newest entry.
        // That first pass may still be running when the clock moves; it then arms the next pass for a time
        // already reached, which a manual clock fires only when told to: advance(0) fires it.
        const signsNewest = async () => (await sentCheckpoints(key.tenant_id)).some((c: { head_id: string }) => c.head_id === ids.at(-1));
        for (let i = 0; i < 200 && !(await signsNewest()); i++) {
          await new Promise((r) => setTimeout(r, 10));
          await clock.advance(0);
        }
        const latest = (await sentCheckpoints(key.tenant_id)).at(-1);
        assert.equal(latest.head_id, ids.at(-1), `within ${CHECKPOINT_INTERVAL_MS / 1000} s the newest entry is signed`);
      } finally {
        await t.ctx.auditCheckpoints.stop();
      }
      await dropTriggers(t, dialect);
      const ids = await entryIds(key.tenant_id);
      await t.ctx.database.db.deleteFrom('audit_log').where('id', 'in', ids.slice(-3)).execute();
      const v = (await get('/v1/audit/verify', key)).json();
      assert.equal(v.valid, false);
      assert.equal(v.reason, 'truncated');
    });

    test('deleting the last entry together with its checkpoint rows passes verify on the server, but any kept copy of the checkpoint catches it', async () => {
      const key = await t.orgKey();
      await addEntries(key, 3);
      await get('/v1/audit/export', key);
      const kept = (await sentCheckpoints(key.tenant_id)).at(-1);
      await dropTriggers(t, dialect);
      const { db } = t.ctx.database;
      const ids = await entryIds(key.tenant_id);
      assert.equal(kept.head_id, ids.at(-1));
      // the attacker removes the head entry and every checkpoint (and outbox row) that names it
      await db.deleteFrom('audit_log').where('id', '=', ids.at(-1)!).execute();
      await db.deleteFrom('audit_checkpoints').where('tenant_id', '=', key.tenant_id).execute();
      await db.deleteFrom('webhook_deliveries').where('tenant_id', '=', key.tenant_id).execute();
      await db.deleteFrom('webhook_events').where('tenant_id', '=', key.tenant_id).execute();
      const v = (await get('/v1/audit/verify', key)).json();
      assert.equal(v.valid, true, 'the database alone cannot tell (docs/audit-threat-model.md)');
      const exported = (await get('/v1/audit/export', key)).body;
      assert.equal(exportKeepsCheckpoint(exported, kept), false, 'the kept checkpoint shows the entry is gone');
    });

    test('re-hashing the tail and re-signing the checkpoints with anything the database holds is refused', async () => {
      const key = await t.orgKey();
      await addEntries(key, 3);
      await get('/v1/audit/export', key);
      const kept = (await sentCheckpoints(key.tenant_id)).at(-1);
      await dropTriggers(t, dialect);
      const { db } = t.ctx.database;
      const ids = await entryIds(key.tenant_id);
      // rewrite the last two entries consistently (data, data_hash, hash, and the link between them)
      let prev = (await db.selectFrom('audit_log').select('prev_hash').where('id', '=', ids.at(-2)!).executeTakeFirstOrThrow()).prev_hash;
      for (const id of ids.slice(-2)) {
        const r = await db.selectFrom('audit_log').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        const data = JSON.stringify({ after: { url: 'http://evil.example/' } });
        const dataHash = sha([r.salt, r.resource_id, r.location, r.stream_id, data]);
        const hash = sha(['v2', prev, r.id, r.tenant_id, r.at, r.actor_key_id, r.actor_operator, r.action, r.resource_type, r.request_id, dataHash]);
        await db.updateTable('audit_log').set({ data, data_hash: dataHash, prev_hash: prev, hash }).where('id', '=', id).execute();
        prev = hash;
      }
      // re-sign every checkpoint of the tenant with whatever key the database offers (none now: a guess)
      const secrets = await db.selectFrom('server_secrets').select('value').execute();
      assert.deepEqual(secrets, [], 'the database holds no checkpoint key to re-sign with');
      const guess = randomBytes(32);
      for (const cp of await db.selectFrom('audit_checkpoints').selectAll().where('tenant_id', '=', key.tenant_id).execute()) {
        const fixed = { ...cp, entry_count: Number(cp.entry_count), head_hash: cp.head_id === ids.at(-1) ? prev : cp.head_hash };
        await db
          .updateTable('audit_checkpoints')
          .set({ head_hash: fixed.head_hash, mac: createHmac('sha256', guess).update(message(fixed)).digest('hex') })
          .where('id', '=', cp.id)
          .execute();
      }
      const v = (await get('/v1/audit/verify', key)).json();
      assert.equal(v.valid, false);
      assert.equal(v.reason, 'checkpoint_invalid');
      // and the kept copy disagrees with the re-hashed head
      assert.equal(exportKeepsCheckpoint((await get('/v1/audit/export', key)).body, kept), false);
    });
  });

  test(`a checkpoint key an earlier version kept in the database moves to the file and leaves the database (${dialect})`, async () => {
    const legacy = randomBytes(32).toString('hex');
    const t = await createTestApp({ dialect });
    try {
      const file = join(t.config.dataDir, 'audit-checkpoint.key');
      assert.equal(existsSync(file), false);
      await t.ctx.database.db
        .insertInto('server_secrets')
        .values({ name: 'audit_checkpoint_key', value: legacy, created_at: '2026-01-01T00:00:00.000Z' })
        .execute();
      const key = await t.orgKey();
      const header = JSON.parse((await t.app.inject({ url: '/v1/audit/export', headers: bearer(key) })).body.split('\n')[0]);
      assert.equal(readFileSync(file, 'utf8').trim(), legacy, 'the file holds the earlier key, so earlier checkpoints still verify');
      assert.equal(header.mac, createHmac('sha256', Buffer.from(legacy, 'hex')).update(message(header)).digest('hex'));
      assert.equal(await t.ctx.database.db.selectFrom('server_secrets').selectAll().executeTakeFirst(), undefined);
    } finally {
      await t.close();
    }
  });
}
