/**
 * Known people and face recognition over HTTP, on both databases, with the
 * real face engine and faces made from the installed @vladmandic/human package
 * (tests/faces/face-fixtures.ts): enrolment from a JPEG, refusals, erasure, the opt-in, and a
 * phone frame recognized as the enrolled person through the real serving app (detector included).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer } from '../helpers/harness.ts';
import { startVideoApp, type VideoApp } from '../video-integration/video-app.ts';
import { noFaceJpeg, portraitJpeg, scaledPortrait, twoFacesJpeg } from '../faces/face-fixtures.ts';

for (const dialect of DIALECTS) {
  describe(`people and face recognition (${dialect})`, () => {
    let v: VideoApp;
    let key: { key: string; tenant_id: string };
    before(async () => {
      v = await startVideoApp({ dialect, video: { mobileSilenceMs: 5000 } });
      key = await v.orgKey();
    });
    after(() => v.close());

    const enrol = (personId: string, jpeg: Buffer | string, query = '', type = 'image/jpeg', k: { key: string } = key) =>
      v.app.inject({ method: 'POST', url: `/v1/people/${personId}/faces${query}`, headers: { ...bearer(k), 'content-type': type }, payload: jpeg });
    const pushFrame = (streamId: string, jpeg: Buffer) =>
      v.app.inject({ method: 'POST', url: `/v1/streams/${streamId}/frames`, headers: { ...bearer(key), 'content-type': 'image/jpeg' }, payload: jpeg });
    const faceRows = (personId: string) => v.ctx.database.db.selectFrom('person_faces').selectAll().where('person_id', '=', personId).execute();

    test('a person is created, a face enrolled from a JPEG (descriptor only), listed and fetched', async () => {
      const created = await v.call(key, 'POST', '/v1/people', { name: 'Mia Santos', note: 'night cleaner' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.match(created.body.id, /^person_/);
      assert.deepEqual([created.body.name, created.body.note, created.body.faces], ['Mia Santos', 'night cleaner', 0]);

      const res = await enrol(created.body.id, await portraitJpeg('mia'));
      assert.equal(res.statusCode, 201, res.body);
      const face = res.json();
      assert.match(face.id, /^face_/);
      assert.equal(face.person_id, created.body.id);
      assert.equal(face.image_kept, false);
      assert.ok(face.size >= 64, `face of ${face.size} px`);
      const rows = await faceRows(created.body.id);
      assert.equal(rows.length, 1);
      assert.equal(rows[0].crop, null, 'the photo and the crop are not stored without keep_image');
      assert.equal(Buffer.from(rows[0].descriptor).length, 1024 * 4, 'a 1024-number float32 descriptor');

      const kept = await enrol(created.body.id, await scaledPortrait('mia', 100), '?keep_image=true');
      assert.equal(kept.statusCode, 201, kept.body);
      assert.equal(kept.json().image_kept, true);
      const withCrop = (await faceRows(created.body.id)).find((r) => r.id === kept.json().id)!;
      assert.ok(
        withCrop.crop &&
          Buffer.from(withCrop.crop)
            .subarray(0, 2)
            .equals(Buffer.from([0xff, 0xd8])),
        'the kept crop is a JPEG',
      );

      const got = await v.call(key, 'GET', `/v1/people/${created.body.id}`);
      assert.deepEqual([got.body.faces, got.body.kept_images], [2, 1]);
      const list = await v.call(key, 'GET', '/v1/people');
      assert.equal(list.status, 200);
      assert.ok(list.body.data.some((p: { id: string; faces: number }) => p.id === created.body.id && p.faces === 2));
      const other = await v.orgKey('Another org');
      assert.equal((await v.call(other, 'GET', `/v1/people/${created.body.id}`)).status, 404);
      assert.equal((await v.call(other, 'GET', '/v1/people')).body.data.length, 0);
    });

    test('photos that cannot be enrolled are refused with problem+json codes, and nothing is stored', async () => {
      const person = (await v.call(key, 'POST', '/v1/people', { name: 'Nobody yet' })).body;
      const cases: Array<[string, Buffer | string, number, string, string?]> = [
        ['no face', await noFaceJpeg(), 422, 'no_face'],
        ['two faces', await twoFacesJpeg(), 422, 'several_faces'],
        ['a small face', await scaledPortrait('esma', 40), 422, 'face_too_small'],
        ['not a JPEG', Buffer.from('hello, not an image'), 400, 'invalid_image'],
        ['over 2 MiB', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(2 * 1024 * 1024 + 10)]), 413, 'payload_too_large'],
        ['JSON', '{"image":"x"}', 415, 'unsupported_media_type', 'application/json'],
      ];
      for (const [label, body, status, code, type] of cases) {
        const res = await enrol(person.id, body, '', type);
        assert.equal(res.statusCode, status, `${label}: ${res.body}`);
        assert.match(String(res.headers['content-type']), /application\/problem\+json/, label);
        assert.equal(res.json().code, code, label);
      }
      assert.equal((await faceRows(person.id)).length, 0);
      assert.equal((await enrol('person_01jd3k8e7f9g2h4j6k8m0n2p4q', await portraitJpeg('mia'))).statusCode, 404);
    });

    test('several photos enrolled in one request, all or none; a bad photo is named', async () => {
      const person = (await v.call(key, 'POST', '/v1/people', { name: 'Esma' })).body;
      const b64 = (b: Buffer) => b.toString('base64');
      const batch = (photos: string[], extra: object = {}) => v.call(key, 'POST', `/v1/people/${person.id}/faces/batch`, { photos, ...extra });
      const good = [b64(await portraitJpeg('esma')), b64(await scaledPortrait('esma', 100)), b64(await scaledPortrait('esma', 160))];

      const refused = await batch([good[0], b64(await noFaceJpeg()), good[2]]);
      assert.equal(refused.status, 422, JSON.stringify(refused.body));
      assert.deepEqual([refused.body.code, refused.body.param], ['no_face', 'photos[1]']);
      const notBase64 = await batch(['**not base64**']);
      assert.deepEqual([notBase64.status, notBase64.body.code, notBase64.body.param], [400, 'invalid_image', 'photos[0]']);
      const notJpeg = await batch([good[0], b64(Buffer.from('hello, not an image'))]);
      assert.deepEqual([notJpeg.status, notJpeg.body.code, notJpeg.body.param], [400, 'invalid_image', 'photos[1]']);
      assert.equal((await batch([])).status, 400, 'at least one photo');
      assert.equal((await batch(Array(6).fill(good[0]))).status, 400, 'at most five photos');
      assert.equal((await faceRows(person.id)).length, 0, 'nothing stored from a refused request');

      const res = await batch(good, { keep_image: true });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.object, 'list');
      assert.equal(res.body.data.length, 3);
      assert.ok(res.body.data.every((f: { person_id: string; image_kept: boolean }) => f.person_id === person.id && f.image_kept));
      assert.equal(new Set(res.body.data.map((f: { id: string }) => f.id)).size, 3);
      assert.equal((await faceRows(person.id)).length, 3);
      assert.equal((await v.call(key, 'GET', `/v1/people/${person.id}`)).body.faces, 3);
    });

    test('a phone frame: nothing face-related while recognition is off; the enrolled person while on; unrecognized after erasure', async () => {
      const stream = (await v.call(key, 'POST', '/v1/streams', { name: 'Door phone', source_type: 'mobile', source_url: 'mobile://door', location: 'door' }))
        .body;
      const chelsea = (await v.call(key, 'POST', '/v1/people', { name: 'Chelsea' })).body;
      assert.equal((await enrol(chelsea.id, await portraitJpeg('chelsea'))).statusCode, 201);
      const frame = await scaledPortrait('chelsea', 120);

      const auto = await v.call(key, 'GET', '/v1/automation');
      assert.equal(auto.body.face_recognition, false, 'off by default');
      const off = await pushFrame(stream.id, frame);
      assert.equal(off.statusCode, 200, off.body);
      assert.equal('faces' in off.json(), false, 'recognition off: no faces field');

      const on = await v.call(key, 'PATCH', '/v1/automation', { face_recognition: true });
      assert.equal(on.status, 200, JSON.stringify(on.body));
      assert.equal(on.body.face_recognition, true);
      const seen = (await pushFrame(stream.id, frame)).json();
      assert.equal(seen.faces.length, 1, JSON.stringify(seen));
      assert.equal(seen.faces[0].status, 'recognized');
      assert.equal(seen.faces[0].person_id, chelsea.id);
      assert.ok(seen.faces[0].similarity >= 0.75);

      const stranger = (await pushFrame(stream.id, await scaledPortrait('vlado', 120))).json();
      assert.deepEqual(
        stranger.faces.map((f: { status: string; person_id: string | null }) => [f.status, f.person_id]),
        [['unrecognized', null]],
      );

      const erased = await v.call(key, 'DELETE', `/v1/people/${chelsea.id}`);
      assert.equal(erased.status, 200);
      assert.deepEqual([erased.body.deleted, erased.body.faces_deleted], [true, 1]);
      // the deletion answer says the camera recordings are not erased with the person
      assert.equal(erased.body.recordings, 'kept');
      assert.equal((await faceRows(chelsea.id)).length, 0, 'no descriptor row remains');
      assert.equal((await v.call(key, 'GET', `/v1/people/${chelsea.id}`)).status, 404);
      const audit = await v.call(key, 'GET', '/v1/audit?limit=100');
      const actions = audit.body.data.map((e: { action: string }) => e.action);
      assert.ok(actions.includes('person.deleted') && actions.includes('person.face_enrolled'), actions.join(','));
      assert.ok(!JSON.stringify(audit.body).includes('descriptor"'), 'no descriptor in the audit trail');

      const after = (await pushFrame(stream.id, frame)).json();
      assert.deepEqual(
        after.faces.map((f: { status: string }) => f.status),
        ['unrecognized'],
        'the erased face is no longer recognized',
      );
    });

    test('household keys manage their own people', async () => {
      const home = await v.ctx.keys.createKey({ tenantKind: 'household', tenantName: 'Home', mode: 'live', rateLimitPerMinute: 100_000 });
      const nanny = await v.call(home, 'POST', '/v1/people', { name: 'Ana' });
      assert.equal(nanny.status, 201);
      assert.equal((await enrol(nanny.body.id, await portraitJpeg('esma'), '', 'image/jpeg', home)).statusCode, 201);
      assert.deepEqual(
        (await v.call(home, 'GET', '/v1/people')).body.data.map((p: { id: string }) => p.id),
        [nanny.body.id],
      );
      assert.equal((await v.call(key, 'GET', `/v1/people/${nanny.body.id}`)).status, 404);
    });
  });
}
