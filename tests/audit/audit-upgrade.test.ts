import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Migrator, type Migration } from 'kysely';
import { DIALECTS, bearer, createTestDatabase } from '../helpers/harness.ts';
import { loadConfig } from '../../src/platform/config/config.ts';
import { createContext } from '../../src/context.ts';
import { buildApp } from '../../src/app.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { MIGRATIONS } from '../../src/platform/db/migrations/index.ts';
import { verifyExportOffline } from './offline-verifier.ts';

const sha = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
const at = '2026-11-20T09:00:00.000Z';

/**
 * A trail written before migration 006 (format 1: the hash covers data) keeps verifying after the
 * upgrade, new entries chain on in format 2, and the backfilled place of old entries confines
 * them like new ones.
 */
for (const dialect of DIALECTS) {
  test(`an upgraded database keeps its format-1 chain verifiable and confined (${dialect})`, async () => {
    const dbase = await createTestDatabase(dialect);
    const old = openDatabase({ databaseUrl: dbase.overrides.databaseUrl ?? null, dataDir: dbase.overrides.dataDir! });
    const migrations: Record<string, Migration> = {};
    for (const [name, m] of Object.entries(MIGRATIONS)) if (name < '006') migrations[name] = { up: (db) => m.up(db, old.dialect) };
    const { error } = await new Migrator({ db: old.db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
    assert.equal(error, undefined);

    const tenant = 'org_01jd3k8e7f9g2h4j6k8m0n2p4q';
    const db = old.db as any;
    await db.insertInto('tenants').values({ id: tenant, kind: 'organization', name: 'Legacy Org', settings: '{}', created_at: at }).execute();
    for (const [location, n] of [
      ['north_gate', 1],
      ['front_desk', 2],
    ] as const) {
      await db
        .insertInto('scenes')
        .values({ id: `scene_0000000000000000000000000${n}`, tenant_id: tenant, location, capacity: 50, time_zone: 'UTC', created_at: at, updated_at: at })
        .execute();
      await db
        .insertInto('streams')
        .values({
          id: `stream_0000000000000000000000000${n}`,
          tenant_id: tenant,
          name: location,
          source_type: 'rtsp',
          source_url: 'rtsp://cam.example/1',
          location,
          scene_id: `scene_0000000000000000000000000${n}`,
          status: 'connecting',
          sandbox: 0,
          config: '{}',
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    const legacy = [
      { action: 'stream.created', resource_type: 'stream', resource_id: 'stream_00000000000000000000000002', data: '{"after":{"location":"front_desk"}}' },
      {
        action: 'detection.recorded',
        resource_type: 'detection',
        resource_id: 'det_00000000000000000000000001',
        data: '{"stream_id":"stream_00000000000000000000000002","type":"person"}',
      },
      {
        action: 'detection.recorded',
        resource_type: 'detection',
        resource_id: 'det_00000000000000000000000002',
        data: '{"stream_id":"stream_00000000000000000000000001","type":"person"}',
      },
      { action: 'webhook.created', resource_type: 'webhook_endpoint', resource_id: 'whk_00000000000000000000000001', data: '{"after":{}}' },
    ];
    let prev = '0'.repeat(64);
    for (const [i, e] of legacy.entries()) {
      const row = { id: `aud_0000000000000000000000000${i}`, tenant_id: tenant, at, actor_key_id: null, actor_operator: 'system', request_id: null, ...e };
      const hash = sha([
        prev,
        row.id,
        row.tenant_id,
        row.at,
        row.actor_key_id,
        row.actor_operator,
        row.action,
        row.resource_type,
        row.resource_id,
        row.request_id,
        row.data,
      ]);
      await db
        .insertInto('audit_log')
        .values({ ...row, prev_hash: prev, hash })
        .execute();
      prev = hash;
    }
    await old.close();

    const config = loadConfig({ ...dbase.overrides, runSources: false, seedDemo: false }, {});
    const ctx = await createContext(config);
    const app = await buildApp(ctx);
    try {
      const backfilled = await ctx.database.db.selectFrom('audit_log').select(['id', 'location', 'stream_id', 'format']).orderBy('seq').execute();
      assert.deepEqual(
        backfilled.map((r) => [r.location, r.stream_id, r.format]),
        [
          ['front_desk', 'stream_00000000000000000000000002', null],
          ['front_desk', 'stream_00000000000000000000000002', null],
          ['north_gate', 'stream_00000000000000000000000001', null],
          [null, null, null],
        ],
      );
      const admin = await ctx.keys.createKey({
        tenantKind: 'organization',
        tenantName: 'Legacy Org',
        mode: 'live',
        capabilities: 'all',
        rateLimitPerMinute: 1000,
      });
      const gate = await ctx.keys.createKey({
        tenantKind: 'organization',
        tenantName: 'Legacy Org',
        mode: 'live',
        capabilities: 'all',
        locations: ['north_gate'],
        rateLimitPerMinute: 1000,
      });
      assert.equal(admin.tenant_id, tenant);

      const verify = (await app.inject({ url: '/v1/audit/verify', headers: bearer(admin) })).json();
      assert.equal(verify.valid, true);
      assert.equal(verify.entries_checked, 6, '4 format-1 entries, then 2 api_key.created in format 2');

      const list = (await app.inject({ url: '/v1/audit?limit=100', headers: bearer(gate) })).json().data;
      // its own creation (a north_gate key) and the north_gate detection; organization-wide entries are for unrestricted keys
      assert.deepEqual(
        list.map((e: { action: string }) => e.action),
        ['api_key.created', 'detection.recorded'],
      );
      assert.equal(list[0].resource.id, gate.id);
      assert.ok(!JSON.stringify(list).includes('stream_00000000000000000000000002'));

      for (const key of [admin, gate]) {
        const body = (await app.inject({ url: '/v1/audit/export', headers: bearer(key) })).body;
        const lines = body
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
          .slice(1);
        assert.deepEqual(
          lines.map((l) => l.format),
          [1, 1, 1, 1, 2, 2],
        );
        assert.deepEqual(
          lines.map((l) => Boolean(l.redacted)),
          key === gate ? [true, true, false, true, true, false] : [false, false, false, false, false, false],
        );
        assert.deepEqual(verifyExportOffline(body), { valid: true, checked: 6, checkpointMatches: true });
      }
    } finally {
      await app.close();
      await ctx.close();
      await dbase.drop();
    }
  });
}
