import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator, type Migration } from 'kysely';
import { migrateToLatest, openDatabase } from '../../src/platform/db/database.ts';
import { MIGRATIONS } from '../../src/platform/db/migrations/index.ts';
import { DIALECTS, createTestDatabase } from '../helpers/harness.ts';

const BEFORE_KEYS_MANAGE = [
  'streams:read',
  'streams:write',
  'scenes:read',
  'scenes:query',
  'incidents:read',
  'incidents:write',
  'protocols:trigger',
  'protocols:manage',
  'alerts:read',
  'alerts:manage',
  'responders:manage',
  'webhooks:manage',
  'audit:read',
  'operator',
];

for (const dialect of DIALECTS) {
  test(`migration 007 on a database with keys: every existing key becomes owner, "all" keys get keys:manage (${dialect})`, async () => {
    const dbase = await createTestDatabase(dialect);
    const handle = openDatabase({ databaseUrl: dbase.overrides.databaseUrl ?? null, dataDir: dbase.overrides.dataDir! });
    try {
      // the schema as it was before 007
      const earlier: Record<string, Migration> = {};
      for (const [name, m] of Object.entries(MIGRATIONS)) if (name < '007') earlier[name] = { up: (db) => m.up(db, handle.dialect) };
      const { error } = await new Migrator({ db: handle.db, provider: { getMigrations: async () => earlier } }).migrateToLatest();
      assert.equal(error, undefined);
      const row = (id: string, kind: 'organization' | 'household', caps: string[]) => ({
        id,
        tenant_id: kind === 'organization' ? 'org_1' : 'hh_1',
        tenant_kind: kind,
        mode: 'live',
        key_hash: `h_${id}`,
        preview: 'p',
        capabilities: JSON.stringify(caps),
        locations: null,
        rate_limit_per_minute: null,
        created_at: '2026-11-01T00:00:00.000Z',
        revoked_at: null,
      });
      await handle.db
        .insertInto('tenants')
        .values([
          { id: 'org_1', kind: 'organization', name: 'Old Org', settings: '{}', created_at: '2026-11-01T00:00:00.000Z' },
          { id: 'hh_1', kind: 'household', name: 'Old Home', settings: '{}', created_at: '2026-11-01T00:00:00.000Z' },
        ])
        .execute();
      await (handle.db as any)
        .insertInto('api_keys')
        .values([
          row('key_all', 'organization', BEFORE_KEYS_MANAGE),
          row('key_two', 'organization', ['streams:read', 'audit:read']),
          row('key_home', 'household', []),
        ])
        .execute();

      await migrateToLatest(handle);
      const keys = await handle.db.selectFrom('api_keys').select(['id', 'role', 'capabilities', 'name']).orderBy('id').execute();
      assert.deepEqual(
        keys.map((k) => [k.id, k.role, k.name]),
        [
          ['key_all', 'owner', null],
          ['key_home', 'owner', null],
          ['key_two', 'owner', null],
        ],
      );
      const caps = Object.fromEntries(keys.map((k) => [k.id, JSON.parse(k.capabilities) as string[]]));
      assert.deepEqual(caps.key_all, [...BEFORE_KEYS_MANAGE, 'keys:manage']);
      assert.deepEqual(caps.key_two, ['streams:read', 'audit:read'], 'a narrower key gains nothing');
      assert.deepEqual(caps.key_home, []);
      const endpoints = await handle.db.selectFrom('webhook_endpoints').select('locations').execute();
      assert.deepEqual(endpoints, []);
    } finally {
      await handle.close();
      await dbase.drop();
    }
  });
}
