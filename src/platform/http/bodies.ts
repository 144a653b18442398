import { Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { VigilError } from '../lib/index.ts';

/**
 * Request bodies that are not read to the end (see docs/decisions.md, "Bodies"). A request answered
 * before its body has arrived (413 on a Content-Length over the limit, 401, 415) used to be closed
 * at once; a client still sending then got a TCP reset, which throws away the answer waiting in its
 * receive buffer (EPIPE and no response, for clients that read only after sending). Such a
 * connection is now answered, half-closed (FIN after the answer) and drained: what the client still
 * sends is read and discarded, up to LINGER_MAX_BYTES or LINGER_MAX_MS, and only then closed. The
 * connection is never reused for another request.
 */
export const LINGER_MAX_BYTES = 64 * 1024 * 1024;
export const LINGER_MAX_MS = 10_000;

export function lingerOnUnreadBodies(app: FastifyInstance, limits = { maxBytes: LINGER_MAX_BYTES, maxMs: LINGER_MAX_MS }): void {
  // a callback hook: it runs on every response and usually has nothing to do
  app.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw;
    if (!raw.complete && raw.socket instanceof Socket) {
      reply.header('connection', 'close');
      lingerBeforeClosing(raw.socket, raw, limits);
    }
    done(null, payload);
  });
}

/**
 * Node closes a `Connection: close` response's socket with destroySoon() once the answer is written;
 * this socket's destroySoon drains instead. Node calls it after the answer is handed to the kernel.
 */
function lingerBeforeClosing(socket: Socket, request: IncomingMessage, limits: { maxBytes: number; maxMs: number }): void {
  if ((socket as Socket & { vigilLinger?: true }).vigilLinger) return;
  (socket as Socket & { vigilLinger?: true }).vigilLinger = true;
  socket.destroySoon = function lingeringClose(this: Socket) {
    if (this.writable) this.end();
    if (this.destroyed) return;
    const startedAt = this.bytesRead;
    const stop = () => this.destroy();
    const deadline = setTimeout(stop, limits.maxMs);
    const watch = setInterval(() => {
      if (this.bytesRead - startedAt > limits.maxBytes) stop();
    }, 20);
    deadline.unref();
    watch.unref();
    this.once('close', () => {
      clearTimeout(deadline);
      clearInterval(watch);
    });
    // the whole body arrived (and was discarded by Node's parser): nothing is left to reset on
    if (request.complete) return stop();
    request.once('end', stop);
    // Node dumps an unread request once the answer is done; one already flowing keeps flowing
    request.resume();
  };
}

/**
 * preValidation for a route whose body is bytes of one media type (a JPEG frame or photo): a POST
 * with no Content-Type reaches the handler with no body at all (Fastify parses nothing), so it is
 * refused here with 415, and an empty body with 400, before any service is asked.
 */
export function requireBinaryBody(what: string, mediaType: string, emptyCode: 'invalid_image' | 'invalid_sdp') {
  return async (req: FastifyRequest): Promise<void> => {
    if (!Buffer.isBuffer(req.body)) {
      throw new VigilError(
        'unsupported_media_type',
        `Send ${what} as Content-Type: ${mediaType}; the request has ${req.headers['content-type'] === undefined ? 'no Content-Type' : 'no body'}.`,
        { param: 'Content-Type' },
      );
    }
    if (req.body.length === 0) throw new VigilError(emptyCode, `The body is empty; send ${what} as ${mediaType} bytes.`, { param: 'body' });
  };
}
