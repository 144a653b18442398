import http from 'node:http';
import https from 'node:https';
import { createSecureContext, rootCertificates } from 'node:tls';
import { isIP } from 'node:net';
import { describeBlockedAddress, guardedLookup, hostOf } from './webhook-url-guard.ts';

export interface SendRequest {
  url: string;
  body: string | Buffer;
  headers: Record<string, string>;
}

export interface SendResult {
  /** HTTP status, or null when no response arrived */
  statusCode: number | null;
  /** why the attempt failed (null on 2xx) */
  error: string | null;
  durationMs: number;
}

const RESPONSE_SNIPPET_BYTES = 512;

function describeError(err: NodeJS.ErrnoException, timeoutMs: number, aborted: AbortSignal): string {
  if (aborted.aborted && (aborted.reason as Error | undefined)?.name === 'TimeoutError') return `timed out after ${timeoutMs / 1000} s`;
  if (err.code === 'EADDRNOTALLOWED') return `address not allowed: ${err.message}`;
  if (err.code) return `${err.code}: ${err.message}`;
  return err.message || String(err);
}

/**
 * POSTs one signed delivery with node:http(s) rather than fetch so the connection's own DNS answer
 * goes through guardedLookup (DNS-rebinding safe) and redirects are never followed. Never throws:
 * every outcome is a SendResult for the attempt log.
 */
export class WebhookSender {
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  private readonly httpsAgent: https.Agent;

  /** `ca`: a PEM certificate trusted besides the system's (VIGIL_OUTBOUND_CA_FILE: a private push service, tests) */
  constructor(private readonly opts: { timeoutMs: number; allowPrivate: boolean; ca?: string | null; maxSockets?: number }) {
    // the extra CA goes in one secure context made here, not as `ca` on the agent: an agent folds its
    // `ca` (the system's ~140 roots plus this one) into the pool key of every request and parses it
    // into a new context for every connection, which made each push cost milliseconds of CPU
    // (docs/decisions.md, "Fan-out on SQLite: where the time went")
    this.httpsAgent = new https.Agent({
      keepAlive: true,
      maxSockets: opts.maxSockets ?? 16,
      ...(opts.ca ? { secureContext: createSecureContext({ ca: [...rootCertificates, opts.ca] }) } : {}),
    });
  }

  send(req: SendRequest, stop?: AbortSignal): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return Promise.resolve({ statusCode: null, error: 'invalid URL', durationMs: 0 });
    }
    const host = hostOf(url);
    if (!this.opts.allowPrivate && isIP(host)) {
      const why = describeBlockedAddress(host);
      if (why) return Promise.resolve({ statusCode: null, error: `address not allowed: ${host} is ${why}`, durationMs: 0 });
    }
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
    const isHttps = url.protocol === 'https:';
    const mod = isHttps ? https : http;
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (r: SendResult) => {
        if (!settled) {
          settled = true;
          resolve(r);
        }
      };
      const request = mod.request(
        url,
        {
          method: 'POST',
          agent: isHttps ? this.httpsAgent : this.httpAgent,
          headers: { ...req.headers, 'Content-Length': String(Buffer.byteLength(req.body)) },
          signal,
          ...(this.opts.allowPrivate ? {} : { lookup: guardedLookup as never }),
        },
        (res) => {
          const status = res.statusCode ?? 0;
          let snippet = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            if (snippet.length < RESPONSE_SNIPPET_BYTES) snippet += chunk.slice(0, RESPONSE_SNIPPET_BYTES - snippet.length);
          });
          res.on('end', () => {
            const ok = status >= 200 && status < 300;
            finish({
              statusCode: status,
              error: ok ? null : `HTTP ${status}${snippet ? `: ${snippet.trim().slice(0, 200)}` : ''}`,
              durationMs: elapsed(),
            });
          });
          res.on('error', (err) => finish({ statusCode: status, error: describeError(err, this.opts.timeoutMs, signal), durationMs: elapsed() }));
        },
      );
      request.on('error', (err: NodeJS.ErrnoException) =>
        finish({ statusCode: null, error: describeError(err, this.opts.timeoutMs, signal), durationMs: elapsed() }),
      );
      request.end(req.body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
