import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/platform/config/config.ts';
import { resolveFfmpegPath } from '../../src/ingest/video/index.ts';
import { bearer } from '../helpers/harness.ts';
import { PERSON_JPG } from '../fixtures-video/rtsp-camera.ts';
import { startVideoApp, waitUntil, type VideoApp } from '../video-integration/video-app.ts';

// A phone's frames are kept as a sequence of stills, and its clip plays: an H.264 MP4 made from
// the stills. (WHIP publishers are not recorded yet: docs/decisions.md, "Recordings".)
const ffmpeg = resolveFfmpegPath();
let v: VideoApp;
let key: { key: string; tenant_id: string };
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-rec-pub-'));
  const recordings = { ...loadConfig({}, {}).recordings, segmentSeconds: 2 };
  v = await startVideoApp({ config: { recordings }, video: { camera: { detectFps: 1 } } });
  key = await v.orgKey('Patrol');
});

after(async () => {
  await v?.close();
  rmSync(dir, { recursive: true, force: true });
});

const iso = (ms: number) => new Date(ms).toISOString();
const probe = (file: string, entries: string) =>
  execFileSync(ffmpeg.replace(/ffmpeg$/, 'ffprobe'), ['-v', 'error', '-show_entries', entries, '-of', 'default=nw=1:nk=1', file])
    .toString()
    .trim()
    .split('\n');

test("a phone's frames are kept as a sequence of stills, and its clip is an H.264 MP4 of them", async () => {
  const created = await v.call(key, 'POST', '/v1/streams', {
    name: 'Guard phone camera',
    source_type: 'mobile',
    source_url: 'mobile://guard',
    location: 'gate',
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const jpeg = readFileSync(PERSON_JPG);
  const first = Date.now();
  for (let i = 0; i < 3; i++) {
    const r = await v.app.inject({
      method: 'POST',
      url: `/v1/streams/${created.body.id}/frames`,
      headers: { ...bearer(key), 'content-type': 'image/jpeg' },
      payload: jpeg,
    });
    assert.equal(r.statusCode, 200, r.body);
    await new Promise((r) => setTimeout(r, 400));
  }
  const list = await waitUntil(
    'three stills',
    async () => {
      const l = (await v.call(key, 'GET', `/v1/streams/${created.body.id}/recordings?from=${iso(first - 1000)}&to=${iso(Date.now() + 2000)}`)).body;
      return l.segments?.length >= 3 && l;
    },
    30_000,
  );
  assert.deepEqual(
    list.segments.map((s: any) => s.kind),
    ['still', 'still', 'still'],
  );
  const res = await v.app.inject({
    method: 'GET',
    url: `/v1/streams/${created.body.id}/clip?from=${iso(first - 1000)}&to=${iso(Date.now() + 2000)}`,
    headers: bearer(key),
  });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'video/mp4');
  const file = join(dir, 'phone.mp4');
  writeFileSync(file, res.rawPayload);
  assert.equal(probe(file, 'stream=codec_name')[0], 'h264');
});
