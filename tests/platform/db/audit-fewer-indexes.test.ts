import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator, sql, type Migration } from 'kysely';
import { DIALECTS, createTestDatabase } from '../../helpers/harness.ts';
import { openDatabase } from '../../../src/platform/db/database.ts';
import { MIGRATIONS } from '../../../src/platform/db/migrations/index.ts';

const tenant = 'org_01jd3k8e7f9g2h4j6k8m0n2p4q';
const at = '2026-11-20T09:00:00.000Z';

function entry(n: number) {
  const h = String(n).padStart(64, '0');
  return {
    id: `aud_0000000000000000000000000${n}`,
    tenant_id: tenant,
    at,
    action: 'stream.created',
    resource_type: 'stream',
    prev_hash: h,
    hash: h,
    format: 2,
  };
}

async function migrate(db: any, dialect: 'sqlite' | 'postgres', upTo: string) {
  const migrations: Record<string, Migration> = {};
  for (const [name, m] of Object.entries(MIGRATIONS)) if (name.slice(0, 3) <= upTo) migrations[name] = { up: (d) => m.up(d, dialect) };
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
  assert.equal(error, undefined);
}

/**
 * Migration 029 (docs/decisions.md, "Audit entries in fewer b-trees"): the trail keeps its rows and
 * their seq, stays append-only, numbers new rows after the old ones, refuses an id twice in a
 * tenant's chain, and is written to fewer b-trees.
 */
for (const dialect of DIALECTS) {
  test(`migration 029 keeps the trail and its guarantees with fewer indexes (${dialect})`, async () => {
    const dbase = await createTestDatabase(dialect);
    const handle = openDatabase({ databaseUrl: dbase.overrides.databaseUrl ?? null, dataDir: dbase.overrides.dataDir! });
    const db = handle.db as any;
    try {
      await migrate(db, handle.dialect, '028');
      await db.insertInto('tenants').values({ id: tenant, kind: 'organization', name: 'Org', settings: '{}', created_at: at }).execute();
      for (const n of [1, 2, 3]) await db.insertInto('audit_log').values(entry(n)).execute();
      await migrate(db, handle.dialect, '029');

      const rows = await db.selectFrom('audit_log').select(['seq', 'id']).orderBy('seq').execute();
      assert.deepEqual(
        rows.map((r: { seq: number | string; id: string }) => [Number(r.seq), r.id]),
        [1, 2, 3].map((n) => [n, entry(n).id]),
      );
      await db.insertInto('audit_log').values(entry(4)).execute();
      const last = await db.selectFrom('audit_log').select('seq').where('id', '=', entry(4).id).executeTakeFirstOrThrow();
      assert.equal(Number(last.seq), 4);

      await assert.rejects(db.updateTable('audit_log').set({ action: 'x' }).where('id', '=', entry(1).id).execute(), /append-only/);
      await assert.rejects(db.deleteFrom('audit_log').where('id', '=', entry(4).id).execute(), /append-only/);
      await assert.rejects(
        db
          .insertInto('audit_log')
          .values({ ...entry(4), hash: 'f'.repeat(64) })
          .execute(),
        /unique|UNIQUE/,
      );

      if (handle.dialect === 'sqlite') {
        const table = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE name = 'audit_log'`.execute(db);
        assert.doesNotMatch(table.rows[0].sql, /autoincrement/i);
        const seqRow = await sql`SELECT name FROM sqlite_sequence WHERE name = 'audit_log'`.execute(db);
        assert.equal(seqRow.rows.length, 0);
        const indexes = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_log' ORDER BY name`.execute(db);
        assert.deepEqual(
          indexes.rows.map((r) => r.name),
          ['audit_tenant_id', 'audit_tenant_resource', 'audit_tenant_seq'],
        );
      } else {
        const indexes = await sql<{ indexname: string }>`SELECT indexname FROM pg_indexes WHERE tablename = 'audit_log' ORDER BY indexname`.execute(db);
        assert.deepEqual(
          indexes.rows.map((r) => r.indexname),
          ['audit_log_pkey', 'audit_tenant_id', 'audit_tenant_resource'],
        );
      }
    } finally {
      await handle.close();
      await dbase.drop();
    }
  });
}
