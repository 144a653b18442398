import { metrics } from '../metrics/index.ts';
import type { ServerResponse } from 'node:http';
import type { Clock } from '../../platform/time/index.ts';

/** Comment frame interval that keeps proxies from closing a quiet stream (docs/design.md "SSE"). */
export const PING_INTERVAL_MS = 15_000;

/**
 * Server-sent events as docs/design.md "SSE" fixes them: every frame is `id: <seq>`, `event: <name>`
 * and one `data:` line of JSON carrying `type` (the event name) and `sequence_number` (the same
 * seq), per the WHATWG event-stream format; `: ping` comments every 15 s.
 */
export class SseStream {
  private seq = 0;
  private pingTimer: unknown = null;
  private ended = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly clock: Clock,
  ) {}

  /** Sends the 200 head at once (headers set earlier on the reply, e.g. RateLimit, are carried over). */
  start(headers: Record<string, unknown>): void {
    for (const [k, v] of Object.entries(headers)) if (v !== undefined) this.res.setHeader(k, v as string);
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.res.flushHeaders();
    this.schedulePing();
    metrics().sseStreamsOpen.inc();
    this.res.once('close', () => metrics().sseStreamsOpen.dec());
  }

  get closed(): boolean {
    return this.ended || this.res.destroyed || this.res.writableEnded;
  }

  send(event: string, payload: Record<string, unknown>): void {
    if (this.closed) return;
    const seq = this.seq++;
    const data = JSON.stringify({ type: event, sequence_number: seq, ...payload });
    this.res.write(`id: ${seq}\nevent: ${event}\ndata: ${data}\n\n`);
  }

  end(): void {
    this.stopPing();
    if (this.closed) return;
    this.ended = true;
    this.res.end();
  }

  stopPing(): void {
    this.clock.clearTimeout(this.pingTimer);
    this.pingTimer = null;
  }

  private schedulePing(): void {
    this.pingTimer = this.clock.setTimeout(() => {
      if (this.closed) return;
      this.res.write(': ping\n\n');
      this.schedulePing();
    }, PING_INTERVAL_MS);
  }
}

/** Concurrent streamed replies per key (docs/design.md "Rate limits"). */
export const CONCURRENT_STREAMS_PER_KEY = 10;
