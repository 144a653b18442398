import pino from 'pino';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { PLAIN_LINES } from '../lib/index.ts';

const S = pino.symbols;
const INFO = 30;

/** What the completed line is put together from: pino's own parts of the request's logger (`pino.symbols`). */
interface LineParts {
  [PLAIN_LINES]?: true;
  [S.serializersSym]: unknown;
  [S.lsCacheSym]: Record<number, string>;
  [S.timeSym]: () => string;
  [S.chindingsSym]: string;
  [S.endSym]: string;
  [S.streamSym]: pino.DestinationStream;
  isLevelEnabled(level: string): boolean;
}

/**
 * One info line per request instead of Fastify's two: building and writing a pino
 * line was about 3% of an authenticated read's CPU each. The "request completed" line carries the
 * request (method, url, address) as well as the status and time, so nothing is lost at info; the
 * "incoming request" line is still there at debug, for a request that never completes.
 *
 * The "request completed" line is put together here from its fixed fields rather than by pino's
 * general walk of an object through serializers and JSON.stringify (docs/decisions.md, "Read path,
 * fourth pass"): the same bytes pino writes with Fastify's `req` and `res` serializers, in the same
 * order, with the logger's own level, time, bindings and line end. Only for a logger whose lines
 * are plain (`PLAIN_LINES`: made by createProcessLogger) and whose request child kept the server's
 * serializers (a route's `logSerializers` gives it others); any other logger, and every error
 * line, goes through pino as before.
 */
export class OneLineRequestLog extends LogController {
  /** the serializers of the server's logger, Fastify's `req` and `res` among them: seen on the first request */
  private serverSerializers: unknown = undefined;

  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else if (!this.writeCompleted(request, reply)) reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }

  /** Writes the "request completed" line itself when the logger's lines are plain; false: pino has to. */
  private writeCompleted(request: FastifyRequest, reply: FastifyReply): boolean {
    const log = reply.log as unknown as LineParts;
    if (log[PLAIN_LINES] !== true) return false;
    this.serverSerializers ??= (request.server.log as unknown as LineParts)[S.serializersSym];
    if (log[S.serializersSym] !== this.serverSerializers) return false;
    if (!log.isLevelEnabled('info')) return true;
    log[S.streamSym].write(completedLine(log, request, reply.statusCode, reply.elapsedTime));
    return true;
  }
}

/**
 * The line pino writes for `{ req: request, res: reply, responseTime }, 'request completed'`, where
 * Fastify's serializers make `req` {method, url, version, host, remoteAddress, remotePort} and
 * `res` {statusCode}; a field whose value is undefined is left out, as JSON.stringify leaves it.
 */
function completedLine(log: LineParts, request: FastifyRequest, statusCode: number, responseTime: number): string {
  return (
    log[S.lsCacheSym][INFO] +
    log[S.timeSym]() +
    log[S.chindingsSym] +
    ',"req":{"method":' +
    json(request.method) +
    field('url', request.url) +
    field('version', request.headers['accept-version']) +
    field('host', request.host) +
    field('remoteAddress', request.ip) +
    field('remotePort', request.socket?.remotePort) +
    '},"res":{"statusCode":' +
    json(statusCode) +
    '},"responseTime":' +
    // pino writes a number that is not finite as null, as JSON.stringify does
    json(responseTime) +
    ',"msg":"request completed"' +
    log[S.endSym]
  );
}

function field(name: string, value: unknown): string {
  return value === undefined ? '' : ',"' + name + '":' + json(value);
}

/** What JSON.stringify makes a string escape: quotes, backslashes, control characters, lone surrogates. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON.stringify(value), without its call for the strings and numbers that need no escaping (most of a line). */
function json(value: unknown): string {
  if (typeof value === 'string') return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : '"' + value + '"';
  if (typeof value === 'number' && Number.isFinite(value)) return '' + value;
  return JSON.stringify(value);
}
