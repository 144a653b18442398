import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../../src/platform/db/index.ts';

/**
 * The SQLite WAL under sustained writes: a passive checkpoint alone never lets the log
 * start over while commits keep arriving, so the -wal file grew by every page ever written (a disk
 * filling up under a busy pipeline). The checkpointer now holds writers back for a moment to catch
 * up, and the log starts over from its beginning.
 */
test('under back-to-back commits the WAL file stays bounded and every write is kept', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-wal-'));
  const h = openDatabase({ databaseUrl: null, dataDir: dir, checkpoint: { intervalMs: 20, restartFrames: 64 } });
  try {
    const raw = h.sqlite!;
    // one ~3 KB row per 4 KB page: updating k distinct rows writes at least k WAL frames
    const ROWS = 2000;
    raw.exec('CREATE TABLE pages (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, body TEXT NOT NULL)');
    const insert = raw.prepare('INSERT INTO pages (id, n, body) VALUES (?, 0, ?)');
    raw.transaction(() => {
      for (let i = 0; i < ROWS; i++) insert.run(i, 'x'.repeat(3000));
    })();
    // the log starts empty: what it holds from here on is the commits' doing
    raw.pragma('wal_checkpoint(TRUNCATE)');
    const bump = raw.prepare('UPDATE pages SET n = n + 1 WHERE id = ?');
    const walFile = join(dir, 'vigil.sqlite-wal');
    const PER_COMMIT = 4;
    const COMMITS = 2600;
    let maxWal = 0;
    for (let c = 0; c < COMMITS; c++) {
      await h.withWriteLock(async () => {
        for (let k = 0; k < PER_COMMIT; k++) bump.run((c * 7 + k * 503) % ROWS);
      });
      maxWal = Math.max(maxWal, statSync(walFile).size);
      // back to back, about a thousand commits a second
      await new Promise((r) => setTimeout(r, 0));
    }
    const written = COMMITS * PER_COMMIT * 4096;
    assert.ok(written >= 40 * 1048576, 'the test writes at least 40 MB of pages');
    // without the catch-up the file holds every frame written (>= 40 MB); with it, about what is
    // written between two checkpoints (0.6 MB on a quiet machine, 36-41 MB with the old checkpointer; half is the margin for a loaded one)
    assert.ok(maxWal < written / 2, `WAL grew to ${(maxWal / 1048576).toFixed(1)} MB for ${(written / 1048576).toFixed(0)} MB of pages written`);
    const { total } = raw.prepare('SELECT sum(n) AS total FROM pages').get() as { total: number };
    assert.equal(total, COMMITS * PER_COMMIT, 'every committed update is there');
    assert.equal(raw.pragma('integrity_check', { simple: true }), 'ok');
  } finally {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
