import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/harness.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/platform/config/config.ts';
import type { CreatedKey } from '../../src/platform/keys/key.service.ts';

/**
 * HTTP hardening (docs/decisions.md, 'HTTP hardening') over REAL sockets to a listening server: errors raised by Node's HTTP parser
 * and by Fastify's router before any route runs (app.inject() cannot produce most of them), the
 * header and body time-outs, the per-address connection cap and the log level of clients that
 * disconnect mid-upload. Time-outs are short here so the test is quick.
 */

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** ms from the last write until the server closed the connection */
  closedAfterMs: number;
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ port, host: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
}

/** Writes raw bytes and reads until the server closes the connection (or `maxMs`). */
async function raw(port: number, data: string | Buffer, maxMs = 5000, socket?: Socket): Promise<RawResponse> {
  const s = socket ?? (await open(port));
  const chunks: Buffer[] = [];
  s.on('data', (c) => chunks.push(c));
  const started = Date.now();
  s.write(data);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      s.destroy();
      resolve();
    }, maxMs);
    s.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    s.once('error', () => undefined);
  });
  return { ...parse(Buffer.concat(chunks).toString('utf8')), closedAfterMs: Date.now() - started };
}

function parse(text: string): Omit<RawResponse, 'closedAfterMs'> {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: text };
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let body = text.slice(end + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    let out = '';
    let rest = body;
    for (;;) {
      const nl = rest.indexOf('\r\n');
      const size = parseInt(rest.slice(0, nl), 16);
      if (!size) break;
      out += rest.slice(nl + 2, nl + 2 + size);
      rest = rest.slice(nl + 2 + size + 2);
    }
    body = out;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

function assertProblem(res: RawResponse, status: number, code: string) {
  assert.equal(res.status, status, `${code}: ${res.body}`);
  assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
  const body = JSON.parse(res.body);
  assert.equal(body.code, code);
  assert.equal(body.status, status);
  assert.match(res.headers['x-request-id'] ?? '', /^req_[0-9a-z]{26}$/);
  assert.equal(body.request_id, res.headers['x-request-id']);
  return body;
}

const SHORT = { requestTimeoutMs: 1200, headersTimeoutMs: 600, keepAliveTimeoutMs: 500, connectionTimeoutMs: 5000, maxConnectionsPerAddress: 4 };

describe('HTTP hardening over real sockets', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let port: number;
  let key: CreatedKey;
  const logs: Array<{ level: number; msg: string; err?: { message?: string } }> = [];

  before(async () => {
    const http = { ...loadConfig({}, {}).http, ...SHORT };
    t = await createTestApp({ config: { http } });
    key = await t.orgKey();
    // a second app on the same context whose log lines the test reads
    const sink = new Writable({
      write(chunk, _enc, cb) {
        for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
        cb();
      },
    });
    app = await buildApp(t.ctx, { loggerInstance: pino({ level: 'debug' }, sink) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  after(async () => {
    await app.close();
    await t.close();
  });

  const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: vigil.test\r\nAuthorization: Bearer ${key.key}\r\nConnection: close\r\n${extra}\r\n`;

  test('a normal request over the socket works (the harness is sound)', async () => {
    const res = await raw(port, get('/v1/streams'));
    assert.equal(res.status, 200, res.body);
    assert.equal(JSON.parse(res.body).object, 'list');
  });

  test('malformed percent-encoding (FST_ERR_BAD_URL) is 400 invalid_url', async () => {
    const body = assertProblem(await raw(port, get('/v1/streams/%zz')), 400, 'invalid_url');
    assert.equal(body.param, 'url');
  });

  test('an id over 100 characters (Fastify maxParamLength) is 414 path_parameter_too_long', async () => {
    assertProblem(await raw(port, get(`/v1/streams/stream_${'a'.repeat(120)}`)), 414, 'path_parameter_too_long');
  });

  test('a request line over 16 KB (Node parser, HPE_HEADER_OVERFLOW) is 431 request_header_too_large', async () => {
    assertProblem(await raw(port, get(`/v1/streams?starting_after=${'a'.repeat(17_000)}`)), 431, 'request_header_too_large');
  });

  test('raw spaces and raw UTF-8 bytes in the request line are 400 malformed_request', async () => {
    assertProblem(await raw(port, get('/v1/str eams')), 400, 'malformed_request');
    assertProblem(await raw(port, Buffer.from(get('/v1/streams/caf\u00e9\u2603'), 'utf8')), 400, 'malformed_request');
    assertProblem(await raw(port, 'NOT-HTTP\r\n\r\n'), 400, 'malformed_request');
  });

  test('headers that never finish are cut after the header time-out with 408 request_timeout', async () => {
    const res = await raw(port, 'GET /v1/streams HTTP/1.1\r\nHost: vigil.test\r\n', 10_000);
    assertProblem(res, 408, 'request_timeout');
    assert.ok(res.closedAfterMs < SHORT.headersTimeoutMs + 1500, `closed after ${res.closedAfterMs} ms`);
  });

  test('a body that never finishes is cut after the request time-out, and the abort is logged at debug, not error', async () => {
    const before = logs.length;
    const head =
      `POST /v1/streams HTTP/1.1\r\nHost: vigil.test\r\nAuthorization: Bearer ${key.key}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"name":"slow';
    const res = await raw(port, head, 10_000);
    assert.ok(res.closedAfterMs < SHORT.requestTimeoutMs + 1500, `closed after ${res.closedAfterMs} ms`);
    if (res.status !== 0) assertProblem(res, 408, 'request_timeout');
    await new Promise((r) => setTimeout(r, 200));
    const errors = logs.slice(before).filter((l) => l.level >= 50);
    assert.deepEqual(
      errors.map((l) => `${l.msg} ${l.err?.message ?? ''}`),
      [],
    );
  });

  test('a client that disconnects mid-upload is logged at debug, never as an unhandled error', async () => {
    const before = logs.length;
    const s = await open(port);
    s.write(
      `POST /v1/streams HTTP/1.1\r\nHost: vigil.test\r\nAuthorization: Bearer ${key.key}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"name":"half',
    );
    await new Promise((r) => setTimeout(r, 150));
    s.destroy();
    await new Promise((r) => setTimeout(r, 300));
    const mine = logs.slice(before);
    assert.deepEqual(
      mine.filter((l) => l.level >= 40).map((l) => `${l.msg} ${l.err?.message ?? ''}`),
      [],
    );
    assert.ok(
      mine.some((l) => l.level === 20 && /disconnected/.test(l.msg)),
      JSON.stringify(mine),
    );
  });

  test('connections per client address are capped: the one over the cap gets 429 too_many_connections', async () => {
    const idle = await Promise.all(Array.from({ length: SHORT.maxConnectionsPerAddress }, () => open(port)));
    try {
      const res = await raw(port, get('/v1/streams'));
      const body = assertProblem(res, 429, 'too_many_connections');
      assert.match(body.detail, /4 open connections/);
      assert.equal(res.headers['retry-after'], '1');
    } finally {
      for (const s of idle) s.destroy();
    }
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await raw(port, get('/v1/streams'))).status, 200);
  });

  test('an idle keep-alive connection is closed after the keep-alive time-out', async () => {
    const s = await open(port);
    const res = await raw(port, `GET /healthz HTTP/1.1\r\nHost: vigil.test\r\n\r\n`, 10_000, s);
    assert.equal(res.status, 200);
    assert.ok(res.closedAfterMs < SHORT.keepAliveTimeoutMs + 1500, `closed after ${res.closedAfterMs} ms`);
  });
});
