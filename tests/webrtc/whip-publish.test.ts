import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer } from '../helpers/harness.ts';
import { WhipTestPublisher } from '../fixtures-video/whip-publisher.ts';
import { waitUntil } from '../video-integration/video-app.ts';
import { startWhipApp, type WhipApp } from './whip-app.ts';

// WHIP ingest end to end over real sockets: a werift WHIP publisher sends vtest.avi (pedestrians, a
// parked car and a van) encoded by ffmpeg, Vigil receives it with werift, depacketizes, decodes
// with ffmpeg and runs the same frame pipeline as an RTSP camera; the scene counts the people.
let v: WhipApp;
const publishers: WhipTestPublisher[] = [];

before(async () => {
  v = await startWhipApp();
});

after(async () => {
  await Promise.allSettled(publishers.map((p) => p.vanish()));
  await v?.close();
});

const getStream = async (id: string) => (await v.call(v.key, 'GET', `/v1/streams/${id}`)).body;
const publisher = (o: Parameters<typeof WhipTestPublisher.create>[0]) => {
  const p = WhipTestPublisher.create(o);
  publishers.push(p);
  return p;
};

test('a WHIP publisher (werift, VP8) makes a webrtc stream live and its scene counts the people; one publisher at a time; it leaves → offline; H.264 brings it back', async () => {
  const s = await v.createWebRtcStream('Guard phone', 'north_gate');
  assert.equal(s.body.status, 'connecting');
  assert.equal(s.body.sandbox, false);
  assert.match(s.token, /^vpt_[A-Za-z0-9_-]{43}$/);
  assert.match(s.body.publish.publish_url, /\/console\/publish\?stream=stream_\w+&token=vpt_/);
  // shown once: reading the stream never shows the token again
  assert.equal((await getStream(s.id)).publish, undefined);

  const first = publisher({ whipUrl: s.whipUrl, token: s.token, codec: 'VP8' });
  const res = await first.publish();
  assert.equal(res.status, 201, await res.clone().text());
  assert.equal(res.headers.get('content-type'), 'application/sdp');
  assert.match(res.headers.get('location')!, new RegExp(`^/v1/streams/${s.id}/whip/whip_\\w+$`));
  assert.match(res.headers.get('etag')!, /^"whip_\w+"$/);
  assert.match(first.answer!, /^v=0\r?\n/);
  assert.match(first.answer!, /a=rtpmap:\d+ VP8\/90000/);

  await waitUntil('the stream to go live', async () => (await getStream(s.id)).status === 'live', 30_000).catch((err) => {
    throw new Error(`${(err as Error).message}; session ${JSON.stringify(v.ctx.whip.sessionStats(s.id))}; sent ${first.packetsSent} packets`);
  });
  const scene = await waitUntil(
    'people and a vehicle in the scene',
    async () => {
      const sc = (await v.call(v.key, 'GET', `/v1/scenes/${s.scene_id}`)).body;
      return sc.people_count >= 2 && sc.vehicle_count >= 1 && sc;
    },
    90_000,
  );
  // the same ranges as the RTSP camera test: people present, not boxes summed over frames
  assert.ok(scene.people_count <= 12, `people_count ${scene.people_count}`);
  // rates are over the last seconds: on a busy machine the detector may be between runs
  const live = await waitUntil(
    'frames in and detector runs',
    async () => {
      const st = await getStream(s.id);
      return st.fps_in > 0 && st.detector_fps > 0 && st;
    },
    30_000,
  );
  assert.equal(live.error, null);
  const person = await v.ctx.database.db
    .selectFrom('detections')
    .select('id')
    .where('stream_id', '=', s.id)
    .where('type', '=', 'person')
    .executeTakeFirstOrThrow();
  const snap = await v.app.inject({ url: `/v1/detections/${person.id}/snapshot`, headers: bearer(v.key) });
  assert.equal(snap.statusCode, 200);
  assert.equal(snap.headers['content-type'], 'image/jpeg');

  // trickle ICE (RFC 9725 §4.3): If-Match is required and checked; an ICE restart is refused
  const patch = (headers: Record<string, string>, body: string) =>
    fetch(first.sessionUrl!, {
      method: 'PATCH',
      headers: { 'content-type': 'application/trickle-ice-sdpfrag', authorization: `Bearer ${s.token}`, ...headers },
      body,
    });
  const ufrag = /a=ice-ufrag:(\S+)/.exec(first.pc.localDescription!.sdp)![1];
  const frag = `a=ice-ufrag:${ufrag}\r\na=mid:0\r\na=candidate:1 1 udp 2122260223 127.0.0.1 9 typ host\r\n`;
  assert.equal((await patch({ 'if-match': first.etag! }, frag)).status, 204);
  const noIfMatch = await patch({}, frag);
  assert.equal(noIfMatch.status, 428);
  assert.match(noIfMatch.headers.get('content-type')!, /^application\/problem\+json/);
  assert.equal((await noIfMatch.json()).code, 'precondition_required');
  assert.equal(((await (await patch({ 'if-match': '"whip_other"' }, frag)).json()) as any).code, 'etag_mismatch');
  const restart = await patch({ 'if-match': '*' }, 'a=ice-ufrag:newufrag\r\na=ice-pwd:newpasswordnewpasswordnew\r\n');
  assert.equal(restart.status, 422);
  assert.equal((await restart.json()).code, 'ice_restart_not_supported');

  // a second publisher while the first is live: 409, and the first keeps publishing
  const second = publisher({ whipUrl: s.whipUrl, token: s.token, codec: 'H264' });
  const refused = await second.publish();
  assert.equal(refused.status, 409);
  assert.match(refused.headers.get('content-type')!, /^application\/problem\+json/);
  const problem = await refused.json();
  assert.equal(problem.code, 'stream_already_publishing');
  assert.equal(problem.session_id, first.sessionUrl!.split('/').at(-1));
  await second.vanish();
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal((await getStream(s.id)).status, 'live');
  assert.ok(v.ctx.whip.sessionStats(s.id)!.frames_decoded > 0);

  // the publisher vanishes (no DELETE, like a phone losing its network): offline, with the reason
  await first.vanish();
  const offline = await waitUntil(
    'offline',
    async () => {
      const st = await getStream(s.id);
      return st.status === 'offline' && st;
    },
    20_000,
  );
  assert.match(offline.error, /no video from the publisher|connection/);
  assert.equal(v.ctx.whip.sessionStats(s.id), null);

  // a new publish (H.264 this time, over a lossy network: every 150th packet lost) brings it back
  const third = publisher({ whipUrl: s.whipUrl, token: s.token, codec: 'H264', dropEvery: 150 });
  assert.equal((await third.publish()).status, 201);
  assert.match(third.answer!, /a=rtpmap:\d+ H264\/90000/);
  await waitUntil('live again on H.264', async () => (await getStream(s.id)).status === 'live', 30_000);
  await waitUntil('H.264 frames decoded', async () => (v.ctx.whip.sessionStats(s.id)?.frames_decoded ?? 0) > 5, 15_000);
  // losses are noticed, the broken frames skipped, and keyframes asked for with PLI
  const lossy = await waitUntil(
    'a loss and a keyframe request',
    async () => {
      const st = v.ctx.whip.sessionStats(s.id)!;
      return st.lost_packets > 0 && third.pliReceived > 0 && st;
    },
    20_000,
  );
  assert.equal(lossy.codec, 'H264');
  assert.ok(lossy.keyframe_requests > 0);
  assert.equal(lossy.decoder_restarts, 0);

  // the publisher changes resolution mid-stream (a phone turned to portrait): decoding follows
  assert.equal(v.ctx.whip.sessionStats(s.id)!.last_frame_size, '640x480');
  third.resize({ width: 480, height: 640 });
  // (the publisher's new encoder starts in real time on a busy machine: generous bounds)
  await waitUntil('portrait frames', async () => v.ctx.whip.sessionStats(s.id)!.last_frame_size === '480x640', 30_000);
  const decodedAtSwitch = v.ctx.whip.sessionStats(s.id)!.frames_decoded;
  await waitUntil('frames keep coming', async () => v.ctx.whip.sessionStats(s.id)!.frames_decoded > decodedAtSwitch + 5, 30_000).catch((err) => {
    throw new Error(`${(err as Error).message}; session ${JSON.stringify(v.ctx.whip.sessionStats(s.id))}`);
  });
  assert.equal((await getStream(s.id)).status, 'live');

  // the publisher ends politely: DELETE → 200, offline at once; the session URL is then unknown
  const del = await third.stop();
  assert.equal(del!.status, 200);
  await waitUntil('offline after DELETE', async () => (await getStream(s.id)).status === 'offline', 5000);
  const again = await fetch(third.sessionUrl!, { method: 'DELETE', headers: { authorization: `Bearer ${s.token}` } });
  assert.equal(again.status, 404);
  assert.equal((await again.json()).code, 'not_found');

  // every change went through stream.status_changed in the audit trail
  const audit = await v.call(v.key, 'GET', `/v1/audit?action=stream.status_changed&resource_id=${s.id}&limit=100`);
  assert.deepEqual(audit.body.data.map((a: { data: { status: string } }) => a.data.status).reverse(), ['live', 'offline', 'live', 'offline']);
});
