/**
 * A face embedder of one's own (VIGIL_FACE_EMBEDDER): the settings, the start-up check naming the
 * setting, and the engine describing faces with it, on a tiny embedder built here
 * (embedder-fixture.ts) and faces from the installed @vladmandic/human package.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readFaceConfig, type FaceEmbedderConfig } from '../../src/platform/config/index.ts';
import {
  cosineSimilarity,
  createFaceEngine,
  decodeJpeg,
  descriptorFromBytes,
  descriptorToBytes,
  embedderInput,
  loadFaceModel,
  MATCH_THRESHOLD,
  DESCRIPTOR_MODEL,
  type FaceEngine,
  type FaceModel,
} from '../../src/ingest/faces/index.ts';
import { EMBEDDING_LENGTH, thumbnailEmbedder } from './embedder-fixture.ts';
import { runServerUntilExit } from '../helpers/server-exit.ts';
import { portraitJpeg, samePhotoFixtures } from './face-fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'vigil-embedders-'));
const file = (name: string, content: string | Buffer) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};
const EMBEDDER = file('thumb.onnx', thumbnailEmbedder({ size: 112 }));
const own = (over: Partial<FaceEmbedderConfig> = {}): FaceEmbedderConfig => ({ file: EMBEDDER, input: null, threshold: 0.5, ...over });

describe('VIGIL_FACE_* settings', () => {
  test('unset: the shipped FaceRes at its calibrated threshold; the threshold may be set', async () => {
    assert.deepEqual({ ...readFaceConfig({}) }, { file: null, input: null, threshold: null });
    const shipped = await loadFaceModel(readFaceConfig({}));
    assert.equal(shipped.id, DESCRIPTOR_MODEL);
    assert.equal(shipped.threshold, MATCH_THRESHOLD);
    assert.equal(shipped.onnx, null);
    assert.equal((await loadFaceModel(readFaceConfig({ VIGIL_FACE_MATCH_THRESHOLD: '0.8' }))).threshold, 0.8);
  });

  test('bad syntax is refused by name', () => {
    assert.throws(() => readFaceConfig({ VIGIL_FACE_EMBEDDER: EMBEDDER }), /VIGIL_FACE_MATCH_THRESHOLD is required with VIGIL_FACE_EMBEDDER/);
    assert.throws(() => readFaceConfig({ VIGIL_FACE_MATCH_THRESHOLD: '1.5' }), /VIGIL_FACE_MATCH_THRESHOLD must be a cosine similarity/);
    assert.throws(() => readFaceConfig({ VIGIL_FACE_MATCH_THRESHOLD: 'high' }), /VIGIL_FACE_MATCH_THRESHOLD must be/);
    assert.throws(
      () => readFaceConfig({ VIGIL_FACE_EMBEDDER: EMBEDDER, VIGIL_FACE_MATCH_THRESHOLD: '0.4', VIGIL_FACE_EMBEDDER_INPUT: '12' }),
      /VIGIL_FACE_EMBEDDER_INPUT must be/,
    );
    assert.throws(() => readFaceConfig({ VIGIL_FACE_EMBEDDER_INPUT: '112' }), /set VIGIL_FACE_EMBEDDER/);
    assert.deepEqual(
      { ...readFaceConfig({ VIGIL_FACE_EMBEDDER: EMBEDDER, VIGIL_FACE_MATCH_THRESHOLD: '0.4' }) },
      { file: EMBEDDER, input: null, threshold: 0.4 },
    );
  });

  test('a model that cannot serve is refused naming the setting and the problem: missing, corrupt, wrong shape, wrong input size', async () => {
    await assert.rejects(loadFaceModel(own({ file: join(dir, 'absent.onnx') })), /config: VIGIL_FACE_EMBEDDER: file .*absent\.onnx does not exist/);
    await assert.rejects(
      loadFaceModel(own({ file: file('corrupt.onnx', Buffer.from('not a model at all')) })),
      /config: VIGIL_FACE_EMBEDDER: .*corrupt\.onnx is not a model ONNX Runtime can load/,
    );
    const grey = file('grey.onnx', thumbnailEmbedder({ size: 112, inputShape: [1, 1, 112, 112] }));
    await assert.rejects(
      loadFaceModel(own({ file: grey })),
      /config: VIGIL_FACE_EMBEDDER: input face has shape \[1, 1, 112, 112\]; a face embedder takes \[1, 3, size, size\]/,
    );
    const map = file('map.onnx', thumbnailEmbedder({ size: 112, spatial: true }));
    await assert.rejects(
      loadFaceModel(own({ file: map })),
      /config: VIGIL_FACE_EMBEDDER: output embedding has shape \[1, 3, 8, 8\]; a face embedder gives one vector/,
    );
    await assert.rejects(loadFaceModel(own({ input: 96 })), /config: VIGIL_FACE_EMBEDDER_INPUT: is 96 but the model's input is 112×112/);
  });

  test('a good model is described: its input, descriptor length, and an id that names the file and its contents', async () => {
    const m = await loadFaceModel(own());
    assert.equal(m.length, EMBEDDING_LENGTH);
    assert.equal(m.threshold, 0.5);
    assert.deepEqual(m.onnx && { input: m.onnx.input, inputName: m.onnx.inputName, outputName: m.onnx.outputName }, {
      input: 112,
      inputName: 'face',
      outputName: 'embedding',
    });
    assert.match(m.id, /^onnx\/thumb\.onnx\/[0-9a-f]{16}\/112$/);
    // a descriptor of the model's length survives storage; FaceRes's length is refused for it
    const d = Float32Array.from({ length: m.length }, (_, i) => Math.sin(i));
    assert.deepEqual(descriptorFromBytes(descriptorToBytes(d, m.length), m.length), d);
    assert.throws(() => descriptorToBytes(d), /a descriptor has 1024 numbers, not 192/);
  });

  test('the server refuses to start on a missing embedder file, naming VIGIL_FACE_EMBEDDER', async () => {
    const { code, output } = await runServerUntilExit({ VIGIL_FACE_EMBEDDER: join(dir, 'absent.onnx'), VIGIL_FACE_MATCH_THRESHOLD: '0.5' });
    assert.equal(code, 1, output);
    assert.match(output, /config: VIGIL_FACE_EMBEDDER: file .*absent\.onnx does not exist/);
  });
});

describe('embedderInput', () => {
  test('a square crop around the face box, RGB planes scaled to -1..1, grey outside the image', () => {
    // a 4×2 image: left half red, right half blue
    const data = new Uint8Array(4 * 2 * 3);
    for (let y = 0; y < 2; y++) for (let x = 0; x < 4; x++) data.set(x < 2 ? [255, 0, 0] : [0, 0, 255], (y * 4 + x) * 3);
    const out = embedderInput({ width: 4, height: 2, data }, [0, 0, 0.5, 1], 2);
    // the box is the left 2×2: red everywhere
    assert.deepEqual([...out.slice(0, 4)], [1, 1, 1, 1]);
    assert.deepEqual([...out.slice(8, 12)], [-1, -1, -1, -1]);
    const outside = embedderInput({ width: 4, height: 2, data }, [-1, -1, 0.25, 0.5], 1);
    assert.deepEqual([...outside], [0, 0, 0]);
  });
});

describe("the face engine with an embedder of one's own", () => {
  let engine: FaceEngine;
  let model: FaceModel;
  before(async () => {
    model = await loadFaceModel(own());
    engine = await createFaceEngine({ model });
  });
  after(async () => {
    await engine?.close();
  });

  test('faces are found by BlazeFace and described by the configured model', async () => {
    assert.equal(engine.model.id, model.id);
    const faces = await engine.describeFaces(await decodeJpeg(await portraitJpeg('mia')));
    assert.equal(faces.length, 1);
    assert.equal(faces[0].descriptor.length, EMBEDDING_LENGTH);
    assert.ok(faces[0].descriptor.every(Number.isFinite));
    // the same photo gives the same descriptor; a variant of it a near one
    const again = await engine.describeFaces(await decodeJpeg(await portraitJpeg('mia')));
    assert.ok(cosineSimilarity(again[0].descriptor, faces[0].descriptor) > 0.999);
    const mirror = (await samePhotoFixtures()).find((f) => f.person === 'mia' && f.variant === 'scale-1.6')!;
    const scaled = await engine.describeFaces(await decodeJpeg(mirror.jpeg));
    assert.ok(cosineSimilarity(scaled[0].descriptor, faces[0].descriptor) > 0.9, 'a scaled copy of the same photo');
    // enrolment takes the one face and its descriptor from the configured model too
    const best = await engine.bestFace(await portraitJpeg('chelsea'));
    assert.equal(best.descriptor.length, EMBEDDING_LENGTH);
    assert.ok(cosineSimilarity(best.descriptor, faces[0].descriptor) < 0.999, 'another person gives another descriptor');
  });
});
