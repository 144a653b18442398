import type { Actor, Principal } from '../identity/index.ts';
import { createHash, randomBytes } from 'node:crypto';
import type { DatabaseHandle } from '../db/index.ts';
import { type Clock, toIso } from '../time/index.ts';
import { VigilError, newId } from '../lib/index.ts';
import { scopeOfLocations, type AuditService } from '../audit/index.ts';
import { toPrincipal } from '../keys/index.ts';
import { CACHE_TOPICS, EVERY_KEY, type CacheInvalidation, type HeldStreams } from '../coordination/index.ts';
import { consoleSessionRepository } from './console-session.repository.ts';
import type { ConsoleSessionView } from './console-session.schemas.ts';

/** Console sessions are short-lived: eight hours, a working shift; then sign in again. */
export const CONSOLE_SESSION_TTL_MS = 8 * 3600_000;

/** The session part of a request made with a console cookie. */
export interface ConsoleSessionInfo {
  id: string;
  operator: string | null;
  createdAt: string;
  expiresAt: string;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Console sign-in: an API key is exchanged for a random session token kept in an
 * HttpOnly cookie, stored only as its SHA-256 (docs/decisions.md "Web console"). The session is
 * not a second credential with its own rights: every request re-reads its key, so it has exactly
 * the key's capabilities and locations, and revoking the key ends it at once.
 */
export class ConsoleSessionService {
  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      ttlMs?: number;
      /** sign-outs are announced here; every node ends the streams the signed-out session holds open */
      invalidation?: CacheInvalidation;
      heldStreams?: HeldStreams;
    },
  ) {
    deps.invalidation?.subscribe(CACHE_TOPICS.consoleSession, async (sessionId) => {
      await this.endSignedOutStreams(sessionId === EVERY_KEY ? undefined : [sessionId]);
    });
  }

  /**
   * Ends the open streams (the console's live feed, a streamed reply) of sessions that are signed
   * out, expired or whose key is revoked; `ids` omitted: every session holding a stream here.
   */
  async endSignedOutStreams(ids?: string[]): Promise<number> {
    const held = this.deps.heldStreams;
    if (!held) return 0;
    const candidates = ids ?? held.sessionIds();
    if (candidates.length === 0) return 0;
    let ended = 0;
    for (const id of await consoleSessionRepository.endedAmong(this.deps.database.db, candidates, toIso(this.deps.clock.now()))) ended += held.closeSession(id);
    return ended;
  }

  async create(principal: Principal, actor: Actor, operator: string | null): Promise<{ token: string; view: ConsoleSessionView; maxAgeS: number }> {
    const ttl = this.deps.ttlMs ?? CONSOLE_SESSION_TTL_MS;
    const now = this.deps.clock.now();
    const token = `vcs_${randomBytes(32).toString('base64url')}`;
    const row = {
      id: newId('csn', now),
      token_hash: hashToken(token),
      key_id: principal.keyId,
      tenant_id: principal.tenantId,
      operator: operator?.trim() || null,
      created_at: toIso(now),
      expires_at: toIso(now + ttl),
      revoked_at: null,
    };
    await this.deps.database.withWriteLock(async (trx) => {
      await consoleSessionRepository.insert(trx, row);
      await this.deps.audit.appendIn(trx, { ...actor, operator: row.operator ?? actor.operator }, [
        {
          tenantId: principal.tenantId,
          action: 'console_session.created',
          resourceType: 'console_session',
          resourceId: row.id,
          data: { key_id: principal.keyId, operator: row.operator, expires_at: row.expires_at },
          scope: scopeOfLocations(principal.locations),
        },
      ]);
    });
    const session = { id: row.id, operator: row.operator, createdAt: row.created_at, expiresAt: row.expires_at };
    return { token, view: toSessionView(principal, session), maxAgeS: Math.floor(ttl / 1000) };
  }

  /** The principal of a cookie token: its key's, as long as the session and the key both stand. */
  async authenticate(token: string): Promise<{ principal: Principal; session: ConsoleSessionInfo }> {
    const row = /^vcs_[A-Za-z0-9_-]{43}$/.test(token) ? await consoleSessionRepository.findWithKeyByHash(this.deps.database.db, hashToken(token)) : undefined;
    const now = toIso(this.deps.clock.now());
    if (!row || row.session_revoked_at || row.session_expires_at <= now) {
      throw new VigilError('console_session_expired', 'The console session has expired or was signed out; sign in again with an API key.');
    }
    if (row.revoked_at) throw new VigilError('api_key_revoked', `The API key ${row.preview} of this console session was revoked at ${row.revoked_at}.`);
    return {
      principal: toPrincipal(row),
      session: { id: row.session_id, operator: row.session_operator, createdAt: row.session_created_at, expiresAt: row.session_expires_at },
    };
  }

  /** Signs out: the given session, or (called with the key itself) every console session of the key. */
  async revoke(principal: Principal, actor: Actor, sessionId: string | null): Promise<number> {
    const now = this.deps.clock.now();
    const ids = await this.deps.database.withWriteLock(async (trx) => {
      const ids = await consoleSessionRepository.revoke(trx, { keyId: principal.keyId, sessionId: sessionId ?? undefined }, toIso(now));
      if (ids.length) {
        await this.deps.audit.appendIn(
          trx,
          actor,
          ids.map((id) => ({
            tenantId: principal.tenantId,
            action: 'console_session.revoked',
            resourceType: 'console_session',
            resourceId: id,
            data: { key_id: principal.keyId },
            scope: scopeOfLocations(principal.locations),
          })),
        );
      }
      return ids;
    });
    // after the commit: every node ends what these sessions hold open (a live wall, a streamed reply)
    for (const id of ids) await this.deps.invalidation?.publish(CACHE_TOPICS.consoleSession, id);
    return ids.length;
  }
}

export function toSessionView(principal: Principal, session: ConsoleSessionInfo | null): ConsoleSessionView {
  return {
    object: 'console_session',
    id: session?.id ?? null,
    operator: session?.operator ?? null,
    created_at: session?.createdAt ?? null,
    expires_at: session?.expiresAt ?? null,
    key_id: principal.keyId,
    tenant_id: principal.tenantId,
    tenant_kind: principal.tenantKind,
    mode: principal.mode,
    role: principal.tenantKind === 'household' ? principal.role : null,
    capabilities: [...principal.capabilities],
    locations: principal.locations ? [...principal.locations] : null,
  };
}
