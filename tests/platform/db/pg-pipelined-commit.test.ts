import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { sql } from 'kysely';
import { loadConfig } from '../../../src/platform/config/config.ts';
import { createContext, type VigilContext } from '../../../src/context.ts';
import { writeBeforeCommit } from '../../../src/platform/db/index.ts';
import type { StreamRef } from '../../../src/org/pipeline/index.ts';
import { createTestDatabase } from '../../helpers/harness.ts';

/**
 * The pipeline's commit on PostgreSQL (docs/decisions.md, "PostgreSQL commit in two round trips"):
 * BEGIN and the tenant locks, the detections with their chained audit entries and the hooks' reads
 * share the first round trip; the writes nobody waits for go with COMMIT in the second. What the
 * pipelining must not weaken: a statement that fails anywhere fails the whole commit, and nothing
 * of it is stored; the chain still verifies.
 */
describe('pipelined commit on PostgreSQL', () => {
  let ctx: VigilContext;
  let drop: () => Promise<void>;
  let tenantId: string;
  let ref: StreamRef;

  // round trips of the pipeline's commits: a query sent while none of its connection's is in flight starts one
  const flushes: number[] = [];
  const original = pg.Client.prototype.query;
  before(async () => {
    const db = await createTestDatabase('postgres');
    drop = db.drop;
    ctx = await createContext(loadConfig({ runSources: false, seedDemo: false, ...db.overrides }, {}));
    const key = await ctx.keys.createKey({ tenantKind: 'organization', tenantName: 'Pipelined', mode: 'live' });
    tenantId = key.tenant_id;
    const scene = await ctx.database.withWriteLock((trx) => ctx.scenes.ensureScene(trx, tenantId, 'dock'));
    ref = { id: 'stream_dock', tenant_id: tenantId, scene_id: scene.id, location: scene.location };
    const state = new WeakMap<object, { inflight: number; rt: number; open: boolean }>();
    pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
      let s = state.get(this);
      if (!s) state.set(this, (s = { inflight: 0, rt: 0, open: false }));
      const text = typeof config === 'string' ? config : '';
      if (text.startsWith('BEGIN; SELECT pg_advisory_xact_lock_shared')) Object.assign(s, { open: true, rt: 0 });
      if (s.open && s.inflight === 0) s.rt++;
      s.inflight++;
      const st = s;
      const ret = (original as (...a: unknown[]) => Promise<unknown>).call(this, config, ...rest);
      const done = () => void st.inflight--;
      ret.then(done, done);
      if (s.open && text === 'COMMIT') {
        s.open = false;
        flushes.push(s.rt);
      }
      return ret;
    } as typeof pg.Client.prototype.query;
  });
  after(async () => {
    pg.Client.prototype.query = original;
    await ctx?.close();
    await drop?.();
  });

  test('a commit of detections, one extending an incident, takes two round trips', async () => {
    const at = Date.now();
    // an unrecognized person opens an incident (its own commit), the next one extends it
    await ctx.pipeline.ingest(ref, [{ type: 'person', subtype: 'unrecognized', confidence: 0.9, at, track_id: 'a' }]);
    await ctx.pipeline.ingest(ref, [{ type: 'person_count', value: 2, confidence: 0.9, at: at + 1 }]);
    flushes.length = 0;
    const stored = await ctx.pipeline.ingest(ref, [
      { type: 'person', subtype: 'unrecognized', confidence: 0.9, at: at + 2, track_id: 'b' },
      { type: 'person_count', value: 3, confidence: 0.9, at: at + 2 },
    ]);
    assert.equal(stored.length, 2);
    assert.deepEqual(flushes, [2]);
    // the extension was written: the incident holds both anomalies
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM incident_detections WHERE tenant_id = ${tenantId}`.execute(ctx.database.db);
    assert.equal(rows[0].n, 2);
    const verified = await ctx.auditTrail.verifyChain(tenantId);
    assert.equal(verified.valid, true);
  });

  test('a deferred write that fails fails the commit, and nothing of it is stored', async () => {
    const before = await sql<{ n: number }>`SELECT count(*)::int AS n FROM audit_log WHERE tenant_id = ${tenantId}`.execute(ctx.database.db);
    await assert.rejects(
      ctx.database.withTenantWriteLock([tenantId], async (trx) => {
        await ctx.audit.appendIn(trx, { keyId: null, operator: 'test' }, [{ tenantId, action: 'test.pipelined', resourceType: 'test', resourceId: 'x' }]);
        // an incident referencing no tenant column value: NOT NULL fails, on the wire with COMMIT
        await writeBeforeCommit(trx, [sql`INSERT INTO incidents (id) VALUES ('incident_broken')`.compile(trx)]);
      }),
      /null value|violates/,
    );
    const after = await sql<{ n: number }>`SELECT count(*)::int AS n FROM audit_log WHERE tenant_id = ${tenantId}`.execute(ctx.database.db);
    assert.equal(after.rows[0].n, before.rows[0].n);
    // the connection went back clean: the next commit works and the chain verifies
    const stored = await ctx.pipeline.ingest(ref, [{ type: 'person_count', value: 1, confidence: 0.9, at: Date.now() }]);
    assert.equal(stored.length, 1);
    assert.equal((await ctx.auditTrail.verifyChain(tenantId)).valid, true);
  });

  test('a statement that fails mid-transaction fails the statements pipelined behind it and the commit', async () => {
    await assert.rejects(
      ctx.database.withTenantWriteLock([tenantId], async (trx) => {
        // sent together: the first fails, the second must not be applied
        await Promise.all([sql`SELECT 1 / 0`.execute(trx), sql`UPDATE scenes SET capacity = 99 WHERE id = ${ref.scene_id}`.execute(trx)]);
      }),
      /division by zero/,
    );
    const { rows } = await sql<{ capacity: number | null }>`SELECT capacity FROM scenes WHERE id = ${ref.scene_id}`.execute(ctx.database.db);
    assert.notEqual(rows[0].capacity, 99);
  });
});
