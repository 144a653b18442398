import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/platform/config/config.ts';
import { VTEST_AVI } from '../fixtures-video/rtsp-camera.ts';
import { startVideoApp, waitUntil, type VideoApp } from '../video-integration/video-app.ts';

// The node's limit on transcoded recordings as an operator sees it (VIGIL_RECORDINGS_MAX_TRANSCODES
// of one, real ffmpeg, vtest.avi's MPEG-4 part 2): the second camera is live and detected but not
// recorded, and its audit trail says why; deleting the first camera lets the second record, and
// its audit trail says that too.
let dir: string;
let v: VideoApp;
let key: { key: string; tenant_id: string };

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-rec-limit-api-'));
  const recordings = { ...loadConfig({}, {}).recordings, segmentSeconds: 2, transcodeWidth: 320, maxTranscodes: 1 };
  v = await startVideoApp({ config: { allowFileSources: true, recordings }, video: { camera: { detectFps: 1 } } });
  key = await v.orgKey('Limit Org');
});

after(async () => {
  await v?.close();
  rmSync(dir, { recursive: true, force: true });
});

const iso = (ms: number) => new Date(ms).toISOString();

async function camera(name: string): Promise<string> {
  const file = join(dir, `${name}.avi`);
  symlinkSync(VTEST_AVI, file);
  const created = await v.call(key, 'POST', '/v1/streams', { name, source_type: 'rtsp', source_url: `file://${file}`, location: 'yard' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.id;
}

const segments = async (id: string) =>
  (await v.call(key, 'GET', `/v1/streams/${id}/recordings?from=${iso(Date.now() - 600_000)}&to=${iso(Date.now() + 1000)}`)).body.segments.length as number;
const auditOf = async (action: string, id: string) => (await v.call(key, 'GET', `/v1/audit?action=${action}&resource_id=${id}&limit=10`)).body.data as any[];

test('a camera beyond the limit is live without recording and says why; it records once the transcoding camera is gone', async () => {
  const first = await camera('Gate');
  await waitUntil('the first camera recorded', async () => (await segments(first)) >= 1, 60_000);
  const second = await camera('Yard');
  await waitUntil('the second camera live', async () => (await v.call(key, 'GET', `/v1/streams/${second}`)).body.status === 'live', 60_000);
  const stopped = await waitUntil('the reason in the audit trail', async () => (await auditOf('recording.stopped', second))[0], 30_000);
  assert.match(stopped.data.reason, /VIGIL_RECORDINGS_MAX_TRANSCODES=1.*decoded and detected without recording until one of them stops/);
  assert.equal(await segments(second), 0, 'not recorded while it waits');
  assert.equal((await auditOf('recording.stopped', first)).length, 0);

  assert.equal((await v.call(key, 'DELETE', `/v1/streams/${first}`)).status, 200);
  await waitUntil('the second camera recorded', async () => (await segments(second)) >= 1, 60_000);
  const resumed = await auditOf('recording.resumed', second);
  assert.equal(resumed.length, 1);
  assert.equal((await auditOf('recording.stopped', second)).length, 1, 'said once');
  assert.equal((await v.call(key, 'GET', `/v1/streams/${second}`)).body.status, 'live');
});
