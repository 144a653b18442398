// Typed exceptions (Stripe-style): every failure the client reports is a VigilError carrying the
// problem+json fields of DESIGN.md "Errors" — code, status, requestId, param — and a subclass
// chosen by status, so callers can `catch (e) { if (e instanceof RateLimitError) … }`.

export class VigilError extends Error {
  constructor(message, fields = {}) {
    super(message);
    this.name = new.target.name;
    /** stable snake_case code from the service's catalogue; null when the response was not a problem document */
    this.code = fields.code ?? null;
    /** HTTP status; undefined when no response arrived */
    this.status = fields.status;
    this.requestId = fields.requestId;
    this.param = fields.param;
    this.detail = fields.detail;
    this.type = fields.type;
    /** per-field errors of validation_failed / unknown_field */
    this.errors = fields.errors;
    /** the parsed problem document (camelCase), or the raw text of a non-JSON body */
    this.body = fields.body;
    this.rawBody = fields.rawBody;
    this.headers = fields.headers;
  }
}

export class InvalidRequestError extends VigilError {}
export class AuthenticationError extends VigilError {}
export class PermissionDeniedError extends VigilError {}
export class NotFoundError extends VigilError {}
export class ConflictError extends VigilError {}
export class RateLimitError extends VigilError {
  constructor(message, fields = {}) {
    super(message, fields);
    /** seconds the service asked us to wait (Retry-After), when it said */
    this.retryAfter = fields.retryAfter;
  }
}
export class APIError extends VigilError {}
/** No response: DNS, refused connection, reset, timeout. */
export class APIConnectionError extends VigilError {}
/** A webhook body whose signature does not verify (or a header that is missing or malformed). */
export class SignatureVerificationError extends VigilError {}

function errorClassFor(status) {
  if (status === 400 || status === 413 || status === 415 || status === 422) return InvalidRequestError;
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionDeniedError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 429) return RateLimitError;
  return APIError;
}

/** Seconds from a Retry-After header (delta-seconds or HTTP-date, RFC 9110 §10.2.3). */
export function parseRetryAfter(value, now = Date.now()) {
  if (value == null || value === '') return undefined;
  const trimmed = String(value).trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}

/**
 * The typed error for a non-2xx response. A problem+json body gives code/param/detail; anything
 * else (an HTML page from a proxy, an empty body) still yields an error with the status and the raw text.
 */
export function createErrorFromResponse(status, headers, rawText, camelize) {
  const requestIdHeader = headers.get('x-request-id') ?? undefined;
  const retryAfter = parseRetryAfter(headers.get('retry-after'));
  let parsed;
  try {
    parsed = rawText ? JSON.parse(rawText) : undefined;
  } catch {
    parsed = undefined;
  }
  const headerObject = Object.fromEntries(headers.entries());
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && (parsed.code || parsed.detail || parsed.title)) {
    return createErrorFromProblem(parsed, { status, requestId: requestIdHeader, rawBody: rawText, headers: headerObject, retryAfter }, camelize);
  }
  const Cls = errorClassFor(status);
  const snippet = rawText.length > 200 ? `${rawText.slice(0, 200)}…` : rawText;
  return new Cls(`HTTP ${status}${snippet ? `: ${snippet}` : ''}`, {
    code: null,
    status,
    requestId: requestIdHeader,
    body: rawText,
    rawBody: rawText,
    headers: headerObject,
    retryAfter,
  });
}

/** The typed error for a problem document (application/problem+json, or an SSE `error` event's data). */
export function createErrorFromProblem(problem, context, camelize) {
  const status = context.status ?? (typeof problem.status === 'number' ? problem.status : undefined);
  const Cls = errorClassFor(status);
  const message = `${problem.code ?? status}: ${problem.detail ?? problem.title ?? ''}`.trim();
  return new Cls(message, {
    code: typeof problem.code === 'string' ? problem.code : null,
    status,
    requestId: problem.request_id ?? context.requestId,
    param: problem.param,
    detail: problem.detail,
    type: problem.type,
    errors: problem.errors,
    body: camelize(problem),
    rawBody: context.rawBody,
    headers: context.headers,
    retryAfter: context.retryAfter,
  });
}
