import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, migrateToLatest } from '../../src/platform/db/database.ts';
import { SqlLeaseStore } from '../../src/platform/coordination/index.ts';
import { StreamOwnership, type StreamRow } from '../../src/org/streams/index.ts';
import { streamRepository } from '../../src/org/streams/stream.repository.ts';
import { type SceneService } from '../../src/org/scenes/index.ts';
import { sceneRepository } from '../../src/org/scenes/scene.repository.ts';
import { createTestDatabase } from '../helpers/harness.ts';
import { sleep, waitUntil } from './cluster-harness.ts';

/**
 * The ownership scheduler of cluster mode, in process and fast: two or three schedulers over one
 * PostgreSQL database with a 600 ms lease, each with a runner that only records what it runs.
 * The real-process tests (cluster-*.test.ts) cover kill -9 and SIGSTOP; this covers the sharing
 * rule, joins, creates and deletes, and the graceful release.
 */
const TUNING = { ttlMs: 600, tickMs: 100 };
const dbase = await createTestDatabase('postgres');
const database = openDatabase({ databaseUrl: dbase.overrides.databaseUrl!, dataDir: dbase.overrides.dataDir! });
await migrateToLatest(database);
const schedulers: StreamOwnership[] = [];
after(async () => {
  for (const s of schedulers) await s.stop();
  await database.close();
  await dbase.drop();
});

const scenes = {
  ensureLoaded: async () => undefined,
  storedTimeZones: (ids: string[]) => sceneRepository.timeZones(database.db, ids),
  detachStream: () => undefined,
} as unknown as SceneService;
const running = new Map<string, Set<string>>(); // node → streams its runner runs
/** stream → the time zone its source was last started with */
const startedIn = new Map<string, string | undefined>();
/** every sample: a stream runs on at most one node */
const overlaps: string[] = [];

function node(id: string, capacity = 1): StreamOwnership {
  const mine = new Set<string>();
  running.set(id, mine);
  const runner = {
    start(row: StreamRow, opts?: { timeZone?: string; lease?: { nodeId: string; epoch: number } }) {
      startedIn.set(row.id, opts?.timeZone);
      assert.equal(opts?.lease?.nodeId, id, 'a source is started under its lease');
      for (const [other, set] of running) if (other !== id && set.has(row.id)) overlaps.push(`${row.id} on ${other} and ${id}`);
      mine.add(row.id);
    },
    stop(streamId: string) {
      mine.delete(streamId);
    },
    liveStats: () => null,
    reconfigure: () => undefined,
    pushFrame: async () => {
      throw new Error('not here');
    },
  };
  const s = new StreamOwnership({
    database,
    leases: new SqlLeaseStore(database),
    runner,
    scenes,
    nodeId: id,
    role: 'all',
    capacity,
    drain: async () => undefined,
    tuning: TUNING,
  });
  schedulers.push(s);
  return s;
}

let n = 0;
async function addStream(): Promise<string> {
  const id = `stream_${String(++n).padStart(3, '0')}`;
  const at = new Date().toISOString();
  if (n === 1) await database.db.insertInto('tenants').values({ id: 'tenant_1', kind: 'organization', name: 'T', settings: '{}', created_at: at }).execute();
  await database.db
    .insertInto('scenes')
    .values({
      id: `scene_${n}`,
      tenant_id: 'tenant_1',
      location: `loc_${n}`,
      capacity: 50,
      time_zone: 'UTC',
      people: 0,
      vehicles: 0,
      crowd_density: 0,
      active_anomalies: 0,
      last_detection_at: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await streamRepository.insert(database.db, {
    id,
    tenant_id: 'tenant_1',
    name: id,
    source_type: 'sandbox',
    source_url: 'sandbox://lobby',
    location: `loc_${n}`,
    scene_id: `scene_${n}`,
    status: 'live',
    sandbox: 1,
    config: '{"zones":[],"motion_masks":[]}',
    error: null,
    last_frame_at: null,
    created_at: at,
    updated_at: at,
  });
  return id;
}

const counts = () => [...running.values()].map((s) => s.size);
const total = () => counts().reduce((a, b) => a + b, 0);

test('streams are shared by capacity, follow joins, creates and deletes, and are released at once on a graceful stop', { timeout: 60_000 }, async () => {
  for (let i = 0; i < 4; i++) await addStream();
  const a = node('node-a');
  await a.start();
  assert.equal(running.get('node-a')!.size, 4, 'alone, a node runs everything');

  const b = node('node-b');
  await b.start();
  await waitUntil('a 2/2 split', async () => counts().join() === '2,2', 5_000, 20);
  assert.equal(total(), 4);

  // a third node with twice the capacity takes half of 8 streams
  for (let i = 0; i < 4; i++) await addStream();
  const c = node('node-c', 2);
  await c.start();
  await waitUntil('shares by capacity (8 streams, capacities 1/1/2)', async () => counts().join() === '2,2,4', 5_000, 20);

  // a deleted stream stops where it ran and its lease goes
  const gone = [...running.get('node-c')!][0];
  await streamRepository.delete(database.db, gone);
  await waitUntil(
    'the deleted stream stopped and its lease gone',
    async () => ![...running.values()].some((s) => s.has(gone)) && !(await new SqlLeaseStore(database).assignments()).has(gone),
    2_000,
    20,
  );

  // graceful stop: the leases are released, so the others take over well before a ttl
  const held = [...running.get('node-c')!];
  const stoppedAt = Date.now();
  await c.stop();
  await waitUntil(
    "the stopped node's streams taken over",
    async () => held.every((id) => running.get('node-a')!.has(id) || running.get('node-b')!.has(id)),
    2_000,
    10,
  );
  const handover = Date.now() - stoppedAt;
  assert.ok(handover < TUNING.ttlMs, `taken over in ${handover} ms, before any lease could expire`);
  await sleep(300);
  assert.equal(total(), 7);
  assert.deepEqual(counts().slice(0, 2).sort(), [3, 4]);
  assert.deepEqual(overlaps, [], 'no stream ever ran on two nodes');
});

test('a scene time zone changed through any node restarts its streams in that zone on their owner', { timeout: 30_000 }, async () => {
  const id = await addStream();
  await waitUntil('the new stream claimed', async () => [...running.values()].some((set) => set.has(id)), 2_000, 20);
  assert.equal(startedIn.get(id), 'UTC');
  const sceneId = `scene_${n}`;
  await database.db.updateTable('scenes').set({ time_zone: 'Pacific/Auckland' }).where('id', '=', sceneId).execute();
  await waitUntil("restarted in the scene's new time zone", async () => startedIn.get(id) === 'Pacific/Auckland', 2_000, 20);
  assert.deepEqual(overlaps, [], 'no stream ever ran on two nodes');
});
