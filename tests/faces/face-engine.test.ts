/**
 * Face engine on real models and fixtures from the installed @vladmandic/human package
 * (tests/faces/face-fixtures.ts): matching over all pairs at the documented threshold, the
 * enrolment face (none / several / too small refused), and the per-track cache.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import {
  createFaceEngine,
  decodeJpeg,
  FaceImageError,
  match,
  MATCH_THRESHOLD,
  TrackRecognizer,
  recognizeImage,
  faceSearchRegion,
  descriptorFromBytes,
  descriptorToBytes,
  cosineSimilarity,
  type EnrolledFace,
  type FaceEngine,
  type RgbFrame,
} from '../../src/ingest/faces/index.ts';
import { groupRowJpeg, noFaceJpeg, PEOPLE, portraitJpeg, samePhotoFixtures, scaledPortrait, twoFacesJpeg } from './face-fixtures.ts';

let engine: FaceEngine;
before(async () => {
  engine = await createFaceEngine();
});
after(async () => {
  await engine?.close();
});

async function describeOne(jpeg: Buffer): Promise<Float32Array> {
  const faces = await engine.describeFaces(await decodeJpeg(jpeg));
  assert.equal(faces.length, 1, 'one face in a portrait');
  return faces[0].descriptor;
}

describe('matching at MATCH_THRESHOLD', () => {
  test('every same-person pair of variants matches and no different-person pair does', async () => {
    const fixtures = await samePhotoFixtures();
    const described = [];
    for (const f of fixtures) described.push({ ...f, descriptor: await describeOne(f.jpeg) });
    const missed: string[] = [];
    const falseMatches: string[] = [];
    let same = 0;
    let different = 0;
    for (let i = 0; i < described.length; i++) {
      for (let j = i + 1; j < described.length; j++) {
        const a = described[i];
        const b = described[j];
        const s = cosineSimilarity(a.descriptor, b.descriptor);
        const label = `${a.person}/${a.variant} ~ ${b.person}/${b.variant}: ${s.toFixed(3)}`;
        if (a.person === b.person) {
          same++;
          if (s < MATCH_THRESHOLD) missed.push(label);
        } else {
          different++;
          if (s >= MATCH_THRESHOLD) falseMatches.push(label);
        }
      }
    }
    assert.equal(same, PEOPLE.length * 55, 'all same-person pairs compared');
    assert.ok(different > 1000);
    assert.deepEqual(missed, [], 'same-person pairs below the threshold');
    assert.deepEqual(falseMatches, [], 'different-person pairs at or above the threshold');
  });

  test('match() names the enrolled person of a variant and nobody for a stranger', async () => {
    const fixtures = await samePhotoFixtures();
    const enrolled: EnrolledFace[] = [];
    for (const person of ['mia', 'esma']) enrolled.push({ personId: `person_${person}`, descriptor: await describeOne(await portraitJpeg(person)) });
    const miaDarker = fixtures.find((f) => f.person === 'mia' && f.variant === 'darker')!;
    const found = match(await describeOne(miaDarker.jpeg), enrolled);
    assert.equal(found?.personId, 'person_mia');
    assert.ok(found!.similarity >= MATCH_THRESHOLD);
    const stranger = fixtures.find((f) => f.person === 'chelsea' && f.variant === 'mirror')!;
    assert.equal(match(await describeOne(stranger.jpeg), enrolled), null);
    assert.equal(match(await describeOne(stranger.jpeg), []), null, 'nobody enrolled: nobody matches');
  });
});

describe('detectFaces and describe', () => {
  test('two people in one picture: each face found, and described alone it is still that person', async () => {
    const image = await decodeJpeg(await twoFacesJpeg());
    const faces = await engine.detectFaces(image);
    assert.equal(faces.length, 2);
    assert.ok(faces.every((f) => f.score >= 0.5 && f.size >= 100 && !('descriptor' in f)));
    const left = faces.find((f) => f.box[0] < 0.5)!;
    const right = faces.find((f) => f.box[0] >= 0.5)!;
    const christina = await describeOne(await portraitJpeg('christina'));
    const esma = await describeOne(await portraitJpeg('esma'));
    const leftDescriptor = await engine.describe(image, left);
    const rightDescriptor = await engine.describe(image, right);
    assert.ok(leftDescriptor && rightDescriptor);
    assert.ok(cosineSimilarity(leftDescriptor, christina) >= MATCH_THRESHOLD);
    assert.ok(cosineSimilarity(rightDescriptor, esma) >= MATCH_THRESHOLD);
    assert.ok(cosineSimilarity(leftDescriptor, esma) < MATCH_THRESHOLD);
  });
});

describe('recognizeImage (a phone frame)', () => {
  test('each face of a still is recognized or not; nobody enrolled means unrecognized with no similarity', async () => {
    const image = await decodeJpeg(await twoFacesJpeg());
    const enrolled = [{ personId: 'person_esma', descriptor: await describeOne(await portraitJpeg('esma')) }];
    const verdicts = await recognizeImage(engine, image, enrolled);
    assert.equal(verdicts.length, 2);
    const right = verdicts.find((v) => v.box[0] >= 0.5)!;
    const left = verdicts.find((v) => v.box[0] < 0.5)!;
    assert.equal(right.status, 'recognized');
    assert.equal(right.personId, 'person_esma');
    assert.equal(left.status, 'unrecognized');
    assert.equal(left.personId, null);
    assert.ok(left.similarity! < MATCH_THRESHOLD);
    const nobody = await recognizeImage(engine, image, []);
    assert.deepEqual(
      nobody.map((v) => [v.status, v.similarity]),
      [
        ['unrecognized', null],
        ['unrecognized', null],
      ],
    );
    assert.deepEqual(await recognizeImage(engine, await decodeJpeg(await noFaceJpeg()), enrolled), []);
    assert.deepEqual(await recognizeImage(engine, await decodeJpeg(await scaledPortrait('esma', 40)), enrolled), [], 'too small: no verdict');
  });
});

describe('JPEG input and stored descriptors', () => {
  test('describeFaces takes JPEG bytes as well; a descriptor survives its stored bytes exactly', async () => {
    const jpeg = await portraitJpeg('esma');
    const [fromJpeg] = await engine.describeFaces(jpeg);
    const [fromFrame] = await engine.describeFaces(await decodeJpeg(jpeg));
    assert.deepEqual(fromJpeg.descriptor, fromFrame.descriptor);
    const bytes = descriptorToBytes(fromJpeg.descriptor);
    assert.equal(bytes.length, 4096);
    assert.deepEqual(descriptorFromBytes(bytes), fromJpeg.descriptor);
    assert.throws(() => descriptorFromBytes(bytes.subarray(0, 4092)), /4096 bytes, not 4092/);
    assert.throws(() => descriptorToBytes(new Float32Array(128)), /1024 numbers, not 128/);
    const corrupt = Buffer.from(bytes);
    corrupt.writeFloatLE(Number.NaN, 40);
    assert.throws(() => descriptorFromBytes(corrupt), /non-finite number at 10/);
    await assert.rejects(engine.detectFaces(Buffer.from('not a jpeg')), (err: unknown) => err instanceof FaceImageError && err.code === 'invalid_image');
  });
});

describe('a person seen from behind', () => {
  // the project's shared photo: a person in a field, back to the camera (no face to see)
  const PERSON_JPG = new URL('../../../shared/fixtures/person.jpg', import.meta.url);

  test('gives no face: no verdict on the still, and enrolment is refused with no_face', async () => {
    const jpeg = await readFile(PERSON_JPG);
    const image = await decodeJpeg(jpeg);
    // the person's box as the object detector reports it (tests/video/mobile-ingest.test.ts: y 0.26–0.89)
    const region = faceSearchRegion([0.29, 0.26, 0.14, 0.63], image);
    assert.deepEqual(await recognizeImage(engine, image, []), []);
    const r = new TrackRecognizer(engine);
    assert.equal(await r.observe('back', 0, image, region, []), undefined);
    await assert.rejects(engine.bestFace(jpeg), (err: unknown) => err instanceof FaceImageError && err.code === 'no_face');
  });
});

describe('faceSearchRegion', () => {
  const frame = { width: 640, height: 480 };
  const close = (a: number[], b: number[]) =>
    assert.ok(
      a.every((v, i) => Math.abs(v - b[i]) < 1e-9),
      `${a} vs ${b}`,
    );

  test('a standing person: the top half of the box, widened', () => {
    // 64×288 px: a full-body box
    close(faceSearchRegion([0.5, 0.2, 0.1, 0.6], frame), [0.485, 0.14, 0.13, 0.36]);
  });

  test('a close-up (box about as wide as tall): the whole box, widened', () => {
    // CenterNet's box of a face filling a door camera's view (153×158 px)
    close(faceSearchRegion([0.3, 0.3, 0.24, 0.33], frame), [0.264, 0.267, 0.312, 0.363]);
  });

  test('stays inside the image', () => {
    close(faceSearchRegion([0, 0, 1, 1], frame), [0, 0, 1, 1]);
  });
});

describe('bestFace (enrolment)', () => {
  test('a portrait gives the descriptor of its face and a JPEG crop of it', async () => {
    const best = await engine.bestFace(await portraitJpeg('christina'));
    assert.equal(best.descriptor.length, 1024);
    assert.ok(best.size >= 100, `face size ${best.size}`);
    assert.deepEqual([...best.crop.subarray(0, 2)], [0xff, 0xd8], 'crop is a JPEG');
    const again = await describeOne(await portraitJpeg('christina'));
    assert.ok(cosineSimilarity(best.descriptor, again) > 0.99);
  });

  const refusal = async (jpeg: Buffer, code: string, message: RegExp) => {
    await assert.rejects(engine.bestFace(jpeg), (err: unknown) => {
      assert.ok(err instanceof FaceImageError, String(err));
      assert.equal(err.code, code);
      assert.match(err.message, message);
      return true;
    });
  };

  test('an image without a face is refused with no_face', async () => {
    await refusal(await noFaceJpeg(), 'no_face', /no face/);
  });

  test('an image with two faces of similar size is refused with several_faces', async () => {
    await refusal(await twoFacesJpeg(), 'several_faces', /2 faces.*one person/);
    await refusal(await groupRowJpeg(), 'several_faces', /5 faces/);
  });

  test('a face too small to enrol is refused with face_too_small', async () => {
    await refusal(await scaledPortrait('esma', 40), 'face_too_small', /px across; at least 64 px/);
  });

  test('bytes that are not a JPEG are refused with invalid_image', async () => {
    await refusal(Buffer.from('GIF89a not a jpeg'), 'invalid_image', /not a JPEG/);
    await refusal(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), 'invalid_image', /could not be decoded/);
  });

  test('an image over 2 MiB is refused with payload_too_large before decoding', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024 + 1);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    await refusal(big, 'payload_too_large', /2097153 bytes; the limit is 2097152/);
  });
});

describe('TrackRecognizer', () => {
  /** The real engine, counting descriptor computations. */
  const counting = () => {
    const calls: number[] = [];
    return {
      calls,
      describeFaces(image: RgbFrame) {
        calls.push(image.width);
        return engine.describeFaces(image);
      },
    };
  };
  const FULL: [number, number, number, number] = [0, 0, 1, 1];
  let mia: RgbFrame;
  let chelsea: RgbFrame;
  let empty: RgbFrame;
  let enrolled: EnrolledFace[];
  before(async () => {
    mia = await decodeJpeg(await portraitJpeg('mia'));
    chelsea = await decodeJpeg(await portraitJpeg('chelsea'));
    empty = await decodeJpeg(await noFaceJpeg());
    const miaVariant = (await samePhotoFixtures()).find((f) => f.person === 'mia' && f.variant === 'crop-offset')!;
    enrolled = [{ personId: 'person_mia', descriptor: await describeOne(miaVariant.jpeg) }];
  });

  test('a recognized track is described until its identity settles, then keeps it', async () => {
    const engineSpy = counting();
    const r = new TrackRecognizer(engineSpy, { everyNFrames: 10, settleAfter: 3 });
    for (let frame = 0; frame < 40; frame++) {
      // after frame 22 the box shows someone else's face: the settled identity stays with the track
      const verdict = await r.observe('t1', frame, frame < 22 ? mia : chelsea, FULL, enrolled);
      assert.equal(verdict?.status, 'recognized', `frame ${frame}`);
      assert.equal(verdict.status === 'recognized' && verdict.personId, 'person_mia');
    }
    // identity is a vote of several frames (frames 0, 10 and 20), not one frame's best match
    assert.equal(engineSpy.calls.length, 3);
  });

  test('an unrecognized track is described at most every N frames', async () => {
    const engineSpy = counting();
    const r = new TrackRecognizer(engineSpy, { everyNFrames: 10 });
    const computedAt: number[] = [];
    for (let frame = 0; frame < 35; frame++) {
      const before = engineSpy.calls.length;
      const verdict = await r.observe('t2', frame, chelsea, FULL, enrolled);
      if (engineSpy.calls.length > before) computedAt.push(frame);
      assert.equal(verdict?.status, 'unrecognized');
      assert.ok(verdict!.similarity! < MATCH_THRESHOLD);
    }
    assert.deepEqual(computedAt, [0, 10, 20, 30]);
    assert.equal(r.descriptorCount('t2'), 4);
  });

  test('no face seen gives no verdict, not "unrecognized"; a face seen later does', async () => {
    const engineSpy = counting();
    const r = new TrackRecognizer(engineSpy, { everyNFrames: 5 });
    for (let frame = 0; frame < 10; frame++) assert.equal(await r.observe('t3', frame, empty, FULL, enrolled), undefined);
    assert.equal(engineSpy.calls.length, 2, 'frames 0 and 5 were looked at');
    assert.equal(r.descriptorCount('t3'), 0);
    // a face too small to trust counts as not seen either
    const tiny = await decodeJpeg(await scaledPortrait('chelsea', 40));
    assert.equal(await r.observe('t3', 10, tiny, FULL, enrolled), undefined);
    const verdict = await r.observe('t3', 15, mia, FULL, enrolled);
    assert.equal(verdict?.status, 'recognized');
  });

  test('an unrecognized track becomes recognized when the face becomes matchable', async () => {
    const r = new TrackRecognizer(engine, { everyNFrames: 3 });
    assert.equal((await r.observe('t4', 0, chelsea, FULL, enrolled))?.status, 'unrecognized');
    assert.equal((await r.observe('t4', 1, mia, FULL, enrolled))?.status, 'unrecognized', 'not due yet');
    // the first frame's stranger still counts in the vote: recognized once the matchable frames outweigh it
    await r.observe('t4', 3, mia, FULL, enrolled);
    const v = await r.observe('t4', 6, mia, FULL, enrolled);
    assert.equal(v?.status === 'recognized' && v.personId, 'person_mia');
  });

  test('forgetPerson (erasure) makes the same face unrecognized', async () => {
    const r = new TrackRecognizer(engine, { everyNFrames: 5 });
    assert.equal((await r.observe('t5', 0, mia, FULL, enrolled))?.status, 'recognized');
    r.forgetPerson('person_mia');
    assert.equal(r.verdict('t5'), undefined);
    assert.equal((await r.observe('t5', 1, mia, FULL, []))?.status, 'unrecognized');
  });

  test('an overloaded engine skips the attempt (no verdict, retried N frames later) instead of failing', async () => {
    const refusing = await createFaceEngine({ maxQueue: 0 });
    try {
      const r = new TrackRecognizer(refusing, { everyNFrames: 4 });
      assert.equal(await r.observe('busy', 0, mia, FULL, enrolled), undefined);
      assert.equal(r.due('busy', 3), false);
      assert.equal(r.due('busy', 4), true);
      assert.equal(r.descriptorCount('busy'), 0);
    } finally {
      await refusing.close();
    }
  });

  test('tracks are independent and a concurrent sighting does not compute twice', async () => {
    const engineSpy = counting();
    const r = new TrackRecognizer(engineSpy, { everyNFrames: 10 });
    const [a, b, c] = await Promise.all([
      r.observe('x', 0, mia, FULL, enrolled),
      r.observe('x', 1, mia, FULL, enrolled),
      r.observe('y', 1, chelsea, FULL, enrolled),
    ]);
    assert.equal(a?.status, 'recognized');
    assert.equal(b, undefined, 'the second sighting arrived while the first was being described');
    assert.equal(c?.status, 'unrecognized');
    assert.equal(engineSpy.calls.length, 2);
    r.forget('x');
    assert.equal(r.verdict('x'), undefined);
    assert.equal(r.verdict('y')?.status, 'unrecognized');
  });
});
