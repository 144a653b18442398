import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDetectorConfig, type DetectorModelConfig } from '../../src/platform/config/index.ts';
import { checkDetectorModel, createDetectorPool } from '../../src/ingest/video/detector-pool.ts';
import { SHIPPED_CENTERNET } from '../../src/ingest/video/models/detector-model.ts';
import { yoloModel } from './yolo-fixture.ts';
import { runServerUntilExit } from '../helpers/server-exit.ts';

const dir = mkdtempSync(join(tmpdir(), 'vigil-models-'));
const file = (name: string, content: string | Buffer) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};
const yolo = (labels: string | null, over: Partial<DetectorModelConfig> = {}): DetectorModelConfig => ({
  file: YOLO,
  decoder: 'yolo',
  input: null,
  labels,
  ...over,
});

// three classes; a person at (32, 32) 16×32 px and a car at (10, 10) 8×8 px on a 64×64 input
const YOLO = file(
  'yolo.onnx',
  yoloModel({
    size: 64,
    boxes: [
      { cxcywh: [32, 32, 16, 32], scores: [0.9, 0, 0.1] },
      { cxcywh: [10, 10, 8, 8], scores: [0, 0.05, 0.8] },
      { cxcywh: [50, 50, 4, 4], scores: [0.1, 0.1, 0.1] },
    ],
  }),
);
const LABELS3 = file('labels3.txt', 'person\nbicycle\ncar\n');

test('VIGIL_DETECTOR_* settings: a bad decoder, input size or a label map without a model are refused by name', () => {
  assert.throws(() => readDetectorConfig({ VIGIL_DETECTOR_DECODER: 'ssd' }), /VIGIL_DETECTOR_DECODER must be one of centernet, yolo/);
  assert.throws(() => readDetectorConfig({ VIGIL_DETECTOR_INPUT: '500' }), /VIGIL_DETECTOR_INPUT must be a multiple of 32/);
  assert.throws(() => readDetectorConfig({ VIGIL_DETECTOR_LABELS: LABELS3 }), /set VIGIL_DETECTOR_MODEL/);
  assert.deepEqual({ ...readDetectorConfig({}) }, { file: null, decoder: null, input: null, labels: null });
});

test('a model that cannot serve is refused naming the setting and the problem: missing, corrupt, wrong shape, label map mismatch', async () => {
  await assert.rejects(checkDetectorModel(yolo(null, { file: join(dir, 'nope.onnx') })), /config: VIGIL_DETECTOR_MODEL: file .*nope\.onnx does not exist/);
  await assert.rejects(
    checkDetectorModel(yolo(null, { file: file('corrupt.onnx', Buffer.from('this is not a protobuf model, just text')) })),
    /config: VIGIL_DETECTOR_MODEL: .*corrupt\.onnx is not a model ONNX Runtime can load/,
  );
  // CenterNet's file read as YOLO: two inputs, uint8 NHWC
  await assert.rejects(
    checkDetectorModel(yolo(null, { file: SHIPPED_CENTERNET })),
    /config: VIGIL_DETECTOR_MODEL: has 2 inputs \(image, size\); a YOLO model takes one image/,
  );
  await assert.rejects(
    checkDetectorModel(
      yolo(LABELS3, { file: file('gray.onnx', yoloModel({ size: 64, inputChannels: 1, boxes: [{ cxcywh: [1, 1, 1, 1], scores: [1, 0, 0] }] })) }),
    ),
    /VIGIL_DETECTOR_MODEL: input images has shape \[1, 1, 64, 64\]/,
  );
  // the default label map is COCO's 80 names; this model has 3 classes
  await assert.rejects(checkDetectorModel(yolo(null)), /config: VIGIL_DETECTOR_LABELS: has 80 names but the model's output \[1, 7, 3\] has 3/);
  await assert.rejects(checkDetectorModel(yolo(file('labels4.txt', 'person\nbicycle\ncar\nbus\n'))), /VIGIL_DETECTOR_LABELS: has 4 names/);
  await assert.rejects(checkDetectorModel(yolo(file('labels-none.txt', 'apple\npear\nplum\n'))), /VIGIL_DETECTOR_LABELS: no class Vigil detects is named/);
  await assert.rejects(checkDetectorModel(yolo(join(dir, 'missing.txt'))), /VIGIL_DETECTOR_LABELS: file .*missing\.txt does not exist/);
  await assert.rejects(checkDetectorModel(yolo(LABELS3, { input: 640 })), /VIGIL_DETECTOR_INPUT: is 640 but the model's input is 64×64/);
  await assert.rejects(
    checkDetectorModel({ file: YOLO, decoder: 'centernet', input: null, labels: null }),
    /VIGIL_DETECTOR_MODEL: has inputs \(images\).*centernet decoder needs/,
  );
  const ok = await checkDetectorModel(yolo(LABELS3));
  assert.equal(ok?.input, 64);
  assert.deepEqual(ok?.labels, ['person', 'bicycle', 'car']);
});

test("a YOLO-layout model of one's own detects through the pool: boxes letterboxed back onto the frame, classes through the label map", async () => {
  for (const transposed of [false, true]) {
    const model = file(
      `yolo-${transposed}.onnx`,
      yoloModel({
        size: 64,
        transposed,
        boxes: [
          { cxcywh: [32, 32, 16, 32], scores: [0.75, 0, 0.125] },
          { cxcywh: [10, 10, 8, 8], scores: [0, 0.0625, 0.5] },
        ],
      }),
    );
    const pool = await createDetectorPool({ workers: 1, model: { file: model, decoder: 'yolo', input: null, labels: LABELS3 } });
    try {
      assert.equal(pool.runtime.runtime, 'onnxruntime');
      // a 128×96 frame: scale 0.5 into the 64×64 input, top-left aligned
      const found = await pool.detect({ width: 128, height: 96, data: new Uint8Array(128 * 96 * 3) });
      assert.equal(found.length, 2, JSON.stringify(found));
      const person = found.find((o) => o.label === 'person')!;
      assert.equal(person.score, 0.75);
      [48 / 128, 32 / 96, 32 / 128, 64 / 96].forEach((v, i) => assert.ok(Math.abs(person.box[i] - v) < 1e-6, `${person.box}`));
      const car = found.find((o) => o.label === 'vehicle')!;
      assert.equal(car.score, 0.5);
      [12 / 128, 12 / 96, 16 / 128, 16 / 96].forEach((v, i) => assert.ok(Math.abs(car.box[i] - v) < 1e-6, `${car.box}`));
    } finally {
      await pool.close();
    }
  }
});

test('the server refuses to start on a missing model file, naming VIGIL_DETECTOR_MODEL', async () => {
  const { code, output } = await runServerUntilExit({ VIGIL_DETECTOR_MODEL: join(dir, 'absent.onnx') });
  assert.equal(code, 1, output);
  assert.match(output, /config: VIGIL_DETECTOR_MODEL: file .*absent\.onnx does not exist/);
  assert.doesNotMatch(output, /Vigil web console/);
});

test('GET /readyz says which runtime the detector runs on: ONNX Runtime, or the tfjs-wasm fallback with its reason', async () => {
  const { createTestApp } = await import('../helpers/harness.ts');
  const { LiveVideoSources } = await import('../../src/org/sources/index.ts');
  const { LIVE_VIDEO } = await import('../../src/org/sources/index.ts');
  const t = await createTestApp();
  try {
    assert.deepEqual((await t.app.inject({ url: '/readyz' })).json(), { status: 'ready' }, 'a node that has not started streams says nothing of a detector');
    const sources = t.ctx.container.get(LIVE_VIDEO);
    assert.ok(sources instanceof LiveVideoSources);
    await sources.checkDetector();
    assert.deepEqual((await t.app.inject({ url: '/readyz' })).json(), {
      status: 'ready',
      detector: { runtime: 'onnxruntime', model: 'centernet models/centernet.onnx', fallback_reason: null },
    });
    // the same check where the native library cannot load
    const warnings: unknown[] = [];
    const fallback = new LiveVideoSources({
      ...(sources as unknown as { deps: ConstructorParameters<typeof LiveVideoSources>[0] }).deps,
      ortModule: 'vigil-missing-onnxruntime',
      log: { warn: (_o: unknown, m?: string) => warnings.push(m) },
    });
    const runtime = await fallback.checkDetector();
    assert.equal(runtime.runtime, 'tfjs-wasm');
    assert.match(runtime.fallback_reason ?? '', /ONNX Runtime cannot load/);
    assert.ok(
      warnings.some((m) => /falls back to tfjs-wasm/.test(String(m))),
      JSON.stringify(warnings),
    );
    await fallback.close();
  } finally {
    await t.close();
  }
});
