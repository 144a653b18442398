import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { FramePipeline } from '../../src/ingest/video/frame-pipeline.ts';
import type { DetectedObject, Detector, NormalizedBox, RgbFrame, VideoDetection } from '../../src/ingest/video/index.ts';

// Every tracked object in every frame: a detection that carries the frame's snapshot also says
// where every object tracked in that frame is, not only the one it reports, so the live wall
// draws the frame whole. A stand-in detector reports fixed boxes (the real CenterNet pool is
// exercised by the vtest.avi tests).
const W = 320;
const H = 240;
const frame = (): RgbFrame => ({ width: W, height: H, data: new Uint8Array(W * H * 3).fill(90) });
const person = (x: number): DetectedObject => ({ label: 'person', score: 0.7, box: [x, 0.3, 0.08, 0.3] as NormalizedBox });

test('the frame a new person walks into carries the boxes of all five people tracked in it, not only the newcomer', async () => {
  const clock = new ManualClock();
  let scene: DetectedObject[] = [0.05, 0.2, 0.35, 0.5].map(person);
  const detector: Detector = { detect: async () => scene };
  const batches: VideoDetection[][] = [];
  const pipeline = new FramePipeline({ detector, clock, motionGate: false, onDetections: (b: VideoDetection[]) => batches.push(b) });
  for (let i = 0; i < 4; i++) {
    await pipeline.process(frame(), clock.now());
    await clock.advance(200);
  }
  batches.length = 0;
  scene = [...scene, { ...person(0.8), box: [0.8, 0.5, 0.1, 0.3] }];
  for (let i = 0; i < 3 && !batches.some((b) => b.some((d) => d.type === 'person_count' && d.value === 5)); i++) {
    await pipeline.process(frame(), clock.now());
    await clock.advance(200);
  }
  const batch = batches.find((b) => b.some((d) => d.type === 'person_count' && d.value === 5));
  assert.ok(batch, JSON.stringify(batches.map((b) => b.map((d) => d.type))));
  const reported = batch.filter((d) => d.type === 'person');
  assert.equal(reported.length, 1, 'one person is new in this frame');
  for (const d of reported) {
    assert.ok(d.snapshot, 'the person detection carries the frame');
    assert.equal(d.frame_objects?.length, 5, JSON.stringify(d.frame_objects));
    assert.ok(d.frame_objects!.every((o) => o.type === 'person' && o.track_id && o.box.length === 4));
    assert.ok(d.frame_objects!.some((o) => o.track_id === d.track_id && Math.abs(o.box[0] - 0.8) < 0.01));
  }
  // a detection without the frame (the count) carries no objects
  assert.equal(batch.find((d) => d.type === 'person_count')?.frame_objects, undefined);
});
