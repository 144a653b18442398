/**
 * The "request completed" line written from its fixed fields (src/platform/http/request-log.ts,
 * docs/decisions.md "Read path, fourth pass") is the line pino writes itself: the same fields in the
 * same order with the same escaping, byte for byte once the values that differ from request to
 * request (time, request id, response time, client port) are set aside.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import Fastify from 'fastify';
import { createProcessLogger } from '../../src/platform/lib/index.ts';
import { OneLineRequestLog } from '../../src/platform/http/index.ts';

/** An app whose log lines land in `lines`; with `plain` its logger is the process logger (lines written from fixed fields), else plain pino. */
function appLogging(lines: string[], plain: boolean, level = 'info') {
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  const log = plain
    ? createProcessLogger({ level, nodeId: 'node "q"', destination: sink })
    : pino({ level, base: { node_id: 'node "q"', pid: process.pid } }, sink);
  let n = 0;
  const app = Fastify({ loggerInstance: log, genReqId: () => `req_${++n}`, logController: new OneLineRequestLog({ requestIdLogLabel: 'request_id' }) });
  app.get('/things/:id', async () => ({ ok: true }));
  app.get('/fails', async () => {
    throw new Error('broken "on purpose"');
  });
  app.get('/own-serializers', { logSerializers: { req: (req: { method: string }) => ({ only: req.method }) } }, async () => ({ ok: true }));
  return app;
}

/** The line with what differs from one request to the next set aside. */
function comparable(line: string): string {
  return line
    .replace(/"time":\d+/, '"time":T')
    .replace(/"responseTime":[-+.\de]+/, '"responseTime":R')
    .replace(/"remotePort":\d+/, '"remotePort":P');
}

/** A request written on a raw socket, so its target and headers reach the server exactly as written. */
async function rawRequest(port: number, head: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(`${head}\r\nConnection: close\r\n\r\n`));
    socket.on('data', () => undefined);
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
}

async function linesFor(plain: boolean, level = 'info'): Promise<string[]> {
  const lines: string[] = [];
  const app = appLogging(lines, plain, level);
  try {
    await app.inject({ url: '/things/1' });
    await app.inject({ url: '/things/2?q=a', headers: { 'accept-version': '2.x "beta"', host: 'example.test:8080' } });
    await app.inject({ url: '/nowhere' });
    await app.inject({ url: '/fails' });
    await app.inject({ url: '/own-serializers' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    await rawRequest(port, 'GET /things/3?q="quoted"\\back HTTP/1.1\r\nHost: h\u00e9\\"st');
    await rawRequest(port, 'GET /things/4 HTTP/1.0');
  } finally {
    await app.close();
  }
  return lines.filter((l) => l.includes('"request_id"')).map(comparable);
}

test('a "request completed" line is the one pino writes, byte for byte, for every kind of request', async () => {
  const ours = await linesFor(true);
  const pinos = await linesFor(false);
  assert.equal(ours.length, 9, ours.join('\n'));
  assert.deepEqual(ours, pinos);
  // what the comparison covers: escaped strings, the optional fields, the lines pino still writes (the
  // error handler's, a route's own serializers)
  const joined = ours.join('\n');
  for (const part of [
    '"version":"2.x \\"beta\\""',
    '"host":"example.test:8080"',
    '"remotePort":P',
    '"statusCode":404',
    '"statusCode":500',
    '"msg":"broken \\"on purpose\\""',
    '{"only":"GET"}',
  ]) {
    assert.ok(joined.includes(part), `${part} in\n${joined}`);
  }
  assert.ok(
    ours.some((l) => l.includes('"url":"/things/3?q=\\"quoted\\"\\\\back"')),
    joined,
  );
});

test('below its level the line is not written', async () => {
  const ours = await linesFor(true, 'warn');
  assert.deepEqual(ours, await linesFor(false, 'warn'));
  assert.equal(ours.length, 1, 'the error line only');
  assert.ok(!ours[0].includes('request completed'));
});
