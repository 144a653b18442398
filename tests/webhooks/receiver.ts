import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';

/** One request as the receiver saw it, with its own signature check. */
export interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown>;
  status: number;
}

/**
 * A real webhook receiver on 127.0.0.1. It verifies signatures with its own node:crypto code (not
 * the service's), the way a customer's server would, and answers whatever `respond` says.
 */
export class TestReceiver {
  readonly received: Received[] = [];
  respond: (n: number) => number = () => 200;
  private server: Server | null = null;
  private waiters: Array<() => void> = [];

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const status = this.respond(this.received.length + 1);
        this.received.push({ headers: req.headers, raw, body: JSON.parse(raw), status });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'nope');
        for (const w of this.waiters.splice(0)) w();
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /** Waits (real time, bounded) until `n` requests have arrived. */
  async waitFor(n: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < n) {
      if (Date.now() > deadline) throw new Error(`receiver got ${this.received.length} requests, expected ${n}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 50);
      });
    }
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    const closed = new Promise<void>((r) => this.server!.close(() => r()));
    this.server.closeAllConnections();
    await closed;
  }
}

/** Receiver-side verification: `sha256=<hex HMAC-SHA256(secret, raw body)>`, constant-time compare. */
export function signatureMatches(secret: string, raw: string, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(raw, 'utf8').digest('hex'));
  const got = Buffer.from(header.slice('sha256='.length));
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** What a household client derives from its key (docs/design.md "Webhooks"). */
export function householdSecretOf(apiKey: string): string {
  return createHmac('sha256', apiKey).update('vigil-webhook-v1').digest('hex');
}
