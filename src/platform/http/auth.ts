import { metrics } from '../metrics/index.ts';
import type { KeyAuthenticator, Principal, Capability, Actor } from '../identity/index.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Clock } from '../time/index.ts';
import { ERROR_CATALOGUE, VigilError } from '../lib/index.ts';
import { AuthFailureLimiter, checkRateLimit, checkRateLimitNow, type RateDecision, type RateLimitStore } from './rate-limit.ts';

/** 'any': both tenant kinds (e.g. /v1/webhooks, /v1/audit); the service scopes by tenant. */
export type Surface = 'organization' | 'household' | 'any';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** which tenant kind may call the route; routes without it are public (health, OpenAPI) */
    surface?: Surface;
    /** capability an organization key needs */
    capability?: Capability;
    /**
     * true: Idempotency-Key is not stored or replayed, because the response holds a secret that must
     * never be written down (API keys are stored only as SHA-256).
     */
    noReplay?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** What the auth hook needs. */
export interface AuthDeps {
  keys: KeyAuthenticator;
  rateLimits: RateLimitStore;
  authFailures: AuthFailureLimiter;
  clock: Clock;
  defaultRatePerMinute: number;
  /** the console's budget per key, apart from the key's own (docs/decisions.md, "The console's own budget"); default the key's */
  consoleRatePerMinute?: number;
  /** the web console's session cookie, tried only when there is no Authorization header */
  cookieAuth?: (request: FastifyRequest) => Promise<Principal | null>;
}

/**
 * Authentication, surface and capability checks, then the per-key rate limit, all in onRequest so
 * a bad key is answered before the body is even parsed (docs/design.md "Auth and keys").
 *
 * The hook goes on each route that has a surface (an `onRoute` hook puts it first in the route's
 * own onRequest list, so every route is registered after this), with the route's surface and
 * capability at hand: a public route runs nothing, and no request builds `routeOptions`. A key
 * verified moments ago and a rate limit counted in memory are checked without a promise
 * (docs/decisions.md, "Request path: the read's fixed costs"); anything else is awaited as before.
 */
export function installAuth(app: FastifyInstance, deps: AuthDeps): void {
  app.decorateRequest('principal', null);
  app.addHook('onRoute', (route) => {
    const cfg = route.config;
    if (!cfg?.surface) return;
    const hook = authHook(deps, { surface: cfg.surface, capability: cfg.capability });
    const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [hook, ...own];
  });
}

interface RouteNeeds {
  surface: Surface;
  capability?: Capability;
}

function authHook(deps: AuthDeps, needs: RouteNeeds): onRequestHookHandler {
  return function authenticateRequest(request, reply, done) {
    const header = request.headers.authorization;
    const token = header === undefined ? undefined : bearerToken(header);
    const cached = token === undefined ? undefined : deps.keys.cachedPrincipal?.(token);
    if (cached !== undefined && deps.rateLimits.hitNow) {
      try {
        admit(deps, needs, request, reply, cached, false);
      } catch (err) {
        done(err as Error);
        return;
      }
      done();
      return;
    }
    authenticateAndAdmit(deps, needs, request, reply).then(() => done(), done);
  };
}

async function authenticateAndAdmit(deps: AuthDeps, needs: RouteNeeds, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  let principal: Principal;
  let fromCookie: Principal | null = null;
  try {
    fromCookie = request.headers.authorization === undefined && deps.cookieAuth ? await deps.cookieAuth(request) : null;
    principal = fromCookie ?? (await authenticate(deps.keys, request.headers.authorization));
  } catch (err) {
    if (!(err instanceof VigilError) || ERROR_CATALOGUE[err.code].status !== 401) throw err;
    // only failures are counted and only failures are refused: a valid key from an address or
    // for a prefix that others failed on still works (docs/decisions.md, "Lockout by attempt")
    const failed = await deps.authFailures.fail(request.ip, bearerToken(request.headers.authorization), deps.clock.now());
    if (!failed.allowed) throw tooManyFailures(failed.headers);
    reply.headers(failed.headers);
    throw err;
  }
  // the console (a session cookie) spends a budget of its own, so an operator clicking through
  // the wall never uses up what the key's integrations may send, nor the other way round
  const viaConsole = fromCookie !== null && deps.consoleRatePerMinute !== undefined;
  const { bucket, limit, policy } = budgetOf(deps, principal, viaConsole);
  const decision = checkRateLimitNow(deps.rateLimits, bucket, limit, deps.clock.now(), policy);
  admit(deps, needs, request, reply, principal, viaConsole, decision ?? (await checkRateLimit(deps.rateLimits, bucket, limit, deps.clock.now(), policy)));
}

function budgetOf(deps: AuthDeps, principal: Principal, viaConsole: boolean): { bucket: string; limit: number; policy: string } {
  if (viaConsole) return { bucket: `console:${principal.keyId}`, limit: deps.consoleRatePerMinute!, policy: 'per-console' };
  return { bucket: principal.keyId, limit: principal.rateLimitPerMinute ?? deps.defaultRatePerMinute, policy: 'per-key' };
}

/** The rate limit (counted here unless `decided`), then the route's surface and capability; throws what refuses the request. */
function admit(
  deps: AuthDeps,
  needs: RouteNeeds,
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  viaConsole: boolean,
  decided?: RateDecision,
): void {
  request.principal = principal;
  const { bucket, limit, policy } = budgetOf(deps, principal, viaConsole);
  const decision = decided ?? checkRateLimitNow(deps.rateLimits, bucket, limit, deps.clock.now(), policy)!;
  reply.headers(decision.headers);
  if (!decision.allowed) {
    metrics().rateLimitRejections.inc({ policy });
    throw new VigilError(
      'rate_limit_exceeded',
      viaConsole
        ? `The console may make ${limit} requests per minute for this key (VIGIL_CONSOLE_RATE_LIMIT_PER_MINUTE).`
        : `This key may make ${limit} requests per minute.`,
      { headers: decision.headers },
    );
  }
  if (needs.surface !== 'any' && principal.tenantKind !== needs.surface) {
    const which = needs.surface === 'organization' ? 'an organization key (Surface B)' : 'a household key (Surface A)';
    throw new VigilError('wrong_surface', `This route needs ${which}; the key belongs to a ${principal.tenantKind}.`);
  }
  if (needs.capability && principal.tenantKind === 'organization' && !principal.capabilities.has(needs.capability)) {
    throw new VigilError('insufficient_capability', `This key lacks the capability "${needs.capability}".`, {
      param: needs.capability,
      extra: { capability: needs.capability },
    });
  }
}

function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
}

async function authenticate(keys: KeyAuthenticator, header: string | undefined): Promise<Principal> {
  let token: string | undefined;
  if (header !== undefined) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw new VigilError('invalid_api_key', 'Authorization must be "Bearer <API key>".', { param: 'Authorization' });
    token = m[1];
  }
  return keys.authenticate(token);
}

function tooManyFailures(headers: Record<string, string>): VigilError {
  metrics().rateLimitRejections.inc({ policy: 'failed-auth' });
  return new VigilError(
    'rate_limit_exceeded',
    'Too many failed authentications from this address or for this key prefix; wait for Retry-After. A valid key is not refused.',
    { headers },
  );
}

/** The authenticated principal (routes with a surface always have one). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new VigilError('missing_api_key', 'Send Authorization: Bearer <API key>.');
  return request.principal;
}

/** The actor recorded in the audit trail: the key, and the operator from X-Operator if given. */
export function actorOf(request: FastifyRequest): Actor {
  const p = principalOf(request);
  const op = request.headers['x-operator'];
  const operator = typeof op === 'string' && op.trim() ? op.trim().slice(0, 200) : null;
  return { keyId: p.keyId, operator, requestId: String(request.id) };
}
