import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { decodeJpegFrame } from '../../src/ingest/video/jpeg-codec.ts';
import { BoundedQueue, VigilError } from '../../src/platform/lib/index.ts';
import type { CreatedKey } from '../../src/platform/keys/key.service.ts';

/**
 * Decoded image size and decoding concurrency are bounded (see docs/decisions.md, "Bodies"): a
 * small JPEG that claims 8000×8000 pixels (a decompression bomb) is refused from its header with 413
 * image_too_large, a burst of them leaves memory where it was, and decodes beyond the queue's room
 * are 503 with Retry-After.
 */

const MB = 1024 * 1024;

describe('image bounds', () => {
  let t: TestApp;
  let key: CreatedKey;
  let personId: string;
  let bomb: Buffer;

  before(async () => {
    t = await createTestApp();
    key = await t.orgKey();
    personId = (await t.app.inject({ method: 'POST', url: '/v1/people', headers: bearer(key), payload: { name: 'Bomb Test' } })).json().id;
    // 8000×8000 of one colour: under 0.5 MB as a JPEG, 192 MB as RGB
    bomb = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: { r: 120, g: 130, b: 140 } } })
      .jpeg({ quality: 50 })
      .toBuffer();
    assert.ok(bomb.length < 2 * MB);
  });
  after(async () => {
    await t.close();
  });

  const enrol = (jpeg: Buffer) =>
    t.app.inject({ method: 'POST', url: `/v1/people/${personId}/faces`, headers: { ...bearer(key), 'content-type': 'image/jpeg' }, payload: jpeg });

  test('an 8000×8000 enrolment photo is 413 image_too_large, refused before it is decoded', async () => {
    const res = await enrol(bomb);
    assert.equal(res.statusCode, 413, res.body);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    assert.equal(res.json().code, 'image_too_large');
    assert.equal(res.json().param, 'body');
    assert.match(res.json().detail, /8000×8000/);
  });

  test('an 8000×8000 phone frame is refused the same way', async () => {
    await assert.rejects(decodeJpegFrame(bomb, 640), (err: Error & { code?: string }) => err.code === 'image_too_large');
  });

  test('a burst of four concurrent bombs leaves memory where it was', async () => {
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const watch = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const results = await Promise.all([1, 2, 3, 4].map(() => enrol(bomb)));
    clearInterval(watch);
    peak = Math.max(peak, process.memoryUsage().rss);
    assert.deepEqual(
      results.map((r) => r.statusCode),
      [413, 413, 413, 413],
    );
    // decoding one of them to RGB alone is 192 MB; refused from the header, they cost next to nothing
    assert.ok(peak - before < 100 * MB, `rss grew ${((peak - before) / MB).toFixed(0)} MB during the burst`);
  });
});

describe('the bounded decode queue', () => {
  test('runs `concurrency` jobs, keeps `maxWaiting`, refuses the next with 503 and Retry-After, and takes work again once there is room', async () => {
    const q = new BoundedQueue({ name: 'test jobs', concurrency: 2, maxWaiting: 1, retryAfterS: 2 });
    const releases: Array<() => void> = [];
    const job = () => new Promise<string>((resolve) => releases.push(() => resolve('done')));
    const running = [q.run(job), q.run(job), q.run(job)];
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(q.stats(), { running: 2, waiting: 1, refused: 0 });
    await assert.rejects(q.run(job), (err: VigilError) => {
      assert.equal(err.code, 'service_unavailable');
      assert.equal(err.headers?.['Retry-After'], '2');
      return true;
    });
    assert.equal(q.stats().refused, 1);
    releases.shift()!();
    await new Promise((r) => setImmediate(r));
    // the waiting job got the freed slot
    assert.deepEqual(q.stats(), { running: 2, waiting: 0, refused: 1 });
    const fourth = q.run(async () => 'late');
    while (releases.length) releases.shift()!();
    await new Promise((r) => setImmediate(r));
    while (releases.length) releases.shift()!();
    assert.deepEqual(await Promise.all(running), ['done', 'done', 'done']);
    assert.equal(await fourth, 'late');
    assert.deepEqual(q.stats(), { running: 0, waiting: 0, refused: 1 });
  });

  test('a burst of enrolment photos beyond the queue gets 503 with Retry-After, never 500, and the rest are answered', async () => {
    const t = await createTestApp();
    try {
      const key = await t.orgKey();
      const personId = (await t.app.inject({ method: 'POST', url: '/v1/people', headers: bearer(key), payload: { name: 'Burst Test' } })).json().id;
      // 20 MP of noise (slow to decode) under the 2 MiB limit
      const photo = await sharp({
        create: { width: 5000, height: 4000, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 30 } },
      })
        .jpeg({ quality: 20 })
        .toBuffer();
      assert.ok(photo.length < 2 * MB, `${photo.length}`);
      const results = await Promise.all(
        Array.from({ length: 24 }, () =>
          t.app.inject({ method: 'POST', url: `/v1/people/${personId}/faces`, headers: { ...bearer(key), 'content-type': 'image/jpeg' }, payload: photo }),
        ),
      );
      const statuses = results.map((r) => r.statusCode);
      assert.ok(
        statuses.every((s) => s === 503 || s === 422),
        JSON.stringify(statuses),
      );
      const busy = results.filter((r) => r.statusCode === 503);
      assert.ok(busy.length >= 1, `some were refused: ${JSON.stringify(statuses)}`);
      for (const r of busy) {
        assert.equal(r.json().code, 'service_unavailable');
        assert.ok(Number(r.headers['retry-after']) >= 1, JSON.stringify(r.headers));
      }
      // noise has no face: what was decoded was answered 422
      assert.ok(statuses.includes(422), JSON.stringify(statuses));
    } finally {
      await t.close();
    }
  });
});
