import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { FramePipeline } from '../../src/ingest/video/frame-pipeline.ts';
import type { DetectedObject, RgbFrame, VideoDetection } from '../../src/ingest/video/video.types.ts';

// The frame pipeline with a scripted detector: cats and dogs become `animal` detections, tracked
// one by one like people (a cat never continues a dog's track), never in the person count.
const FRAME: RgbFrame = { width: 32, height: 24, data: new Uint8Array(32 * 24 * 3) };

function run(script: DetectedObject[][]): Promise<VideoDetection[]> {
  const clock = new ManualClock('2026-03-10T10:00:00.000Z');
  const out: VideoDetection[] = [];
  let i = 0;
  const pipeline = new FramePipeline({
    detector: { detect: async () => script[i++] ?? [] },
    clock,
    motionGate: false,
    tracker: { minHits: 1 },
    dwellReportMs: 10_000,
    zones: [
      {
        name: 'kitchen',
        polygon: [
          [0, 0.5],
          [1, 0.5],
          [1, 1],
          [0, 1],
        ],
      },
    ],
    onDetections: (batch) => out.push(...batch),
  });
  return (async () => {
    for (let k = 0; k < script.length; k++) {
      await pipeline.process(FRAME, clock.now());
      await clock.advance(5000);
    }
    await pipeline.stop();
    return out;
  })();
}

test('a dog and a cat are two animal detections with their kind, zone and snapshot; the person count stays 0', async () => {
  const dog: DetectedObject = { label: 'dog', score: 0.62, box: [0.1, 0.6, 0.2, 0.3] };
  const cat: DetectedObject = { label: 'cat', score: 0.55, box: [0.12, 0.1, 0.1, 0.15] };
  const out = await run([[dog, cat], [dog, cat], [dog, cat], [dog]]);
  const animals = out.filter((d) => d.type === 'animal');
  const first = animals.filter((d) => d.dwell_s === 0);
  assert.deepEqual(first.map((d) => d.subtype).sort(), ['cat', 'dog']);
  const dogFirst = first.find((d) => d.subtype === 'dog')!;
  const catFirst = first.find((d) => d.subtype === 'cat')!;
  assert.notEqual(dogFirst.track_id, catFirst.track_id);
  assert.equal(dogFirst.zone, 'kitchen', 'the dog stands in the kitchen zone');
  assert.equal(catFirst.zone, null);
  assert.ok(dogFirst.snapshot && dogFirst.snapshot.length > 0, 'a snapshot goes with the first sighting');
  assert.equal(dogFirst.confidence, 0.62);
  // re-reported with its dwell while it stays (every 10 s), under the same track
  const dogLater = animals.filter((d) => d.track_id === dogFirst.track_id && (d.dwell_s ?? 0) > 0);
  assert.ok(
    dogLater.some((d) => d.dwell_s === 10),
    JSON.stringify(animals.map((d) => [d.subtype, d.dwell_s])),
  );
  assert.ok(!out.some((d) => d.type === 'person'));
  assert.ok(out.filter((d) => d.type === 'person_count').every((d) => d.value === 0));
});

test('cats and dogs below 0.4 are not tracked; a dog box never continues a cat track', async () => {
  const faint: DetectedObject = { label: 'dog', score: 0.3, box: [0.1, 0.6, 0.2, 0.3] };
  assert.equal((await run([[faint], [faint]])).filter((d) => d.type === 'animal').length, 0);
  const box: DetectedObject['box'] = [0.3, 0.3, 0.2, 0.2];
  const out = await run([[{ label: 'cat', score: 0.6, box }], [{ label: 'dog', score: 0.6, box }]]);
  const animals = out.filter((d) => d.type === 'animal');
  assert.deepEqual(
    animals.map((d) => d.subtype),
    ['cat', 'dog'],
  );
  assert.notEqual(animals[0].track_id, animals[1].track_id);
});
