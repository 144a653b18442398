/**
 * Scene questions about known people, through the real route on both databases:
 * names are resolved against the organization's people; an unknown or ambiguous name is asked
 * about (422 query_not_understood naming `query`), never guessed; "who" lists recognized people by
 * name, then strangers and people whose face was not seen. These phrasings are the tuning set,
 * written after the blind held-out ones (tests/heldout/faces-heldout.json).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { readPeopleQuestion } from '../../src/org/scenes/query/people-questions.ts';

const PEOPLE = [
  { id: 'person_a', name: 'Maria Santos' },
  { id: 'person_b', name: 'Tom Baker' },
  { id: 'person_c', name: 'Maria Silva' },
  { id: 'person_d', name: 'Ana' },
];

test('who is asked about: names, full names, "who", unknown names, ambiguous first names', () => {
  const kind = (q: string) => {
    const r = readPeopleQuestion(q, PEOPLE);
    if (!r) return null;
    return r.kind === 'person' ? `person:${r.person.id}:${r.rewritten}` : r.kind === 'who' ? `who:${r.rewritten}` : 'ask';
  };
  assert.equal(kind('Was Tom here today?'), 'person:person_b:was anyone here today?');
  assert.equal(kind('has tom baker been in this afternoon'), 'person:person_b:has anyone been in this afternoon?');
  assert.equal(kind('When did Ana arrive?'), 'person:person_d:when did anyone arrive?');
  assert.equal(kind("was Maria Silva's face seen since 9"), 'person:person_c:was anyone face seen since 9?');
  assert.equal(kind('was Maria in today?'), 'ask', 'two Marias: ask which');
  assert.equal(kind('Was Priya here today?'), 'ask');
  assert.equal(kind('when did Joana last come in'), 'ask');
  assert.equal(kind('have you seen Kofi today?'), 'ask');
  assert.equal(kind('who was here this morning?'), 'who:was anyone here this morning?');
  assert.equal(kind('Who came in after 6pm?'), 'who:did anyone came in after 6pm?');
  assert.equal(kind('who did you see today'), 'who:did you see anyone today?');
  // ordinary questions stay with the ordinary interpreter
  for (const q of [
    'was anyone here today?',
    'is the lobby busy?',
    'has traffic been heavy this morning?',
    'how many people came in?',
    'was it crowded at noon?',
    'did you see anyone you did not recognize?',
  ]) {
    assert.equal(kind(q), null, q);
  }
});

for (const dialect of DIALECTS) {
  describe(`scene questions about known people (${dialect})`, () => {
    let t: TestApp;
    let key: { key: string; tenant_id: string };
    let clock: ManualClock;
    let stream: { id: string; scene_id: string };
    let maria: { id: string };
    const ask = (query: string) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/scenes/${stream.scene_id}/query`,
        headers: bearer(key),
        payload: { stream_id: stream.id, query, window: '15m' },
      });

    before(async () => {
      clock = new ManualClock('2026-11-23T07:00:00.000Z');
      t = await createTestApp({ dialect, clock });
      key = await t.orgKey();
      stream = (
        await t.app.inject({
          method: 'POST',
          url: '/v1/streams',
          headers: bearer(key),
          payload: { name: 'Lobby', source_type: 'rtsp', source_url: 'rtsp://cam.example/lobby', location: 'lobby' },
        })
      ).json();
      maria = (await t.app.inject({ method: 'POST', url: '/v1/people', headers: bearer(key), payload: { name: 'Maria Santos' } })).json();
      await t.app.inject({ method: 'POST', url: '/v1/people', headers: bearer(key), payload: { name: 'Tom Baker' } });
      await t.app.inject({ method: 'PATCH', url: '/v1/automation', headers: bearer(key), payload: { face_recognition: true } });
      const ref = await t.ctx.database.db
        .selectFrom('streams')
        .select(['id', 'tenant_id', 'scene_id', 'location'])
        .where('id', '=', stream.id)
        .executeTakeFirstOrThrow();
      const at = (hhmm: string) => Date.parse(`2026-11-23T${hhmm}:00.000Z`);
      const feed = [
        { type: 'person' as const, subtype: 'recognized', person_id: maria.id, at: at('08:50'), track_id: 'm1', dwell_s: 0 },
        { type: 'person' as const, subtype: 'unrecognized', at: at('09:15'), track_id: 'u1', dwell_s: 0 },
        { type: 'person' as const, subtype: null, at: at('10:05'), track_id: 'n1', dwell_s: 0 },
        { type: 'person' as const, subtype: 'recognized', person_id: maria.id, at: at('13:30'), track_id: 'm2', dwell_s: 0 },
      ];
      for (const d of feed) {
        await clock.advance(d.at - clock.now());
        await t.ctx.pipeline.ingest(ref, [{ confidence: 0.9, ...d }]);
      }
      await clock.advance(at('15:00') - clock.now());
      await t.ctx.pipeline.drain();
    });
    after(() => t.close());

    test('"was Maria here today?" answers from her recognized sightings, with the supporting detections', async () => {
      const res = await ask('Was Maria here today?');
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.match(body.answer, /^Yes, Maria Santos was recognized in the lobby today, 2 times \(08:50, 13:30\)/);
      assert.ok(body.detections.length >= 2 && body.detections.every((d: { person_id?: string }) => d.person_id === maria.id));
      const tomRes = (await ask('has tom been in this morning?')).json();
      assert.match(tomRes.answer, /^No, Tom Baker was not recognized in the lobby/);
      assert.match((await ask('When was Maria last seen?')).json().answer, /last recognized in the lobby at 13:30/);
    });

    test('"who was here this morning?" names the recognized, counts strangers and faces unseen', async () => {
      const res = await ask('Who was here this morning?');
      assert.equal(res.statusCode, 200, res.body);
      assert.match(res.json().answer, /recognized: Maria Santos \(08:50\); 1 unrecognized person; 1 person whose face was not seen/);
      assert.equal(res.json().anomaly_flag, true);
    });

    test('an unknown name is asked about, naming the field, never guessed', async () => {
      const res = await ask('Was Priya here today?');
      assert.equal(res.statusCode, 422);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
      const p = res.json();
      assert.equal(p.code, 'query_not_understood');
      assert.equal(p.param, 'query');
      assert.match(p.detail, /I don't know anyone called Priya\. Known people: Maria Santos, Tom Baker/);
    });

    test('strangers are counted from unrecognized faces only, not from every person', async () => {
      const res = await ask('did you see anyone you did not recognize today?');
      assert.equal(res.statusCode, 200, res.body);
      assert.match(res.json().answer, /^Yes/);
      const n = (await ask('how many unknown people came in today?')).json();
      assert.match(n.answer, /\b1\b/);
    });

    test('"who was it at HH:MM": a name when the face was recognized; a plain refusal when no face was seen', async () => {
      const known = await ask('who was that at 08:50?');
      assert.equal(known.statusCode, 200, known.body);
      assert.match(known.json().answer, /Maria Santos/);
      const unseen = await ask('who walked in at 10:05 today?');
      assert.equal(unseen.statusCode, 422, unseen.body);
      assert.equal(unseen.json().code, 'face_not_seen');
      assert.equal(unseen.json().param, 'query');
      assert.match(unseen.json().detail, /never saw their face, so nobody can say who it was/);
      assert.match((await ask('who was here at 11:30?')).json().answer, /^Nobody was seen/);
    });

    test('"first", "how many times", and strangers against known people', async () => {
      assert.match((await ask('when did Maria first come in today?')).json().answer, /first recognized .* at 08:50/);
      assert.match((await ask('how many times was Maria here today?')).json().answer, /^2 times: /);
      const versus = (await ask('were there fewer strangers than known people today?')).json();
      assert.match(versus.answer, /^No, 1 unrecognized person against 1 known person \(Maria Santos\)/);
    });
  });
}
