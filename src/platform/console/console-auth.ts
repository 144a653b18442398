import type { FastifyRequest } from 'fastify';
import { parseCookie, stringifySetCookie } from 'cookie';
import { VigilError } from '../lib/index.ts';
import type { Principal } from '../identity/index.ts';
import type { HeldSession } from '../coordination/index.ts';
import type { ConsoleSessionInfo, ConsoleSessionService } from './console-session.service.ts';

/** The console's session cookie. */
export const CONSOLE_COOKIE = 'vigil_console';
/**
 * The header the console sends on every request that changes state. A cross-site page can make
 * a browser send the cookie (SameSite=Strict already stops that) but cannot add a custom header
 * without a CORS preflight, which Vigil never grants: the second lock against CSRF.
 */
export const CONSOLE_CSRF_HEADER = 'x-vigil-console';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const sessions = new WeakMap<FastifyRequest, ConsoleSessionInfo>();

/** The console session a request was made with, or null (made with an API key). */
export function consoleSessionOf(request: FastifyRequest): ConsoleSessionInfo | null {
  return sessions.get(request) ?? null;
}

/**
 * The console session a stream is held under (src/platform/coordination/held-streams.ts): its id
 * and the time left until it expires, by `now`; null for a request made with an API key.
 */
export function heldSessionOf(request: FastifyRequest, now: number): HeldSession | null {
  const session = sessions.get(request);
  return session ? { id: session.id, endsInMs: Date.parse(session.expiresAt) - now } : null;
}

/**
 * Cookie authentication for the HTTP auth hook (src/http/auth.ts): used only when the request
 * has no Authorization header, so an integrator's Bearer key always wins. Returns null when there
 * is no console cookie.
 */
export function consoleCookieAuth(service: ConsoleSessionService) {
  return async (request: FastifyRequest): Promise<Principal | null> => {
    const header = request.headers.cookie;
    if (!header) return null;
    const token = parseCookie(header)[CONSOLE_COOKIE];
    if (!token) return null;
    if (!SAFE_METHODS.has(request.method)) assertSameOrigin(request);
    const { principal, session } = await service.authenticate(token);
    sessions.set(request, session);
    return principal;
  };
}

/** Whether a Cookie header holds a live console session (for the page itself; never throws). */
export async function sessionStateOf(service: ConsoleSessionService, header: string | undefined): Promise<'active' | 'ended' | 'none'> {
  const token = header ? parseCookie(header)[CONSOLE_COOKIE] : undefined;
  if (!token) return 'none';
  try {
    await service.authenticate(token);
    return 'active';
  } catch {
    return 'ended';
  }
}

function assertSameOrigin(request: FastifyRequest): void {
  if (request.headers[CONSOLE_CSRF_HEADER] !== '1') {
    throw new VigilError('csrf_check_failed', `A request that changes state with the console cookie must carry the header ${CONSOLE_CSRF_HEADER}: 1.`, {
      param: CONSOLE_CSRF_HEADER,
    });
  }
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      host = '';
    }
    if (host !== request.headers.host) throw new VigilError('csrf_check_failed', `Origin ${origin} is not this server.`, { param: 'Origin' });
  } else if (origin === 'null') {
    throw new VigilError('csrf_check_failed', 'Requests from an opaque origin cannot use the console cookie.', { param: 'Origin' });
  }
}

/** Set-Cookie for a new session: HttpOnly, SameSite=Strict, Secure when the request came over HTTPS. */
export function sessionCookie(token: string, maxAgeS: number, secure: boolean): string {
  return stringifySetCookie(CONSOLE_COOKIE, token, { httpOnly: true, sameSite: 'strict', secure, path: '/', maxAge: maxAgeS });
}

export function clearedSessionCookie(secure: boolean): string {
  return stringifySetCookie(CONSOLE_COOKIE, '', { httpOnly: true, sameSite: 'strict', secure, path: '/', maxAge: 0 });
}

/** Whether the browser reached us over HTTPS (directly, or through a trusted proxy, or by configuration). */
export function cameOverHttps(request: FastifyRequest, publicBaseUrl: string): boolean {
  return request.protocol === 'https' || publicBaseUrl.startsWith('https:');
}
