import { metrics } from '../metrics/index.ts';
import type { KeyAuthenticator, Principal, Capability, Actor } from '../identity/index.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../time/index.ts';
import { ERROR_CATALOGUE, VigilError } from '../lib/index.ts';
import { AuthFailureLimiter, checkRateLimit, type RateLimitStore } from './rate-limit.ts';

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

/**
 * Authentication, surface and capability checks, then the per-key rate limit, all in onRequest so
 * a bad key is answered before the body is even parsed (docs/design.md "Auth and keys").
 */
export function installAuth(
  app: FastifyInstance,
  deps: {
    keys: KeyAuthenticator;
    rateLimits: RateLimitStore;
    authFailures: AuthFailureLimiter;
    clock: Clock;
    defaultRatePerMinute: number;
    /** the console's budget per key, apart from the key's own (docs/decisions.md, "The console's own budget"); default the key's */
    consoleRatePerMinute?: number;
    /** the web console's session cookie, tried only when there is no Authorization header */
    cookieAuth?: (request: FastifyRequest) => Promise<Principal | null>;
  },
): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request, reply) => {
    const cfg = request.routeOptions.config;
    if (!cfg?.surface) return;
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
    request.principal = principal;

    // the console (a session cookie) spends a budget of its own, so an operator clicking through
    // the wall never uses up what the key's integrations may send, nor the other way round
    const viaConsole = fromCookie !== null && deps.consoleRatePerMinute !== undefined;
    const limit = viaConsole ? deps.consoleRatePerMinute! : (principal.rateLimitPerMinute ?? deps.defaultRatePerMinute);
    const policy = viaConsole ? 'per-console' : 'per-key';
    const decision = await checkRateLimit(deps.rateLimits, viaConsole ? `console:${principal.keyId}` : principal.keyId, limit, deps.clock.now(), policy);
    reply.headers(decision.headers);
    if (!decision.allowed) {
      metrics().rateLimitRejections.inc({ policy });
      throw new VigilError(
        'rate_limit_exceeded',
        viaConsole
          ? `The console may make ${limit} requests per minute for this key (VIGIL_CONSOLE_RATE_LIMIT_PER_MINUTE).`
          : `This key may make ${limit} requests per minute.`,
        {
          headers: decision.headers,
        },
      );
    }

    if (cfg.surface !== 'any' && principal.tenantKind !== cfg.surface) {
      const which = cfg.surface === 'organization' ? 'an organization key (Surface B)' : 'a household key (Surface A)';
      throw new VigilError('wrong_surface', `This route needs ${which}; the key belongs to a ${principal.tenantKind}.`);
    }
    if (cfg.capability && principal.tenantKind === 'organization' && !principal.capabilities.has(cfg.capability)) {
      throw new VigilError('insufficient_capability', `This key lacks the capability "${cfg.capability}".`, {
        param: cfg.capability,
        extra: { capability: cfg.capability },
      });
    }
  });
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
