import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/platform/config/config.ts';
import { resolveFfmpegPath } from '../../src/ingest/video/index.ts';
import { bearer } from '../helpers/harness.ts';
import { PERSON_JPG } from '../fixtures-video/rtsp-camera.ts';
import { WhipTestPublisher } from '../fixtures-video/whip-publisher.ts';
import { startVideoApp, waitUntil, type VideoApp } from '../video-integration/video-app.ts';

// A WHIP publisher (VP8, copied into WebM) and a phone (stills kept as a sequence) are recorded,
// and their clips play: WebM VP8 for the publisher, an H.264 MP4 made from the stills for the phone.
const ffmpeg = resolveFfmpegPath();
let v: VideoApp;
let base: string;
let key: { key: string; tenant_id: string };
let dir: string;
const publishers: WhipTestPublisher[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-rec-pub-'));
  const recordings = { ...loadConfig({}, {}).recordings, segmentSeconds: 2 };
  v = await startVideoApp({ config: { recordings }, video: { camera: { detectFps: 1 }, whip: { mediaTimeoutMs: 3000, disconnectedGraceMs: 3000, connectTimeoutMs: 15_000 } } });
  await v.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(v.app.server.address() as AddressInfo).port}`;
  key = await v.orgKey('Patrol');
});

after(async () => {
  await Promise.allSettled(publishers.map((p) => p.vanish()));
  await v?.close();
  rmSync(dir, { recursive: true, force: true });
});

const iso = (ms: number) => new Date(ms).toISOString();
const probe = (file: string, entries: string) => execFileSync(ffmpeg.replace(/ffmpeg$/, 'ffprobe'), ['-v', 'error', '-show_entries', entries, '-of', 'default=nw=1:nk=1', file]).toString().trim().split('\n');

test('a WHIP publisher (VP8) is recorded by copying into WebM segments, and its clip is VP8 WebM', async () => {
  const created = await v.call(key, 'POST', '/v1/streams', { name: 'Guard phone', source_type: 'webrtc', source_url: 'webrtc://guard-phone', location: 'gate' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const p = created.body.publish;
  const whipUrl = base + new URL(p.whip_url).pathname;
  const publisher = WhipTestPublisher.create({ whipUrl, token: p.token, codec: 'VP8' });
  publishers.push(publisher);
  const started = Date.now();
  assert.equal((await publisher.publish()).status, 201);
  const list = await waitUntil('three recorded segments', async () => {
    const l = (await v.call(key, 'GET', `/v1/streams/${created.body.id}/recordings?from=${iso(started - 5000)}&to=${iso(Date.now() + 1000)}`)).body;
    return l.segments?.length >= 3 && l;
  }, 60_000);
  await publisher.stop();
  const from = Date.parse(list.segments[0].start);
  const to = Date.parse(list.segments[2].end);
  const res = await v.app.inject({ method: 'GET', url: `/v1/streams/${created.body.id}/clip?from=${iso(from)}&to=${iso(to)}`, headers: bearer(key) });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'video/webm');
  const file = join(dir, 'whip.webm');
  writeFileSync(file, res.rawPayload);
  assert.equal(probe(file, 'stream=codec_name')[0], 'vp8');
  assert.ok(Number(probe(file, 'format=duration')[0]) >= 3, 'about the 6 s asked');
});

test('a phone\'s frames are kept as a sequence of stills, and its clip is an H.264 MP4 of them', async () => {
  const created = await v.call(key, 'POST', '/v1/streams', { name: 'Guard phone camera', source_type: 'mobile', source_url: 'mobile://guard', location: 'gate' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const jpeg = readFileSync(PERSON_JPG);
  const first = Date.now();
  for (let i = 0; i < 3; i++) {
    const r = await v.app.inject({ method: 'POST', url: `/v1/streams/${created.body.id}/frames`, headers: { ...bearer(key), 'content-type': 'image/jpeg' }, payload: jpeg });
    assert.equal(r.statusCode, 200, r.body);
    await new Promise((r) => setTimeout(r, 400));
  }
  const list = await waitUntil('three stills', async () => {
    const l = (await v.call(key, 'GET', `/v1/streams/${created.body.id}/recordings?from=${iso(first - 1000)}&to=${iso(Date.now() + 2000)}`)).body;
    return l.segments?.length >= 3 && l;
  }, 30_000);
  assert.deepEqual(list.segments.map((s: any) => s.kind), ['still', 'still', 'still']);
  const res = await v.app.inject({ method: 'GET', url: `/v1/streams/${created.body.id}/clip?from=${iso(first - 1000)}&to=${iso(Date.now() + 2000)}`, headers: bearer(key) });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'video/mp4');
  const file = join(dir, 'phone.mp4');
  writeFileSync(file, res.rawPayload);
  assert.equal(probe(file, 'stream=codec_name')[0], 'h264');
});
