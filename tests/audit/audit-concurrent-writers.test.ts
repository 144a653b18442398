import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/platform/config/config.ts';
import { createContext, type VigilContext } from '../../src/context.ts';
import type { StreamRef } from '../../src/org/pipeline/index.ts';
import type { DetectionInput } from '../../src/org/detections/index.ts';
import { createTestDatabase } from '../helpers/harness.ts';

/**
 * Several nodes append to the audit chains of one PostgreSQL database at once. Each
 * context here has its own connection pool (as a separate node would), its own pipeline and its own
 * guess of the chain heads; they write detections (the pipeline's per-tenant locked batches) and
 * API-style entries (the global write lock) for the same and for different tenants concurrently.
 * Afterwards every chain verifies and holds every entry, and a batch of one tenant does not wait
 * for a transaction holding another tenant's chain.
 */
describe('audit chains with concurrent writers on one PostgreSQL', () => {
  let nodes: VigilContext[] = [];
  let drop: () => Promise<void>;
  const tenants: Array<{ tenant_id: string; ref: StreamRef }> = [];

  before(async () => {
    const db = await createTestDatabase('postgres');
    drop = db.drop;
    const config = loadConfig({ runSources: false, seedDemo: false, ...db.overrides }, {});
    // one after the other: each runs the (idempotent) migrations
    for (let i = 0; i < 3; i++) nodes.push(await createContext(config));
    for (const name of ['North', 'South']) {
      const key = await nodes[0].keys.createKey({ tenantKind: 'organization', tenantName: name, mode: 'live' });
      const scene = await nodes[0].database.withWriteLock((trx) => nodes[0].scenes.ensureScene(trx, key.tenant_id, 'gate'));
      // every node's scene engine knows the scene (as a node running one of its streams would)
      for (const node of nodes.slice(1)) await node.database.withWriteLock((trx) => node.scenes.ensureScene(trx, key.tenant_id, 'gate'));
      tenants.push({
        tenant_id: key.tenant_id,
        ref: { id: `stream_${name.toLowerCase()}`, tenant_id: key.tenant_id, scene_id: scene.id, location: scene.location },
      });
    }
  });
  after(async () => {
    for (const n of nodes) await n.close();
    nodes = [];
    await drop();
  });

  const detection = (k: number): DetectionInput =>
    k % 4 === 0
      ? { type: 'person', subtype: null, confidence: 0.9, at: Date.now(), track_id: `t${k}` }
      : { type: 'person_count', value: k % 5, confidence: 0.8, at: Date.now() };

  test('three nodes writing detections and entries for two tenants at once: both chains verify, nothing lost', async () => {
    let detections = 0;
    const apiEntries = new Map<string, number>();
    // each node runs its own loop of commits (so each writes many batches, and its guess of a head
    // is regularly stale because another node wrote since); the loops run at the same time
    await Promise.all(
      nodes.map(async (node, n) => {
        for (let round = 0; round < 25; round++) {
          const work: Promise<unknown>[] = [];
          for (const t of tenants) {
            const inputs = Array.from({ length: 1 + ((round + n) % 4) }, (_, k) => detection(round * 10 + k));
            detections += inputs.length;
            work.push(node.pipeline.ingest(t.ref, inputs));
            if ((round + n) % 3 === 0) {
              apiEntries.set(t.tenant_id, (apiEntries.get(t.tenant_id) ?? 0) + 1);
              work.push(
                node.audit.append(
                  { keyId: null, operator: `node${n}` },
                  { tenantId: t.tenant_id, action: 'scene.queried', resourceType: 'scene', resourceId: t.ref.scene_id, data: { round } },
                ),
              );
            }
          }
          await Promise.all(work);
        }
      }),
    );
    for (const node of nodes) await node.pipeline.drain();

    const { db } = nodes[0].database;
    const stored = await db
      .selectFrom('detections')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(stored.n), detections, 'every detection is stored');
    for (const t of tenants) {
      const recorded = await db
        .selectFrom('audit_log')
        .select(({ fn }) => fn.countAll<number>().as('n'))
        .where('tenant_id', '=', t.tenant_id)
        .where('action', '=', 'detection.recorded')
        .executeTakeFirstOrThrow();
      const own = await db
        .selectFrom('detections')
        .select(({ fn }) => fn.countAll<number>().as('n'))
        .where('tenant_id', '=', t.tenant_id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(recorded.n), Number(own.n), 'one audit entry per detection');
      const all = await db
        .selectFrom('audit_log')
        .select(({ fn }) => fn.countAll<number>().as('n'))
        .where('tenant_id', '=', t.tenant_id)
        .executeTakeFirstOrThrow();
      // verified from each node: the chain is one chain, whichever node wrote which entry
      for (const node of nodes) {
        const out = await node.auditTrail.verifyChain(t.tenant_id);
        assert.equal(out.broken, null, JSON.stringify(out.broken));
        assert.equal(out.valid, true);
        assert.equal(out.entries_checked, Number(all.n), 'verify walks every entry of the tenant');
      }
      assert.ok(Number(all.n) >= Number(own.n) + apiEntries.get(t.tenant_id)!);
    }
  });

  test("a batch for one tenant commits while another node holds a different tenant's chain; the same tenant waits", async () => {
    const [north, south] = tenants;
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holding = nodes[0].database.withTenantWriteLock([north.tenant_id], async (trx) => {
      await nodes[0].audit.appendIn(trx, { keyId: null, operator: 'node0' }, [
        { tenantId: north.tenant_id, action: 'scene.queried', resourceType: 'scene', resourceId: north.ref.scene_id },
      ]);
      locked();
      await new Promise<void>((r) => (release = r));
    });
    await isLocked;
    let same: Promise<unknown> | null = null;
    try {
      // another node, another tenant: not queued behind node 0's open transaction
      const other = await Promise.race([
        nodes[1].pipeline.ingest(south.ref, [detection(1)]).then(() => 'committed'),
        new Promise((r) => setTimeout(() => r('waited'), 5000)),
      ]);
      assert.equal(other, 'committed');
      // the same tenant from another node waits for the chain's head
      same = nodes[2].pipeline.ingest(north.ref, [detection(2)]);
      const early = await Promise.race([same.then(() => 'committed'), new Promise((r) => setTimeout(() => r('waiting'), 300))]);
      assert.equal(early, 'waiting');
    } finally {
      release();
    }
    await holding;
    assert.equal(((await same) as unknown[]).length, 1);
    for (const t of tenants) assert.equal((await nodes[1].auditTrail.verifyChain(t.tenant_id)).valid, true);
  });
});
