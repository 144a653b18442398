import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveFfmpegPath } from '../../src/ingest/video/index.ts';
import { bearer } from '../helpers/harness.ts';
import { VTEST_AVI } from '../fixtures-video/rtsp-camera.ts';
import { waitUntil } from '../video-integration/video-app.ts';
import { CHROMIUM } from './console-app.ts';
import { checkPlayback, iso, lastRun, playsInConsole, startClipApp, type ClipApp } from './clip-playback.ts';

// A phone's recording plays in the console, in Debian's chromium: the phone posts eight different
// frames of vtest.avi half a second apart (POST /v1/streams/{id}/frames), the real ingest keeps
// them as stills, and the stream page's player gets the clip made of them on request (an H.264 MP4
// with its index first, each still shown until the next one): its duration is the run's, it plays
// to the end with frames presented at rising media times, and it seeks (a Range request).
const skip = !existsSync(CHROMIUM) && 'Debian chromium is not installed';

describe('phone clip in chromium', { skip, timeout: 240_000 }, () => {
  let c: ClipApp;
  before(async () => {
    c = await startClipApp('Guard Patrol');
  });
  after(async () => {
    await c?.close();
  });

  test("a phone's stills play in the console as an H.264 MP4", async () => {
    const created = await c.v.call(c.key, 'POST', '/v1/streams', {
      name: 'Guard phone',
      source_type: 'mobile',
      source_url: 'mobile://guard',
      location: 'car_park',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id: string = created.body.id;
    execFileSync(resolveFfmpegPath(), ['-v', 'error', '-i', VTEST_AVI, '-vf', 'fps=2', '-frames:v', '8', '-q:v', '4', join(c.dir, 'still-%02d.jpg')]);
    const stills = readdirSync(c.dir)
      .filter((n) => n.startsWith('still-'))
      .sort();
    assert.equal(stills.length, 8);
    const startedAt = Date.now();
    for (const name of stills) {
      const r = await c.v.app.inject({
        method: 'POST',
        url: `/v1/streams/${id}/frames`,
        headers: { ...bearer(c.key), 'content-type': 'image/jpeg' },
        payload: readFileSync(join(c.dir, name)),
      });
      assert.equal(r.statusCode, 200, r.body);
      await new Promise((r) => setTimeout(r, 500));
    }
    await waitUntil(
      'eight stills kept',
      async () =>
        (await c.v.call(c.key, 'GET', `/v1/streams/${id}/recordings?from=${iso(startedAt - 5000)}&to=${iso(Date.now() + 1000)}`)).body.segments?.length >= 8,
      60_000,
    );
    const run = await lastRun(c, id, startedAt);
    assert.equal(run.segments, 8);
    // each still is shown until the next one, the last for a second
    const expected = (run.end - run.start) / 1000;
    const played = await playsInConsole(c, id, 'video/mp4');
    // the clip is made at 5 frames a second
    checkPlayback(played, expected, 3);
  });
});
