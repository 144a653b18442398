import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CATALOGUE, VigilError, type ErrorCode, type FieldError } from '../lib/index.ts';
import { PATTERN_MESSAGES } from './common.schemas.ts';
import { isDatabaseUnavailable } from '../db/index.ts';

export function problemType(baseUrl: string, code: ErrorCode): string {
  return `${baseUrl}/docs/errors#${code}`;
}

export function buildProblem(baseUrl: string, err: VigilError, requestId: string) {
  const entry = ERROR_CATALOGUE[err.code];
  return {
    type: problemType(baseUrl, err.code),
    title: entry.title,
    status: entry.status,
    detail: err.message,
    code: err.code,
    request_id: requestId,
    ...(err.param !== undefined ? { param: err.param } : {}),
    ...(err.errors ? { errors: err.errors } : {}),
    ...(err.extra ?? {}),
  };
}

export function sendProblem(reply: FastifyReply, baseUrl: string, err: VigilError) {
  if (err.headers) reply.headers(err.headers);
  const body = buildProblem(baseUrl, err, String(reply.request.id));
  return reply.code(body.status).type('application/problem+json').send(body);
}

interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Turns Ajv validation errors into field errors named the way the client sent them. */
function fieldErrors(validation: AjvError[], _context: string | undefined): { code: ErrorCode; errors: FieldError[] } {
  const prefix = '';
  let unknownOnly = true;
  const errors = validation.map((v) => {
    const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (v.keyword === 'additionalProperties') {
      const field = [path, String(v.params.additionalProperty)].filter(Boolean).join('.');
      return { param: prefix + field, message: 'is not a known field' };
    }
    unknownOnly = false;
    if (v.keyword === 'required') {
      const field = [path, String(v.params.missingProperty)].filter(Boolean).join('.');
      return { param: prefix + field, message: 'is required' };
    }
    const known = v.keyword === 'pattern' ? PATTERN_MESSAGES[String(v.params.pattern)] : undefined;
    return { param: prefix + (path || 'body'), message: known ?? v.message ?? 'is invalid' };
  });
  // drop duplicates (unions report one error per branch)
  const seen = new Set<string>();
  const unique = errors.filter((e) => {
    const k = `${e.param}:${e.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return { code: unknownOnly ? 'unknown_field' : 'validation_failed', errors: unique };
}

/** Maps every error to problem+json (Fastify's own errors included); unknown ones become a logged 500. */
export function installProblemHandlers(app: FastifyInstance, baseUrl: string): void {
  app.setErrorHandler((error: FastifyError & { validation?: AjvError[]; validationContext?: string }, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof VigilError) return sendProblem(reply, baseUrl, error);
    if (error.validation) {
      const { code, errors } = fieldErrors(error.validation, error.validationContext);
      const first = errors[0];
      const where = error.validationContext === 'body' ? '' : ` (${error.validationContext})`;
      return sendProblem(reply, baseUrl, new VigilError(code, `${first?.param} ${first?.message}${where}`, { param: first?.param, errors }));
    }
    if (request.raw.aborted || error.code === 'ECONNRESET' || error.message === 'aborted') {
      // the client went away mid-upload: nothing is wrong on our side and nobody reads the answer
      request.log.debug({ err: error }, 'client disconnected before the request was complete');
      return sendProblem(reply, baseUrl, new VigilError('malformed_request', 'The request ended before its body was complete.', { param: 'body' }));
    }
    if (isDatabaseUnavailable(error)) {
      // nothing was made durable and a retry may succeed: 503, not a 500 that reads as our bug
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('Retry-After', '5');
      return sendProblem(
        reply,
        baseUrl,
        new VigilError('service_unavailable', 'The database cannot be reached right now; nothing was changed. Retry in a few seconds.'),
      );
    }
    const mapped = mapFastifyError(error);
    if (mapped) return sendProblem(reply, baseUrl, mapped);
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, baseUrl, new VigilError('internal_error', 'Something went wrong on our side; the request id identifies it in our logs.'));
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, baseUrl, new VigilError('route_not_found', `No route ${request.method} ${request.url.split('?')[0]}.`)),
  );
}

function mapFastifyError(error: FastifyError): VigilError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new VigilError('payload_too_large', 'The request body is larger than 1 MiB.', { param: 'body' });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new VigilError('unsupported_media_type', 'Send the body as application/json.', { param: 'Content-Type' });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new VigilError('invalid_json', 'The body is empty but Content-Type is application/json.', { param: 'body' });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new VigilError('invalid_json', `The body is not valid JSON: ${error.message}`, { param: 'body' });
    default:
      break;
  }
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
    return new VigilError('invalid_json', `The body is not valid JSON: ${error.message}`, { param: 'body' });
  }
  if (error.statusCode === 413) return new VigilError('payload_too_large', error.message, { param: 'body' });
  if (error.statusCode === 415) return new VigilError('unsupported_media_type', error.message, { param: 'Content-Type' });
  // any other client error Fastify raises itself (e.g. a Content-Length that does not match the body)
  if (
    typeof error.code === 'string' &&
    error.code.startsWith('FST_ERR') &&
    error.statusCode !== undefined &&
    error.statusCode >= 400 &&
    error.statusCode < 500
  ) {
    return new VigilError('malformed_request', error.message);
  }
  return null;
}
