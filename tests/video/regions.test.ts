import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planRegions, regionBoxToFrame, wholeInput, type PixelBox, type Region } from '../../src/ingest/video/regions.ts';

// Region selection: where on a 640×480 frame the detector runs.
const W = 640;
const H = 480;
const person = (x: number, y: number): PixelBox => [x, y, 30, 70];

function regions(boxes: PixelBox[]): Region[] {
  const plan = planRegions(boxes, W, H);
  assert.equal(plan.kind, 'regions', JSON.stringify(plan));
  return plan.kind === 'regions' ? plan.regions : [];
}

const covers = (r: Region, b: PixelBox) => b[0] >= r.x && b[1] >= r.y && b[0] + b[2] <= r.x + r.size && b[1] + b[3] <= r.y + r.size;

test('two people side by side share one square region; two at opposite ends of the view get one each', () => {
  const near = [person(300, 200), person(340, 210)];
  const one = regions(near);
  assert.equal(one.length, 1);
  for (const b of near) assert.ok(covers(one[0], b), `${JSON.stringify(one[0])} covers ${b}`);

  const far = [person(20, 40), person(580, 380)];
  const two = regions(far);
  assert.equal(two.length, 2);
  for (const b of far)
    assert.ok(
      two.some((r) => covers(r, b)),
      `a region covers ${b}`,
    );
});

test('a region is square, at least the minimum side, sized to its boxes with context, clamped inside the frame, at an input the model takes', () => {
  const [small] = regions([person(300, 200)]);
  assert.equal(small.size, 192, 'a 30×70 person gets the 192 px minimum');
  assert.equal(small.input, 256, 'run enlarged by 4/3');

  const [big] = regions([[200, 100, 120, 200]]);
  assert.equal(big.size, Math.ceil(200 * 1.35), 'larger side × 1.35');
  assert.equal(big.input % 32, 0);

  // a person in the top-left corner: the region is pushed inside the frame, not cut by it
  const [corner] = regions([person(0, 0)]);
  assert.deepEqual([corner.x, corner.y], [0, 0]);
  const [edge] = regions([person(620, 420)]);
  assert.ok(edge.x + edge.size <= W && edge.y + edge.size <= H, JSON.stringify(edge));
  assert.ok(covers(edge, [620, 420, 20, 60]));

  // never more than 512 input; a region that big costs as much as the whole frame, which wins
  const [tall] = regions([[200, 100, 100, 220]]);
  assert.ok(tall.size <= H && tall.input <= 512, JSON.stringify(tall));
  assert.deepEqual(planRegions([[100, 50, 400, 400]], W, H), { kind: 'whole' });
});

test('the whole frame is detected when regions would cover most of it, or when there is nothing to go on', () => {
  const spread = [person(10, 10), person(600, 10), person(10, 400), person(600, 400), person(300, 200)];
  assert.deepEqual(planRegions(spread, W, H), { kind: 'whole' });
  assert.deepEqual(planRegions([], W, H), { kind: 'whole' });
  // three small regions (3 × 256² = 0.75 of 512²) stay regions; a fourth tips it to the whole frame
  assert.equal(planRegions(spread.slice(0, 3), W, H).kind, 'regions');
  assert.equal(planRegions(spread.slice(0, 4), W, H).kind, 'whole');
});

test('a box found in a region maps back to frame coordinates', () => {
  const r: Region = { x: 320, y: 240, size: 200, input: 256 };
  const [x, y, w, h] = regionBoxToFrame([0.5, 0.25, 0.1, 0.5], r, W, H);
  assert.ok(Math.abs(x - 420 / 640) < 1e-9 && Math.abs(y - 290 / 480) < 1e-9);
  assert.ok(Math.abs(w - 20 / 640) < 1e-9 && Math.abs(h - 100 / 480) < 1e-9);
});

test('a whole frame meets the model with its aspect kept, longer side 512, sides on the stride', () => {
  assert.deepEqual(wholeInput(640, 480), [512, 384]);
  assert.deepEqual(wholeInput(1280, 720), [512, 288]);
  assert.deepEqual(wholeInput(480, 640), [384, 512]);
  assert.deepEqual(wholeInput(512, 512), [512, 512]);
  assert.deepEqual(wholeInput(4000, 40), [512, 32]);
});
