import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { InvalidRequestError, NotFoundError, Vigil, VigilError } from '../../clients/node/src/index.js';
import { PERSON_JPG } from '../fixtures-video/rtsp-camera.ts';
import { skipUnlessOperations, specOperationIds, startClientTestServer, type ClientTestServer } from './client-test-server.ts';

// The two operations that are not JSON: a phone frame goes up as raw image/jpeg bytes, a snapshot
// comes back as them. The real detector runs only in a serving process, hence runSources.
const skip = skipUnlessOperations(specOperationIds(), 'pushStreamFrame', 'getDetectionSnapshot');

let server: ClientTestServer;
let vigil: Vigil;
before(async () => {
  if (skip) return;
  server = await startClientTestServer({ config: { runSources: true } });
  vigil = new Vigil({ apiKey: (await server.t.orgKey()).key, baseUrl: server.baseUrl });
});
after(() => server?.close());

async function rejectionOf(p: PromiseLike<unknown>): Promise<VigilError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof VigilError, `a VigilError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the call to fail');
}

test('streams.pushFrame sends JPEG bytes and detections.getSnapshot returns the frame as a Buffer', { skip }, async () => {
  const stream = await vigil.streams.create({ name: 'Front desk phone', sourceType: 'mobile', sourceUrl: 'mobile://node-client', location: 'node_desk' });
  const jpeg = await readFile(PERSON_JPG);

  const result = await vigil.streams.pushFrame(stream.id, jpeg);
  assert.equal(result.object, 'frame_result');
  assert.equal(result.streamId, stream.id, 'the JSON answer is camelCased like every other');
  assert.equal(result.status, 'live');
  assert.equal(result.detected, true);
  const person = result.detections.find((d) => d.type === 'person');
  assert.ok(person, JSON.stringify(result.detections));
  assert.equal(person.location, 'node_desk');

  const snapshot = await vigil.detections.getSnapshot(person.id);
  assert.ok(Buffer.isBuffer(snapshot), 'the image bytes, not text');
  assert.deepEqual([...snapshot.subarray(0, 3)], [0xff, 0xd8, 0xff], 'JPEG start-of-image marker');
  assert.deepEqual([...snapshot.subarray(-2)], [0xff, 0xd9], 'JPEG end-of-image marker');

  // a detection without a snapshot (a count) is a typed problem, read as JSON despite the image Accept
  const count = result.detections.find((d) => d.type === 'person_count');
  assert.ok(count);
  const missing = await rejectionOf(vigil.detections.getSnapshot(count.id));
  assert.ok(missing instanceof NotFoundError);
  assert.equal(missing.status, 404);
  assert.equal(missing.code, 'not_found');
});

test('bytes that are not a JPEG are a typed invalid_image error; a non-bytes argument is refused before sending', { skip }, async () => {
  const stream = await vigil.streams.create({ name: 'Dock phone', sourceType: 'mobile', sourceUrl: 'mobile://node-dock', location: 'node_dock' });
  const err = await rejectionOf(vigil.streams.pushFrame(stream.id, new TextEncoder().encode('hello, not an image')));
  assert.ok(err instanceof InvalidRequestError);
  assert.equal(err.status, 400);
  assert.equal(err.code, 'invalid_image');
  assert.match(err.requestId ?? '', /^req_/);

  // a Blob is accepted like a Buffer
  const fromBlob = await rejectionOf(vigil.streams.pushFrame(stream.id, new Blob(['GIF89a not a jpeg'])));
  assert.equal(fromBlob.code, 'invalid_image');

  assert.throws(() => vigil.streams.pushFrame(stream.id, 'person.jpg' as unknown as Uint8Array), TypeError);
  assert.equal((await vigil.streams.get(stream.id)).status, 'connecting', 'no frame reached the stream');
});
