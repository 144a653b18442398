// The module's public face: what other modules may import (docs/architecture.md).

export { ProblemRef } from './common.schemas.ts';

export { defineApiModule, type ApiModule, type RouteApp } from './api-module.ts';
export { actorOf, installAuth, principalOf } from './auth.ts';
export {
  IsoTime,
  ListOf,
  ListQuery,
  Location,
  MAX_EMAIL_CHARS,
  MAX_LABEL_CHARS,
  MAX_NAME_CHARS,
  MAX_SHORT_TEXT_CHARS,
  MAX_TIME_ZONE_CHARS,
  MAX_URL_CHARS,
  Name,
  ProblemSchema,
  Text,
  prefixedId,
  withErrors,
} from './common.schemas.ts';
export { capConnectionsPerAddress, serverOptions } from './connection.ts';
export { installIdempotency, pruneIdempotency } from './idempotency.ts';
export { buildProblem, installProblemHandlers, sendProblem } from './problem.ts';
export { AuthFailureLimiter } from './rate-limit.ts';
export { OneLineRequestLog } from './request-log.ts';
export { createValidatorCompiler } from './validation.ts';
export { cachedSerializerFactory } from './serializer-cache.ts';
export { CONCURRENT_STREAMS_PER_KEY, SseStream } from './sse-stream.ts';
export { systemRoutes } from './system.routes.ts';
export { lingerOnUnreadBodies, requireBinaryBody } from './bodies.ts';
