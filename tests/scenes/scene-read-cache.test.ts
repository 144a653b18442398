import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import SQLite from 'better-sqlite3';
import { bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { findWithStreamIds } from '../../src/org/scenes/scene.repository.ts';
import { updateStream } from '../../src/org/streams/index.ts';

/**
 * GET /v1/scenes/:id keeps the rows of its statement until anything on the SQLite file changes
 * (src/platform/db/hot-read.ts `cachedHotRead`; docs/decisions.md, "Request path: the scene read's
 * rows kept until the database changes"). Repeated reads are answered from the kept rows, and
 * every write is seen by the very next read: this process's writes through Kysely, its raw
 * statements, and commits made by another connection or another process on the same file.
 */
describe('scene read: rows kept until the database changes (sqlite)', () => {
  let t: TestApp;
  let key: { key: string };
  let sceneId = '';
  let streamId = '';
  before(async () => {
    t = await createTestApp({ dialect: 'sqlite' });
    key = await t.orgKey();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/streams',
      headers: bearer(key),
      payload: { name: 'lobby-a', source_type: 'sandbox', source_url: 'sandbox://lobby', location: 'lobby' },
    });
    assert.equal(res.statusCode, 201, res.body);
    ({ id: streamId, scene_id: sceneId } = res.json() as { id: string; scene_id: string });
  });
  after(() => t.close());

  const read = async () => {
    const res = await t.app.inject({ url: `/v1/scenes/${sceneId}`, headers: bearer(key) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { capacity: number; stream_ids: string[]; as_of: string | null; sources_live: boolean; time_zone: string };
  };
  const file = () => t.ctx.database.sqlite!.name;

  test('repeated reads are answered from the kept rows, with the same body', async () => {
    const first = await read();
    const { hits, misses } = findWithStreamIds.stats;
    const again = await read();
    const third = await read();
    assert.equal(findWithStreamIds.stats.misses, misses, 'no statement ran for the repeated reads');
    assert.equal(findWithStreamIds.stats.hits, hits + 2);
    assert.deepEqual({ ...again, as_of: null }, { ...first, as_of: null });
    assert.deepEqual(third.stream_ids, [streamId]);
  });

  test("a stream's status and last frame written by the ingest side are in the next read", async () => {
    await read();
    const at = new Date(Date.now() - 1000).toISOString();
    await t.ctx.database.withWriteLock((trx) => updateStream(trx, streamId, { status: 'offline', last_frame_at: at }));
    const offline = await read();
    assert.equal(offline.as_of, at);
    assert.equal(offline.sources_live, false);
    await t.ctx.database.withWriteLock((trx) => updateStream(trx, streamId, { status: 'live' }));
    assert.equal((await read()).sources_live, true);
  });

  test('a new stream of the scene, and PATCH, are in the next read', async () => {
    await read();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/streams',
      headers: bearer(key),
      payload: { name: 'lobby-b', source_type: 'sandbox', source_url: 'sandbox://lobby', location: 'lobby' },
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual((await read()).stream_ids, [res.json().id, streamId].sort().reverse());
    const patched = await t.app.inject({ method: 'PATCH', url: `/v1/scenes/${sceneId}`, headers: bearer(key), payload: { capacity: 41 } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal((await read()).capacity, 41);
  });

  test("a raw statement on the app's own connection is seen at once; a rolled-back write changes nothing", async () => {
    await read();
    t.ctx.database.sqlite!.prepare('UPDATE scenes SET capacity = 43 WHERE id = ?').run(sceneId);
    assert.equal((await read()).capacity, 43);
    let during: Promise<{ capacity: number }> | undefined;
    await assert.rejects(
      t.ctx.database.withWriteLock(async (trx) => {
        await trx.updateTable('scenes').set({ capacity: 44 }).where('id', '=', sceneId).execute();
        // a read while the transaction is open waits for it and never sees its uncommitted row
        during = read();
        await new Promise((r) => setTimeout(r, 20));
        throw new Error('roll back');
      }),
      /roll back/,
    );
    assert.equal((await during!).capacity, 43);
    assert.equal((await read()).capacity, 43);
  });

  test('a commit by another connection on the same file is in the next read', async () => {
    await read();
    const other = new SQLite(file());
    try {
      other.prepare('UPDATE scenes SET capacity = 45 WHERE id = ?').run(sceneId);
    } finally {
      other.close();
    }
    assert.equal((await read()).capacity, 45);
  });

  test('a commit by another process on the same file is in the next read', async () => {
    await read();
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const script = `const D = require(${JSON.stringify(driver)}); const db = new D(process.argv[1]); db.pragma('busy_timeout = 5000'); db.prepare("UPDATE scenes SET capacity = 46, time_zone = 'Europe/Lisbon' WHERE id = ?").run(process.argv[2]); db.close();`;
    const r = spawnSync(process.execPath, ['-e', script, file(), sceneId], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const after = await read();
    assert.equal(after.capacity, 46);
    assert.equal(after.time_zone, 'Europe/Lisbon');
  });
});
