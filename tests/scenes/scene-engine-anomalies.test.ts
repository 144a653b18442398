import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ANOMALY_HOLD_MS, SceneEngine } from '../../src/org/scenes/scene-engine.ts';
import type { DetectionRecord } from '../../src/org/detections/index.ts';

// A scene's active_anomalies: each unrecognized person (by track) keeps the scene flagged for the
// hold after it was last seen. The engine only walks its held anomalies when one can have run out.

const T0 = Date.UTC(2026, 10, 23, 9, 0, 0);
const engine = () => {
  const e = new SceneEngine();
  e.register({
    id: 'scene_1',
    tenant_id: 'org_1',
    location: 'lobby',
    capacity: 10,
    time_zone: 'UTC',
    people: 0,
    vehicles: 0,
    crowd_density: 0,
    active_anomalies: 0,
    last_detection_at: null,
    created_at: new Date(T0).toISOString(),
    updated_at: new Date(T0).toISOString(),
  });
  return e;
};
let n = 0;
const det = (at: number, extra: Partial<DetectionRecord>): DetectionRecord =>
  ({
    id: `det_${++n}`,
    tenant_id: 'org_1',
    stream_id: 'stream_1',
    scene_id: 'scene_1',
    location: 'lobby',
    type: 'person',
    confidence: 0.9,
    at,
    ...extra,
  }) as DetectionRecord;
const stranger = (track: string, at: number) => det(at, { subtype: 'unrecognized', track_id: track });

test('each stranger holds the scene flagged for the hold after it was last seen, then lets go', () => {
  const e = engine();
  e.apply(stranger('a', T0));
  e.apply(stranger('b', T0 + 60_000));
  assert.equal(e.snapshot('scene_1', T0 + 60_000)!.activeAnomalies, 2);
  // a seen again: its hold restarts
  e.apply(stranger('a', T0 + 120_000));
  assert.equal(e.snapshot('scene_1', T0 + ANOMALY_HOLD_MS + 1)!.activeAnomalies, 2, 'a was re-seen, b still within its hold');
  assert.equal(e.snapshot('scene_1', T0 + 60_000 + ANOMALY_HOLD_MS)!.activeAnomalies, 2, 'b at exactly the end of its hold still counts');
  assert.equal(e.snapshot('scene_1', T0 + 60_000 + ANOMALY_HOLD_MS + 1)!.activeAnomalies, 1, 'b ran out');
  assert.equal(e.snapshot('scene_1', T0 + 120_000 + ANOMALY_HOLD_MS + 1)!.activeAnomalies, 0, 'a ran out');
  // a count reading after everything ran out reports none, and a new stranger counts again
  assert.equal(e.apply(det(T0 + 3_600_000, { type: 'person_count', value: 1 })).activeAnomalies, 0);
  assert.equal(e.apply(stranger('c', T0 + 3_600_001)).activeAnomalies, 1);
});

test('an older sighting arriving late does not shorten or lose a hold; a recognized person is never an anomaly', () => {
  const e = engine();
  e.apply(stranger('late', T0 + 200_000));
  e.apply(stranger('early', T0)); // stamped earlier than the last one, arrives after it
  e.apply(det(T0 + 1, { subtype: 'recognized', track_id: 'staff', person_id: 'person_1' }));
  assert.equal(e.snapshot('scene_1', T0 + 1000)!.activeAnomalies, 2);
  assert.equal(e.snapshot('scene_1', T0 + ANOMALY_HOLD_MS + 1)!.activeAnomalies, 1, 'early ran out on time');
  assert.equal(e.snapshot('scene_1', T0 + 200_000 + ANOMALY_HOLD_MS + 1)!.activeAnomalies, 0);
});

test('a thousand strangers held: every one still runs out at its own time', () => {
  const e = engine();
  for (let i = 0; i < 1000; i++) e.apply(stranger(`t${i}`, T0 + i * 100));
  assert.equal(e.snapshot('scene_1', T0 + 100_000)!.activeAnomalies, 1000);
  assert.equal(e.snapshot('scene_1', T0 + ANOMALY_HOLD_MS + 50_000)!.activeAnomalies, 500);
  assert.equal(e.snapshot('scene_1', T0 + ANOMALY_HOLD_MS + 100_000)!.activeAnomalies, 0);
});
