import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { buildApp } from '../../src/app.ts';
import type { CreatedKey } from '../../src/platform/keys/key.service.ts';

/**
 * Request bodies on the binary routes (see docs/decisions.md, "Bodies"): a POST with no body or no
 * Content-Type is 400/415 problem+json, never 500; a body known to be too large is refused at once
 * and the connection is drained (bounded) before it is closed, so that a client still sending reads
 * the 413 instead of a reset. The 413 is over real sockets: app.inject() has no TCP to reset.
 */

interface Streamed {
  head: string;
  error: string | null;
}

/**
 * Sends `total` bytes of body as fast as the socket takes them, without Expect: 100-continue, and
 * reads the answer only once it has sent everything (or the send failed), as a synchronous client
 * does (Python's http.client, most blocking HTTP/1.1 clients): a server that closes with unread
 * bytes resets the connection, and the answer waiting to be read is lost with it.
 */
function streamBody(port: number, headers: string, total: number): Promise<Streamed> {
  return new Promise((resolve) => {
    const s: Socket = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    let error: string | null = null;
    const done = () => resolve({ head: Buffer.concat(chunks).toString('latin1').split('\r\n\r\n')[0], error });
    const timer = setTimeout(() => s.destroy(), 20_000);
    s.on('data', (c) => chunks.push(c));
    s.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    s.on('close', () => {
      clearTimeout(timer);
      done();
    });
    s.pause();
    // void: an event listener's promise has nobody to return to (a failure is an unhandled rejection)
    s.on(
      'connect',
      () =>
        void (async () => {
          s.write(headers);
          const piece = Buffer.alloc(64 * 1024, 0x41);
          let sent = 0;
          while (sent < total && !s.destroyed && s.writable) {
            const ok = s.write(piece);
            sent += piece.length;
            if (!ok)
              await new Promise((r) => {
                s.once('drain', r);
                s.once('close', r);
              });
          }
          if (!s.destroyed && s.writable) s.end();
          s.resume();
        })(),
    );
  });
}

describe('request bodies on binary routes', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let port: number;
  let key: CreatedKey;
  let personId: string;
  let streamId: string;

  before(async () => {
    t = await createTestApp();
    key = await t.orgKey();
    personId = (await t.app.inject({ method: 'POST', url: '/v1/people', headers: bearer(key), payload: { name: 'Body Test' } })).json().id;
    streamId = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/streams',
        headers: bearer(key),
        payload: { name: 'Body phone', source_type: 'mobile', source_url: 'mobile://body', location: 'desk' },
      })
    ).json().id;
    app = await buildApp(t.ctx);
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  after(async () => {
    await app.close();
    await t.close();
  });

  for (const route of ['faces', 'frames'] as const) {
    const url = () => (route === 'faces' ? `/v1/people/${personId}/faces` : `/v1/streams/${streamId}/frames`);

    test(`POST ${route} without a body or Content-Type is 415 problem+json, never 500`, async () => {
      for (const headers of [{}, { 'content-length': '0' }, { 'content-type': 'image/jpeg' }, { 'content-type': 'image/jpeg', 'content-length': '0' }]) {
        const res = await t.app.inject({ method: 'POST', url: url(), headers: { ...bearer(key), ...headers } });
        assert.ok(res.statusCode === 400 || res.statusCode === 415, `${JSON.stringify(headers)}: ${res.statusCode} ${res.body}`);
        assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
        assert.ok(['unsupported_media_type', 'invalid_image', 'missing_body'].includes(res.json().code), res.body);
        assert.ok(res.json().param, res.body);
      }
    });

    test(`POST ${route}: five clients streaming 10 MB without Expect: 100-continue all read the 413`, async () => {
      const total = 10 * 1024 * 1024;
      const head = `POST ${url()} HTTP/1.1\r\nHost: vigil.test\r\nAuthorization: Bearer ${key.key}\r\nContent-Type: image/jpeg\r\nContent-Length: ${total}\r\n\r\n`;
      const results = await Promise.all([1, 2, 3, 4, 5].map(() => streamBody(port, head, total)));
      for (const r of results) assert.match(r.head, /^HTTP\/1\.1 413 /, `no 413 read (${r.error}): ${JSON.stringify(r.head.slice(0, 80))}`);
    });
  }

  test('a chunked body (no Content-Length) over the limit is 413 too, and read by the client', async () => {
    const total = 10 * 1024 * 1024;
    // chunked framing: one 64 KiB chunk after another; the server stops at the limit
    const head = `POST /v1/people/${personId}/faces HTTP/1.1\r\nHost: vigil.test\r\nAuthorization: Bearer ${key.key}\r\nContent-Type: image/jpeg\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const r = await streamChunked(port, head, total);
    assert.match(r.head, /^HTTP\/1\.1 413 /, `no 413 read (${r.error}): ${JSON.stringify(r.head.slice(0, 80))}`);
  });
});

function streamChunked(port: number, headers: string, total: number): Promise<Streamed> {
  return new Promise((resolve) => {
    const s: Socket = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    let error: string | null = null;
    const timer = setTimeout(() => s.destroy(), 20_000);
    s.on('data', (c) => chunks.push(c));
    s.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    s.on('close', () => {
      clearTimeout(timer);
      resolve({ head: Buffer.concat(chunks).toString('latin1').split('\r\n\r\n')[0], error });
    });
    s.pause();
    // void: an event listener's promise has nobody to return to (a failure is an unhandled rejection)
    s.on(
      'connect',
      () =>
        void (async () => {
          s.write(headers);
          const piece = Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 0x41), Buffer.from('\r\n')]);
          let sent = 0;
          while (sent < total && !s.destroyed && s.writable) {
            const ok = s.write(piece);
            sent += 0x10000;
            if (!ok)
              await new Promise((r) => {
                s.once('drain', r);
                s.once('close', r);
              });
          }
          if (!s.destroyed && s.writable) s.end('0\r\n\r\n');
          s.resume();
        })(),
    );
  });
}

describe('draining is bounded', () => {
  test('a client that never stops sending is closed after the drain limit, having been answered', async () => {
    const Fastify = (await import('fastify')).default;
    const { lingerOnUnreadBodies } = await import('../../src/platform/http/bodies.ts');
    const small = Fastify({ bodyLimit: 1024 });
    lingerOnUnreadBodies(small, { maxBytes: 2 * 1024 * 1024, maxMs: 60_000 });
    small.post('/upload', async () => ({ ok: true }));
    await small.listen({ port: 0, host: '127.0.0.1' });
    try {
      const port = (small.server.address() as { port: number }).port;
      const started = Date.now();
      // claims 1 GiB; the server answers 413 at once, drains about 2 MiB, then closes
      const r = await new Promise<{ head: string; sent: number }>((resolve) => {
        const s = connect({ port, host: '127.0.0.1' });
        const chunks: Buffer[] = [];
        let sent = 0;
        s.on('data', (c) => chunks.push(c));
        s.on('error', () => undefined);
        s.on('close', () => resolve({ head: Buffer.concat(chunks).toString('latin1').split('\r\n\r\n')[0], sent }));
        // void: an event listener's promise has nobody to return to (a failure is an unhandled rejection)
        s.on(
          'connect',
          () =>
            void (async () => {
              s.write(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${1024 ** 3}\r\n\r\n`);
              const piece = Buffer.alloc(64 * 1024, 0x20);
              while (!s.destroyed && s.writable && sent < 1024 ** 3) {
                const ok = s.write(piece);
                sent += piece.length;
                if (!ok)
                  await new Promise((res) => {
                    s.once('drain', res);
                    s.once('close', res);
                  });
              }
            })(),
        );
      });
      assert.match(r.head, /^HTTP\/1\.1 413 /);
      assert.ok(r.sent < 64 * 1024 * 1024, `the server drained ${r.sent} bytes`);
      assert.ok(Date.now() - started < 20_000);
    } finally {
      await small.close();
    }
  });
});
