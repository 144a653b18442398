import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { createDetectorPool } from '../../src/ingest/video/detector-pool.ts';
import { FramePipeline } from '../../src/ingest/video/frame-pipeline.ts';
import { decodeJpegFrame } from '../../src/ingest/video/jpeg-codec.ts';
import type { VideoDetection } from '../../src/ingest/video/video.types.ts';
import { DETECTION_TYPES, DETECTOR_LABEL_CLASSES, kindOf } from '../../src/platform/kinds/index.ts';
import { WatchRules } from '../../src/home/watches/watch-rules.ts';
import { CONDITION_WORDS } from '../../src/home/agent/vocabulary.ts';
import { WATCH_CONDITIONS } from '../../src/home/agent/tools.ts';
import { DOG_JPG } from '../fixtures-video/rtsp-camera.ts';

// `bicycle` is one entry of the table of detection kinds (src/platform/kinds/kinds.ts); these tests
// follow one bicycle from the detector's label to an answered question (docs/decisions.md,
// 'One table of detection kinds').

test('the detector label bicycle becomes a bicycle detection: the real CenterNet on the darknet dog photo counts its one bicycle', async () => {
  assert.equal(DETECTOR_LABEL_CLASSES.bicycle, 'bicycle');
  assert.ok(DETECTION_TYPES.includes('bicycle'));
  const detector = await createDetectorPool({ workers: 1, runtime: 'onnx' });
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  const out: VideoDetection[] = [];
  const pipeline = new FramePipeline({ detector, clock, motionGate: false, regions: false, onDetections: (b) => out.push(...b) });
  try {
    const frame = await decodeJpegFrame(readFileSync(DOG_JPG), 1280);
    // a new object counts from its second sighting (the tracker's minHits)
    for (let i = 0; i < 3; i++) {
      await pipeline.process(frame, clock.now());
      await clock.advance(200);
    }
  } finally {
    await pipeline.stop();
    await detector.close();
  }
  const bicycles = out.filter((d) => d.type === 'bicycle');
  assert.equal(bicycles.length, 1, `one bicycle count when it arrived: ${JSON.stringify(bicycles.map(({ snapshot, frame_objects, ...d }) => d))}`);
  const [bike] = bicycles;
  assert.equal(bike.count, 1, 'the photo has one bicycle (its spurious 0.31 part stays below the 0.4 the table asks)');
  assert.match(bike.track_id ?? '', /^trk_/, 'the count names the bicycle that arrived');
  assert.ok(bike.box && bike.box[2] > 0.4, `its box is the bicycle's: ${bike.box}`);
  assert.ok(bike.snapshot && bike.snapshot.length > 1000, 'it carries the frame');
  assert.ok(
    bike.frame_objects?.some((o) => o.type === 'bicycle'),
    'the wall draws it',
  );
  assert.ok(
    out.some((d) => d.type === 'vehicle' && d.count === 1),
    'the truck stays a vehicle',
  );
});

test('a household watch knows bicycles: "bike" is the bicycle condition, and a bicycle arriving is one bicycle_detected observation', () => {
  assert.equal(CONDITION_WORDS.bikes, 'bicycle');
  assert.ok(WATCH_CONDITIONS.includes('bicycle'));
  const rules = new WatchRules();
  const sensor = { id: 'sen_1', name: 'Drive camera', kind: 'camera', room: 'driveway' } as never;
  const home = { isEmpty: () => false, localHour: () => 12 };
  const rec = (count: number, track: string | null, at: number) =>
    ({
      id: `det_${at}`,
      tenant_id: 't',
      stream_id: 's',
      scene_id: 'sc',
      location: 'home',
      type: 'bicycle',
      count,
      confidence: 0.5,
      at,
      track_id: track,
    }) as never;
  const first = rules.evaluate('w1', rec(1, 'trk_b', 1), sensor, home);
  assert.deepEqual(
    first.map((f) => [f.kind, f.type]),
    [['observation', 'bicycle_detected']],
  );
  assert.match(first[0].summary, /saw a bicycle arrive in the driveway/);
  assert.deepEqual(rules.evaluate('w1', rec(1, 'trk_b', 2), sensor, home), [], 'the same bicycle again says nothing');
  assert.deepEqual(rules.evaluate('w1', rec(0, 'trk_b', 3), sensor, home), [], 'leaving is not an arrival');
});

for (const dialect of DIALECTS) {
  describe(`a bicycle over HTTP: scene count, alert rule, question (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      // the sandbox scenario is frozen at 03:00 (the clock moves only when told): only injected detections count
      t = await createTestApp({ dialect, clock: new ManualClock('2026-11-22T03:00:00.000Z'), sandboxTickMs: 3_600_000 });
    });
    after(() => t.close());

    test('two bicycles injected: the scene counts them, a "bicycle above 1" rule fires, and "how many bicycles" is answered', async () => {
      const key = await t.orgKey();
      const stream = (
        await t.app.inject({
          method: 'POST',
          url: '/v1/streams',
          headers: bearer(key),
          payload: { name: 'Rack', source_type: 'sandbox', source_url: 'sandbox://rack?scenario=lobby&seed=1', location: 'bike_shed' },
        })
      ).json();
      const inject = (payload: Record<string, unknown>) =>
        t.app.inject({ method: 'POST', url: '/v1/sandbox/detections', headers: bearer(key), payload: { stream_id: stream.id, ...payload } });
      const ask = (query: string) =>
        t.app.inject({
          method: 'POST',
          url: `/v1/scenes/${stream.scene_id}/query`,
          headers: bearer(key),
          payload: { stream_id: stream.id, query, window: '1m' },
        });

      const rule = await t.app.inject({
        method: 'POST',
        url: '/v1/alert-rules',
        headers: bearer(key),
        payload: { name: 'Shed full', condition: { type: 'bicycle', above: 1 }, cooldown_s: 0 },
      });
      assert.equal(rule.statusCode, 201, rule.body);
      assert.deepEqual(rule.json().condition, { type: 'bicycle', above: 1 });
      const badRule = await t.app.inject({
        method: 'POST',
        url: '/v1/alert-rules',
        headers: bearer(key),
        payload: { name: 'x', condition: { type: 'bicycle' } },
      });
      assert.equal(badRule.statusCode, 400, 'a bicycle condition needs its number');

      const noCount = await inject({ type: 'bicycle' });
      assert.equal(noCount.statusCode, 400);
      assert.equal(noCount.json().param, 'count');

      const one = await inject({ type: 'bicycle', count: 1, track_id: 'b1' });
      assert.equal(one.statusCode, 201, one.body);
      assert.equal(one.json().type, 'bicycle');
      const alerts = async () =>
        (await t.app.inject({ url: `/v1/alerts?rule_id=${rule.json().id}`, headers: bearer(key) })).json().data as Array<{ observed: number | null }>;
      assert.equal((await alerts()).length, 0, 'one bicycle is not above 1');
      assert.equal((await inject({ type: 'bicycle', count: 2, track_id: 'b2' })).statusCode, 201);

      const scene = (await t.app.inject({ url: `/v1/scenes/${stream.scene_id}`, headers: bearer(key) })).json();
      assert.equal(scene.object_counts.bicycle, 2);
      assert.equal(scene.vehicle_count, 0, 'bicycles are not vehicles');
      const fired = await alerts();
      assert.equal(fired.length, 1);
      assert.equal(fired[0].observed, 2);

      const res = await ask('how many bicycles are there?');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().interpretation.metric, 'objects');
      assert.match(res.json().answer, /^There are 2 bicycles in the bike shed now/);
      const any = await ask('any bikes in the last 10 minutes?');
      assert.equal(any.statusCode, 200, any.body);
      assert.match(any.json().answer, /^Yes, 2 bicycles at most at once/);
      const mixed = await ask('how many bikes and cars are there?');
      assert.equal(mixed.statusCode, 422, mixed.body);
    });
  });
}

test('the table is the one place a kind is defined: bicycle has its labels, score, report, condition, watch and words', () => {
  const bike = kindOf('bicycle')!;
  assert.deepEqual(bike.detector?.labels, { bicycle: 'bicycle' });
  assert.equal(bike.detector?.report, 'count');
  assert.equal(bike.watch?.event, 'bicycle_detected');
  assert.ok(bike.words?.nouns.includes('bike'));
});

test('two cameras at one place: bicycle counts combine as the scene says (sum), in its state and in the history questions read', async () => {
  const { SceneEngine, combineHistory } = await import('../../src/org/scenes/scene-engine.ts');
  const engine = new SceneEngine();
  engine.register({
    id: 'scene_1',
    tenant_id: 't',
    location: 'bike_shed',
    capacity: 0,
    time_zone: 'UTC',
    people: 0,
    vehicles: 0,
    crowd_density: 0,
    last_detection_at: null,
    created_at: '2026-11-22T00:00:00.000Z',
    stream_combine: 'sum',
  } as never);
  const rec = (stream: string, count: number, at: number) =>
    ({
      id: `det_${stream}_${at}`,
      tenant_id: 't',
      stream_id: stream,
      scene_id: 'scene_1',
      location: 'bike_shed',
      type: 'bicycle',
      count,
      value: null,
      confidence: 0.5,
      at,
    }) as never;
  engine.apply(rec('a', 1, 1));
  const s = engine.apply(rec('b', 2, 2));
  assert.equal(s.counts.bicycle, 3);
  assert.equal(s.vehicles, 0);
  const { records } = combineHistory(
    [rec('a', 1, 1), rec('b', 2, 2)] as Array<{ type: string; stream_id: string; at: number; value: number | null; count: number | null }>,
    'sum',
  );
  assert.deepEqual(
    records.map((r) => r.count),
    [1, 3],
  );
});
