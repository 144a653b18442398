import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { createDetectorPool, startVideoIngest, type DetectorPool, type IngestHandle } from '../../src/ingest/video/index.ts';
import { IngestRecorder } from '../fixtures-video/ingest-recorder.ts';
import { RtspTestCamera } from '../fixtures-video/rtsp-camera.ts';

// A real camera path end to end: vtest.avi (pedestrians, a parked car and van) served over RTSP
// on loopback, decoded by ffmpeg, detected by CenterNet in a worker thread, tracked.
let pool: DetectorPool;
let camera: RtspTestCamera;
let ingest: IngestHandle | null = null;
const rec = new IngestRecorder();

before(async () => {
  [pool, camera] = await Promise.all([createDetectorPool({ workers: 1 }), RtspTestCamera.create()]);
  await camera.start();
});

after(async () => {
  await ingest?.stop();
  await camera.stop();
  await pool.close();
});

test('an RTSP camera goes live and its people, vehicles and snapshots come out of the pipeline', async () => {
  ingest = startVideoIngest({
    streamId: 'stream_rtsp_test',
    sourceUrl: camera.url,
    detector: pool,
    // short supervision timers so the unplug test below runs in seconds
    stallTimeoutMs: 3000,
    offlineAfterMs: 5000,
    backoff: { initialMs: 250, maxMs: 1000 },
    onDetections: rec.onDetections,
    onStatus: rec.onStatus,
  });
  await rec.waitFor('live', () => rec.statusNames().includes('live'), 30_000);
  assert.equal(rec.statusNames()[0], 'connecting');

  const counts = () => rec.detections.filter((d) => d.type === 'person_count').map((d) => d.value ?? 0);
  const vehicles = () => rec.detections.filter((d) => d.type === 'vehicle' && (d.count ?? 0) > 0);
  await rec.waitFor('a vehicle and several people', () => vehicles().length > 0 && Math.max(0, ...counts()) >= 3, 60_000);

  // the clip shows 3–8 people at a time: counts are people present, not boxes summed over frames
  assert.ok(Math.max(...counts()) <= 12, `person counts ${counts().join(',')}`);
  const stats = ingest.stats();
  assert.equal(stats.status, 'live');
  assert.ok(stats.last_frame_at !== null && stats.frames_detected > 0);
  assert.ok(stats.fps_in > 0);

  const people = rec.detections.filter((d) => d.type === 'person');
  assert.ok(people.length >= 3);
  for (const p of people) {
    // no face recognition here: no subtype (it was 'unrecognized' for every person)
    assert.equal(p.subtype, null);
    assert.match(p.track_id ?? '', /^trk_/);
    assert.ok(p.confidence >= 0.45 && p.confidence <= 1);
  }
  // one person detection per person who entered, not one per frame
  const entries = people.filter((p) => p.dwell_s === 0);
  assert.equal(new Set(entries.map((p) => p.track_id)).size, entries.length);

  for (const d of [...people.slice(0, 3), vehicles()[0]]) {
    assert.ok(d.snapshot, `${d.type} has a snapshot`);
    const meta = await sharp(d.snapshot).metadata();
    assert.equal(meta.format, 'jpeg');
    assert.equal(meta.width, 640);
  }
});

test('unplugging the camera turns the stream reconnecting then offline, and plugging it back makes it live', async () => {
  assert.ok(ingest, 'the first test started the ingest');
  const seen = rec.statuses.length;
  const since = () => rec.statusNames().slice(seen);
  await camera.stop();
  await rec.waitFor('reconnecting', () => since().includes('reconnecting'), 20_000);
  await rec.waitFor('offline', () => since().includes('offline'), 30_000);
  assert.deepEqual(since(), ['reconnecting', 'offline']);
  const offline = rec.statuses.at(-1)!.stats;
  assert.ok(offline.error, 'the reason is reported');
  assert.equal(offline.reconnects, 1);

  await camera.start();
  await rec.waitFor('live again', () => since().at(-1) === 'live', 30_000);
  assert.deepEqual(since(), ['reconnecting', 'offline', 'live']);
  assert.equal(ingest.stats().error, null);
});
