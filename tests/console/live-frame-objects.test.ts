import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { OrgEventFeed } from '../../src/org/live/index.ts';
import type { DetectionRecord } from '../../src/org/detections/index.ts';
import type { Principal } from '../../src/platform/identity/index.ts';

// The live wall draws a scene's latest frame with its boxes (scene.updated's `frame.objects`).
// Real video tells every object tracked in the frame (frame_objects), so a frame with five people
// where one is new shows five boxes, not the one detection the frame reported.
const principal = {
  keyId: 'key_1',
  tenantId: 'ten_1',
  tenantKind: 'organization',
  mode: 'live',
  capabilities: new Set(['scenes:read']),
  locations: null,
  rateLimitPerMinute: null,
  role: 'owner',
} as unknown as Principal;
const scene = {
  id: 'scene_1',
  tenantId: 'ten_1',
  location: 'lobby',
  capacity: 50,
  timeZone: 'UTC',
  people: 5,
  vehicles: 0,
  crowdDensity: 0.1,
  activeAnomalies: 0,
  lastDetectionAt: 1000,
  createdAt: '2026-01-01T00:00:00Z',
} as never;
const rec = (over: Partial<DetectionRecord>): DetectionRecord => ({
  id: 'det_1',
  tenant_id: 'ten_1',
  stream_id: 'stream_1',
  scene_id: 'scene_1',
  location: 'lobby',
  type: 'person',
  confidence: 0.7,
  at: 1000,
  ...over,
});

test('scene.updated draws every object tracked in the frame when the video says them, and only the reported ones otherwise', async () => {
  const clock = new ManualClock();
  const feed = new OrgEventFeed({ clock });
  const frames: Array<{ objects: Array<{ track_id?: string }> }> = [];
  feed.subscribe(principal, (e) => {
    if (e.kind === 'scene.updated') frames.push((e.data as { frame: { objects: Array<{ track_id?: string }> } }).frame);
  });
  const tracked = ['t1', 't2', 't3', 't4', 't5'].map((id, i) => ({
    type: 'person' as const,
    track_id: id,
    box: [0.1 * i, 0.2, 0.08, 0.3] as [number, number, number, number],
  }));
  feed.onDetection(rec({ id: 'det_a', track_id: 't5', box: tracked[4].box, frame_objects: tracked }), scene);
  feed.onDetection(rec({ id: 'det_b', type: 'person_count', value: 5 }), scene);
  await clock.advance(5000);
  assert.equal(frames.length, 1);
  assert.deepEqual(
    frames[0].objects.map((o) => o.track_id),
    ['t1', 't2', 't3', 't4', 't5'],
  );
  // a source without frame_objects (older video path): the frame's reported boxes, as before
  feed.onDetection(rec({ id: 'det_c', at: 2000, track_id: 't1', box: [0.1, 0.1, 0.1, 0.1] }), scene);
  feed.onDetection(rec({ id: 'det_d', at: 2000, track_id: 't2', box: [0.3, 0.1, 0.1, 0.1] }), scene);
  await clock.advance(5000);
  assert.deepEqual(
    frames[1].objects.map((o) => o.track_id),
    ['t1', 't2'],
  );
  feed.close();
});

// A frame says its counts are current only when its detection is: a late or back-filled reading
// (here 15 minutes old) says when it is from and leaves sources_live and stale to the scene reads,
// so the wall does not turn an offline camera's card back to "Normal" (docs/decisions.md, "Freshness").
test('scene.updated calls a count current only when its detection was read just now', async () => {
  const clock = new ManualClock();
  const feed = new OrgEventFeed({ clock });
  const scenes: Array<Record<string, unknown>> = [];
  feed.subscribe(principal, (e) => {
    if (e.kind === 'scene.updated') scenes.push((e.data as { scene: Record<string, unknown> }).scene);
  });
  feed.onDetection(rec({ id: 'det_now', type: 'person_count', value: 5, at: clock.now() - 2_000 }), scene);
  await clock.advance(1000);
  const late = clock.now() - 15 * 60_000;
  feed.onDetection(rec({ id: 'det_late', type: 'person_count', value: 6, at: late }), scene);
  await clock.advance(1000);
  assert.equal(scenes.length, 2);
  assert.deepEqual([scenes[0].sources_live, scenes[0].stale], [true, false]);
  assert.equal(scenes[1].as_of, new Date(late).toISOString());
  assert.ok(!('stale' in scenes[1]) && !('sources_live' in scenes[1]), JSON.stringify(scenes[1]));
  feed.close();
});
