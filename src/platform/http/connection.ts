import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyHttpOptions, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HttpLimits } from '../config/index.ts';
import { newId, VigilError } from '../lib/index.ts';
import { buildProblem, sendProblem } from './problem.ts';

/**
 * Protocol-level hardening: errors raised before a route runs — by Fastify's
 * router or by Node's HTTP parser — are problem+json with a `code` and an X-Request-Id like every
 * other error, requests must arrive within time-outs, and one client address cannot hold more than
 * a set number of connections.
 */

/** Fastify server options for time-outs and router-level errors. */
export function serverOptions(limits: HttpLimits, baseUrl: string): FastifyHttpOptions<Server> {
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: limits.connectionTimeoutMs,
    http: {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      // how often Node checks the two time-outs above (its default, 30 s, would let them overrun by that much)
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    // the client address behind a trusted proxy (for the failed-authentication limit); the socket's otherwise
    ...(limits.trustProxy.length > 0 ? { trustProxy: [...limits.trustProxy] } : {}),
    // ids are ULIDs (26 characters after the prefix); Fastify's router refuses longer parameters itself
    routerOptions: { maxParamLength: 100 },
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      reply.header('X-Request-Id', request.id);
      void sendProblem(reply, baseUrl, frameworkProblem(error));
    },
    clientErrorHandler: (err: NodeJS.ErrnoException, socket: Socket) => answerClientError(err, socket, baseUrl),
  };
}

function frameworkProblem(error: FastifyError): VigilError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return new VigilError('invalid_url', 'The URL has malformed percent-encoding.', { param: 'url' });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new VigilError('path_parameter_too_long', 'A path parameter is longer than 100 characters; no id is that long.', { param: 'path' });
    default:
      return new VigilError('malformed_request', error.message);
  }
}

/** Node's parser errors map to a problem; the answer is written on the raw socket, then it is closed. */
function clientErrorProblem(err: NodeJS.ErrnoException): VigilError {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new VigilError('request_timeout', 'The request did not arrive in time; the connection is closed.');
  }
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return new VigilError('request_header_too_large', 'The request line or headers exceed 16 KB.');
  }
  return new VigilError('malformed_request', 'The HTTP request could not be parsed (percent-encode spaces and non-ASCII characters in the URL).');
}

function answerClientError(err: NodeJS.ErrnoException, socket: Socket, baseUrl: string): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // once a response has started on this socket, only closing it is left (as Node's own handler does)
  const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (socket.writable && !started) writeRawProblem(socket, baseUrl, clientErrorProblem(err));
  socket.destroySoon();
}

/** A complete HTTP/1.1 problem+json response written straight to a socket, which is then closed. */
export function writeRawProblem(socket: Socket, baseUrl: string, err: VigilError, headers: Record<string, string> = {}): void {
  const requestId = newId('req');
  const problem = buildProblem(baseUrl, err, requestId);
  const body = JSON.stringify(problem);
  const head = [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Error'}`,
    'Content-Type: application/problem+json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/**
 * At most `max` open connections per client address (0: no cap, e.g. behind a proxy that sets
 * its own). One over the cap is answered 429 too_many_connections and closed before any request
 * on it is read.
 */
export function capConnectionsPerAddress(app: FastifyInstance, max: number, baseUrl: string): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  app.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.pause(); // nothing sent on this connection is read
      writeRawProblem(socket, baseUrl, new VigilError('too_many_connections', `This address already has ${max} open connections; reuse or close one.`), {
        'Retry-After': '1',
      });
      socket.destroySoon();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
