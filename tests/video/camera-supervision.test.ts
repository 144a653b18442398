import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { startVideoIngest, type Detector } from '../../src/ingest/video/index.ts';
import { IngestRecorder } from '../fixtures-video/ingest-recorder.ts';
import { findFreePort } from '../fixtures-video/rtsp-camera.ts';

// These sources never deliver a frame, so the detector is never asked; ffmpeg is real.
const unusedDetector: Detector = {
  detect: () => Promise.reject(new Error('no frame should reach the detector')),
};

async function until<T>(what: string, probe: () => T | null | undefined | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

test('a camera that answers garbage is retried with exponential backoff and goes offline after 30 s', async () => {
  const clock = new ManualClock();
  const attemptsAt: number[] = [];
  const camera = createTcpServer((socket) => {
    attemptsAt.push(clock.now());
    socket.end('HTTP/1.0 200 OK\r\n\r\n\u0000\u0001garbage');
  });
  await new Promise<void>((r) => camera.listen(0, '127.0.0.1', r));
  const port = (camera.address() as AddressInfo).port;
  const rec = new IngestRecorder();
  const ingest = startVideoIngest({
    streamId: 'stream_garbage',
    sourceUrl: `rtsp://127.0.0.1:${port}/cam`,
    detector: unusedDetector,
    clock,
    onDetections: rec.onDetections,
    onStatus: rec.onStatus,
  });
  try {
    const delays: number[] = [];
    while (ingest.stats().status !== 'offline') {
      const failures = attemptsAt.length;
      // the next attempt is scheduled once ffmpeg has given up on this one
      const retryAt = await until('a scheduled retry', () => ingest.stats().retry_at);
      delays.push(retryAt - clock.now());
      await clock.advance(retryAt - clock.now());
      await until('the retry to reach the camera', () => attemptsAt.length > failures);
      await until('the retry to fail', () => ingest.stats().retry_at !== null);
      assert.ok(delays.length < 10, `still not offline after delays ${delays.join(',')}`);
    }
    assert.deepEqual(delays, [1000, 2000, 4000, 8000, 16000]);
    assert.deepEqual(rec.statusNames(), ['connecting', 'reconnecting', 'offline']);
    const last = ingest.stats();
    assert.ok(last.error && last.error.length > 0, 'the failure reason is shown');
    assert.equal(last.last_frame_at, null);
    // offline streams keep trying at the slowest pace, so a camera that comes back is picked up
    assert.equal(last.retry_at! - clock.now(), 30_000);
  } finally {
    await ingest.stop();
    camera.close();
  }
  assert.equal(rec.detections.length, 0);
});

test('an HTTP source that serves garbage reports the decoder error, and stop() ends supervision', async () => {
  const server = createHttpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(Buffer.alloc(64 * 1024, 0x5a));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const rec = new IngestRecorder();
  const ingest = startVideoIngest({
    streamId: 'stream_http_garbage',
    sourceUrl: `http://127.0.0.1:${port}/video.mjpg`,
    detector: unusedDetector,
    onDetections: rec.onDetections,
    onStatus: rec.onStatus,
  });
  try {
    await rec.waitFor('reconnecting', () => rec.statusNames().includes('reconnecting'), 15_000);
    assert.match(ingest.stats().error ?? '', /invalid data|could not find|unknown|failed|error/i);
  } finally {
    await ingest.stop();
    server.close();
  }
  const after = rec.statuses.length;
  await sleep(1500); // the 1 s retry would have fired by now
  assert.equal(rec.statuses.length, after, 'no status change after stop()');
});

test('camera credentials never appear in the reported error', async () => {
  const port = await findFreePort(); // nothing listens: connection refused
  const rec = new IngestRecorder();
  const ingest = startVideoIngest({
    streamId: 'stream_refused',
    sourceUrl: `rtsp://admin:hunter2@127.0.0.1:${port}/cam`,
    detector: unusedDetector,
    onDetections: rec.onDetections,
    onStatus: rec.onStatus,
  });
  try {
    await rec.waitFor('reconnecting', () => rec.statusNames().includes('reconnecting'), 15_000);
    const error = ingest.stats().error ?? '';
    assert.match(error, /refused/i);
    assert.doesNotMatch(error, /hunter2/);
  } finally {
    await ingest.stop();
  }
});
