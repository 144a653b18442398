export interface FieldError {
  param: string;
  message: string;
}

export interface VigilErrorFields {
  code?: string | null;
  status?: number;
  requestId?: string;
  param?: string;
  detail?: string;
  type?: string;
  errors?: FieldError[];
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  retryAfter?: number;
}

/** Base class of every error the client throws. */
export declare class VigilError extends Error {
  constructor(message: string, fields?: VigilErrorFields);
  /** stable snake_case code from the service's catalogue (docs/errors.md); null when the body was not a problem document */
  readonly code: string | null;
  /** HTTP status; undefined when no response arrived */
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  /** the request field the error is about */
  readonly param: string | undefined;
  readonly detail: string | undefined;
  readonly type: string | undefined;
  readonly errors: FieldError[] | undefined;
  /** the problem document (camelCase keys), or the raw text of a non-JSON body */
  readonly body: unknown;
  readonly rawBody: string | undefined;
  readonly headers: Record<string, string> | undefined;
}
/** 400, 413, 415, 422 */
export declare class InvalidRequestError extends VigilError {}
/** 401 */
export declare class AuthenticationError extends VigilError {}
/** 403 */
export declare class PermissionDeniedError extends VigilError {}
/** 404 */
export declare class NotFoundError extends VigilError {}
/** 409 */
export declare class ConflictError extends VigilError {}
/** 429, after the client's own retries */
export declare class RateLimitError extends VigilError {
  /** seconds the service asked to wait (Retry-After) */
  readonly retryAfter: number | undefined;
}
/** 5xx and other statuses */
export declare class APIError extends VigilError {}
/** no response arrived (connection refused, reset, timeout) */
export declare class APIConnectionError extends VigilError {}
/** a webhook signature that does not verify, or a missing/malformed signature header */
export declare class SignatureVerificationError extends VigilError {}

export declare function parseRetryAfter(value: string | null | undefined, now?: number): number | undefined;
export declare function createErrorFromResponse(
  status: number,
  headers: Headers,
  rawText: string,
  camelize: (v: unknown) => unknown,
): VigilError;
export declare function createErrorFromProblem(
  problem: Record<string, any>,
  context: { status?: number; requestId?: string; rawBody?: string; headers?: Record<string, string>; retryAfter?: number },
  camelize: (v: unknown) => unknown,
): VigilError;
