import { randomUUID } from 'node:crypto';
import { camelizeKeys, snakeizeKeys } from './casing.js';
import { APIConnectionError, VigilError, createErrorFromResponse, parseRetryAfter } from './errors.js';

export const CLIENT_VERSION = '0.1.0';

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

function sleepFor(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Exponential backoff with jitter when the service did not say how long to wait: 0.5 s, 1 s, 2 s … capped at 8 s. */
function backoffSeconds(attempt) {
  const base = Math.min(8, 0.5 * 2 ** attempt);
  return base * (0.75 + Math.random() * 0.25);
}

function buildQueryString(query) {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) search.append(k, String(item));
    else search.append(k, String(v));
  }
  const s = search.toString();
  return s ? `?${s}` : '';
}

/**
 * The transport under every generated method: auth header, JSON in snake_case, camelCase out,
 * typed errors, and retries. 429 is retried for every method (the service rejected it before doing
 * anything), honouring Retry-After; network errors and 502/503/504 only for idempotent requests —
 * GET/DELETE, and POSTs, which always carry an Idempotency-Key so a repeat is replayed, not redone.
 */
export class HttpClient {
  constructor({ apiKey, baseUrl, maxRetries = 2, timeoutMs = 60_000, maxRetryAfterS = 60, fetch: fetchImpl }) {
    this.apiKey = apiKey;
    this.baseUrl = String(baseUrl).replace(/\/+$/, '');
    this.maxRetries = maxRetries;
    this.timeoutMs = timeoutMs;
    this.maxRetryAfterS = maxRetryAfterS;
    this.fetch = fetchImpl ?? globalThis.fetch.bind(globalThis);
  }

  /**
   * Sends one logical request (with its retries). Resolves the camelCased JSON body, a Buffer with
   * `responseType: 'binary'`, or — with `stream: true` — the open Response whose body the caller
   * reads. `content` is a raw body (image/jpeg bytes) sent untouched with `contentType`.
   */
  async request({
    method, path, query, body, hasBody = body !== undefined, content, contentType, responseType = 'json',
    stream = false, idempotencyKey, headers = {}, signal, accept,
  }) {
    const url = `${this.baseUrl}${path}${buildQueryString(snakeizeKeys(query ?? {}))}`;
    const requestHeaders = {
      authorization: `Bearer ${this.apiKey}`,
      accept: accept ?? 'application/json',
      'user-agent': `vigil-node/${CLIENT_VERSION}`,
    };
    const sendsContent = content !== undefined;
    if (sendsContent) requestHeaders['content-type'] = contentType ?? 'application/octet-stream';
    else if (hasBody) requestHeaders['content-type'] = 'application/json';
    // Streams are not replayable, so the service ignores Idempotency-Key on them; send none.
    const key = idempotencyKey ?? (method === 'POST' && !stream ? randomUUID() : undefined);
    if (key) requestHeaders['idempotency-key'] = key;
    for (const [k, v] of Object.entries(headers)) if (v !== undefined) requestHeaders[k.toLowerCase()] = v;
    const payload = sendsContent ? content : hasBody ? JSON.stringify(snakeizeKeys(body ?? {})) : undefined;
    const idempotent = IDEMPOTENT_METHODS.has(method) || requestHeaders['idempotency-key'] !== undefined;

    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < this.maxRetries;
      const controller = new AbortController();
      const onAbort = () => controller.abort(signal.reason);
      if (signal) {
        if (signal.aborted) throw signal.reason ?? new Error('aborted');
        signal.addEventListener('abort', onAbort, { once: true });
      }
      const timer = setTimeout(() => controller.abort(new Error(`timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      let response;
      let text;
      try {
        response = await this.fetch(url, { method, headers: requestHeaders, body: payload, signal: controller.signal });
        if (response.ok && stream) {
          clearTimeout(timer); // the timeout bounds waiting for the response, not the length of the stream
          response.release = cleanup;
          return response;
        }
        if (response.ok && responseType === 'binary') {
          const bytes = Buffer.from(await response.arrayBuffer());
          cleanup();
          return bytes;
        }
        text = await response.text();
      } catch (err) {
        // no response, or the connection broke while reading it
        cleanup();
        if (signal?.aborted) throw err;
        if (idempotent && canRetry) {
          await sleepFor(backoffSeconds(attempt) * 1000);
          continue;
        }
        const reason = err?.cause?.message ?? err?.message ?? String(err);
        const error = new APIConnectionError(`No response from ${this.baseUrl}: ${reason}`, { status: response?.status });
        error.cause = err;
        throw error;
      }
      cleanup();

      if (response.ok) {
        if (text === '') return undefined;
        // JSON bodies are parsed; other media types (an NDJSON export) are returned as text
        if (!/json/i.test(response.headers.get('content-type') ?? 'application/json')) return text;
        try {
          return camelizeKeys(JSON.parse(text));
        } catch {
          throw new VigilError(`HTTP ${response.status} with a body that is not JSON`, {
            status: response.status,
            requestId: response.headers.get('x-request-id') ?? undefined,
            body: text,
            rawBody: text,
          });
        }
      }

      const error = createErrorFromResponse(response.status, response.headers, text, camelizeKeys);
      if (canRetry) {
        const delayS = this.retryDelayFor(error, idempotent, attempt);
        if (delayS !== null) {
          await sleepFor(delayS * 1000);
          continue;
        }
      }
      throw error;
    }
  }

  /** Seconds to wait before retrying this error, or null when it must not be retried. */
  retryDelayFor(error, idempotent, attempt) {
    const retryAfter = parseRetryAfter(error.headers?.['retry-after']);
    if (retryAfter !== undefined && retryAfter > this.maxRetryAfterS) return null;
    const inProgress = error.status === 409 && error.code === 'idempotency_request_in_progress';
    const retryable = error.status === 429 || inProgress || (idempotent && [502, 503, 504].includes(error.status));
    if (!retryable) return null;
    return retryAfter ?? backoffSeconds(attempt);
  }
}
