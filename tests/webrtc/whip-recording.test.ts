import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/platform/config/config.ts';
import { resolveFfmpegPath } from '../../src/ingest/video/index.ts';
import { bearer } from '../helpers/harness.ts';
import { WhipTestPublisher } from '../fixtures-video/whip-publisher.ts';
import { startVideoApp, waitUntil, type VideoApp } from '../video-integration/video-app.ts';

// WHIP publishers are recorded (docs/decisions.md, "Recordings: WHIP publishers"): a werift
// publisher sends vtest.avi over real sockets, VP8 and then H.264; the decoding ffmpeg's second
// output writes 2 s segments (VP8 copied into WebM, H.264 into MP4), which are sealed and listed;
// a clip of the range is made and ffprobe counts its frames and duration; the publisher's session
// stays up the whole time (no decoder restart, still live).
const ffmpeg = resolveFfmpegPath();
const ffprobe = ffmpeg.replace(/ffmpeg$/, 'ffprobe');
let v: VideoApp;
let base: string;
let key: { key: string; tenant_id: string };
let dir: string;
const publishers: WhipTestPublisher[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-whip-rec-'));
  const recordings = { ...loadConfig({}, {}).recordings, segmentSeconds: 2, maxClipMs: 600_000 };
  // the session's media timer at its default (10 s): a loaded machine can hold packets back for seconds
  v = await startVideoApp({ config: { recordings }, video: { whip: { connectTimeoutMs: 30_000 } } });
  await v.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(v.app.server.address() as AddressInfo).port}`;
  key = await v.orgKey('Drone Recording');
});

after(async () => {
  await Promise.allSettled(publishers.map((p) => p.vanish()));
  await v?.close();
  rmSync(dir, { recursive: true, force: true });
});

const iso = (ms: number) => new Date(ms).toISOString();

async function recordsAndPlays(codec: 'VP8' | 'H264', location: string): Promise<void> {
  const created = await v.call(key, 'POST', '/v1/streams', { name: `Drone ${codec}`, source_type: 'webrtc', source_url: 'webrtc://drone', location });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id: string = created.body.id;
  const startedAt = Date.now();
  const p = WhipTestPublisher.create({ whipUrl: base + new URL(created.body.publish.whip_url).pathname, token: created.body.publish.token, codec });
  publishers.push(p);
  assert.equal((await p.publish()).status, 201);
  await waitUntil('live', async () => (await v.call(key, 'GET', `/v1/streams/${id}`)).body.status === 'live', 60_000).catch((err) => {
    throw new Error(`${(err as Error).message}; session ${JSON.stringify(v.ctx.whip.sessionStats(id))}; sent ${p.packetsSent} packets`);
  });

  // segments are sealed while the publisher keeps publishing
  const listing = await waitUntil(
    'three sealed segments',
    async () => {
      const l = (await v.call(key, 'GET', `/v1/streams/${id}/recordings?from=${iso(startedAt - 5000)}&to=${iso(Date.now() + 1000)}`)).body;
      return l.segments?.length >= 3 && l;
    },
    90_000,
  ).catch((err) => {
    throw new Error(
      `${(err as Error).message}; session ${JSON.stringify(v.ctx.whip.sessionStats(id))}; files ${execFileSync('sh', ['-c', `find ${v.ctx.recordings.root} -type f | xargs ls -la; cat $(find ${v.ctx.recordings.root} -name segments.csv)`]).toString()}`,
    );
  });
  for (const s of listing.segments) {
    assert.equal(s.kind, 'video');
    assert.match(s.sha256, /^[0-9a-f]{64}$/);
  }
  const rows = await v.ctx.database.db.selectFrom('recording_segments').select(['codec', 'path']).where('stream_id', '=', id).execute();
  assert.ok(rows.length >= 3);
  for (const r of rows) {
    assert.equal(r.codec, codec === 'VP8' ? 'vp8' : 'h264');
    assert.match(r.path, codec === 'VP8' ? /\.webm$/ : /\.mp4$/);
  }
  // each segment is sealed in the audit trail
  const audit = await v.call(key, 'GET', `/v1/audit?action=recording.segment_closed&resource_id=${id}&limit=100`);
  assert.ok(audit.body.data.length >= 3);

  // the publisher's session stayed up: still live, the same decoder, frames still decoded
  const st = v.ctx.whip.sessionStats(id);
  assert.ok(st, 'the session is still there');
  assert.equal(st.codec, codec);
  assert.equal(st.decoder_restarts, 0);
  const decoded = st.frames_decoded;
  await waitUntil('frames keep being decoded', async () => (v.ctx.whip.sessionStats(id)?.frames_decoded ?? 0) > decoded + 3, 30_000);
  assert.equal((await v.call(key, 'GET', `/v1/streams/${id}`)).body.status, 'live');

  // a clip of the recorded range plays: ffprobe finds its video, duration and frames
  const first = listing.segments[0];
  const last = listing.segments.at(-1);
  const from = Date.parse(first.start);
  const to = Date.parse(last.end);
  const res = await v.app.inject({ url: `/v1/streams/${id}/clip?from=${iso(from)}&to=${iso(to)}`, headers: bearer(key) });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], codec === 'VP8' ? 'video/webm' : 'video/mp4');
  const file = join(dir, `${codec}.${codec === 'VP8' ? 'webm' : 'mp4'}`);
  writeFileSync(file, res.rawPayload);
  const [codecName, frames] = execFileSync(ffprobe, [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-count_frames',
    '-show_entries',
    'stream=codec_name,nb_read_frames',
    '-of',
    'default=nw=1:nk=1',
    file,
  ])
    .toString()
    .trim()
    .split('\n');
  const duration = Number(execFileSync(ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=nw=1:nk=1', file]).toString().trim());
  assert.equal(codecName, codec === 'VP8' ? 'vp8' : 'h264');
  const expected = (to - from) / 1000;
  assert.ok(duration >= expected * 0.6 && duration <= expected + 2.5, `clip ${duration} s for a range of ${expected} s`);
  // the publisher sends vtest.avi at 10 fps when the machine keeps up; at least one a second under load
  assert.ok(Number(frames) >= duration, `${frames} frames in ${duration} s`);

  // a Range request of the clip answers 206 (the browser's seek)
  const part = await v.app.inject({ url: `/v1/streams/${id}/clip?from=${iso(from)}&to=${iso(to)}`, headers: { ...bearer(key), range: 'bytes=0-99' } });
  assert.equal(part.statusCode, 206);
  assert.equal(part.rawPayload.length, 100);

  const del = await p.stop();
  assert.equal(del!.status, 200);
}

test('a VP8 WHIP publisher is recorded into WebM segments; a clip of them plays; the session stays up', async () => {
  await recordsAndPlays('VP8', 'north_gate');
});

test('an H.264 WHIP publisher is recorded into MP4 segments by copy; a clip of them plays; the session stays up', async () => {
  await recordsAndPlays('H264', 'south_gate');
});
