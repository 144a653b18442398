/**
 * Whether an error means the database cannot be reached right now (PostgreSQL down, restarting,
 * out of connections, the database gone) rather than a fault in the request or in our code. The
 * HTTP layer answers these with 503 and Retry-After: nothing was made durable, and the same
 * request may succeed in a moment.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
/** SQLSTATE classes and codes of PostgreSQL that mean "not now" (08 connection exception, 57P admin shutdown/crash/cannot connect, 53300 too many connections, 3D000 no such database). */
const PG_CODES = new Set(['57P01', '57P02', '57P03', '53300', '3D000']);
const MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /the database system is (starting up|shutting down)/i,
];

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || PG_CODES.has(code) || /^08...$/.test(code)) return true;
  // SQLite: the file is locked by another process for longer than the busy timeout
  if (code === 'SQLITE_BUSY') return true;
  if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string))) return true;
  // a connect() that tried several addresses reports them together
  return Array.isArray(e.errors) && e.errors.some(isDatabaseUnavailable);
}
