import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { FramePipeline } from '../../src/ingest/video/frame-pipeline.ts';
import { createDetectorPool, type Detector, type DetectorPool, type RgbFrame } from '../../src/ingest/video/index.ts';
import { decodeFrames } from '../fixtures-video/decode-frames.ts';
import { VTEST_AVI } from '../fixtures-video/rtsp-camera.ts';

// Frames of vtest.avi at 5 fps, decoded by ffmpeg, fed through the pipeline with the real
// detector; the count of detector runs is what a quiet camera costs.
let pool: DetectorPool;
let frames: RgbFrame[];
let lawn: RgbFrame[];
let runs = 0;
let counting: Detector;

before(async () => {
  [pool, frames, lawn] = await Promise.all([
    createDetectorPool({ workers: 1 }),
    decodeFrames(VTEST_AVI, 40, 5),
    // the lawn at the bottom left, where nobody walks: real footage of an empty view
    decodeFrames(VTEST_AVI, 160, 5, 'iw*0.45:ih*0.4:0:ih*0.6'),
  ]);
  counting = { detect: (f) => (runs++, pool.detect(f)) };
});
after(async () => {
  await pool.close();
});

async function feed(pipeline: FramePipeline, clock: ManualClock, sequence: RgbFrame[]): Promise<number> {
  runs = 0;
  for (const frame of sequence) {
    await pipeline.process(frame, clock.now());
    await clock.advance(200);
  }
  return runs;
}

const fullView: [number, number][] = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 1],
];

test('a still view with people in it runs the detector at the 2 s keep-alive pace', async () => {
  const clock = new ManualClock();
  const pipeline = new FramePipeline({ detector: counting, clock, onDetections: () => {} });
  // 20 identical frames = 4 s of a camera where nothing moves
  const detected = await feed(pipeline, clock, Array(20).fill(frames[30]));
  assert.equal(detected, 2, 'the first frame and one keep-alive 2 s later');
  assert.equal(pipeline.counters.frames_skipped_no_motion, 18);
});

test('an empty view where nothing moves costs two detector runs in 32 s', async () => {
  const clock = new ManualClock();
  const pipeline = new FramePipeline({ detector: counting, clock, onDetections: () => {} });
  const detected = await feed(pipeline, clock, lawn);
  assert.equal(detected, 2, 'the first frame and the 30 s idle keep-alive');
  assert.equal(pipeline.counters.frames_skipped_no_motion, 158);
});

test('people walking make every frame go to the detector', async () => {
  const clock = new ManualClock();
  // the gate alone: the tracker's carrying between runs (detectEvery) is off here and
  // covered in tests/video/detect-every.test.ts
  const pipeline = new FramePipeline({ detector: counting, clock, detectEvery: 1, onDetections: () => {} });
  const detected = await feed(pipeline, clock, frames.slice(20, 30));
  assert.equal(detected, 10);
});

test('motion inside a mask is ignored', async () => {
  const clock = new ManualClock();
  const pipeline = new FramePipeline({ detector: counting, clock, motionMasks: [fullView], onDetections: () => {} });
  const detected = await feed(pipeline, clock, frames.slice(20, 30));
  assert.equal(detected, 1, 'only the first frame (2 s keep-alive not yet due)');
});

test('video noise in a part of the view where nobody walks does not count as motion', async () => {
  const clock = new ManualClock();
  // everything masked but the lawn at the bottom left, which nobody crosses in these 8 s
  const masks: [number, number][][] = [
    [
      [0, 0],
      [1, 0],
      [1, 0.6],
      [0, 0.6],
    ],
    [
      [0.45, 0.6],
      [1, 0.6],
      [1, 1],
      [0.45, 1],
    ],
  ];
  const pipeline = new FramePipeline({ detector: counting, clock, motionMasks: masks, onDetections: () => {} });
  const detected = await feed(pipeline, clock, frames);
  assert.equal(detected, 4, 'the first frame and keep-alives at 2, 4 and 6 s');
});

test('with the gate off every frame is detected, moving or not', async () => {
  const clock = new ManualClock();
  const pipeline = new FramePipeline({ detector: counting, clock, motionGate: false, onDetections: () => {} });
  const detected = await feed(pipeline, clock, Array(6).fill(frames[30]));
  assert.equal(detected, 6);
});
