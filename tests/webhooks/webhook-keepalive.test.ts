import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookSender } from '../../src/platform/outbox/webhook-sender.ts';

/**
 * Deliveries to one receiver reuse keep-alive connections (the sender's Agent keeps a
 * pool per receiver) instead of a TCP handshake per delivery; two receivers get separate pools.
 */
test('deliveries reuse a pool of keep-alive connections per receiver', async () => {
  const receivers = await Promise.all(
    [0, 1].map(async () => {
      const counted = { connections: 0, requests: 0 };
      const server = createServer((req, res) => {
        counted.requests++;
        req.resume();
        req.on('end', () => res.writeHead(200).end());
      });
      server.on('connection', () => counted.connections++);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return { server, counted, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
    }),
  );
  const sender = new WebhookSender({ timeoutMs: 5_000, allowPrivate: true });
  try {
    const inFlight = 4;
    for (const r of receivers) {
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          for (let i = 0; i < 25; i++) {
            const res = await sender.send({ url: r.url, body: '{"id":"evt_x"}', headers: { 'content-type': 'application/json' } });
            assert.equal(res.statusCode, 200, res.error ?? undefined);
          }
        }),
      );
    }
    for (const r of receivers) {
      assert.equal(r.counted.requests, 100);
      assert.ok(r.counted.connections <= inFlight, `100 deliveries used ${r.counted.connections} connections to one receiver`);
    }
  } finally {
    sender.close();
    for (const r of receivers) {
      r.server.closeAllConnections();
      r.server.close();
    }
  }
});
