import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { WhipTestPublisher } from '../fixtures-video/whip-publisher.ts';
import { waitUntil } from '../video-integration/video-app.ts';
import { CHROMIUM } from './console-app.ts';
import { checkPlayback, iso, lastRun, playsInConsole, startClipApp, type ClipApp } from './clip-playback.ts';

// A WHIP publisher's recording plays in the console, in Debian's chromium, from what the real
// ingest recorded (no segment written by the test): a werift publisher sends vtest.avi over real
// sockets, VP8 (recorded into WebM) and then H.264 (recorded into MP4 by copy), and leaves. The
// stream's page plays its last recorded run (`#/streams/<id>?play=last`, the wall's link); the
// browser's player must know a duration close to the run's, play it to its end with frames
// presented at rising media times (requestVideoFrameCallback), count decoded frames
// (getVideoPlaybackQuality), and seek to its middle (a Range request).
const skip = !existsSync(CHROMIUM) && 'Debian chromium is not installed';

describe('WHIP publisher clips in chromium', { skip, timeout: 290_000 }, () => {
  let c: ClipApp;
  const publishers: WhipTestPublisher[] = [];
  before(async () => {
    c = await startClipApp('Drone Patrol');
  });
  after(async () => {
    await Promise.allSettled(publishers.map((p) => p.vanish()));
    await c?.close();
  });

  async function whipClipPlays(codec: 'VP8' | 'H264', location: string): Promise<void> {
    const created = await c.v.call(c.key, 'POST', '/v1/streams', { name: `Drone ${codec}`, source_type: 'webrtc', source_url: 'webrtc://drone', location });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id: string = created.body.id;
    const startedAt = Date.now();
    const p = WhipTestPublisher.create({ whipUrl: c.base + new URL(created.body.publish.whip_url).pathname, token: created.body.publish.token, codec });
    publishers.push(p);
    assert.equal((await p.publish()).status, 201);
    // three sealed 2 s segments while it publishes, then the publisher leaves and the last one is sealed
    await waitUntil(
      'three sealed segments',
      async () => {
        const l = (await c.v.call(c.key, 'GET', `/v1/streams/${id}/recordings?from=${iso(startedAt - 5000)}&to=${iso(Date.now() + 1000)}`)).body;
        return l.segments?.length >= 3;
      },
      90_000,
    ).catch((err) => {
      throw new Error(`${(err as Error).message}; session ${JSON.stringify(c.v.ctx.whip.sessionStats(id))}; sent ${p.packetsSent} packets`);
    });
    assert.equal((await p.stop())!.status, 200);
    await c.v.ctx.recordings.recorder.settle();
    // one run: a publisher's segments follow each other (docs/decisions.md, "Recordings: WHIP segments follow each other")
    const run = await lastRun(c, id, startedAt);
    assert.ok(run.segments >= 3, `the last run: ${JSON.stringify(run)}`);
    // the page plays the run's last minute: the whole run when it is shorter
    const expected = Math.min(60_000, run.end - run.start) / 1000;
    const played = await playsInConsole(c, id, codec === 'VP8' ? 'video/webm' : 'video/mp4');
    const src = new URL(played.src, c.base);
    assert.equal(src.pathname, `/v1/streams/${id}/clip`);
    assert.equal(Date.parse(src.searchParams.get('to')!), run.end);
    // vtest.avi is 10 fps; the publisher keeps at least one a second on a loaded machine
    checkPlayback(played, expected, 1);
  }

  test("a VP8 WHIP publisher's recording plays in the console (WebM)", async () => {
    await whipClipPlays('VP8', 'north_gate');
  });

  test("an H.264 WHIP publisher's recording plays in the console (MP4, copied)", async () => {
    await whipClipPlays('H264', 'south_gate');
  });
});
