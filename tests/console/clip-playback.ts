import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/platform/config/config.ts';
import { startVideoApp, type VideoApp } from '../video-integration/video-app.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './console-app.ts';

// What the console tests of recorded publisher and phone clips share: a serving Vigil with real
// ingest recording 2 s segments, listening on loopback, an organization key, Debian's chromium; the
// stream page's player driven to the end of the last recorded run, and the checks of its playback.

export const iso = (ms: number) => new Date(ms).toISOString();

export interface ClipApp {
  v: VideoApp;
  b: ConsoleBrowser;
  base: string;
  key: { key: string; tenant_id: string };
  /** a scratch directory, removed by close() */
  dir: string;
  close(): Promise<void>;
}

export interface Run {
  start: number;
  end: number;
  segments: number;
  /** the listing's segments, for messages */
  listing: string;
}

export interface Playback {
  src: string;
  duration: number;
  /** media times of the frames presented while playing from the start to the end */
  presented: number[];
  decoded: number;
  currentTime: number;
  ended: boolean;
  seekedTo: number;
}

export async function startClipApp(org: string): Promise<ClipApp> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-console-pub-clips-'));
  const recordings = { ...loadConfig({}, {}).recordings, segmentSeconds: 2 };
  // the session's media timer at its default (10 s): a loaded machine can hold packets back for seconds
  const v = await startVideoApp({
    config: { recordings, rateLimitPerMinute: 100_000 },
    video: { whip: { connectTimeoutMs: 30_000 }, camera: { detectFps: 1 } },
  });
  await v.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(v.app.server.address() as AddressInfo).port}`;
  const key = await v.orgKey(org);
  const b = await launchConsoleBrowser(base);
  return {
    v,
    b,
    base,
    key,
    dir,
    async close() {
      await b.browser.close();
      await v.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Plays #stream-clip from its start to its end (at most 60 s of wall time on a loaded machine),
 * noting the media time of every frame presented (requestVideoFrameCallback) and the decoded
 * frames (getVideoPlaybackQuality), then seeks to the middle (the browser asks for a byte range).
 */
const PLAY_TO_END_AND_SEEK = `(async () => {
  const el = document.querySelector('#stream-clip');
  el.muted = true;
  el.pause();
  el.currentTime = 0;
  const presented = [];
  let watching = true;
  function onFrame(now, meta) {
    if (!watching) return;
    presented.push(meta.mediaTime);
    el.requestVideoFrameCallback(onFrame);
  }
  el.requestVideoFrameCallback(onFrame);
  await el.play();
  for (let i = 0; i < 600 && !el.ended; i++) await new Promise((r) => setTimeout(r, 100));
  el.pause();
  watching = false;
  const result = { presented, decoded: el.getVideoPlaybackQuality().totalVideoFrames, currentTime: el.currentTime, ended: el.ended };
  const target = el.duration / 2;
  await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('no seeked event in 20 s')), 20000);
    el.addEventListener('seeked', () => { clearTimeout(t); resolve(); }, { once: true });
    el.currentTime = target;
  });
  return { ...result, seekedTo: el.currentTime };
})()`;

/** The stream's recorded segments, and its last run (consecutive segments, as the timeline merges them). */
export async function lastRun(c: ClipApp, id: string, since: number): Promise<Run> {
  const l = (await c.v.call(c.key, 'GET', `/v1/streams/${id}/recordings?from=${iso(since - 5000)}&to=${iso(Date.now() + 1000)}`)).body;
  let run: Omit<Run, 'listing'> | null = null;
  for (const s of l.segments) {
    const start = Date.parse(s.start);
    const end = Date.parse(s.end);
    if (run && start - run.end <= 1500) {
      run.end = Math.max(run.end, end);
      run.segments++;
    } else run = { start, end, segments: 1 };
  }
  assert.ok(run, 'something was recorded');
  return { ...run, listing: l.segments.map((x: { start: string; end: string }) => `${x.start}–${x.end}`).join(' ') };
}

/**
 * Opens the stream's page as the wall's link does, and plays the clip in #stream-clip to its end
 * (bounded): its duration, the media times of the frames presented, decoded frames, and a seek.
 */
export async function playsInConsole(c: ClipApp, id: string, expectType: string): Promise<Playback> {
  const { page, context, errors } = await c.b.newPage('desktop');
  try {
    await c.b.signIn(page, c.key.key, 'Ola Berg');
    await page.evaluate((sid) => {
      location.hash = `#/streams/${sid}?play=last`;
    }, id);
    await page.waitForSelector('#recordings-title', { timeout: 60_000 });
    const duration = await page
      .waitForFunction(
        () => {
          const el = document.querySelector('#stream-clip') as HTMLVideoElement | null;
          return el && el.readyState >= 1 && Number.isFinite(el.duration) && el.duration > 0 ? el.duration : false;
        },
        undefined,
        { timeout: 90_000 },
      )
      .then((h) => h.jsonValue() as Promise<number>);
    const src = (await page.getAttribute('#stream-clip', 'src'))!;
    // the clip's type as the server sends it (the player got it by the same URL)
    const head = await page.evaluate(async (u) => {
      const res = await fetch(u, { headers: { range: 'bytes=0-0' } });
      return `${res.headers.get('content-type')} ${res.status}`;
    }, src);
    assert.equal(head, `${expectType} 206`);
    // a string, so the test runner's transform adds nothing the page lacks
    const played = (await page.evaluate(PLAY_TO_END_AND_SEEK)) as {
      presented: number[];
      decoded: number;
      currentTime: number;
      ended: boolean;
      seekedTo: number;
    };
    assert.deepEqual(errors, []);
    return { src, duration, ...played };
  } finally {
    await context.close();
  }
}

export function checkPlayback(p: Playback, expectedSeconds: number, minFps: number): void {
  const what = JSON.stringify({ ...p, presented: `${p.presented.length} frames, ${p.presented.slice(0, 3).join(',')} … ${p.presented.slice(-3).join(',')}` });
  // the clip copies whole segments: its length is the run's, give or take a keyframe interval
  assert.ok(
    Math.abs(p.duration - expectedSeconds) <= Math.max(1.5, expectedSeconds * 0.2),
    `duration ${p.duration} s for a run of ${expectedSeconds} s: ${what}`,
  );
  assert.ok(p.ended, `played to its end: ${what}`);
  assert.ok(p.currentTime >= p.duration - 0.5, `played up to ${p.currentTime} of ${p.duration} s`);
  // frames presented at rising media times, spread over the clip
  const distinct = [...new Set(p.presented)];
  assert.ok(distinct.length >= Math.max(3, Math.floor(p.duration * minFps)), `${distinct.length} distinct frames presented: ${what}`);
  for (let i = 1; i < p.presented.length; i++) assert.ok(p.presented[i] >= p.presented[i - 1], `media time went back at frame ${i}: ${what}`);
  assert.ok(distinct.at(-1)! - distinct[0] >= p.duration * 0.6, `presented frames span ${distinct[0]}–${distinct.at(-1)} s of ${p.duration}: ${what}`);
  assert.ok(p.decoded >= distinct.length, `decoded ${p.decoded} frames, presented ${distinct.length}`);
  assert.ok(Math.abs(p.seekedTo - p.duration / 2) <= 1, `seeked to ${p.seekedTo} of ${p.duration} s`);
}
