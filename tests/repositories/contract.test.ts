import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { DIALECTS, createTestDatabase } from '../helpers/harness.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/platform/db/database.ts';
import { auditRepository } from '../../src/platform/audit/audit.repository.ts';
import { computeAuditHash, GENESIS_HASH } from '../../src/platform/audit/audit-chain.ts';
import { AuditService } from '../../src/platform/audit/audit.service.ts';
import { detectionRepository } from '../../src/org/detections/detection.repository.ts';
import { boxOf, boxToColumn } from '../../src/org/detections/detection-box.ts';
import type { DetectionBox } from '../../src/platform/kinds/index.ts';
import { sceneRepository } from '../../src/org/scenes/scene.repository.ts';
import { streamRepository } from '../../src/org/streams/stream.repository.ts';
import { tenantRepository } from '../../src/platform/identity/tenant.repository.ts';
import { keyRepository } from '../../src/platform/keys/key.repository.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { newId } from '../../src/platform/lib/ids.ts';

/** The same contract, run against real SQLite and real PostgreSQL. */
for (const dialect of DIALECTS) {
  describe(`repository contract (${dialect})`, () => {
    let h: DatabaseHandle;
    let drop: () => Promise<void>;
    const tenant = 'org_01jd00000000000000000000aa';
    before(async () => {
      const d = await createTestDatabase(dialect);
      drop = d.drop;
      h = openDatabase({ databaseUrl: d.overrides.databaseUrl ?? null, dataDir: d.overrides.dataDir! });
      await migrateToLatest(h);
      await migrateToLatest(h); // idempotent
      await tenantRepository.insert(h.db, { id: tenant, kind: 'organization', name: 'Acme', settings: '{}', created_at: '2026-11-21T00:00:00.000Z' });
    });
    after(async () => {
      await h.close();
      await drop();
    });

    test('tenants are unique per kind and name', async () => {
      assert.equal((await tenantRepository.findByName(h.db, 'organization', 'Acme'))?.id, tenant);
      await assert.rejects(tenantRepository.insert(h.db, { id: 'org_x', kind: 'organization', name: 'Acme', settings: '{}', created_at: 'x' }));
      await tenantRepository.insert(h.db, { id: 'hh_x', kind: 'household', name: 'Acme', settings: '{}', created_at: 'x' });
    });

    test('keys: find by hash, revoke once', async () => {
      await keyRepository.insert(h.db, {
        id: 'key_1',
        tenant_id: tenant,
        tenant_kind: 'organization',
        mode: 'live',
        key_hash: 'h1',
        preview: 'p',
        capabilities: '[]',
        locations: null,
        rate_limit_per_minute: null,
        created_at: 'x',
        revoked_at: null,
        role: 'owner',
        name: null,
      });
      assert.equal((await keyRepository.findByHash(h.db, 'h1'))?.id, 'key_1');
      assert.equal(await keyRepository.revoke(h.db, 'key_1', 't'), true);
      assert.equal(await keyRepository.revoke(h.db, 'key_1', 't'), false);
      assert.equal((await keyRepository.listAll(h.db))[0].tenant_name, 'Acme');
    });

    test('scenes are unique per tenant and location; streams list by tenant and location', async () => {
      const scene = {
        id: newId('scene'),
        tenant_id: tenant,
        location: 'lobby',
        capacity: 50,
        time_zone: 'UTC',
        people: 0,
        vehicles: 0,
        crowd_density: 0,
        active_anomalies: 0,
        last_detection_at: null,
        created_at: 'x',
        updated_at: 'x',
      };
      await sceneRepository.insert(h.db, scene);
      await assert.rejects(sceneRepository.insert(h.db, { ...scene, id: newId('scene') }));
      await sceneRepository.update(h.db, scene.id, { people: 3, crowd_density: 0.06 });
      assert.equal((await sceneRepository.findByLocation(h.db, tenant, 'lobby'))?.crowd_density, 0.06);
      for (const loc of ['lobby', 'lobby']) {
        await streamRepository.insert(h.db, {
          id: newId('stream'),
          tenant_id: tenant,
          name: 'c',
          source_type: 'sandbox',
          source_url: 'sandbox://lobby',
          location: loc,
          scene_id: scene.id,
          status: 'live',
          sandbox: 1,
          config: '{}',
          error: null,
          last_frame_at: null,
          created_at: 'x',
          updated_at: 'x',
        });
      }
      assert.equal((await streamRepository.listQuery(h.db, tenant, null).execute()).length, 2);
      assert.equal((await streamRepository.listQuery(h.db, tenant, ['dock']).execute()).length, 0);
      assert.equal((await streamRepository.listQuery(h.db, tenant, []).execute()).length, 0);
      assert.equal((await streamRepository.listByScene(h.db, scene.id)).length, 2);
    });

    test('detections: range with the state before it, and retention', async () => {
      const base = Date.parse('2026-11-21T09:00:00.000Z');
      const row = (type: string, at: number, extra: object = {}) => ({
        id: newId('det', at),
        tenant_id: tenant,
        stream_id: 's',
        scene_id: 'scene_r',
        location: 'lobby',
        type,
        subtype: null,
        value: null,
        count: null,
        confidence: 0.9,
        at,
        track_id: null,
        dwell_s: null,
        zone: null,
        box: null,
        ...extra,
      });
      await detectionRepository.insertMany(h.db, [
        row('person_count', base - 3600_000, { value: 2 }),
        row('person_count', base - 600_000, { value: 4 }),
        row('vehicle', base - 500_000, { count: 1 }),
        row('person', base + 1000, { subtype: 'unrecognized' }),
        row('person_count', base + 2000, { value: 5 }),
      ]);
      const got = await detectionRepository.inRangeWithState(h.db, 'scene_r', base, base + 10_000);
      assert.deepEqual(
        got.map((d) => [d.type, d.value ?? d.count ?? d.subtype]),
        [
          ['person_count', 4],
          ['vehicle', 1],
          ['person', 'unrecognized'],
          ['person_count', 5],
        ],
      );
      assert.equal(typeof got[0].at, 'number');
      assert.equal(await detectionRepository.deleteOlderThan(h.db, base - 1000_000), 1);
    });

    test('detections: a box (migration 012) round-trips through both insert paths; a detection without one reads back none', async () => {
      const at = Date.parse('2026-11-22T09:00:00.000Z');
      const box: DetectionBox = [0.2969, 0.2311, 0.1328, 0.6486];
      const row = (id: string, b: DetectionBox | null, t = at) => ({
        id,
        tenant_id: tenant,
        stream_id: 's_box',
        scene_id: 'scene_box',
        location: 'yard',
        type: 'person',
        subtype: 'unrecognized',
        value: null,
        count: null,
        confidence: 0.8,
        at: t,
        track_id: 'trk_1',
        dwell_s: 0,
        zone: null,
        box: boxToColumn(b),
      });
      const [viaKysely, viaHotPath, sandbox] = [newId('det', at), newId('det', at + 1), newId('det', at + 2)];
      await detectionRepository.insertMany(h.db, [row(viaKysely, box)]);
      // the pipeline's commit: prepared statements on the raw SQLite connection, Kysely on PostgreSQL
      await h.withWriteLock((trx) => detectionRepository.insertManyLocked(h, trx, [row(viaHotPath, [0, 0.5, 1, 0.5], at + 1), row(sandbox, null, at + 2)]));
      const got = await detectionRepository.inRangeWithState(h.db, 'scene_box', at, at + 10);
      assert.deepEqual(
        got.map((d) => [d.id, boxOf(d)]),
        [
          [viaKysely, box],
          [viaHotPath, [0, 0.5, 1, 0.5]],
          [sandbox, null],
        ],
      );
      assert.equal(got[2].box, null);
    });

    test('detections: quotes, backslashes, the text \\ud800 and surrogates survive the batch insert, stored as a plain parameter stores them (a lone surrogate too)', async () => {
      const at = Date.parse('2026-11-22T11:00:00.000Z');
      const odd = ['a"b\\c', 'x\\ud800y', '\\\ud800', '\ud83d\ude00 ok', 'lone \ud800 high', 'lone \udc00 low', "it's", 'é\n\t'];
      const recs = (scene: string) =>
        odd.map((zone, i) => ({
          id: newId('det', at + i),
          tenant_id: tenant,
          stream_id: 's_odd',
          scene_id: scene,
          location: 'yard',
          type: 'person',
          subtype: null,
          value: null,
          count: null,
          confidence: 0.9,
          at: at + i,
          track_id: zone,
          dwell_s: null,
          zone,
          box: null,
          person_id: null,
        }));
      // the pipeline's batch path, and Kysely's plain parameters for reference
      await h.withWriteLock((trx) => detectionRepository.insertManyLocked(h, trx, recs('scene_odd')));
      await detectionRepository.insertMany(h.db, recs('scene_odd_plain'));
      const got = await detectionRepository.inRangeWithState(h.db, 'scene_odd', at, at + 100);
      const plain = await detectionRepository.inRangeWithState(h.db, 'scene_odd_plain', at, at + 100);
      assert.equal(got.length, odd.length, 'the whole batch is stored');
      assert.deepEqual(
        got.map((d) => [d.zone, d.track_id]),
        plain.map((d) => [d.zone, d.track_id]),
      );
      // everything but the lone surrogates comes back exactly
      const lone = [2, 4, 5];
      assert.deepEqual(
        got.map((d) => d.zone).filter((_, i) => !lone.includes(i)),
        odd.filter((_, i) => !lone.includes(i)),
      );
      assert.ok(got[2].zone!.startsWith('\\\ufffd') && got[4].zone!.startsWith('lone \ufffd'), 'a lone surrogate reads back as U+FFFD');
    });

    test('detections: the pipeline hands its records over unchanged (box still an object); a known person is found through the partial index', async () => {
      const at = Date.parse('2026-11-22T10:00:00.000Z');
      const rec = (t: number, personId: string | null, box: DetectionBox | null) => ({
        id: newId('det', t),
        tenant_id: tenant,
        stream_id: 's_person',
        scene_id: 'scene_person',
        location: 'gate',
        type: 'person',
        subtype: personId ? 'recognized' : 'unrecognized',
        value: null,
        count: null,
        confidence: 0.9,
        at: t,
        track_id: 'trk_p',
        dwell_s: null,
        zone: null,
        box,
        person_id: personId,
      });
      const known = rec(at, 'person_01jd00000000000000000000ab', [0.1, 0.2, 0.3, 0.4]);
      const stranger = rec(at + 1, null, null);
      const again = rec(at + 2, 'person_01jd00000000000000000000ab', null);
      await h.withWriteLock((trx) => detectionRepository.insertManyLocked(h, trx, [known, stranger, again]));
      const seen = await detectionRepository.personSightings(h.db, 'scene_person', 'person_01jd00000000000000000000ab', at, at + 10);
      assert.deepEqual(
        seen.map((d) => [d.id, boxOf(d)]),
        [
          [known.id, [0.1, 0.2, 0.3, 0.4]],
          [again.id, null],
        ],
      );
      const all = await detectionRepository.inRangeWithState(h.db, 'scene_person', at, at + 10);
      assert.deepEqual(
        all.map((d) => [d.subtype, d.value, d.count, d.zone, d.person_id]),
        [
          ['recognized', null, null, null, known.person_id],
          ['unrecognized', null, null, null, null],
          ['recognized', null, null, null, known.person_id],
        ],
      );
      if (dialect === 'sqlite') {
        const plan = await sql<{
          detail: string;
        }>`EXPLAIN QUERY PLAN SELECT * FROM detections WHERE scene_id = ${'scene_person'} AND person_id = ${'p'} AND at >= ${at} AND at <= ${at + 10} ORDER BY at`.execute(
          h.db,
        );
        assert.match(plan.rows.map((r) => r.detail).join('\n'), /detections_scene_person_at/);
        const def = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE name = 'detections_scene_person_at'`.execute(h.db);
        assert.match(def.rows[0].sql, /where "person_id" is not null/i);
      } else {
        const def = await sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE indexname = 'detections_scene_person_at'`.execute(h.db);
        assert.match(def.rows[0].indexdef, /WHERE \(person_id IS NOT NULL\)/);
      }
    });

    test("the pipeline's batch inserts put every column where the plain inserts do, an empty one as NULL", async () => {
      const at = Date.parse('2026-11-22T12:00:00.000Z');
      const full = (id: string, scene: string) => ({
        id,
        tenant_id: tenant,
        stream_id: 's_cols',
        scene_id: scene,
        location: 'porch',
        type: 'person',
        subtype: 'recognized',
        value: 1.5,
        count: 3,
        confidence: 0.75,
        at,
        track_id: 'trk_c',
        dwell_s: 2.25,
        zone: 'steps',
        box: '[0.1,0.2,0.3,0.4]',
        person_id: 'person_01jd00000000000000000000cc',
      });
      const empty = (id: string, scene: string) => ({
        ...full(id, scene),
        subtype: null,
        value: null,
        count: null,
        track_id: null,
        dwell_s: null,
        zone: null,
        box: null,
        person_id: null,
        // a record's live-wall objects are not a column: the batch insert leaves them out
        frame_objects: [{ type: 'person', box: [0, 0, 1, 1] }],
      });
      const [a, b, c, d] = [1, 2, 3, 4].map((k) => newId('det', at + k));
      await h.withWriteLock((trx) => detectionRepository.insertManyLocked(h, trx, [full(a, 'scene_cols'), empty(b, 'scene_cols')]));
      const { frame_objects: _objects, ...plainEmpty } = empty(d, 'scene_cols_plain');
      await detectionRepository.insertMany(h.db, [full(c, 'scene_cols_plain'), plainEmpty]);
      const read = async (scene: string) =>
        (await h.db.selectFrom('detections').selectAll().where('scene_id', '=', scene).orderBy('id').execute()).map((r) => ({
          ...r,
          id: null,
          scene_id: null,
          at: Number(r.at),
        }));
      assert.deepEqual(await read('scene_cols'), await read('scene_cols_plain'));
      const entry = (audit: AuditService, keyId: string | null, requestId: string | undefined, scoped: boolean, tenantId = tenant) =>
        audit.build(
          { keyId, requestId, operator: keyId ? undefined : 'pipeline' },
          {
            tenantId,
            action: 'detection.recorded',
            resourceType: 'detection',
            resourceId: keyId ? 'det_cols' : null,
            at,
            data: keyId ? { q: 'a"b\\c' } : undefined,
            scope: scoped ? { location: 'porch', streamId: 's_cols' } : undefined,
          },
        );
      const audit = new AuditService({ database: h, clock: new ManualClock() });
      // two tenants' chains interleaved in one batch: each entry chained from the one before it of its own tenant
      const other = 'org_01jd00000000000000000000cc';
      const entries = [
        entry(audit, 'key_cols', 'req_cols', true),
        entry(audit, null, undefined, false, other),
        entry(audit, null, undefined, false),
        entry(audit, 'key_cols', undefined, true, other),
        entry(audit, null, 'req_cols', true, other),
      ];
      await h.withTenantWriteLock([tenant, other], async (trx) => {
        await auditRepository.appendChainedWith(h, trx, entries, { sqlite: () => undefined, postgres: () => sql`SELECT 1` });
      });
      const stored = await h.db.selectFrom('audit_log').selectAll().where('tenant_id', 'in', [tenant, other]).orderBy('seq', 'desc').limit(5).execute();
      stored.reverse();
      assert.deepEqual(
        stored.map(({ seq: _seq, ...r }) => r),
        entries.map((e) => ({ ...e })),
      );
      assert.equal(stored[3].prev_hash, stored[1].hash);
      assert.equal(stored[2].prev_hash, stored[0].hash);
    });

    test('audit: chained appends, and the database refuses UPDATE and DELETE', async () => {
      const audit = new AuditService({ database: h, clock: new ManualClock() });
      await audit.append({ keyId: 'key_1', requestId: 'req_1' }, { tenantId: tenant, action: 'stream.created', resourceType: 'stream', resourceId: 's1' });
      await audit.append(
        { keyId: null, operator: 'pipeline' },
        { tenantId: tenant, action: 'detection.recorded', resourceType: 'detection', resourceId: 'd1', data: { v: 1 } },
      );
      const rows = await h.db.selectFrom('audit_log').selectAll().where('tenant_id', '=', tenant).orderBy('seq').execute();
      const mine = rows.filter((r) => r.resource_id === 's1' || r.resource_id === 'd1');
      assert.equal(mine.length, 2);
      let prev = GENESIS_HASH;
      for (const r of rows) {
        assert.equal(r.prev_hash, prev);
        assert.equal(r.hash, computeAuditHash(prev, r));
        prev = r.hash;
      }
      assert.equal(await auditRepository.headHash(h.db, tenant), prev);
      await assert.rejects(h.db.updateTable('audit_log').set({ action: 'tampered' }).where('resource_id', '=', 's1').execute(), /append-only/);
      await assert.rejects(h.db.deleteFrom('audit_log').where('resource_id', '=', 's1').execute(), /append-only/);
      await assert.rejects(sql`update audit_log set data = 'x'`.execute(h.db), /append-only/);
    });

    test('write lock serialises concurrent chained appends without forking the chain', async () => {
      const audit = new AuditService({ database: h, clock: new ManualClock() });
      const t2 = 'org_01jd00000000000000000000bb';
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => audit.append({ keyId: null }, { tenantId: t2, action: 'x', resourceType: 'y', resourceId: String(i) })),
      );
      const rows = await h.db.selectFrom('audit_log').selectAll().where('tenant_id', '=', t2).orderBy('seq').execute();
      assert.equal(rows.length, 20);
      assert.equal(new Set(rows.map((r) => r.prev_hash)).size, 20, 'every entry has a distinct predecessor');
    });
  });
}
