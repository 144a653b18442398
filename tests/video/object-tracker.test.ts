import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findZone } from '../../src/ingest/video/geometry.ts';
import { ObjectTracker, predictBox } from '../../src/ingest/video/object-tracker.ts';
import type { DetectedObject, NormalizedBox } from '../../src/ingest/video/video.types.ts';

const person = (box: NormalizedBox, score = 0.6): DetectedObject => ({ label: 'person', score, box });
const car = (box: NormalizedBox): DetectedObject => ({ label: 'vehicle', score: 0.5, box });

test('a person walking across ten frames is one tracked person with a growing dwell', () => {
  const tracker = new ObjectTracker();
  const ids = new Set<string>();
  let entered = 0;
  for (let i = 0; i < 10; i++) {
    const u = tracker.update([person([0.1 + i * 0.02, 0.3, 0.05, 0.15])], i * 200);
    entered += u.entered.length;
    u.seen.forEach((t) => ids.add(t.id));
  }
  assert.equal(entered, 1);
  assert.equal(ids.size, 1);
  const [t] = tracker.present();
  assert.equal(t.lastSeen - t.firstSeen, 1800);
});

test('two people side by side are two, and a one-frame false positive is never counted', () => {
  const tracker = new ObjectTracker({ minHits: 2 });
  tracker.update([person([0.1, 0.3, 0.05, 0.15]), person([0.5, 0.3, 0.05, 0.15]), person([0.8, 0.8, 0.05, 0.05], 0.5)], 0);
  const u = tracker.update([person([0.11, 0.3, 0.05, 0.15]), person([0.51, 0.3, 0.05, 0.15])], 200);
  assert.equal(u.present.length, 2);
  tracker.update([person([0.12, 0.3, 0.05, 0.15]), person([0.52, 0.3, 0.05, 0.15])], 400);
  assert.equal(tracker.present().length, 2);
});

test('a person missed for a frame or two stays counted; one gone for long exits with their last sighting', () => {
  const tracker = new ObjectTracker({ minHits: 1, maxMisses: 5, minLostMs: 1500 });
  tracker.update([person([0.1, 0.3, 0.05, 0.15])], 0);
  tracker.update([], 200);
  assert.equal(tracker.update([person([0.1, 0.3, 0.05, 0.15])], 400).present.length, 1, 'occlusion does not recount');
  let exitedAt: number | null = null;
  for (let t = 600; t <= 3000 && exitedAt === null; t += 200) {
    const u = tracker.update([], t);
    if (u.exited.length) exitedAt = t;
    assert.equal(u.entered.length, 0);
  }
  assert.equal(exitedAt, 2000, 'the first run at least 1.5 s after the last sighting at 400');
  assert.equal(tracker.present().length, 0);
});

test('someone walking out through the edge of the view stops being counted at the second run that misses them', () => {
  const tracker = new ObjectTracker({ minHits: 1, maxMisses: 5, minLostMs: 1500 });
  // walking right, 0.03 of the width per 200 ms, last seen with the box's right side at 0.96
  for (let i = 0; i < 4; i++) tracker.update([person([0.82 + 0.03 * i, 0.4, 0.05, 0.15])], 200 * i);
  assert.equal(tracker.update([], 800).present.length, 1, 'one miss: still counted (they may be occluded)');
  const second = tracker.update([], 1000);
  assert.equal(second.exited.length, 1, 'gone at the second miss, not the fifth');
  assert.equal(second.exited[0].lastSeen, 600, 'their exit time is their last sighting');
});

test('someone standing still at the edge, or walking in from it, keeps the ordinary patience', () => {
  for (const dx of [0, -0.03]) {
    const tracker = new ObjectTracker({ minHits: 1, maxMisses: 5, minLostMs: 1500 });
    for (let i = 0; i < 4; i++) tracker.update([person([0.9 + dx * i, 0.4, 0.05, 0.15])], 200 * i);
    for (let t = 800; t <= 1400; t += 200) assert.equal(tracker.update([], t).exited.length, 0, `dx ${dx}: not gone at ${t}`);
    assert.equal(tracker.present().length, 1);
  }
});

test('a person and a car in the same place are tracked separately, by class', () => {
  const tracker = new ObjectTracker({ minHits: 1 });
  const u = tracker.update([person([0.4, 0.4, 0.1, 0.2]), car([0.4, 0.4, 0.1, 0.2])], 0);
  assert.deepEqual(u.present.map((t) => t.label).sort(), ['person', 'vehicle']);
});

test('someone who moved further than their box between sparse detector runs keeps their track', () => {
  const tracker = new ObjectTracker({ minHits: 1 });
  const first = tracker.update([person([0.1, 0.3, 0.05, 0.15])], 0).entered[0];
  // 2 s later (keep-alive run): moved 0.08 right, no overlap with the old box
  const u = tracker.update([person([0.18, 0.31, 0.05, 0.15])], 2000);
  assert.equal(u.entered.length, 0);
  assert.equal(u.seen[0].id, first.id);
});

test('zones place a detection by the bottom-centre of its box', () => {
  const zones = [
    {
      name: 'driveway',
      polygon: [
        [0, 0.5],
        [0.5, 0.5],
        [0.5, 1],
        [0, 1],
      ] as [number, number][],
    },
    {
      name: 'porch',
      polygon: [
        [0.5, 0.5],
        [1, 0.5],
        [1, 1],
        [0.5, 1],
      ] as [number, number][],
    },
  ];
  assert.equal(findZone([0.1, 0.2, 0.1, 0.4], zones), 'driveway', 'feet at (0.15, 0.6)');
  assert.equal(findZone([0.6, 0.1, 0.1, 0.3], zones), null, 'feet at (0.65, 0.4): above both zones');
  assert.equal(findZone([0.45, 0.6, 0.2, 0.3], zones), 'porch', 'feet at (0.55, 0.9)');
});

test('a track knows its velocity and where it would be now (the pipeline carries it along that path)', () => {
  const tracker = new ObjectTracker();
  tracker.update([person([0.1, 0.3, 0.05, 0.15])], 0);
  const [t] = tracker.tracks();
  assert.deepEqual(predictBox(t, 1000), [0.1, 0.3, 0.05, 0.15], 'seen once: no velocity yet');
  tracker.update([person([0.14, 0.3, 0.05, 0.15])], 400);
  const at = predictBox(t, 800);
  assert.ok(Math.abs(at[0] - 0.18) < 1e-9 && Math.abs(at[1] - 0.3) < 1e-9, JSON.stringify(at));
});

test('a velocity is trusted one second ahead, not further', () => {
  const tracker = new ObjectTracker();
  tracker.update([person([0.1, 0.3, 0.05, 0.15])], 0);
  tracker.update([person([0.14, 0.3, 0.05, 0.15])], 400);
  const [t] = tracker.tracks();
  assert.ok(Math.abs(predictBox(t, 1400)[0] - 0.24) < 1e-9);
  assert.deepEqual(predictBox(t, 10_000), predictBox(t, 1400));
});
