import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { VTEST_AVI } from '../fixtures-video/rtsp-camera.ts';
import { waitUntil } from '../video-integration/video-app.ts';
import { startWhipApp, type WhipApp } from './whip-app.ts';

// A real browser (Debian's chromium, its camera faked from vtest.avi)
// opens the printed publish URL, the page asks for the camera and publishes over WHIP, and the
// scene counts the people. The browser is the system one, never a downloaded build.
const CHROMIUM = '/usr/bin/chromium';
let v: WhipApp;
let browser: Browser;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-browser-'));
  const camera = join(dir, 'camera.y4m');
  // Y4M carries its frame rate, so the fake camera plays the clip at its real 10 fps (looping)
  await promisify(execFile)('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-i',
    VTEST_AVI,
    '-t',
    '30',
    '-vf',
    'scale=640:480',
    '-pix_fmt',
    'yuv420p',
    '-f',
    'yuv4mpegpipe',
    camera,
  ]);
  v = await startWhipApp();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${camera}`,
      // real host candidates (not .local mDNS names, which nothing resolves in a test machine)
      '--disable-features=WebRtcHideLocalIpsWithMdns',
    ],
  });
});

after(async () => {
  await browser?.close();
  await v?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test(
  'chromium opens the publish URL of a new webrtc stream: the stream goes live and its scene counts the people; closing the page takes it offline',
  { skip: !existsSync(CHROMIUM) && 'Debian chromium is not installed' },
  async () => {
    const s = await v.createWebRtcStream('Guard phone', 'loading_dock');
    const page = await browser.newPage();
    const consoleErrors: string[] = [];
    page.on('pageerror', (err) => consoleErrors.push(err.message));
    await page.goto(s.publishUrl);

    await waitUntil('the page to say it is live', async () => (await page.textContent('#status'))?.startsWith('Live'), 30_000).catch(async (err) => {
      throw new Error(`${(err as Error).message}; page says ${JSON.stringify(await page.textContent('#status'))}; errors ${consoleErrors.join(' | ')}`);
    });
    await waitUntil('the stream to go live', async () => (await v.call(v.key, 'GET', `/v1/streams/${s.id}`)).body.status === 'live', 30_000);
    const scene = await waitUntil(
      'people in the scene',
      async () => {
        const sc = (await v.call(v.key, 'GET', `/v1/scenes/${s.scene_id}`)).body;
        return sc.people_count >= 2 && sc;
      },
      90_000,
    );
    assert.ok(scene.people_count <= 12, `people_count ${scene.people_count}`);
    const stats = v.ctx.whip.sessionStats(s.id)!;
    assert.ok(stats.frames_decoded > 0, JSON.stringify(stats));
    assert.deepEqual(consoleErrors, []);

    // the page DELETEs its session when it goes away; the stream is offline at once
    await page.close({ runBeforeUnload: true });
    const offline = await waitUntil(
      'offline',
      async () => {
        const st = (await v.call(v.key, 'GET', `/v1/streams/${s.id}`)).body;
        return st.status === 'offline' && st;
      },
      15_000,
    );
    assert.ok(offline.error);
  },
);

test('the publish page is served by Vigil with its script as a file, a strict CSP and no referrer', async () => {
  const res = await fetch(`${v.base}/console/publish?stream=stream_x&token=vpt_x`);
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.match(html, /<script type="module" src="\/console\/publish\.js"><\/script>/);
  assert.doesNotMatch(html, /<script(?![^>]*src=)[^>]*>/, 'no inline script');
  assert.match(res.headers.get('content-security-policy')!, /script-src 'self'/);
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  assert.equal(res.headers.get('cache-control'), 'no-store');
  const js = await fetch(`${v.base}/console/publish.js`);
  assert.equal(js.status, 200);
  assert.match(js.headers.get('content-type')!, /^text\/javascript/);
  assert.match(await js.text(), /application\/sdp/);
});
