import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/platform/config/config.ts';
import { WhipTestPublisher } from '../fixtures-video/whip-publisher.ts';
import { startVideoApp, waitUntil, type VideoApp } from '../video-integration/video-app.ts';

// The recording guard of a WHIP session (docs/decisions.md, "Recordings: WHIP publishers"): a
// decoder that ends on its own while recording is restarted with recording; after the second such
// end the session decodes on without recording. Here the decoding ffmpeg really dies twice (killed
// by its process id, as the OOM killer or a crash would end it) while a werift publisher sends
// vtest.avi: the session stays up and live, frames keep being decoded, no segment starts after the
// guard trips, and an operator sees why (the session's figures, and a recording.stopped entry in
// the audit trail of the stream).
let v: VideoApp;
let base: string;
let key: { key: string; tenant_id: string };
let publisher: WhipTestPublisher | null = null;

before(async () => {
  const recordings = { ...loadConfig({}, {}).recordings, segmentSeconds: 2 };
  // the session's media timer at its default (10 s): a loaded machine can hold packets back for seconds
  v = await startVideoApp({ config: { recordings }, video: { whip: { connectTimeoutMs: 30_000 } } });
  await v.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(v.app.server.address() as AddressInfo).port}`;
  key = await v.orgKey('Guarded Drone');
});

after(async () => {
  await publisher?.vanish().catch(() => undefined);
  await v?.close();
});

const iso = (ms: number) => new Date(ms).toISOString();

test('after two decoder exits while recording, a WHIP session decodes on without recording, and says so', { timeout: 240_000 }, async () => {
  const created = await v.call(key, 'POST', '/v1/streams', {
    name: 'Guarded drone',
    source_type: 'webrtc',
    source_url: 'webrtc://drone',
    location: 'east_fence',
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id: string = created.body.id;
  const startedAt = Date.now();
  publisher = WhipTestPublisher.create({ whipUrl: base + new URL(created.body.publish.whip_url).pathname, token: created.body.publish.token, codec: 'VP8' });
  assert.equal((await publisher.publish()).status, 201);
  const stats = () => v.ctx.whip.sessionStats(id);
  const diag = () => `session ${JSON.stringify(stats())}; sent ${publisher?.packetsSent} packets`;

  // a recording decoder runs, and has sealed a segment
  const first = await waitUntil(
    'a recording decoder',
    async () => {
      const s = stats();
      return s && s.decoder_pid !== null && s.recording && s.frames_decoded > 0 && s;
    },
    60_000,
  ).catch((err) => {
    throw new Error(`${(err as Error).message}; ${diag()}`);
  });
  assert.equal((await v.call(key, 'GET', `/v1/streams/${id}`)).body.status, 'live');
  await waitUntil(
    'a sealed segment',
    async () =>
      (await v.call(key, 'GET', `/v1/streams/${id}/recordings?from=${iso(startedAt - 5000)}&to=${iso(Date.now() + 1000)}`)).body.segments?.length >= 1,
    60_000,
  );

  // first exit: the decoder is restarted, still recording
  process.kill(first.decoder_pid!, 'SIGKILL');
  const second = await waitUntil(
    'a second recording decoder',
    async () => {
      const s = stats();
      return s && s.decoder_restarts === 1 && s.decoder_pid !== null && s.decoder_pid !== first.decoder_pid && s;
    },
    60_000,
  ).catch((err) => {
    throw new Error(`${(err as Error).message}; ${diag()}`);
  });
  assert.equal(second.recording, true, 'after one exit the decoder records again');
  assert.equal(second.recording_stopped, null);

  // second exit: the guard trips; the next decoder decodes without recording
  process.kill(second.decoder_pid!, 'SIGKILL');
  const third = await waitUntil(
    'a decoder without recording',
    async () => {
      const s = stats();
      return s && s.decoder_restarts === 2 && s.decoder_pid !== null && s.decoder_pid !== second.decoder_pid && s;
    },
    60_000,
  ).catch((err) => {
    throw new Error(`${(err as Error).message}; ${diag()}`);
  });
  const stoppedAt = Date.now();
  assert.equal(third.recording, false);
  assert.match(third.recording_stopped ?? '', /ended twice while recording/);

  // the session goes on: still there, the same one, live, decoding
  const decoded = third.frames_decoded;
  await waitUntil('frames keep being decoded', async () => (stats()?.frames_decoded ?? 0) > decoded + 10, 60_000);
  assert.equal((await v.call(key, 'GET', `/v1/streams/${id}`)).body.status, 'live');
  const later = stats()!;
  assert.equal(later.decoder_restarts, 2, 'no further decoder exit');
  assert.equal(later.recording, false);

  // recording stopped: what the killed decoders left open is sealed (repaired), then nothing new starts
  // (three segment lengths of decoding since the guard tripped)
  await new Promise((r) => setTimeout(r, 6000));
  await v.ctx.recordings.recorder.settle();
  const listing = (await v.call(key, 'GET', `/v1/streams/${id}/recordings?from=${iso(startedAt - 5000)}&to=${iso(Date.now() + 1000)}`)).body;
  assert.ok(listing.segments.length >= 1, 'recorded before the guard tripped');
  const after = listing.segments.filter((s: { start: string }) => Date.parse(s.start) > stoppedAt);
  assert.deepEqual(after, [], `segments started after recording stopped at ${iso(stoppedAt)}`);

  // visible to an operator: one recording.stopped entry in the stream's audit trail, saying why
  const audit = await v.call(key, 'GET', `/v1/audit?action=recording.stopped&resource_id=${id}&limit=10`);
  assert.equal(audit.status, 200, JSON.stringify(audit.body));
  assert.equal(audit.body.data.length, 1);
  assert.match(JSON.stringify(audit.body.data[0]), /ended twice while recording/);

  const del = await publisher.stop();
  assert.equal(del!.status, 200);
});
