import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createDetectorPool, createMobileIngest, type DetectorPool } from '../../src/ingest/video/index.ts';
import { metrics } from '../../src/platform/metrics/index.ts';
import { IngestRecorder } from '../fixtures-video/ingest-recorder.ts';
import { PERSON_JPG } from '../fixtures-video/rtsp-camera.ts';

/** The value of one series of this process's metrics (0 when absent). */
async function sample(name: string): Promise<number> {
  const { body } = await metrics().render();
  const line = body.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

let pool: DetectorPool;
before(async () => {
  pool = await createDetectorPool({ workers: 1 });
});
after(async () => {
  await pool.close();
});

test('each frame the detector finishes is counted, with its inference time (GET /metrics: detector frames/s and latency)', async () => {
  const frames = await sample('vigil_detector_frames_total');
  const timed = await sample('vigil_detector_inference_seconds_count');
  const rec = new IngestRecorder();
  const phone = createMobileIngest({ streamId: 'stream_phone', detector: pool, onDetections: rec.onDetections, onStatus: rec.onStatus });
  try {
    assert.deepEqual(await phone.pushJpeg(await readFile(PERSON_JPG)), { detected: true });
  } finally {
    await phone.stop();
  }
  assert.equal((await sample('vigil_detector_frames_total')) - frames, 1);
  assert.equal((await sample('vigil_detector_inference_seconds_count')) - timed, 1);
  assert.ok((await sample('vigil_detector_inference_seconds_sum')) > 0);
});

test('camera frames meet the model with their aspect kept (512×384 for 640×480), phone frames squeezed to 512×512 as Human does', async () => {
  const frame = { width: 640, height: 480, data: new Uint8Array(640 * 480 * 3).fill(90) };
  const pixels = () => pool.stats().input_pixels;
  let before = pixels();
  await pool.detect(frame);
  assert.equal(pixels() - before, 512 * 384, 'the pool default: aspect kept');
  before = pixels();
  await pool.detect(frame, undefined, { wholeFrame: 'square' });
  assert.equal(pixels() - before, 512 * 512);
  before = pixels();
  await pool.detect(frame, [{ x: 100, y: 100, size: 192, input: 256 }]);
  assert.equal(pixels() - before, 256 * 256, 'a region at its own input size');
  const rec = new IngestRecorder();
  const phone = createMobileIngest({ streamId: 'stream_phone_input', detector: pool, onDetections: rec.onDetections, onStatus: rec.onStatus });
  try {
    before = pixels();
    await phone.pushJpeg(await readFile(PERSON_JPG));
    assert.equal(pixels() - before, 512 * 512, 'a phone frame whole, squeezed');
  } finally {
    await phone.stop();
  }
});
