import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { FfmpegFrameSource } from '../../src/ingest/video/ffmpeg-frame-source.ts';
import { resolveFfmpegPath } from '../../src/ingest/video/index.ts';
import { SegmentRecorder, type ClosedSegment } from '../../src/org/recordings/segment-recorder.ts';
import { systemClock } from '../../src/platform/time/index.ts';
import { VTEST_AVI } from '../fixtures-video/rtsp-camera.ts';
import { encodeH264Camera } from '../fixtures-video/h264-camera.ts';

// Recording as a second output of the decoding ffmpeg, with real ffmpeg: H.264 is copied,
// vtest.avi's MPEG-4 part 2 is transcoded, kill -9 loses at most the open segment, and what a
// crash left half-written is repaired or dropped at the next start.
let dir: string;
let h264: string;
let wrapper: string;
const ffmpeg = resolveFfmpegPath();

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-rec-'));
  h264 = join(dir, 'h264.mp4');
  // an H.264 camera: vtest.avi encoded once by libx264 (Debian's ffmpeg has it)
  encodeH264Camera(h264, 12);
  // a wrapper that notes each ffmpeg's pid and arguments, then becomes that ffmpeg (exec keeps the pid)
  wrapper = join(dir, 'ffmpeg-wrapper.sh');
  writeFileSync(wrapper, `#!/bin/sh\necho "$$ $*" >> ${join(dir, 'launches.txt')}\nexec ${ffmpeg} "$@"\n`);
  chmodSync(wrapper, 0o755);
});

after(() => rmSync(dir, { recursive: true, force: true }));

function launches(): Array<{ pid: number; args: string }> {
  if (!existsSync(join(dir, 'launches.txt'))) return [];
  return readFileSync(join(dir, 'launches.txt'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => ({ pid: Number(l.split(' ')[0]), args: l.slice(l.indexOf(' ') + 1) }));
}

function recorder(root: string, sealed: ClosedSegment[]) {
  return new SegmentRecorder({
    root,
    nodeId: 'local',
    ffmpegPath: () => ffmpeg,
    segmentSeconds: 2,
    transcode: { width: 320, fps: 10 },
    seal: async (s) => void sealed.push(s),
    blocked: () => null,
  });
}

const probe = (file: string, entries: string) =>
  execFileSync(ffmpeg.replace(/ffmpeg$/, 'ffprobe'), ['-v', 'error', '-show_entries', entries, '-of', 'default=nw=1:nk=1', file])
    .toString()
    .trim()
    .split('\n');

async function waitFor(what: string, ok: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function startSource(url: string, rec: SegmentRecorder | null, frames: { n: number }) {
  const source = new FfmpegFrameSource({
    sourceUrl: url,
    clock: systemClock,
    ffmpegPath: wrapper,
    detectFps: 5,
    detectWidth: 320,
    backoff: { initialMs: 200, maxMs: 500 },
    onFrame: () => void frames.n++,
    onStatus: () => undefined,
    ...(rec ? { recorder: rec.camera({ tenantId: 'org_1', streamId: 'stream_1' }) } : {}),
  });
  source.start();
  return source;
}

test('without a recorder the decoding ffmpeg runs exactly as before: one output, raw frames to stdout', async () => {
  const frames = { n: 0 };
  const before = launches().length;
  const source = startSource(`file://${h264}`, null, frames);
  await waitFor('frames', () => frames.n >= 3, 20_000);
  await source.stop();
  const args = launches()[before].args;
  assert.equal(args, FfmpegFrameSource.buildArgs(`file://${h264}`, 5, 320).join(' '));
  assert.doesNotMatch(args, /segment/);
});

test('an H.264 source is recorded by copying, in ~2 s segments sealed with their SHA-256, by the same ffmpeg that decodes', async () => {
  const root = join(dir, 'copy');
  const sealed: ClosedSegment[] = [];
  const rec = recorder(root, sealed);
  const frames = { n: 0 };
  const before = launches().length;
  const source = startSource(`file://${h264}`, rec, frames);
  await waitFor('three sealed segments', () => sealed.length >= 3, 30_000);
  await source.stop();
  await rec.settle();
  // one ffmpeg: the decode output and the segment output on one command line
  const mine = launches().slice(before);
  assert.equal(mine.length, 1);
  assert.match(mine[0].args, /image2pipe -c:v ppm - -map 0:v:0 -c:v copy -f segment -segment_time 2/);
  assert.ok(frames.n > 10, `decoding went on: ${frames.n} frames`);
  for (const s of sealed) {
    const file = join(root, s.path);
    assert.equal(s.sha256, createHash('sha256').update(readFileSync(file)).digest('hex'));
    assert.equal(s.bytes, statSync(file).size);
    assert.equal(s.codec, 'h264');
    assert.match(s.path, /^org_1\/stream_1\/\d{4}-\d{2}-\d{2}\/\d+-\d+\.mp4$/);
    assert.equal(probe(file, 'stream=codec_name')[0], 'h264');
  }
  // closed segments follow each other without gaps; the first two are the segment length
  for (let i = 1; i < sealed.length; i++) assert.equal(sealed[i].startAt, sealed[i - 1].endAt);
  for (const s of sealed.slice(0, 2)) assert.ok(Math.abs(s.endAt - s.startAt - 2000) <= 500, `segment of ${s.endAt - s.startAt} ms`);
  // nothing left open once the ffmpeg ended
  assert.deepEqual(readdirSync(join(root, 'org_1/stream_1/.open/local')), []);
});

test('vtest.avi (MPEG-4 part 2, which browsers do not play) is transcoded to H.264 at the configured size', async () => {
  const root = join(dir, 'transcode');
  const sealed: ClosedSegment[] = [];
  const rec = recorder(root, sealed);
  const frames = { n: 0 };
  const before = launches().length;
  const source = startSource(`file://${VTEST_AVI}`, rec, frames);
  await waitFor('two sealed segments', () => sealed.length >= 2, 30_000);
  await source.stop();
  await rec.settle();
  assert.match(launches()[before].args, /-map 0:v:0 -vf fps=10,scale=w=min\(320\\,iw\):h=-2 -c:v libx264/);
  const file = join(root, sealed[0].path);
  assert.deepEqual(probe(file, 'stream=codec_name,width'), ['h264', '320']);
});

test('kill -9 of the ffmpeg loses at most the open segment: it is repaired and sealed, and the source restarts', async () => {
  const root = join(dir, 'killed');
  const sealed: ClosedSegment[] = [];
  const rec = recorder(root, sealed);
  const frames = { n: 0 };
  const before = launches().length;
  const source = startSource(`file://${h264}`, rec, frames);
  await waitFor('a sealed segment', () => sealed.length >= 1, 30_000);
  // into the next segment
  await new Promise((r) => setTimeout(r, 1500));
  const victim = launches()[before].pid;
  const closedBeforeKill = sealed.length;
  const lastClosedEnd = sealed[closedBeforeKill - 1].endAt;
  process.kill(victim, 'SIGKILL');
  await waitFor('the source to restart ffmpeg', () => launches().length > before + 1, 20_000);
  await waitFor('recording to resume after the restart', () => sealed.some((s) => s.startAt > lastClosedEnd), 30_000);
  await source.stop();
  await rec.settle();
  // every segment closed before the kill is kept; the open one was repaired (it follows the last
  // closed one) unless it held less than a fragment; nothing is left open
  assert.ok(sealed.length > closedBeforeKill);
  const repaired = sealed.find((s) => s.startAt === lastClosedEnd);
  if (repaired) assert.equal(probe(join(root, repaired.path), 'stream=codec_name')[0], 'h264');
  const lost =
    (sealed
      .filter((s) => s.startAt > lastClosedEnd)
      .map((s) => s.startAt)
      .sort()[0] ?? 0) - (repaired?.endAt ?? lastClosedEnd);
  assert.ok(lost < 2000 + 5000, `lost ${lost} ms: at most the open segment (and the restart)`);
  assert.deepEqual(readdirSync(join(root, 'org_1/stream_1/.open/local')), []);
});

test('at start, a half-written segment left by a crash is repaired and a file with no video is dropped', async () => {
  const root = join(dir, 'crashed');
  // a complete fragmented segment from the copy test, cut at 60 %: what a power cut leaves
  const copyRoot = join(dir, 'copy/org_1/stream_1');
  const dayDir = readdirSync(copyRoot).find((d) => /^\d{4}/.test(d))!;
  const source = join(copyRoot, dayDir, readdirSync(join(copyRoot, dayDir))[0]);
  const whole = readFileSync(source);
  const launch = join(root, 'org_1/stream_9/.open/local/1700000000000-abcdef');
  mkdirSync(launch, { recursive: true });
  writeFileSync(join(launch, '1700000000.mp4'), whole.subarray(0, Math.floor(whole.length * 0.6)));
  writeFileSync(join(launch, '1700000002.mp4'), Buffer.from('not a video at all'));
  const sealed: ClosedSegment[] = [];
  const rec = recorder(root, sealed);
  assert.equal(await rec.recoverAll(), 1);
  assert.equal(sealed.length, 1, 'the truncated segment was repaired; the garbage was dropped');
  assert.equal(sealed[0].startAt, 1_700_000_000_000);
  assert.equal(sealed[0].streamId, 'stream_9');
  assert.ok(sealed[0].endAt - sealed[0].startAt > 0);
  assert.equal(probe(join(root, sealed[0].path), 'stream=codec_name')[0], 'h264');
  assert.equal(existsSync(launch), false, 'the launch directory is gone');
});

test('a seal that fails leaves the segment for the next recovery instead of losing it', async () => {
  const root = join(dir, 'unsealed');
  let fail = true;
  const sealed: ClosedSegment[] = [];
  const rec = new SegmentRecorder({
    root,
    nodeId: 'local',
    ffmpegPath: () => ffmpeg,
    segmentSeconds: 2,
    transcode: { width: 320, fps: 10 },
    seal: async (s) => {
      if (fail) throw new Error('database down');
      sealed.push(s);
    },
    blocked: () => null,
  });
  const frames = { n: 0 };
  const src = startSource(`file://${h264}`, rec, frames);
  await waitFor('frames', () => frames.n >= 15, 30_000);
  await src.stop();
  await rec.settle();
  assert.equal(sealed.length, 0);
  const open = join(root, 'org_1/stream_1/.open/local');
  assert.equal(readdirSync(open).length, 1, 'the launch directory stays');
  fail = false;
  await rec.recoverAll();
  assert.ok(sealed.length >= 1);
  assert.deepEqual(readdirSync(open), []);
});
