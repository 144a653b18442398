import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One info line per request instead of Fastify's two: building and writing a pino
 * line was about 3% of an authenticated read's CPU each. The "request completed" line carries the
 * request (method, url, address) as well as the status and time, so nothing is lost at info; the
 * "incoming request" line is still there at debug, for a request that never completes.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
