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
