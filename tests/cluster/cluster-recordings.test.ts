import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep, startTestCluster, waitUntil, type TestCluster } from './cluster-harness.ts';
import { encodeH264Camera } from '../fixtures-video/h264-camera.ts';

/**
 * Recording through a failover, real processes (docs/deployment.md, "Recordings on shared storage"): three nodes share
 * one recordings directory; a camera (an H.264 file played in real time, looping) is recorded in 2 s
 * segments by the node that owns it. That node is killed with SIGKILL one second into a segment:
 * another node takes the stream and records on; the gap is the failover time plus what the kill
 * cut off; when the killed node starts again, the segment it left half-written is repaired and
 * sealed; every segment's file matches the SHA-256 sealed for it and the audit chain verifies.
 */
let c: TestCluster;
let shared: string;
let streamId: string;

before(
  async () => {
    shared = mkdtempSync(join(tmpdir(), 'vigil-cluster-rec-'));
    encodeH264Camera(join(shared, 'cam.mp4'), 20);
    c = await startTestCluster({
      env: { VIGIL_RECORDINGS_DIR: join(shared, 'recordings'), VIGIL_RECORDINGS_SEGMENT_SECONDS: '2', LOG_LEVEL: process.env.CLUSTER_LOG_LEVEL ?? 'warn' },
    });
    const r = await c.api(c.keys.liveOrg, 'POST', '/v1/streams', {
      name: 'Gate camera',
      source_type: 'rtsp',
      source_url: `file://${join(shared, 'cam.mp4')}`,
      location: 'gate',
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    streamId = r.body.id;
  },
  { timeout: 240_000 },
);

after(async () => {
  await c?.close();
  if (shared) rmSync(shared, { recursive: true, force: true });
});

interface Seg {
  id: string;
  start_at: number;
  end_at: number;
  path: string;
  sha256: string;
}
const segments = async () =>
  (
    await c.sql<Seg>(
      'select id, start_at::float8 as start_at, end_at::float8 as end_at, path, sha256 from recording_segments where stream_id = $1 order by start_at',
      [streamId],
    )
  ).map((s) => ({ ...s, start_at: Number(s.start_at), end_at: Number(s.end_at) }));

test(
  'kill -9 of the recording node: another node records on, the half-written segment is repaired at restart, every segment verifies',
  { timeout: 240_000 },
  async () => {
    await waitUntil('three segments sealed', async () => (await segments()).length >= 3, 90_000);
    const ownerId = (await c.owners()).get(streamId)!;
    assert.ok(ownerId);
    // kill one second into a segment: one just sealed means the next has been open for under a second
    const count = (await segments()).length;
    await waitUntil('the next segment sealed', async () => (await segments()).length > count, 30_000, 100);
    await sleep(1000);
    const before = await segments();
    const lastBefore = before.at(-1)!;
    const victim = c.byId(ownerId);
    const killedAt = Date.now();
    await victim.kill9();
    const openDir = join(
      shared,
      'recordings',
      (await c.sql<{ tenant_id: string }>('select tenant_id from streams where id = $1', [streamId]))[0].tenant_id,
      streamId,
      '.open',
      ownerId,
    );
    const leftOpen = readdirSync(openDir);
    assert.ok(leftOpen.length > 0, 'the killed node left its open segment behind');

    const newOwner = await waitUntil(
      'the stream claimed by another node',
      async () => {
        const o = (await c.owners()).get(streamId);
        return o && o !== ownerId ? o : null;
      },
      30_000,
    );
    const failoverMs = Date.now() - killedAt;
    const after = (await waitUntil(
      'two segments recorded by the new owner',
      async () => {
        const s = (await segments()).filter((x) => x.start_at > killedAt);
        return s.length >= 2 ? s : null;
      },
      60_000,
    ))!;
    const gapMs = after[0].start_at - lastBefore.end_at;
    process.stdout.write(`# recording failover: ${ownerId} → ${newOwner} in ${failoverMs} ms; gap in the recording ${gapMs} ms (2 s segments)\n`);
    // the gap: what the kill cut off (under 2 s), the takeover, and the new ffmpeg's start
    assert.ok(gapMs <= failoverMs + 2000 + 10_000, `gap ${gapMs} ms for a failover of ${failoverMs} ms`);

    // the killed node starts again: what it left open is repaired and sealed, and its launch directories are gone
    await victim.start();
    const repaired = (await waitUntil(
      'the half-written segment sealed',
      async () => {
        const s = (await segments()).filter((x) => x.start_at >= lastBefore.end_at - 1000 && x.start_at < killedAt);
        return s.length ? s[0] : null;
      },
      60_000,
    ))!;
    assert.ok(repaired.end_at - repaired.start_at >= 200 && repaired.end_at <= killedAt + 1000, JSON.stringify({ repaired, killedAt }));
    // (the restarted node may take the stream back and open a new launch beside them)
    await waitUntil('the launches left open recovered and removed', async () => leftOpen.every((l) => !existsSync(join(openDir, l))), 30_000);

    // every segment, from both nodes and the repaired one, is the file sealed for it
    for (const s of await segments()) {
      const bytes = readFileSync(join(shared, 'recordings', s.path));
      assert.equal(createHash('sha256').update(bytes).digest('hex'), s.sha256, s.path);
    }
    const verify = await c.api(c.keys.liveOrg, 'GET', '/v1/audit/verify');
    assert.equal(verify.status, 200, JSON.stringify(verify.body));
    assert.equal(verify.body.valid, true, JSON.stringify(verify.body));
    // any node serves a clip across the failover
    const clip = await c.api(
      c.keys.liveOrg,
      'GET',
      `/v1/streams/${streamId}/clip?from=${new Date(before[0].start_at).toISOString()}&to=${new Date(after.at(-1)!.end_at).toISOString()}`,
    );
    assert.equal(clip.status, 200);
  },
);
