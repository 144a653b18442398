import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../helpers/harness.ts';
import type { Config } from '../../src/platform/config/config.ts';
import type { Clock } from '../../src/platform/time/clock.ts';

/** operationIds in the committed openapi.json: the client suites run a scenario only once its operations exist there. */
export function specOperationIds(): Set<string> {
  const doc = JSON.parse(readFileSync('openapi.json', 'utf8'));
  const ids = new Set<string>();
  for (const item of Object.values<Record<string, { operationId?: string }>>(doc.paths)) {
    for (const op of Object.values(item)) if (op?.operationId) ids.add(op.operationId);
  }
  return ids;
}

/** `false` when every operation is in openapi.json, else the skip message naming the missing ones. */
export function skipUnlessOperations(ids: Set<string>, ...needed: string[]): false | string {
  const missing = needed.filter((n) => !ids.has(n));
  return missing.length === 0 ? false : `waiting for ${missing.join(', ')} in openapi.json (run npm run generate once it lands)`;
}

export interface ClientTestServer {
  t: TestApp;
  baseUrl: string;
  close(): Promise<void>;
}

/** The real service, listening on a free loopback port (webhooks may target loopback receivers). */
export async function startClientTestServer(opts: { clock?: Clock; config?: Partial<Config> } = {}): Promise<ClientTestServer> {
  const t = await createTestApp({ clock: opts.clock, start: true, config: { webhookAllowPrivate: true, ...opts.config } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return { t, baseUrl: `http://127.0.0.1:${port}`, close: () => t.close() };
}

/** Listens on a free 127.0.0.1 port; returns the base URL. */
async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closeServer(server: Server | null): Promise<void> {
  if (!server) return;
  const closed = new Promise<void>((r) => server.close(() => r()));
  server.closeAllConnections();
  await closed;
}

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

/** A customer's webhook endpoint on 127.0.0.1: keeps the raw bytes and headers of every POST, answers 200. */
export class WebhookInbox {
  readonly received: ReceivedDelivery[] = [];
  private server: Server | null = null;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({ headers: req.headers, raw: Buffer.concat(chunks) });
        res.writeHead(200).end('ok');
      });
    });
    return `${await listenOnLoopback(this.server)}/hooks`;
  }

  /** The first delivery whose event header is `kind`, waiting (bounded, real time) for the delivery worker. */
  async waitForEvent(kind: string, timeoutMs = 15_000): Promise<ReceivedDelivery> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.received.find((d) => JSON.parse(d.raw.toString('utf8')).event === kind);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`no ${kind} delivery within ${timeoutMs} ms (got ${this.received.length} deliveries)`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  stop(): Promise<void> {
    return closeServer(this.server);
  }
}

export type ProxyBehaviour =
  | 'forward'
  /** forward, let the service answer, then cut the client's connection (the client never sees the answer) */
  | 'forward-then-drop'
  | { status: number; body: string; headers?: Record<string, string> };

/**
 * A reverse proxy in front of the real service that misbehaves on request: it can cut connections
 * after the service has acted, or answer by itself (an HTML 502 like a load balancer's).
 */
export class MisbehavingProxy {
  readonly seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders }> = [];
  behave: (n: number, method: string) => ProxyBehaviour = () => 'forward';
  private server: Server | null = null;

  constructor(private readonly target: string) {}

  async start(): Promise<string> {
    const target = new URL(this.target);
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.seen.push({ method: req.method!, url: req.url!, headers: req.headers });
        const behaviour = this.behave(this.seen.length, req.method!);
        if (typeof behaviour === 'object') {
          res.writeHead(behaviour.status, { 'content-type': 'text/html', ...behaviour.headers }).end(behaviour.body);
          return;
        }
        const upstream = httpRequest(
          { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
          (up) => {
            const body: Buffer[] = [];
            up.on('data', (c: Buffer) => body.push(c));
            up.on('end', () => {
              if (behaviour === 'forward-then-drop') {
                req.socket.destroy();
                return;
              }
              res.writeHead(up.statusCode!, up.headers).end(Buffer.concat(body));
            });
          },
        );
        upstream.end(Buffer.concat(chunks));
      });
    });
    return listenOnLoopback(this.server);
  }

  stop(): Promise<void> {
    return closeServer(this.server);
  }
}
