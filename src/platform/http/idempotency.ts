import { createHash } from 'node:crypto';
import type { FastifyInstance, onSendAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import type { DatabaseHandle } from '../db/index.ts';
import { type Clock, toIso } from '../time/index.ts';
import { VigilError } from '../lib/index.ts';
import { idempotencyRepository } from './idempotency.repository.ts';

const KEPT_MS = 24 * 3600_000;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: { keyId: string; key: string } | null;
  }
}

/**
 * Idempotency-Key on POST (docs/design.md "Idempotency"): scoped to the API key, kept 24 h. A repeat
 * with the same body replays the stored response; with another body it is 409; while the first is
 * still running it is 409 too. Server errors are not stored, so the client can retry them.
 */
export function installIdempotency(app: FastifyInstance, deps: { database: DatabaseHandle; clock: Clock }): void {
  const { db } = deps.database;
  app.decorateRequest('idempotency', null);

  const preHandler: preHandlerAsyncHookHandler = async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (request.method !== 'POST' || header === undefined || !request.principal) return;
    if (request.routeOptions.config?.noReplay) return; // the response carries a secret we never store (API keys)
    if (typeof header !== 'string' || header.length < 1 || header.length > 255) {
      throw new VigilError('validation_failed', 'Idempotency-Key must be 1–255 characters.', { param: 'Idempotency-Key' });
    }
    if (String(request.headers.accept ?? '').includes('text/event-stream')) return; // streams are not replayable
    const keyId = request.principal.keyId;
    const path = request.url.split('?')[0];
    const bodyHash = createHash('sha256')
      .update(JSON.stringify(request.body ?? null))
      .digest('hex');
    const now = deps.clock.now();
    const existing = await idempotencyRepository.find(db, keyId, header);
    if (existing && Date.parse(existing.created_at) > now - KEPT_MS) {
      if (existing.body_hash !== bodyHash || existing.path !== path || existing.method !== request.method) {
        throw new VigilError('idempotency_key_reused', 'This Idempotency-Key was used with a different request.', {
          param: 'Idempotency-Key',
        });
      }
      if (existing.status === null) {
        throw new VigilError('idempotency_request_in_progress', 'The first request with this Idempotency-Key is still running.', {
          param: 'Idempotency-Key',
        });
      }
      reply.header('Idempotent-Replayed', 'true');
      const stored = readStoredResponse(existing.response);
      return reply.code(existing.status).type(stored.contentType).send(stored.body);
    }
    if (existing) {
      await idempotencyRepository.delete(db, keyId, header);
    }
    try {
      await idempotencyRepository.insertInProgress(db, {
        key_id: keyId,
        idempotency_key: header,
        method: request.method,
        path,
        body_hash: bodyHash,
        status: null,
        response: null,
        created_at: toIso(now),
      });
    } catch {
      throw new VigilError('idempotency_request_in_progress', 'The first request with this Idempotency-Key is still running.', {
        param: 'Idempotency-Key',
      });
    }
    request.idempotency = { keyId, key: header };
  };

  const onSend: onSendAsyncHookHandler = async (request, reply, payload) => {
    const idem = request.idempotency;
    if (!idem || reply.getHeader('Idempotent-Replayed')) return payload;
    request.idempotency = null;
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await idempotencyRepository.delete(db, idem.keyId, idem.key);
    } else {
      const response = storedResponse(String(reply.getHeader('content-type') ?? 'application/json'), payload);
      await idempotencyRepository.saveResponse(db, idem.keyId, idem.key, reply.statusCode, response);
    }
    return payload;
  };

  // Only POST routes get the two hooks: every other request would run two async
  // hooks that return at once. They go first in the route's own lists, where app-wide hooks ran
  // before (every route is registered after this).
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST')) return;
    route.preHandler = [preHandler, ...asList(route.preHandler)];
    route.onSend = [onSend, ...asList(route.onSend)];
  });
}

function asList<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

/**
 * The stored answer keeps its Content-Type on a first line before the body, so a replay is the
 * original byte for byte (a 4xx is application/problem+json, not application/json).
 * Rows written before that hold only a JSON body, which starts with `{` or `[`.
 */
function storedResponse(contentType: string, body: string): string {
  return `${contentType}\n${body}`;
}

function readStoredResponse(response: string | null): { contentType: string; body: string } {
  const text = response ?? '';
  const nl = text.indexOf('\n');
  if (text === '' || text.startsWith('{') || text.startsWith('[') || nl < 0) return { contentType: 'application/json', body: text };
  return { contentType: text.slice(0, nl), body: text.slice(nl + 1) };
}

/** Deletes records older than 24 h (called by the housekeeping timer). */
export async function pruneIdempotency(database: DatabaseHandle, now: number): Promise<void> {
  await idempotencyRepository.deleteCreatedBefore(database.db, toIso(now - KEPT_MS));
}
