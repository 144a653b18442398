import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { convertCenterNet, sha256 } from '../../scripts/centernet-to-onnx.ts';
import { createDetectorPool, type DetectorPool } from '../../src/ingest/video/detector-pool.ts';
import { decodeJpegFrame } from '../../src/ingest/video/jpeg-codec.ts';
import { SHIPPED_CENTERNET } from '../../src/ingest/video/models/detector-model.ts';
import type { DetectedObject, RgbFrame } from '../../src/ingest/video/video.types.ts';
import { decodeFrames } from '../fixtures-video/decode-frames.ts';
import { DOG_JPG, PERSON_JPG, VTEST_AVI } from '../fixtures-video/rtsp-camera.ts';

test('the shipped models/centernet.onnx is what the converter makes from the packaged tfjs weights, byte for byte', () => {
  assert.equal(sha256(convertCenterNet()), sha256(readFileSync(SHIPPED_CENTERNET)));
});

/** Same objects: labels and scores equal, boxes equal to 3 decimals. */
function assertSame(onnx: DetectedObject[], tfjs: DetectedObject[], what: string) {
  assert.equal(onnx.length, tfjs.length, `${what}: ${onnx.length} objects on ONNX Runtime, ${tfjs.length} on tfjs`);
  const key = (o: DetectedObject) => `${o.label} ${o.box.map((v) => v.toFixed(2)).join(',')}`;
  const a = [...onnx].sort((x, y) => key(x).localeCompare(key(y)));
  const b = [...tfjs].sort((x, y) => key(x).localeCompare(key(y)));
  a.forEach((o, i) => {
    assert.equal(o.label, b[i].label, what);
    assert.ok(Math.abs(o.score - b[i].score) <= 0.0101, `${what}: score ${o.score} against ${b[i].score}`);
    o.box.forEach((v, k) => assert.ok(Math.abs(v - b[i].box[k]) < 1e-3, `${what}: box ${o.box} against ${b[i].box}`));
  });
}

test('the ONNX detector finds what the tfjs one finds on the fixture frames: same labels, scores and boxes to 3 decimals', async () => {
  const onnx = await createDetectorPool({ workers: 1, runtime: 'onnx' });
  const tfjs = await createDetectorPool({ workers: 1, runtime: 'tfjs' });
  try {
    assert.equal(onnx.runtime.runtime, 'onnxruntime');
    assert.equal(tfjs.runtime.runtime, 'tfjs-wasm');
    const frames: Array<[string, RgbFrame]> = [
      ['person.jpg', await decodeJpegFrame(readFileSync(PERSON_JPG), 1280)],
      ['dog.jpg', await decodeJpegFrame(readFileSync(DOG_JPG), 1280)],
      ...(await decodeFrames(VTEST_AVI, 15, 1)).filter((_, i) => i % 5 === 4).map((f, i): [string, RgbFrame] => [`vtest.avi frame ${5 * i + 4}`, f]),
    ];
    let objects = 0;
    for (const [name, frame] of frames) {
      for (const wholeFrame of ['aspect', 'square'] as const) {
        const [a, b] = await Promise.all([onnx.detect(frame, undefined, { wholeFrame }), tfjs.detect(frame, undefined, { wholeFrame })]);
        assertSame(a, b, `${name} (${wholeFrame})`);
        objects += a.length;
      }
      // two overlapping motion regions, one upscaled: crops, resizing and the merge
      const side = Math.min(frame.width, frame.height, 256);
      const regions = [
        { x: 0, y: 0, size: side, input: 256 },
        { x: frame.width - side, y: frame.height - side, size: side, input: 320 },
      ];
      const [a, b] = await Promise.all([onnx.detect(frame, regions), tfjs.detect(frame, regions)]);
      assertSame(a, b, `${name} (regions)`);
      objects += a.length;
    }
    assert.ok(objects >= 20, `the frames hold objects to compare (${objects})`);
    assert.ok(onnx.stats().infer_ms > 0, 'time inside ONNX Runtime is counted');
  } finally {
    await Promise.all([onnx.close(), tfjs.close()]);
  }
});

test('when the native ONNX Runtime cannot load, the shipped CenterNet runs on tfjs-wasm and says why', async () => {
  const reasons: string[] = [];
  let pool: DetectorPool | null = null;
  try {
    pool = await createDetectorPool({ workers: 1, ortModule: 'vigil-missing-onnxruntime', onFallback: (r) => reasons.push(r) });
    assert.equal(pool.runtime.runtime, 'tfjs-wasm');
    assert.match(pool.runtime.fallback_reason ?? '', /ONNX Runtime cannot load: .*vigil-missing-onnxruntime/);
    assert.deepEqual(reasons, [pool.runtime.fallback_reason]);
    const found = await pool.detect(await decodeJpegFrame(readFileSync(PERSON_JPG), 1280));
    assert.ok(
      found.some((o) => o.label === 'person'),
      JSON.stringify(found),
    );
  } finally {
    await pool?.close();
  }
  // a model of one's own needs ONNX Runtime: no silent fallback to a different model
  await assert.rejects(
    createDetectorPool({
      workers: 1,
      ortModule: 'vigil-missing-onnxruntime',
      model: { file: SHIPPED_CENTERNET, decoder: 'centernet', input: null, labels: null },
    }),
    /VIGIL_DETECTOR_MODEL: ONNX Runtime cannot load/,
  );
});
