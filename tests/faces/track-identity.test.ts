/**
 * Identity over several frames, weighted by face size (TrackRecognizer's vote), on made-up
 * descriptors: no model runs here. The real-engine cases are in face-engine.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { faceWeight, TrackRecognizer, voteIdentity, type DescribedFace, type EnrolledFace, type RgbFrame } from '../../src/ingest/faces/index.ts';

const D = 16;
/** A unit descriptor pointing mostly along axis `k`, mixed with `other` by `mix` (cosine ≈ 1 - mix for small mixes). */
function vec(k: number, mix = 0, other = (k + 1) % D): Float32Array {
  const v = new Float32Array(D);
  v[k] = 1 - mix;
  v[other] += mix;
  return v;
}
const enrolled: EnrolledFace[] = [
  { personId: 'person_ann', descriptor: vec(0) },
  { personId: 'person_bob', descriptor: vec(1) },
];
const FRAME: RgbFrame = { width: 4, height: 4, data: new Uint8Array(48) };
const FULL: [number, number, number, number] = [0, 0, 1, 1];

/** An engine that answers each call with the next scripted face. */
function scripted(faces: Array<{ descriptor: Float32Array; size: number }>) {
  let i = 0;
  return {
    calls: () => i,
    describeFaces: async (): Promise<DescribedFace[]> => {
      const f = faces[Math.min(i++, faces.length - 1)];
      return [{ box: [0, 0, 1, 1], score: 0.9, size: f.size, descriptor: f.descriptor }];
    },
  };
}

describe('voteIdentity', () => {
  test('one large face of Ann outweighs two small faces that lean to Bob', () => {
    // the large face: Ann 0.97, Bob 0.24; each small face the other way round
    const big = { descriptor: vec(0, 0.2), weight: faceWeight(200) };
    const small = { descriptor: vec(1, 0.2, 0), weight: faceWeight(60) };
    const v = voteIdentity([big, small, small], enrolled, 0.6);
    assert.equal(v.personId, 'person_ann');
    // with equal weights the same three sightings vote Bob
    const equal = voteIdentity(
      [
        { ...big, weight: 1 },
        { ...small, weight: 1 },
        { ...small, weight: 1 },
      ],
      enrolled,
      0.6,
    );
    assert.equal(equal.personId, 'person_bob');
  });

  test('one frame above the threshold among frames far below it does not recognize', () => {
    const lucky = { descriptor: vec(0, 0.05, 2), weight: faceWeight(100) };
    const stranger = { descriptor: vec(3), weight: faceWeight(100) };
    const v = voteIdentity([lucky, stranger, stranger], enrolled, 0.75);
    assert.equal(v.personId, null);
    assert.ok(v.similarity! < 0.75 && v.similarity! > 0);
  });

  test('a person enrolled with several faces is compared through their best one in each frame', () => {
    const two = [...enrolled, { personId: 'person_bob', descriptor: vec(5) }];
    const v = voteIdentity([{ descriptor: vec(5, 0.1, 6), weight: 100 }], two, 0.75);
    assert.equal(v.personId, 'person_bob');
  });

  test('nobody enrolled or no sighting: no similarity', () => {
    assert.deepEqual(voteIdentity([], enrolled, 0.75), { personId: null, similarity: null });
    assert.deepEqual(voteIdentity([{ descriptor: vec(0), weight: 1 }], [], 0.75), { personId: null, similarity: null });
  });

  test('faceWeight grows with the face up to 224 px', () => {
    assert.ok(faceWeight(56) < faceWeight(112));
    assert.equal(faceWeight(224), faceWeight(600));
  });
});

describe('TrackRecognizer votes over frames', () => {
  test('a first lucky match is revised when the next frames, with larger faces, show a stranger', async () => {
    const engine = scripted([
      { descriptor: vec(0, 0.1, 3), size: 60 }, // small, looks like Ann
      { descriptor: vec(3), size: 180 }, // large, nobody enrolled
      { descriptor: vec(3), size: 180 },
    ]);
    const r = new TrackRecognizer(engine, { everyNFrames: 1, threshold: 0.75, minFacePx: 1 });
    assert.equal((await r.observe('t', 0, FRAME, FULL, enrolled))?.status, 'recognized');
    assert.equal((await r.observe('t', 1, FRAME, FULL, enrolled))?.status, 'unrecognized');
    const v = await r.observe('t', 2, FRAME, FULL, enrolled);
    assert.equal(v?.status, 'unrecognized');
    assert.equal(engine.calls(), 3);
  });

  test('settles after settleAfter recognized descriptors and is not described again', async () => {
    const engine = scripted([{ descriptor: vec(1, 0.05, 4), size: 120 }]);
    const r = new TrackRecognizer(engine, { everyNFrames: 2, threshold: 0.75, settleAfter: 3, minFacePx: 1 });
    for (let f = 0; f < 20; f++) {
      const v = await r.observe('t', f, FRAME, FULL, enrolled);
      assert.equal(v?.status === 'recognized' && v.personId, 'person_bob');
    }
    assert.equal(engine.calls(), 3);
    assert.equal(r.due('t', 100), false);
  });
});
