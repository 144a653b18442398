/**
 * Recognition on decoded video: clips made with ffmpeg from an enrolled person's face and from a
 * stranger's, decoded by the project's FfmpegFrameSource, run through the engine and the
 * per-track cache as the pipeline would (one track, a door camera's whole view as search area).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createFaceEngine, SETTLE_AFTER, TrackRecognizer, type EnrolledFace, type FaceEngine, type FaceVerdict } from '../../src/ingest/faces/index.ts';
import { framesFromSource, makeFaceClip } from './face-clips.ts';
import { portraitJpeg, samePhotoFixtures } from './face-fixtures.ts';

const DOOR: [number, number, number, number] = [0, 0, 1, 1];
const N = 3;
let engine: FaceEngine;
let dir: string;
let enrolled: EnrolledFace[];

before(async () => {
  engine = await createFaceEngine();
  dir = await mkdtemp(join(tmpdir(), 'vigil-face-clip-'));
  // enrol from other pictures than the clip's: mia from a brighter shot, esma from her portrait
  const miaBrighter = (await samePhotoFixtures()).find((f) => f.person === 'mia' && f.variant === 'brighter')!;
  enrolled = [
    { personId: 'person_mia', descriptor: (await engine.bestFace(miaBrighter.jpeg)).descriptor },
    { personId: 'person_esma', descriptor: (await engine.bestFace(await portraitJpeg('esma'))).descriptor },
  ];
});
after(async () => {
  await engine?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Verdict after each decoded frame, and descriptors computed. */
async function watch(clip: string): Promise<{ verdicts: Array<FaceVerdict | undefined>; described: number }> {
  const frames = await framesFromSource(clip, 14);
  const recognizer = new TrackRecognizer(engine, { everyNFrames: N });
  const verdicts: Array<FaceVerdict | undefined> = [];
  for (let i = 0; i < frames.length; i++) verdicts.push(await recognizer.observe('door-1', i, frames[i], DOOR, enrolled));
  return { verdicts, described: recognizer.descriptorCount('door-1') };
}

test('an enrolled face in a clip is recognized as that person; the empty doorway before it gives no verdict', async () => {
  const { verdicts, described } = await watch(await makeFaceClip(dir, 'mia', await portraitJpeg('mia')));
  // 5 fps: frames 0–4 are the empty first second (frame 0 is looked at, finds no face)
  assert.equal(verdicts[0], undefined);
  const last = verdicts.at(-1);
  assert.equal(last?.status, 'recognized', JSON.stringify(last));
  assert.equal(last.status === 'recognized' && last.personId, 'person_mia');
  assert.ok(
    verdicts.every((v) => v === undefined || (v.status === 'recognized' && v.personId === 'person_mia')),
    'never anyone else',
  );
  // identity is a vote over frames: described until it settles (SETTLE_AFTER descriptors), then kept
  assert.ok(described >= 1 && described <= SETTLE_AFTER, `described ${described}`);
});

test("a stranger's face in a clip is unrecognized, described at most every N frames", async () => {
  const { verdicts, described } = await watch(await makeFaceClip(dir, 'chelsea', await portraitJpeg('chelsea')));
  assert.equal(verdicts[0], undefined);
  const last = verdicts.at(-1);
  assert.equal(last?.status, 'unrecognized', JSON.stringify(last));
  assert.ok(verdicts.every((v) => v?.status !== 'recognized'));
  // frames 0,3,6,9,12 are due; frame 0 (and maybe 3) shows the empty doorway
  assert.ok(described >= 2 && described <= Math.ceil(14 / N), `described ${described}`);
});

test("a clip with nobody's face gives no verdict at all", async () => {
  const { verdicts, described } = await watch(await makeFaceClip(dir, 'empty', null));
  assert.ok(verdicts.every((v) => v === undefined));
  assert.equal(described, 0);
});
