import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FfmpegFrameSource } from '../../src/ingest/video/ffmpeg-frame-source.ts';
import { resolveFfmpegPath } from '../../src/ingest/video/index.ts';
import { SegmentRecorder, type ClosedSegment, type StreamKey } from '../../src/org/recordings/segment-recorder.ts';
import { TranscodeSlots } from '../../src/org/recordings/transcode-slots.ts';
import { systemClock } from '../../src/platform/time/index.ts';
import { VTEST_AVI } from '../fixtures-video/rtsp-camera.ts';
import { encodeH264Camera } from '../fixtures-video/h264-camera.ts';

// A node's limit on transcoded recordings (VIGIL_RECORDINGS_MAX_TRANSCODES), with real ffmpeg: with
// a limit of one, a second vtest.avi camera is decoded without recording and says so once; an H.264
// camera is recorded by copy beside them; when the transcoding camera stops, the waiting one's
// ffmpeg is restarted with the recording output and it records.
let dir: string;
let wrapper: string;
const ffmpeg = resolveFfmpegPath();
const files: Record<string, string> = {};

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-rec-limit-'));
  // one file name per camera, so each ffmpeg's command line says which camera it decodes
  for (const name of ['a', 'b']) {
    files[name] = join(dir, `camera-${name}.avi`);
    symlinkSync(VTEST_AVI, files[name]);
  }
  files.h264 = join(dir, 'camera-h264.mp4');
  encodeH264Camera(files.h264, 12);
  wrapper = join(dir, 'ffmpeg-wrapper.sh');
  writeFileSync(wrapper, `#!/bin/sh\necho "$$ $*" >> ${join(dir, 'launches.txt')}\nexec ${ffmpeg} "$@"\n`);
  chmodSync(wrapper, 0o755);
});

after(() => rmSync(dir, { recursive: true, force: true }));

function launchesOf(camera: string): Array<{ pid: number; args: string }> {
  if (!existsSync(join(dir, 'launches.txt'))) return [];
  return readFileSync(join(dir, 'launches.txt'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => ({ pid: Number(l.split(' ')[0]), args: l.slice(l.indexOf(' ') + 1) }))
    .filter((l) => l.args.includes(files[camera]));
}

async function waitFor(what: string, ok: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function camera(rec: SegmentRecorder, name: string, frames: Map<string, number>) {
  frames.set(name, 0);
  const source = new FfmpegFrameSource({
    sourceUrl: `file://${files[name]}`,
    clock: systemClock,
    ffmpegPath: wrapper,
    detectFps: 5,
    detectWidth: 320,
    backoff: { initialMs: 200, maxMs: 500 },
    onFrame: () => void frames.set(name, frames.get(name)! + 1),
    onStatus: () => undefined,
    recorder: rec.camera({ tenantId: 'org_1', streamId: `stream_${name}` }),
  });
  source.start();
  return source;
}

test('beyond the limit a transcoded camera is decoded without recording, says so once, and records when the transcoding one stops; copies are not limited', async () => {
  const sealed: ClosedSegment[] = [];
  const told: Array<{ k: StreamKey; reason: string }> = [];
  const resumed: StreamKey[] = [];
  const rec = new SegmentRecorder({
    root: join(dir, 'rec'),
    nodeId: 'local',
    ffmpegPath: () => ffmpeg,
    segmentSeconds: 2,
    transcode: { width: 320, fps: 10, max: 1 },
    waiting: (k, reason) => void told.push({ k, reason }),
    resumed: (k) => void resumed.push(k),
    seal: async (s) => void sealed.push(s),
    blocked: () => null,
  });
  const of = (stream: string) => sealed.filter((s) => s.streamId === stream);
  const frames = new Map<string, number>();
  const a = camera(rec, 'a', frames);
  await waitFor('camera a to be recorded', () => of('stream_a').length >= 1, 30_000);
  const b = camera(rec, 'b', frames);
  const h264 = camera(rec, 'h264', frames);
  await waitFor('camera b to be decoded', () => frames.get('b')! >= 10, 30_000);
  await waitFor('the H.264 camera to be recorded', () => of('stream_h264').length >= 1, 30_000);

  // b: decoded and detected, no recording output on its ffmpeg, one clear reason
  assert.equal(launchesOf('b').length, 1);
  assert.doesNotMatch(launchesOf('b')[0].args, /segment/);
  assert.deepEqual(
    told.map((t) => t.k.streamId),
    ['stream_b'],
  );
  assert.match(
    told[0].reason,
    /already transcodes 1 recording \(VIGIL_RECORDINGS_MAX_TRANSCODES=1\).*decoded and detected without recording until one of them stops/,
  );
  assert.deepEqual(rec.slots.counts(), { transcoding: 1, waiting: 1 });
  // the copy is not counted: its ffmpeg copies
  assert.match(launchesOf('h264')[0].args, /-map 0:v:0 -c:v copy -f segment/);

  // b's ffmpeg ends on its own while it waits: it restarts, still waiting, and is not told again
  process.kill(launchesOf('b')[0].pid, 'SIGKILL');
  await waitFor("b's ffmpeg to restart", () => launchesOf('b').length === 2, 20_000);
  const framesAfterKill = frames.get('b')!;
  await waitFor('camera b to be decoded again', () => frames.get('b')! > framesAfterKill + 5, 30_000);
  assert.doesNotMatch(launchesOf('b')[1].args, /segment/);
  assert.equal(told.length, 1, 'said once while it waits');
  assert.equal(of('stream_b').length, 0);

  // a stops: b's ffmpeg is restarted with the recording output, and b records
  await a.stop();
  await waitFor('camera b to be recorded', () => of('stream_b').length >= 1, 30_000);
  assert.equal(launchesOf('b').length, 3);
  assert.match(launchesOf('b')[2].args, /-map 0:v:0 -vf fps=10,scale=w=min\(320\\,iw\):h=-2 -c:v libx264/);
  assert.deepEqual(
    resumed.map((k) => k.streamId),
    ['stream_b'],
  );
  assert.deepEqual(rec.slots.counts(), { transcoding: 1, waiting: 0 });
  assert.equal(told.length, 1);

  await Promise.all([b.stop(), h264.stop()]);
  await rec.settle();
  assert.deepEqual(rec.slots.counts(), { transcoding: 0, waiting: 0 });
  for (const s of of('stream_b')) assert.equal(s.codec, 'h264');
});

test('a slot handed to a stream that does not take it goes to the next in line', async () => {
  const slots = new TranscodeSlots(1, 200);
  const woken: string[] = [];
  assert.equal(
    slots.take('a', () => woken.push('a')),
    true,
  );
  assert.equal(
    slots.take('b', () => woken.push('b')),
    false,
  );
  assert.equal(
    slots.take('c', () => woken.push('c')),
    false,
  );
  // b asks again (a new run): it keeps its place in line
  assert.equal(
    slots.take('b', () => woken.push('b again')),
    false,
  );
  slots.release('a');
  assert.deepEqual(woken, ['b again'], 'the first in line is woken, with its latest run');
  // the slot is kept for b: a newcomer does not get it
  assert.equal(
    slots.take('d', () => woken.push('d')),
    false,
  );
  // b stopped meanwhile and never takes it: after the reservation time, c is woken
  await new Promise((r) => setTimeout(r, 350));
  assert.deepEqual(woken, ['b again', 'c']);
  assert.equal(
    slots.take('c', () => undefined),
    true,
  );
  slots.leave('d');
  slots.release('c');
  assert.deepEqual(woken, ['b again', 'c'], 'nobody left in line');
  assert.deepEqual(slots.counts(), { transcoding: 0, waiting: 0 });
});
