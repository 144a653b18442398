import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { createDetectorPool, createMobileIngest, VideoInputError, type DetectorPool } from '../../src/ingest/video/index.ts';
import { IngestRecorder } from '../fixtures-video/ingest-recorder.ts';
import { PERSON_JPG } from '../fixtures-video/rtsp-camera.ts';

let pool: DetectorPool;
before(async () => {
  pool = await createDetectorPool({ workers: 1 });
});
after(async () => {
  await pool.close();
});

test('a phone frame showing a person produces a person detection (no subtype without face recognition) with its snapshot', async () => {
  const rec = new IngestRecorder();
  const phone = createMobileIngest({ streamId: 'stream_phone', detector: pool, onDetections: rec.onDetections, onStatus: rec.onStatus });
  try {
    const result = await phone.pushJpeg(await readFile(PERSON_JPG));
    assert.deepEqual(result, { detected: true });
    const person = rec.detections.find((d) => d.type === 'person');
    assert.ok(person, `detections: ${JSON.stringify(rec.detections.map((d) => d.type))}`);
    // without face recognition nobody can say whether the person is known: no subtype
    assert.equal(person.subtype, null);
    assert.equal(person.dwell_s, 0);
    assert.ok(person.confidence >= 0.45);
    assert.equal((await sharp(person.snapshot).metadata()).format, 'jpeg');
    const count = rec.detections.find((d) => d.type === 'person_count');
    assert.equal(count?.value, 1);
    assert.deepEqual(rec.statusNames(), ['connecting', 'live']);
  } finally {
    await phone.stop();
  }
});

test('the person in the frame is placed in the zone under their feet', async () => {
  const rec = new IngestRecorder();
  // person.jpg: one person whose box spans y 0.26–0.89: the middle of the box is in `wall`,
  // the feet are in `floor`
  const zones = [
    {
      name: 'wall',
      polygon: [
        [0, 0],
        [1, 0],
        [1, 0.8],
        [0, 0.8],
      ] as [number, number][],
    },
    {
      name: 'floor',
      polygon: [
        [0, 0.8],
        [1, 0.8],
        [1, 1],
        [0, 1],
      ] as [number, number][],
    },
  ];
  const phone = createMobileIngest({ streamId: 'stream_phone', detector: pool, zones, onDetections: rec.onDetections, onStatus: rec.onStatus });
  try {
    await phone.pushJpeg(await readFile(PERSON_JPG));
    assert.equal(rec.detections.find((d) => d.type === 'person')?.zone, 'floor');
  } finally {
    await phone.stop();
  }
});

test('bytes that are not a JPEG are refused as invalid_image, and an oversized frame as payload_too_large', async () => {
  const rec = new IngestRecorder();
  const phone = createMobileIngest({ streamId: 'stream_phone', detector: pool, onDetections: rec.onDetections, onStatus: rec.onStatus });
  try {
    const png = await sharp(await readFile(PERSON_JPG))
      .png()
      .toBuffer();
    const truncated = (await readFile(PERSON_JPG)).subarray(0, 200);
    for (const bad of [png, Buffer.from('hello, not an image'), truncated]) {
      await assert.rejects(phone.pushJpeg(bad), (err: unknown) => err instanceof VideoInputError && err.code === 'invalid_image');
    }
    const huge = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2 * 1024 * 1024)]);
    await assert.rejects(phone.pushJpeg(huge), (err: unknown) => err instanceof VideoInputError && err.code === 'payload_too_large');
    assert.equal(rec.detections.length, 0);
    assert.deepEqual(rec.statusNames(), ['connecting'], 'rejected frames do not make the phone live');
  } finally {
    await phone.stop();
  }
});

test('a phone is live while frames arrive and offline after a silence', async () => {
  const clock = new ManualClock();
  const rec = new IngestRecorder();
  const phone = createMobileIngest({
    streamId: 'stream_phone',
    detector: pool,
    clock,
    silenceMs: 30_000,
    onDetections: rec.onDetections,
    onStatus: rec.onStatus,
  });
  try {
    const jpeg = await readFile(PERSON_JPG);
    await phone.pushJpeg(jpeg);
    await clock.advance(20_000);
    await phone.pushJpeg(jpeg);
    await clock.advance(20_000);
    assert.equal(phone.stats().status, 'live', 'the second frame restarted the silence window');
    await clock.advance(10_001);
    assert.deepEqual(rec.statusNames(), ['connecting', 'live', 'offline']);
    await phone.pushJpeg(jpeg);
    assert.deepEqual(rec.statusNames(), ['connecting', 'live', 'offline', 'live']);
    assert.equal(phone.stats().frames_in, 3);
  } finally {
    await phone.stop();
  }
});

test('a phone is not offline while the detector is still working on the frame it sent', async () => {
  const clock = new ManualClock();
  const rec = new IngestRecorder();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  // a cold model or a busy machine: the detector answers long after the frame arrived
  const slow: DetectorPool = Object.assign(Object.create(pool) as DetectorPool, {
    detect: async (...args: Parameters<DetectorPool['detect']>) => {
      await released;
      return pool.detect(...args);
    },
  });
  const phone = createMobileIngest({
    streamId: 'stream_phone',
    detector: slow,
    clock,
    silenceMs: 5_000,
    onDetections: rec.onDetections,
    onStatus: rec.onStatus,
  });
  try {
    const pushed = phone.pushJpeg(await readFile(PERSON_JPG));
    await new Promise((r) => setTimeout(r, 50));
    await clock.advance(60_000);
    assert.equal(phone.stats().status, 'live', 'the frame is being handled, so the phone is not silent');
    release();
    assert.deepEqual(await pushed, { detected: true });
    assert.deepEqual(rec.statusNames(), ['connecting', 'live']);
    await clock.advance(5_001);
    assert.deepEqual(rec.statusNames(), ['connecting', 'live', 'offline'], 'silence counts from the handled frame');
  } finally {
    await phone.stop();
  }
});
