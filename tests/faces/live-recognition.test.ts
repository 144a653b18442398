/**
 * Live face recognition end to end: clips made with ffmpeg (in a temporary
 * directory) from an enrolled person's face and from a stranger's, played as file:// cameras by the
 * serving app (ffmpeg, motion gate, CenterNet, tracker, face engine, pipeline, incidents):
 *   enrolled face → person detections `recognized` with the person's id, no incident;
 *   stranger      → `unrecognized`, and an automatic incident "Unrecognized person";
 *   recognition off → neither subtype, no descriptor computed, nothing stored;
 *   after DELETE /v1/people/{id} → the same face is `unrecognized`.
 * Faces come from the installed @vladmandic/human package (MIT; tests/faces/README.md).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FACE_ENGINE } from '../../src/org/people/index.ts';
import { DIALECTS } from '../helpers/harness.ts';
import { startVideoApp, waitUntil, type VideoApp } from '../video-integration/video-app.ts';
import { makeFaceClip } from './face-clips.ts';
import { portraitJpeg, samePhotoFixtures } from './face-fixtures.ts';

interface PersonRow {
  subtype: string | null;
  person_id?: string | null;
  track_id: string | null;
}

for (const dialect of DIALECTS) {
  describe(`live face recognition on a camera (${dialect})`, () => {
    let v: VideoApp;
    let key: { key: string; tenant_id: string };
    let dir: string;
    let miaClip: string;
    let chelseaClip: string;
    let mia: { id: string };

    before(async () => {
      v = await startVideoApp({ dialect, config: { allowFileSources: true } });
      key = await v.orgKey();
      dir = await mkdtemp(join(tmpdir(), 'vigil-live-faces-'));
      miaClip = await makeFaceClip(dir, 'mia', await portraitJpeg('mia'), 4);
      chelseaClip = await makeFaceClip(dir, 'chelsea', await portraitJpeg('chelsea'), 4);
      // enrolled from another picture than the clip's (a brighter shot of her)
      const miaBrighter = (await samePhotoFixtures()).find((f) => f.person === 'mia' && f.variant === 'brighter')!;
      mia = (await v.call(key, 'POST', '/v1/people', { name: 'Mia Santos' })).body;
      const enrolled = await v.app.inject({
        method: 'POST',
        url: `/v1/people/${mia.id}/faces`,
        headers: { authorization: `Bearer ${key.key}`, 'content-type': 'image/jpeg' },
        payload: miaBrighter.jpeg,
      });
      assert.equal(enrolled.statusCode, 201, enrolled.body);
    });
    after(async () => {
      await v?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    const setRecognition = async (on: boolean) => {
      const r = await v.call(key, 'PATCH', '/v1/automation', { face_recognition: on });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    };
    const people = (streamId: string) =>
      v.ctx.database.db
        .selectFrom('detections')
        .select(['subtype', 'person_id', 'track_id'])
        .where('stream_id', '=', streamId)
        .where('type', '=', 'person')
        .execute() as Promise<PersonRow[]>;
    const camera = async (name: string, clip: string, location: string) => {
      const r = await v.call(key, 'POST', '/v1/streams', { name, source_type: 'rtsp', source_url: `file://${clip}`, location });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      return r.body as { id: string };
    };
    /** Plays a clip until `until` holds for its person detections, then stops the camera. */
    const play = async (name: string, clip: string, location: string, until: (rows: PersonRow[]) => boolean, lingerMs = 0): Promise<PersonRow[]> => {
      const stream = await camera(name, clip, location);
      try {
        const rows = await waitUntil(
          `${name}: person detections`,
          async () => {
            const rows = await people(stream.id);
            return until(rows) ? rows : null;
          },
          60_000,
        );
        if (!lingerMs) return rows;
        await new Promise((r) => setTimeout(r, lingerMs));
        return await people(stream.id);
      } finally {
        assert.equal((await v.call(key, 'DELETE', `/v1/streams/${stream.id}`)).status, 200);
      }
    };
    const incidentsAt = async (location: string) =>
      ((await v.call(key, 'GET', '/v1/incidents?limit=100')).body.data as Array<{ title: string; location: string }>).filter((i) => i.location === location);

    test('a phone frame with the enrolled face: the person detection is recognized as her, and so is the face', async () => {
      await setRecognition(true);
      const phone = (await v.call(key, 'POST', '/v1/streams', { name: 'Desk phone', source_type: 'mobile', source_url: 'mobile://desk', location: 'desk' }))
        .body;
      const res = await v.app.inject({
        method: 'POST',
        url: `/v1/streams/${phone.id}/frames`,
        headers: { authorization: `Bearer ${key.key}`, 'content-type': 'image/jpeg' },
        payload: await portraitJpeg('mia'),
      });
      assert.equal(res.statusCode, 200, res.body);
      const out = res.json();
      const person = out.detections.find((d: { type: string }) => d.type === 'person');
      assert.ok(person, JSON.stringify(out.detections));
      assert.deepEqual([person.subtype, person.person_id], ['recognized', mia.id]);
      assert.deepEqual(
        out.faces.map((f: { status: string; person_id: string }) => [f.status, f.person_id]),
        [['recognized', mia.id]],
      );
      assert.equal((await v.call(key, 'DELETE', `/v1/streams/${phone.id}`)).status, 200);
    });

    test('the enrolled face is recognized as its person; no anomaly, no incident', async () => {
      await setRecognition(true);
      const rows = await play('Door (Mia)', miaClip, 'front_door', (r) => r.some((d) => d.subtype === 'recognized'));
      const recognized = rows.filter((d) => d.subtype === 'recognized');
      assert.ok(
        recognized.every((d) => d.person_id === mia.id),
        JSON.stringify(rows),
      );
      assert.ok(
        rows.every((d) => d.subtype !== 'unrecognized'),
        `never unrecognized: ${JSON.stringify(rows)}`,
      );
      assert.ok(
        rows.every((d) => d.subtype === 'recognized' || (d.subtype === null && !d.person_id)),
        'no face yet: no subtype and no person',
      );
      assert.deepEqual(await incidentsAt('front_door'), []);
    });

    test("a stranger's face is unrecognized and opens an 'Unrecognized person' incident", async () => {
      const rows = await play('Door (stranger)', chelseaClip, 'back_door', (r) => r.some((d) => d.subtype === 'unrecognized'));
      assert.ok(
        rows.every((d) => d.subtype !== 'recognized' && !d.person_id),
        JSON.stringify(rows),
      );
      const incidents = await waitUntil(
        'an incident at the back door',
        async () => {
          const found = await incidentsAt('back_door');
          return found.length ? found : null;
        },
        10_000,
      );
      assert.match(incidents[0].title, /^Unrecognized person at back_door/);
    });

    test('with recognition off: neither subtype, no descriptor computed, nothing stored', async () => {
      await setRecognition(false);
      const engine = await v.ctx.container.get(FACE_ENGINE).get();
      // the earlier doors' last descriptors may still be in the engine (a track is described until
      // its identity settles): count from when it is idle
      await waitUntil('the face engine idle', async () => (engine.stats().busy === 0 && engine.stats().queued === 0 ? true : null), 10_000);
      const callsBefore = engine.stats().calls;
      const facesBefore = await v.ctx.database.db.selectFrom('person_faces').select('id').execute();
      // the face is in view from second 1 to the end of the clip: 2.5 s more after the person entered
      const rows = await play('Door (off)', miaClip, 'side_door', (r) => r.length >= 1, 2500);
      assert.ok(
        rows.every((d) => d.subtype === null && !d.person_id),
        JSON.stringify(rows),
      );
      assert.equal(engine.stats().calls, callsBefore, 'the face engine was not asked for anything');
      assert.deepEqual(await v.ctx.database.db.selectFrom('person_faces').select('id').execute(), facesBefore);
      assert.deepEqual(await incidentsAt('side_door'), []);
    });

    test('after DELETE /v1/people/{id} the same face is unrecognized', async () => {
      await setRecognition(true);
      assert.equal((await v.call(key, 'DELETE', `/v1/people/${mia.id}`)).status, 200);
      assert.equal((await v.ctx.database.db.selectFrom('person_faces').select('id').where('person_id', '=', mia.id).execute()).length, 0);
      const rows = await play('Door (Mia, erased)', miaClip, 'garage_door', (r) => r.some((d) => d.subtype === 'unrecognized'));
      assert.ok(
        rows.every((d) => d.subtype !== 'recognized' && !d.person_id),
        JSON.stringify(rows),
      );
    });
  });
}
