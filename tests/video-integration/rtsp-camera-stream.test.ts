import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { bearer } from '../helpers/harness.ts';
import { RtspTestCamera } from '../fixtures-video/rtsp-camera.ts';
import { TestReceiver, signatureMatches } from '../webhooks/receiver.ts';
import { startVideoApp, waitUntil, type VideoApp } from './video-app.ts';

// The "Done when", end to end through the HTTP API: vtest.avi (pedestrians, a parked car
// and a van) served by a loopback RTSP camera, registered as an rtsp stream with a live key,
// decoded by real ffmpeg, detected by CenterNet, tracked, counted in the scene, queried.
let v: VideoApp;
let camera: RtspTestCamera;
let receiver: TestReceiver;
let key: { key: string; tenant_id: string };
let stream: { id: string; scene_id: string };
let webhookSecret: string;

before(async () => {
  camera = await RtspTestCamera.create();
  receiver = new TestReceiver();
  const [, receiverUrl] = await Promise.all([camera.start(), receiver.start()]);
  // short supervision timers so unplugging the camera shows reconnecting → offline in seconds
  v = await startVideoApp({ video: { camera: { stallTimeoutMs: 3000, offlineAfterMs: 5000, backoff: { initialMs: 250, maxMs: 1000 } } } });
  key = await v.orgKey('Transit Authority');
  const hook = await v.call(key, 'POST', '/v1/webhooks', { url: receiverUrl, events: ['stream.status_changed'] });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  webhookSecret = hook.body.secret;
});

after(async () => {
  await v?.close();
  await camera?.stop();
  await receiver?.stop();
});

const getStream = async () => (await v.call(key, 'GET', `/v1/streams/${stream.id}`)).body;
const statusEvents = () =>
  receiver.received
    .filter((r) => r.body.event === 'stream.status_changed')
    .map((r) => {
      assert.ok(signatureMatches(webhookSecret, r.raw, r.headers['x-service-signature']), 'signed with the endpoint secret');
      return r.body;
    });

test('an RTSP camera added with one request goes live and its scene counts the people and vehicles it sees', async () => {
  const created = await v.call(key, 'POST', '/v1/streams', { name: 'Concourse camera', source_type: 'rtsp', source_url: camera.url, location: 'concourse' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  stream = created.body;
  assert.equal(created.body.status, 'connecting');
  assert.equal(created.body.sandbox, false);

  await waitUntil('the stream to go live', async () => (await getStream()).status === 'live', 30_000);
  const scene = await waitUntil(
    'people and a vehicle in the scene',
    async () => {
      const s = (await v.call(key, 'GET', `/v1/scenes/${stream.scene_id}`)).body;
      return s.people_count >= 2 && s.vehicle_count >= 1 && s;
    },
    60_000,
  );
  // the clip shows about 3–8 pedestrians at a time: people present, not boxes summed over frames
  assert.ok(scene.people_count <= 12, `people_count ${scene.people_count}`);

  const live = await getStream();
  assert.equal(live.status, 'live');
  assert.equal(live.error, null);
  assert.ok(live.fps_in > 0, `fps_in ${live.fps_in}`);
  assert.ok(live.detector_fps > 0, `detector_fps ${live.detector_fps}`);
  assert.ok(Date.parse(live.last_frame_at) > Date.now() - 10_000);

  // every person and vehicle detection keeps the frame it was made on
  const { db } = v.ctx.database;
  const person = await db
    .selectFrom('detections')
    .selectAll()
    .where('stream_id', '=', stream.id)
    .where('type', '=', 'person')
    .orderBy('at')
    .executeTakeFirstOrThrow();
  // recognition is off for this tenant: a person whose face nobody looked at has no subtype
  assert.equal(person.subtype, null);
  const snap = await v.app.inject({ url: `/v1/detections/${person.id}/snapshot`, headers: bearer(key) });
  assert.equal(snap.statusCode, 200);
  assert.equal(snap.headers['content-type'], 'image/jpeg');
  const meta = await sharp(snap.rawPayload).metadata();
  assert.deepEqual([meta.format, meta.width], ['jpeg', 640]);
  const vehicle = await db
    .selectFrom('detections')
    .select('id')
    .where('stream_id', '=', stream.id)
    .where('type', '=', 'vehicle')
    .where('count', '>', 0)
    .executeTakeFirstOrThrow();
  assert.equal((await v.app.inject({ url: `/v1/detections/${vehicle.id}/snapshot`, headers: bearer(key) })).statusCode, 200);

  // a scene query about people answers from these detections
  const q = await v.call(key, 'POST', `/v1/scenes/${stream.scene_id}/query`, {
    stream_id: stream.id,
    query: 'How many people are in the concourse right now?',
    window: '5m',
  });
  assert.equal(q.status, 200, JSON.stringify(q.body));
  assert.match(q.body.answer, /\d+ (people|person)/);
  const counts = q.body.detections.filter((d: { type: string }) => d.type === 'person_count');
  assert.ok(counts.length > 0);
  assert.ok(counts.every((d: { stream_id: string }) => d.stream_id === stream.id));
  assert.ok(q.body.crowd_density > 0);
});

test('unplugging the camera turns the stream reconnecting then offline, plugging it back makes it live; each change is a signed webhook', async () => {
  assert.ok(stream, 'the first test created the stream');
  await waitUntil('the live event', async () => statusEvents().some((e) => e.status === 'live'), 15_000);
  const seen = statusEvents().length;

  await camera.stop();
  const offline = await waitUntil(
    'offline',
    async () => {
      const s = await getStream();
      return s.status === 'offline' && s;
    },
    40_000,
  );
  assert.ok(offline.error, 'the reason is shown');
  assert.equal(offline.fps_in < 1, true);

  await camera.start();
  await waitUntil('live again', async () => (await getStream()).status === 'live', 40_000);
  await waitUntil('the events to be delivered', async () => statusEvents().length >= seen + 3, 15_000);
  const events = statusEvents();
  assert.deepEqual(
    events.map((e) => `${e.previous_status}→${e.status}`),
    ['connecting→live', 'live→reconnecting', 'reconnecting→offline', 'offline→live'],
  );
  for (const e of events) {
    assert.equal(e.stream_id, stream.id);
    assert.match(String(e.id), /^evt_/);
  }
  assert.ok(events[2].error, 'offline says why');

  // the same changes are in the audit trail
  const audit = await v.call(key, 'GET', `/v1/audit?action=stream.status_changed&resource_id=${stream.id}&limit=100`);
  assert.deepEqual(audit.body.data.map((a: { data: { status: string } }) => a.data.status).reverse(), ['live', 'reconnecting', 'offline', 'live']);
});
