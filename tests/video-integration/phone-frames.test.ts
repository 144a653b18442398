import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { DIALECTS, bearer } from '../helpers/harness.ts';
import { DOG_JPG, PERSON_JPG } from '../fixtures-video/rtsp-camera.ts';
import { startVideoApp, waitUntil, type VideoApp } from './video-app.ts';

// Real phone frames through the real detector (CenterNet in a worker thread), over HTTP, on both
// databases: the frame's person lands in the scene, its snapshot is served, bad frames are refused.
for (const dialect of DIALECTS) {
  describe(`phone frames (${dialect})`, () => {
    let v: VideoApp;
    let key: { key: string; tenant_id: string };
    let jpeg: Buffer;
    before(async () => {
      v = await startVideoApp({ dialect, video: { mobileSilenceMs: 5000 } });
      key = await v.orgKey();
      jpeg = await readFile(PERSON_JPG);
    });
    after(() => v.close());

    const pushFrame = (streamId: string, body: Buffer | string, type = 'image/jpeg', k: { key: string } = key) =>
      v.app.inject({ method: 'POST', url: `/v1/streams/${streamId}/frames`, headers: { ...bearer(k), 'content-type': type }, payload: body });

    test('a phone frame showing a person becomes a person detection in the scene, with its snapshot', async () => {
      const created = await v.call(key, 'POST', '/v1/streams', {
        name: 'Front desk phone',
        source_type: 'mobile',
        source_url: 'mobile://front-desk',
        location: 'front_desk',
      });
      assert.equal(created.status, 201);
      const stream = created.body;
      assert.equal(stream.status, 'connecting');
      assert.equal(stream.sandbox, false);

      const res = await pushFrame(stream.id, jpeg);
      assert.equal(res.statusCode, 200, res.body);
      const out = res.json();
      assert.equal(out.object, 'frame_result');
      assert.equal(out.status, 'live');
      assert.equal(out.detected, true);
      const person = out.detections.find((d: { type: string }) => d.type === 'person');
      assert.ok(person, JSON.stringify(out.detections));
      // no face recognition on this tenant, so nobody can say whether this is someone known: no subtype
      assert.equal(person.subtype, undefined);
      assert.equal(person.location, 'front_desk');
      assert.match(person.id, /^det_/);
      assert.equal(out.detections.find((d: { type: string }) => d.type === 'person_count')?.value, 1);

      const scene = await v.call(key, 'GET', `/v1/scenes/${stream.scene_id}`);
      assert.equal(scene.body.people_count, 1);
      const view = (await v.call(key, 'GET', `/v1/streams/${stream.id}`)).body;
      assert.equal(view.status, 'live');
      assert.ok(view.last_frame_at);
      assert.equal(typeof view.fps_in, 'number');

      const snap = await v.app.inject({ url: `/v1/detections/${person.id}/snapshot`, headers: bearer(key) });
      assert.equal(snap.statusCode, 200);
      assert.equal(snap.headers['content-type'], 'image/jpeg');
      const meta = await sharp(snap.rawPayload).metadata();
      assert.equal(meta.format, 'jpeg');
      // counts carry no image; other organizations do not see this one
      const count = out.detections.find((d: { type: string }) => d.type === 'person_count');
      assert.equal((await v.app.inject({ url: `/v1/detections/${count.id}/snapshot`, headers: bearer(key) })).statusCode, 404);
      const stranger = await v.orgKey();
      const foreign = await v.app.inject({ url: `/v1/detections/${person.id}/snapshot`, headers: bearer(stranger) });
      assert.equal(foreign.statusCode, 404);
      assert.equal(foreign.json().code, 'not_found');

      // snapshots go with the detection history's retention
      await v.ctx.snapshots.pruneOlderThan(Date.parse(person.timestamp) + 1);
      assert.equal((await v.app.inject({ url: `/v1/detections/${person.id}/snapshot`, headers: bearer(key) })).statusCode, 404);

      // silence turns the phone offline, and the row says so: the API answers from the running
      // ingest at once, the row is written by the status chain just after it
      await waitUntil('the phone to go offline', async () => (await v.call(key, 'GET', `/v1/streams/${stream.id}`)).body.status === 'offline', 10_000);
      const readRow = () => v.ctx.database.db.selectFrom('streams').select(['status', 'last_frame_at']).where('id', '=', stream.id).executeTakeFirstOrThrow();
      await waitUntil('the row to say offline', async () => (await readRow()).status === 'offline', 5_000);
      assert.ok((await readRow()).last_frame_at);
    });

    test('the person detection carries its box: [x, y, w, h] in 0..1 of the frame, around the person, stored and read back', async () => {
      const stream = (await v.call(key, 'POST', '/v1/streams', { name: 'Box phone', source_type: 'mobile', source_url: 'mobile://box', location: 'field' }))
        .body;
      const none = await v.app.inject({ url: `/v1/streams/${stream.id}/snapshot`, headers: bearer(key) });
      assert.deepEqual([none.statusCode, none.json().code], [404, 'not_found'], 'no frame yet');
      const res = await pushFrame(stream.id, jpeg);
      assert.equal(res.statusCode, 200, res.body);
      const out = res.json();
      const person = out.detections.find((d: { type: string }) => d.type === 'person');
      assert.ok(person, JSON.stringify(out.detections));
      const [x, y, w, h] = person.box as number[];
      assert.equal(person.box.length, 4);
      for (const n of person.box) assert.ok(n >= 0 && n <= 1, JSON.stringify(person.box));
      // person.jpg (640×424): the walker in blue stands in x 192–272 px, y 100–373 px (hat to boots),
      // measured by hand on the image. The box holds all of that (a detector's few pixels of slack
      // allowed) and is not much bigger: it is the person, not the dog beside them or the frame.
      const slack = 0.03;
      assert.ok(x <= 192 / 640 + slack && x + w >= 272 / 640 - slack, `horizontal ${JSON.stringify(person.box)}`);
      assert.ok(y <= 100 / 424 + slack && y + h >= 373 / 424 - slack, `vertical ${JSON.stringify(person.box)}`);
      assert.ok(x >= 192 / 640 - 0.08 && x + w <= 272 / 640 + 0.08, `not wider than the person ${JSON.stringify(person.box)}`);
      assert.ok(y >= 100 / 424 - 0.1 && y + h <= 373 / 424 + 0.1, `not taller than the person ${JSON.stringify(person.box)}`);
      // a count has no box
      assert.equal(out.detections.find((d: { type: string }) => d.type === 'person_count')?.box, undefined);

      // stored with the detection, and read back through the API (a scene question shows the sighting)
      const row = await v.ctx.database.db.selectFrom('detections').select('box').where('id', '=', person.id).executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(row.box!), person.box);
      const q = await v.call(key, 'POST', `/v1/scenes/${stream.scene_id}/query`, {
        stream_id: stream.id,
        query: 'When did the last person arrive?',
        window: '1h',
      });
      assert.equal(q.status, 200, JSON.stringify(q.body));
      const seen = q.body.detections.find((d: { id: string }) => d.id === person.id);
      assert.ok(seen, JSON.stringify(q.body.detections));
      assert.deepEqual(seen.box, person.box);

      // the stream's latest frame (what the zone editor draws on) is this frame's snapshot
      const latest = await v.app.inject({ url: `/v1/streams/${stream.id}/snapshot`, headers: bearer(key) });
      assert.equal(latest.statusCode, 200);
      assert.equal(latest.headers['content-type'], 'image/jpeg');
      const own = await v.app.inject({ url: `/v1/detections/${person.id}/snapshot`, headers: bearer(key) });
      assert.ok(latest.rawPayload.equals(own.rawPayload));
      assert.equal((await sharp(latest.rawPayload).metadata()).width, 640);
      assert.equal(
        (await v.app.inject({ url: `/v1/streams/${stream.id}/snapshot`, headers: bearer(await v.orgKey()) })).statusCode,
        404,
        "not another organization's",
      );
    });

    test('a phone frame showing a dog becomes an animal detection (subtype dog, tracked, with its snapshot), never a person', async () => {
      const stream = (await v.call(key, 'POST', '/v1/streams', { name: 'Yard phone', source_type: 'mobile', source_url: 'mobile://yard', location: 'yard' }))
        .body;
      const res = await pushFrame(stream.id, await readFile(DOG_JPG));
      assert.equal(res.statusCode, 200, res.body);
      const out = res.json();
      const animals = out.detections.filter((d: { type: string }) => d.type === 'animal');
      assert.equal(animals.length, 1, JSON.stringify(out.detections));
      const [dog] = animals;
      assert.equal(dog.subtype, 'dog');
      assert.match(dog.track_id, /^trk_/);
      assert.equal(dog.location, 'yard');
      assert.ok(dog.confidence >= 0.4 && dog.confidence <= 1);
      // the dog is not counted as a person, and the frame's truck stays a vehicle
      assert.ok(!out.detections.some((d: { type: string }) => d.type === 'person'), JSON.stringify(out.detections));
      assert.equal(out.detections.find((d: { type: string }) => d.type === 'person_count')?.value ?? 0, 0);
      assert.equal((await v.call(key, 'GET', `/v1/scenes/${stream.scene_id}`)).body.people_count, 0);
      const snap = await v.app.inject({ url: `/v1/detections/${dog.id}/snapshot`, headers: bearer(key) });
      assert.equal(snap.statusCode, 200);
      assert.equal(snap.headers['content-type'], 'image/jpeg');
    });

    test('bad frames: not a JPEG is 400 invalid_image, another Content-Type 415, over 2 MiB 413; nothing is recorded', async () => {
      const stream = (await v.call(key, 'POST', '/v1/streams', { name: 'Phone 2', source_type: 'mobile', source_url: 'mobile://p2', location: 'dock' })).body;
      const png = await sharp(jpeg).png().toBuffer();
      for (const body of [png, Buffer.from('hello, not an image'), jpeg.subarray(0, 300)]) {
        const r = await pushFrame(stream.id, body);
        assert.equal(r.statusCode, 400);
        assert.equal(r.json().code, 'invalid_image');
        assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8');
      }
      const json = await pushFrame(stream.id, JSON.stringify({ frame: 'x' }), 'application/json');
      assert.equal(json.statusCode, 415);
      assert.equal(json.json().code, 'unsupported_media_type');
      const huge = Buffer.concat([jpeg, Buffer.alloc(2 * 1024 * 1024)]);
      const big = await pushFrame(stream.id, huge);
      assert.equal(big.statusCode, 413);
      assert.equal(big.json().code, 'payload_too_large');
      const detections = await v.ctx.database.db.selectFrom('detections').select('id').where('stream_id', '=', stream.id).execute();
      assert.equal(detections.length, 0);
      assert.equal((await v.call(key, 'GET', `/v1/streams/${stream.id}`)).body.status, 'connecting');
    });

    test('frames for a stream that is not a live phone are 409 stream_not_mobile', async () => {
      const sandbox = (
        await v.call(key, 'POST', '/v1/streams', { name: 'Sim', source_type: 'sandbox', source_url: 'sandbox://lobby?scenario=lobby&seed=3', location: 'sim' })
      ).body;
      const r = await pushFrame(sandbox.id, jpeg);
      assert.equal(r.statusCode, 409);
      assert.equal(r.json().code, 'stream_not_mobile');
      const missing = await pushFrame('stream_01hzzzzzzzzzzzzzzzzzzzzzzz', jpeg);
      assert.equal(missing.statusCode, 404);
    });
  });
}

describe('camera sources at creation', () => {
  let v: VideoApp;
  let files: VideoApp;
  before(async () => {
    v = await startVideoApp();
    files = await startVideoApp({ config: { allowFileSources: true, runSources: false } });
  });
  after(async () => {
    await v.close();
    await files.close();
  });

  test('an unsupported scheme is 400 unsupported_source; file:// only where the server allows it', async () => {
    const key = await v.orgKey();
    const cam = { name: 'Cam', source_type: 'rtsp', location: 'gate' };
    for (const source_url of ['ftp://10.0.0.5/stream', 'https://cam.example/video.mjpg', 'file:///srv/video/demo.avi']) {
      const r = await v.call(key, 'POST', '/v1/streams', { ...cam, source_url });
      assert.equal(r.status, 400, source_url);
      assert.equal(r.body.code, 'unsupported_source');
      assert.equal(r.body.param, 'source_url');
    }
    // MJPEG/HLS cameras are source_type http
    const http = await v.call(key, 'POST', '/v1/streams', { ...cam, source_type: 'http', source_url: 'http://127.0.0.1:9/video.mjpg' });
    assert.equal(http.status, 201);
    assert.equal((await v.call(key, 'DELETE', `/v1/streams/${http.body.id}`)).status, 200);

    const fileKey = await files.orgKey();
    const allowed = await files.call(fileKey, 'POST', '/v1/streams', { ...cam, source_url: 'file:///srv/video/demo.avi' });
    assert.equal(allowed.status, 201);
  });

  test('zones and motion masks are set with PATCH and checked', async () => {
    const key = await files.orgKey();
    const s = (await files.call(key, 'POST', '/v1/streams', { name: 'Yard', source_type: 'rtsp', source_url: 'rtsp://10.0.0.9/live', location: 'yard' })).body;
    assert.deepEqual([s.zones, s.motion_masks, s.fps_in], [[], [], null]);
    const zones = [
      {
        name: 'gate',
        polygon: [
          [0, 0.5],
          [0.5, 0.5],
          [0.5, 1],
          [0, 1],
        ],
      },
    ];
    const masks = [
      [
        [0.8, 0],
        [1, 0],
        [1, 0.3],
      ],
    ];
    const patched = await files.call(key, 'PATCH', `/v1/streams/${s.id}`, { zones, motion_masks: masks });
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body.zones, zones);
    assert.deepEqual((await files.call(key, 'GET', `/v1/streams/${s.id}`)).body.motion_masks, masks);
    const bad = await files.call(key, 'PATCH', `/v1/streams/${s.id}`, {
      zones: [
        {
          name: 'sky',
          polygon: [
            [0, 0],
            [1.5, 0],
            [1, 1],
          ],
        },
      ],
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'validation_failed');
    // the schema bounds each coordinate to 0..1, so the error names the point itself
    assert.equal(bad.body.param, 'zones.0.polygon.1.0');
    assert.deepEqual((await files.call(key, 'GET', `/v1/streams/${s.id}`)).body.zones, zones, 'unchanged by the refused patch');
  });
});
