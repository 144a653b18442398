import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { resolveFfmpegPath } from '../../src/ingest/video/index.ts';
import { VTEST_AVI } from '../fixtures-video/rtsp-camera.ts';
import { CHROMIUM, startConsoleApp, type ConsoleApp } from './console-app.ts';

// The incident page plays its clip in Debian's chromium: six 2 s segments written by ffmpeg's
// segment muxer as the recorder writes them (fragmented MP4, H.264), sealed by the recording
// service, joined into the incident's clip; the browser loads it, knows its duration, plays
// frames; the evidence bundle link downloads a zip with the session cookie.
const skip = !existsSync(CHROMIUM) && 'Debian chromium is not installed';

describe('incident clip in chromium', { skip }, () => {
  let c: ConsoleApp;
  let dir: string;
  let incidentId: string;
  let recorded = 0;
  let org: string;
  before(async () => {
    c = await startConsoleApp();
    dir = mkdtempSync(join(tmpdir(), 'vigil-console-clip-'));
    // a live key: streams of the demo's test key are sandbox streams, which have no video
    const live = await c.t.orgKey({ name: 'Dock Operations', mode: 'live' });
    org = live.key;
    const tenantId = live.tenant_id;
    const stream = await c.call(org, 'POST', '/v1/streams', {
      name: 'Dock camera',
      source_type: 'rtsp',
      source_url: 'rtsp://127.0.0.1:9/dock',
      location: 'north_lobby',
    });
    assert.equal(stream.status, 201, JSON.stringify(stream.body));
    const incident = await c.call(org, 'POST', '/v1/incidents', { stream_id: stream.body.id, title: 'Door forced at the dock' });
    assert.equal(incident.status, 201, JSON.stringify(incident.body));
    incidentId = incident.body.id;
    const at = Date.parse(incident.body.created_at);
    // 12 s of H.264 cut by the segment muxer into 2 s fragmented MP4 segments, then sealed as the recorder would
    const ffmpeg = resolveFfmpegPath();
    const out = join(dir, 'segments');
    mkdirSync(out);
    execFileSync(ffmpeg, [
      '-v',
      'error',
      '-i',
      VTEST_AVI,
      '-t',
      '12',
      '-an',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      '10',
      '-pix_fmt',
      'yuv420p',
      '-f',
      'segment',
      '-segment_time',
      '2',
      '-reset_timestamps',
      '1',
      '-segment_format',
      'mp4',
      '-segment_format_options',
      'movflags=+frag_keyframe+empty_moov+default_base_moof',
      join(out, '%03d.mp4'),
    ]);
    const recordings = c.t.ctx.recordings;
    let start = at - 6000;
    for (const name of readdirSync(out).sort()) {
      const seconds = Number(
        execFileSync(ffmpeg.replace(/ffmpeg$/, 'ffprobe'), ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', join(out, name)]).toString(),
      );
      const end = start + Math.round(seconds * 1000);
      const dest = join(recordings.root, tenantId, stream.body.id, 'day');
      mkdirSync(dest, { recursive: true });
      renameSync(join(out, name), join(dest, `${start}-${end}.mp4`));
      const bytes = readFileSync(join(dest, `${start}-${end}.mp4`));
      await recordings.seal({
        tenantId,
        streamId: stream.body.id,
        kind: 'video',
        startAt: start,
        endAt: end,
        path: relative(recordings.root, join(dest, `${start}-${end}.mp4`)),
        sha256: createHash('sha256').update(bytes).digest('hex'),
        bytes: bytes.length,
        codec: 'h264',
      });
      recorded += end - start;
      start = end;
    }
  });
  after(async () => {
    await c?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the incident page plays its clip: the browser reads its duration and decodes frames; the bundle downloads', async () => {
    const { page, context, errors } = await c.newPage('desktop');
    await c.signIn(page, org, 'Dana Reyes');
    await page.evaluate(() => {
      location.hash = '#/incidents';
    });
    await page.click('a.link:text-is("Door forced at the dock")');
    await page.waitForSelector('#incident-clip');
    assert.equal(
      await page.evaluate(() => (document.querySelector('#incident-clip') as HTMLVideoElement).canPlayType('video/mp4; codecs="avc1.64001e"') !== ''),
      true,
      'chromium plays H.264 MP4',
    );
    // the clip window is 10 s before the incident to 20 s after its last activity: all 12 s recorded are in it
    const duration = await page
      .waitForFunction(
        () => {
          const v = document.querySelector('#incident-clip') as HTMLVideoElement;
          return v.readyState >= 1 && Number.isFinite(v.duration) ? v.duration : false;
        },
        undefined,
        { timeout: 30_000 },
      )
      .then((h) => h.jsonValue() as Promise<number>);
    assert.ok(Math.abs(duration - recorded / 1000) <= 1, `the clip lasts ${duration} s for ${recorded / 1000} s recorded`);
    const played = await page.evaluate(async () => {
      const v = document.querySelector('#incident-clip') as HTMLVideoElement;
      v.muted = true;
      await v.play();
      // no named functions in here: the test's transpiler would wrap them in a helper the page lacks
      for (let i = 0; i < 300 && v.currentTime < 1.5; i++) await new Promise((r) => setTimeout(r, 100));
      v.pause();
      const q = v.getVideoPlaybackQuality();
      return { time: v.currentTime, frames: q.totalVideoFrames, width: v.videoWidth };
    });
    assert.ok(played.time >= 1.5 && played.frames > 0, JSON.stringify(played));
    assert.equal(played.width, 768, "vtest.avi's width: the clip is a copy, not a re-encode");
    // seek near the end: the server answers Range requests
    const seeked = await page.evaluate(
      async (to) => {
        const v = document.querySelector('#incident-clip') as HTMLVideoElement;
        v.currentTime = to;
        await new Promise((r) => v.addEventListener('seeked', r, { once: true }));
        return v.currentTime;
      },
      Math.max(0, duration - 2),
    );
    assert.ok(seeked >= duration - 3);
    // the bundle link: a zip, with the session cookie
    const href = await page.getAttribute('#evidence-download', 'href');
    assert.equal(href, `/v1/incidents/${incidentId}/evidence`);
    const zip = await page.evaluate(async (u) => {
      const r = await fetch(u, { credentials: 'same-origin' });
      const b = new Uint8Array(await r.arrayBuffer());
      return { status: r.status, type: r.headers.get('content-type'), magic: Array.from(b.slice(0, 2)) };
    }, href!);
    assert.deepEqual(zip, { status: 200, type: 'application/zip', magic: [0x50, 0x4b] });
    assert.deepEqual(errors, []);
    await context.close();
  });
});
