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

// A stream's recordings in Debian's chromium: six 2 s segments written by ffmpeg's segment muxer
// as the recorder writes them, sealed as two runs with a gap between them (3 segments ending
// about 5 minutes ago, 3 ending about half a minute ago). The stream page draws both runs and the
// gaps to scale and plays the minute chosen on a run; the wall's card links to its stream's last
// minute, which the stream page then plays.
const skip = !existsSync(CHROMIUM) && 'Debian chromium is not installed';

describe('stream recordings timeline in chromium', { skip }, () => {
  let c: ConsoleApp;
  let dir: string;
  let org: string;
  let streamId: string;
  const runs: Array<{ start: number; end: number }> = [];
  before(async () => {
    c = await startConsoleApp();
    dir = mkdtempSync(join(tmpdir(), 'vigil-console-rec-'));
    const live = await c.t.orgKey({ name: 'Harbour Operations', mode: 'live' });
    org = live.key;
    const stream = await c.call(org, 'POST', '/v1/streams', {
      name: 'Quay camera',
      source_type: 'rtsp',
      source_url: 'rtsp://127.0.0.1:9/quay',
      location: 'east_quay',
    });
    assert.equal(stream.status, 201, JSON.stringify(stream.body));
    streamId = stream.body.id;
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
    const now = Date.now();
    const names = readdirSync(out).sort();
    let start = 0;
    for (const [i, name] of names.entries()) {
      if (i === 0) start = now - 300_000;
      if (i === 3) start = now - 40_000;
      if (i === 0 || i === 3) runs.push({ start, end: start });
      const seconds = Number(
        execFileSync(ffmpeg.replace(/ffmpeg$/, 'ffprobe'), ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', join(out, name)]).toString(),
      );
      const end = start + Math.round(seconds * 1000);
      const dest = join(recordings.root, live.tenant_id, streamId, 'day');
      mkdirSync(dest, { recursive: true });
      renameSync(join(out, name), join(dest, `${start}-${end}.mp4`));
      const bytes = readFileSync(join(dest, `${start}-${end}.mp4`));
      await recordings.seal({
        tenantId: live.tenant_id,
        streamId,
        kind: 'video',
        startAt: start,
        endAt: end,
        path: relative(recordings.root, join(dest, `${start}-${end}.mp4`)),
        sha256: createHash('sha256').update(bytes).digest('hex'),
        bytes: bytes.length,
        codec: 'h264',
      });
      runs[runs.length - 1].end = end;
      start = end;
    }
  });
  after(async () => {
    await c?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** the stream page's player once it has the clip's duration; then plays it and reports time and frames */
  const playerState = async (page: import('playwright-core').Page) => {
    const duration = await page
      .waitForFunction(
        () => {
          const v = document.querySelector('#stream-clip') as HTMLVideoElement | null;
          return v && v.readyState >= 1 && Number.isFinite(v.duration) ? v.duration : false;
        },
        undefined,
        { timeout: 30_000 },
      )
      .then((h) => h.jsonValue() as Promise<number>);
    const played = await page.evaluate(async () => {
      const v = document.querySelector('#stream-clip') as HTMLVideoElement;
      v.muted = true;
      await v.play();
      for (let i = 0; i < 300 && v.currentTime < 1; i++) await new Promise((r) => setTimeout(r, 100));
      v.pause();
      return { time: v.currentTime, frames: v.getVideoPlaybackQuality().totalVideoFrames, src: v.getAttribute('src') };
    });
    return { duration, ...played };
  };

  test("the wall links a card to its stream's last minute; the stream page draws runs and gaps and plays a chosen minute", async () => {
    const { page, context, errors } = await c.newPage('desktop');
    await c.signIn(page, org, 'Ola Berg');
    await page.evaluate(() => {
      location.hash = '#/wall';
    });
    const link = await page.waitForSelector(`a.last-minute[href="#/streams/${streamId}?play=last"]`, { timeout: 30_000 });
    assert.equal(await link.textContent(), 'Last minute of Quay camera');
    await link.click();

    // the stream page opens on the stream, with its timeline, and plays the last recorded minute
    await page.waitForSelector('#recordings-title');
    const last = await playerState(page);
    const lastRun = runs[1];
    const src = new URL(last.src!, 'http://x');
    assert.equal(src.pathname, `/v1/streams/${streamId}/clip`);
    // the last run is shorter than a minute: the whole run, up to its end
    assert.equal(Date.parse(src.searchParams.get('to')!), lastRun.end);
    assert.equal(Date.parse(src.searchParams.get('from')!), lastRun.start);
    assert.ok(Math.abs(last.duration - (lastRun.end - lastRun.start) / 1000) <= 1, `last minute lasts ${last.duration} s`);
    assert.ok(last.time >= 1 && last.frames > 0, JSON.stringify(last));

    // two recorded runs, drawn in order, with the gap between them (and the empty time around them)
    const drawn = await page.$$eval('.rec-timeline .rec-run', (els) =>
      els.map((e) => ({ from: e.getAttribute('data-from'), to: e.getAttribute('data-to'), left: parseFloat((e as HTMLElement).style.left) })),
    );
    assert.equal(drawn.length, 2);
    assert.deepEqual(
      drawn.map((d) => [Date.parse(d.from!), Date.parse(d.to!)]),
      runs.map((r) => [r.start, r.end]),
    );
    assert.ok(drawn[0].left < drawn[1].left);
    assert.ok((await page.$$('.rec-timeline .rec-gap')).length >= 2);
    assert.match((await page.textContent('#rec-summary'))!, /12 s recorded in 2 runs/);

    // choosing the earlier run plays its minute (the whole 6 s run)
    await page.click('.rec-timeline .rec-run >> nth=0');
    await page.waitForFunction(
      (from) => new URL((document.querySelector('#stream-clip') as HTMLVideoElement).src).searchParams.get('from') === from,
      new Date(runs[0].start).toISOString(),
    );
    const first = await playerState(page);
    assert.ok(Math.abs(first.duration - (runs[0].end - runs[0].start) / 1000) <= 1, `first run clip lasts ${first.duration} s`);
    assert.ok(first.time >= 1 && first.frames > 0, JSON.stringify(first));

    // the list links each video stream to its recordings
    await page.evaluate(() => {
      location.hash = '#/streams';
    });
    assert.equal(await page.getAttribute(`tr[data-stream="${streamId}"] a.recordings-link`, 'href'), `#/streams/${streamId}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
