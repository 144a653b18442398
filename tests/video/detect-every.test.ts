import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { FramePipeline } from '../../src/ingest/video/frame-pipeline.ts';
import type { Detector, Region, RgbFrame, NormalizedBox, VideoDetection } from '../../src/ingest/video/index.ts';

// The tracker carries objects between detector runs: while motion stays where tracked
// objects are, the detector runs on every Nth frame; motion anywhere else is detected at once.
// Synthetic 640×480 frames: bright 30×70 "people" on a grey view; the stand-in detector finds the
// people it was told were drawn, within the regions it is asked to search (the real CenterNet
// pool is exercised by the vtest.avi tests).
const W = 640;
const H = 480;
type Person = [x: number, y: number];

const drawn = new WeakMap<RgbFrame, Person[]>();
function frameWith(people: Person[]): RgbFrame {
  const data = new Uint8Array(W * H * 3).fill(100);
  for (const [px, py] of people) {
    for (let y = py; y < py + 70; y++) for (let x = px; x < px + 30; x++) data.fill(230, (y * W + x) * 3, (y * W + x) * 3 + 3);
  }
  const frame = { width: W, height: H, data };
  drawn.set(frame, people);
  return frame;
}

interface Run {
  frame: number;
  regions: Region[] | undefined;
}

function fakeDetector(runs: Run[], frameNo: () => number): Detector {
  return {
    async detect(frame, regions) {
      runs.push({ frame: frameNo(), regions });
      const inside = ([x, y]: Person) => !regions || regions.some((r) => x + 15 >= r.x && x + 15 <= r.x + r.size && y + 35 >= r.y && y + 35 <= r.y + r.size);
      return (drawn.get(frame) ?? [])
        .filter(inside)
        .map(([x, y]) => ({ label: 'person' as const, score: 0.7, box: [x / W, y / H, 30 / W, 70 / H] as NormalizedBox }));
    },
  };
}

async function play(opts: { detectEvery?: number; keepAliveMs?: number }, scenes: Person[][]) {
  const clock = new ManualClock();
  const runs: Run[] = [];
  const counts: number[] = [];
  let i = 0;
  const pipeline = new FramePipeline({
    detector: fakeDetector(runs, () => i),
    clock,
    keepAliveMs: 600_000, // no keep-alive runs inside these few seconds: only the rule under test
    ...opts,
    onDetections: (batch: VideoDetection[]) => {
      for (const d of batch) if (d.type === 'person_count') counts.push(d.value ?? 0);
    },
  });
  for (i = 0; i < scenes.length; i++) {
    await pipeline.process(frameWith(scenes[i]), clock.now());
    await clock.advance(200);
  }
  return { runs, counts, pipeline };
}

// one person walking right, 4 px a frame
const walker = (n: number): Person => [100 + 4 * n, 200];

test('one person walking: the detector runs on every 3rd frame by default, on a region around them, and they stay counted', async () => {
  const { runs, counts, pipeline } = await play(
    {},
    Array.from({ length: 12 }, (_, n) => [walker(n)]),
  );
  assert.deepEqual(
    runs.map((r) => r.frame),
    [0, 3, 6, 9],
  );
  assert.equal(runs[0].regions, undefined, 'the first frame is detected whole');
  for (const r of runs.slice(1)) {
    assert.equal(r.regions?.length, 1);
    assert.ok(r.regions![0].size < 300, 'a region, not the view');
  }
  assert.deepEqual(counts, [0, 1], 'nobody counted on the first sighting, one person from the second run on');
  assert.equal(pipeline.framesCarried, 8);
});

test('someone appearing away from the tracked person is detected on the very frame they appear', async () => {
  const scenes = Array.from({ length: 12 }, (_, n): Person[] => (n < 7 ? [walker(n)] : [walker(n), [500, 300]]));
  const { runs, counts } = await play({}, scenes);
  // 0, 3 and 6 as above; the newcomer at frame 7 forces a run at once, and one more confirms them
  assert.ok(
    runs.some((r) => r.frame === 7),
    `runs at ${runs.map((r) => r.frame).join(',')}`,
  );
  const at7 = runs.find((r) => r.frame === 7)!;
  assert.ok(
    at7.regions?.some((r) => r.x <= 515 && r.x + r.size >= 515 && r.y <= 335 && r.y + r.size >= 335),
    'a region covers the newcomer',
  );
  assert.equal(counts.at(-1), 2);
});

test('detectEvery 1 detects every frame with motion (carrying off)', async () => {
  const { runs, pipeline } = await play(
    { detectEvery: 1 },
    Array.from({ length: 8 }, (_, n) => [walker(n)]),
  );
  assert.equal(runs.length, 8);
  assert.equal(pipeline.framesCarried, 0);
});

test('new motion while the tracked objects are carried is looked at alone; the tracked objects keep their run on the Nth frame', async () => {
  const newcomer: Person = [500, 300];
  const scenes = Array.from({ length: 12 }, (_, n): Person[] => (n < 7 ? [walker(n)] : [walker(n), newcomer]));
  const { runs, counts, pipeline } = await play({}, scenes);
  const covers = (r: Region, [x, y]: Person) => x + 15 >= r.x && x + 15 <= r.x + r.size && y + 35 >= r.y && y + 35 <= r.y + r.size;
  // 0, 3 and 6 for the walker; the newcomer at 7 gets a run of its own on a region around them
  // only: the walker, carried since 6, is not looked at again before their 3rd frame (9)
  assert.deepEqual(
    runs.map((r) => r.frame),
    [0, 3, 6, 7, 9],
  );
  const at7 = runs[3];
  assert.equal(at7.regions?.length, 1);
  assert.ok(covers(at7.regions![0], newcomer), 'the region covers the newcomer');
  assert.ok(!covers(at7.regions![0], walker(7)), 'and not the carried walker');
  const at9 = runs[4];
  assert.ok(
    at9.regions?.some((r) => covers(r, walker(9))),
    'the walker is looked at on their 3rd frame',
  );
  assert.ok(
    at9.regions?.some((r) => covers(r, newcomer)),
    'and the newcomer, seen once, gets the second look that counts them',
  );
  assert.equal(counts.at(-1), 2);
  assert.equal(pipeline.framesPartial, 1);
});

test('a still view keeps its people counted by keep-alive runs on their regions; the whole frame every 10 s', async () => {
  const stander: Person = [300, 200];
  // 12 s of a view where one person stands still, keep-alive at its default 2 s
  const { runs, counts } = await play(
    { keepAliveMs: 2000 },
    Array.from({ length: 60 }, () => [stander]),
  );
  assert.deepEqual(
    runs.map((r) => r.frame),
    [0, 10, 20, 30, 40, 50],
  );
  assert.equal(runs[0].regions, undefined, 'the first frame whole');
  for (const r of runs.slice(1, 5)) {
    assert.equal(r.regions?.length, 1, `keep-alive at frame ${r.frame} on a region`);
    assert.ok(r.regions![0].size < 300 && r.regions![0].x <= 315 && r.regions![0].x + r.regions![0].size >= 315, JSON.stringify(r.regions));
  }
  assert.equal(runs[5].regions, undefined, 'the whole frame again 10 s after the last');
  assert.deepEqual(counts, [0, 1], 'the person is counted from the second look on, and stays counted');
});

test('a fast walker is carried along their path: motion where their velocity takes them is not new', async () => {
  // 12 px a frame: in two frames a 30 px wide person has left their last box and its margin
  const runner = (n: number): Person => [60 + 12 * n, 200];
  const { runs, counts, pipeline } = await play(
    {},
    Array.from({ length: 12 }, (_, n) => [runner(n)]),
  );
  // seen once, they have no velocity yet: their motion at 2 is out of their box (a run on it);
  // from their second sighting (3) on, every 3rd frame
  assert.deepEqual(
    runs.map((r) => r.frame),
    [0, 2, 3, 6, 9],
  );
  assert.equal(pipeline.framesPartial, 1, 'no run for motion the tracked walker made once their velocity is known');
  assert.deepEqual(counts, [0, 1]);
});
