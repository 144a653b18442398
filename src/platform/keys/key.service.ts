import {
  assertOwner,
  type KeyRole,
  type Principal,
  type Actor,
  findTenantByName,
  insertTenant,
  type TenantKind,
  CAPABILITIES,
  isCapability,
  type Capability,
  generateKey,
  hashKey,
  KEY_LENGTH,
  parseKey,
  previewKey,
  type KeyMode,
  VerifiedKeyCache,
} from '../identity/index.ts';
import { type DatabaseHandle, type DbExecutor, type ApiKeyTable, mapPage, paginateRows, type Page, type PageQuery } from '../db/index.ts';
import { type Clock, toIso } from '../time/index.ts';
import { VigilError, invalid, notFound, newId } from '../lib/index.ts';
import { scopeOfLocations, type AuditService } from '../audit/index.ts';
import { keyRepository } from './key.repository.ts';
import type { ApiKeyView, ApiKeyWithSecretView, CreateKeyBodyT } from './key.schemas.ts';
import { CACHE_TOPICS, EVERY_KEY, type CacheInvalidation, type HeldStreams } from '../coordination/index.ts';

/** How often the keys of open streams are re-checked when no revocation was announced. */
export const HELD_STREAM_CHECK_MS = 1_000;

export interface CreateKeyInput {
  tenantKind: TenantKind;
  tenantName: string;
  mode: KeyMode;
  capabilities?: string[] | 'all';
  locations?: string[] | null;
  rateLimitPerMinute?: number | null;
  /** household keys; default owner (the CLI bootstraps a household with its first owner key) */
  role?: KeyRole;
  name?: string | null;
}

export interface CreatedKey {
  id: string;
  key: string;
  tenant_id: string;
  mode: KeyMode;
  role: KeyRole;
}

/** What a new key holds; the row and the audit entry are built from it. */
interface KeySpec {
  tenantId: string;
  tenantKind: TenantKind;
  mode: KeyMode;
  role: KeyRole;
  name: string | null;
  capabilities: Capability[];
  locations: string[] | null;
  rateLimitPerMinute: number | null;
}

const CLI_ACTOR: Actor = { keyId: null, operator: 'admin-cli' };

function parseList(json: string | null): string[] | null {
  return json === null ? null : (JSON.parse(json) as string[]);
}

export function toKeyView(r: ApiKeyTable): ApiKeyView {
  return {
    id: r.id,
    object: 'api_key',
    name: r.name,
    preview: r.preview,
    mode: r.mode,
    role: r.tenant_kind === 'household' ? r.role : null,
    capabilities: parseList(r.capabilities) ?? [],
    locations: parseList(r.locations),
    rate_limit_per_minute: r.rate_limit_per_minute,
    created_at: r.created_at,
    revoked_at: r.revoked_at,
  };
}

/** Refuses a household member what only an owner may do; the agent repeats the message as its reply. */

/** How long a verified key is trusted without a database lookup; 0 turns the cache off. */
export const DEFAULT_KEY_CACHE_TTL_MS = 5_000;

export class KeyService {
  private readonly verified: VerifiedKeyCache;

  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      /** revocations and rotations are announced here; every node's verified-key cache forgets the key */
      invalidation: CacheInvalidation;
      keyCacheTtlMs?: number;
      /** true when another process committed to the database since last asked (it may have revoked a key) */
      externalCommits?: () => boolean;
      /** the streams keys hold open on this node: a revoked or rotated key's are ended */
      heldStreams?: HeldStreams;
      /** how often open streams' keys are re-checked in the database (a revocation nobody announced) */
      heldStreamCheckMs?: number;
    },
  ) {
    this.verified = new VerifiedKeyCache(deps.keyCacheTtlMs ?? DEFAULT_KEY_CACHE_TTL_MS);
    deps.invalidation.subscribe(CACHE_TOPICS.apiKey, async (keyId) => {
      if (keyId === EVERY_KEY) this.verified.forgetAll();
      else this.verified.forgetKey(keyId);
      await this.endRevokedStreams(keyId === EVERY_KEY ? undefined : [keyId]);
    });
    deps.heldStreams?.onHold(() => this.watchHeldStreams());
  }

  private streamCheck: ReturnType<typeof setInterval> | null = null;

  /**
   * Ends the open streams of keys that are revoked now (docs/decisions.md, "Revocation ends what the
   * key holds"). Told by the revocation's announcement (every node hears it, over Redis in a
   * cluster); `ids` omitted: every key holding a stream here is checked.
   */
  async endRevokedStreams(ids?: string[]): Promise<number> {
    const held = this.deps.heldStreams;
    if (!held) return 0;
    const candidates = ids ? ids.filter((id) => held.keyIds().includes(id)) : held.keyIds();
    if (candidates.length === 0) return 0;
    let ended = 0;
    for (const id of await keyRepository.revokedAmong(this.deps.database.db, candidates)) ended += held.closeKey(id);
    return ended;
  }

  /**
   * While this node holds streams, re-checks their keys every second, so a revocation made where no
   * announcement reaches (another process on the same SQLite file, Redis down) still ends them
   * within a second. Called when a stream opens; stops itself when none is left.
   */
  watchHeldStreams(): void {
    if (this.streamCheck || !this.deps.heldStreams) return;
    const timer = setInterval(() => {
      if (!this.deps.heldStreams?.size) {
        clearInterval(timer);
        this.streamCheck = null;
        return;
      }
      // the database may be closing at shutdown: the streams end with the server anyway
      this.endRevokedStreams().catch(() => undefined);
    }, this.deps.heldStreamCheckMs ?? HELD_STREAM_CHECK_MS);
    timer.unref();
    this.streamCheck = timer;
  }

  /** Bootstrap (admin CLI, demo seed, tests): creates the tenant on first use by name, then a key for it; the key is returned only here. */
  async createKey(input: CreateKeyInput): Promise<CreatedKey> {
    const caps = this.resolveCapabilities(input);
    for (const l of input.locations ?? []) {
      if (!/^[a-z][a-z0-9_]*$/.test(l)) throw invalid('locations', `"${l}" is not a snake_case location`);
    }
    if (!input.tenantName.trim()) throw invalid('name', 'must not be empty');
    if (input.role && input.role !== 'owner' && input.tenantKind !== 'household') throw invalid('role', 'roles apply to household keys only');
    const now = this.deps.clock.now();
    return this.deps.database.withWriteLock(async (trx) => {
      const tenant = await this.ensureTenant(trx, input.tenantKind, input.tenantName.trim(), now);
      const { row, key } = await this.insertKey(trx, CLI_ACTOR, {
        tenantId: tenant.id,
        tenantKind: input.tenantKind,
        mode: input.mode,
        role: input.role ?? 'owner',
        name: input.name ?? null,
        capabilities: caps,
        locations: input.locations && input.locations.length ? [...input.locations] : null,
        rateLimitPerMinute: input.rateLimitPerMinute ?? null,
      });
      return { id: row.id, key, tenant_id: tenant.id, mode: input.mode, role: row.role };
    });
  }

  /** Writes a key row and its audit entry in the caller's transaction. */
  private async insertKey(
    trx: DbExecutor,
    actor: Actor,
    spec: KeySpec,
    audit: { action: string; data?: Record<string, unknown> } = { action: 'api_key.created' },
  ) {
    const key = generateKey(spec.mode);
    const now = this.deps.clock.now();
    const row: ApiKeyTable = {
      id: newId('key', now),
      tenant_id: spec.tenantId,
      tenant_kind: spec.tenantKind,
      mode: spec.mode,
      key_hash: hashKey(key),
      preview: previewKey(key),
      capabilities: JSON.stringify(spec.capabilities),
      locations: spec.locations ? JSON.stringify(spec.locations) : null,
      rate_limit_per_minute: spec.rateLimitPerMinute,
      created_at: toIso(now),
      revoked_at: null,
      role: spec.tenantKind === 'household' ? spec.role : 'owner',
      name: spec.name,
    };
    await keyRepository.insert(trx, row);
    const v = toKeyView(row);
    await this.deps.audit.appendIn(trx, actor, [
      {
        tenantId: spec.tenantId,
        action: audit.action,
        resourceType: 'api_key',
        resourceId: row.id,
        data: { name: v.name, mode: v.mode, role: v.role, capabilities: v.capabilities, locations: v.locations, preview: v.preview, ...audit.data },
        scope: scopeOfLocations(v.locations),
      },
    ]);
    return { row, key };
  }

  /**
   * Account settings: a key creates a key no wider than itself. Household: only an
   * owner, and the new key is owner or member (default member: least privilege). Organization:
   * `keys:manage`, capabilities ⊆ its own, locations ⊆ its own (a restricted key cannot mint an
   * unrestricted one), and a test key mints only test keys. The new key inherits the creator's
   * rate limit.
   */
  async createForPrincipal(principal: Principal, actor: Actor, body: CreateKeyBodyT): Promise<ApiKeyWithSecretView> {
    this.assertCanManage(principal);
    let spec: KeySpec;
    const mode = body.mode ?? principal.mode;
    if (mode === 'live' && principal.mode === 'test') {
      throw new VigilError('key_scope_exceeded', 'mode: a test key can only create test keys.', { param: 'mode' });
    }
    const base = {
      tenantId: principal.tenantId,
      tenantKind: principal.tenantKind,
      mode,
      name: body.name?.trim() ?? null,
      rateLimitPerMinute: principal.rateLimitPerMinute,
    };
    if (principal.tenantKind === 'household') {
      if (body.capabilities !== undefined) throw invalid('capabilities', 'household keys have no capability list; they reach their whole household');
      if (body.locations !== undefined) throw invalid('locations', 'household keys are not limited to locations');
      spec = { ...base, role: body.role ?? 'member', capabilities: [], locations: null };
    } else {
      if (body.role !== undefined) throw invalid('role', 'roles apply to household keys; organization keys have capabilities');
      const capabilities = (body.capabilities ?? [...principal.capabilities]) as Capability[];
      const extra = capabilities.filter((c) => !principal.capabilities.has(c));
      if (extra.length) {
        throw new VigilError(
          'key_scope_exceeded',
          `capabilities: this key does not hold ${extra.join(', ')}, so it cannot grant ${extra.length === 1 ? 'it' : 'them'}.`,
          {
            param: 'capabilities',
            errors: extra.map((c) => ({ param: 'capabilities', message: `${c} is not held by the creating key` })),
          },
        );
      }
      const locations = body.locations === undefined ? (principal.locations ? [...principal.locations] : null) : body.locations;
      if (principal.locations) {
        const own = principal.locations;
        if (locations === null) {
          throw new VigilError('key_scope_exceeded', `locations: this key is limited to ${own.join(', ')}; it cannot create a key for every location.`, {
            param: 'locations',
          });
        }
        const outside = locations.filter((l) => !own.includes(l));
        if (outside.length) {
          throw new VigilError(
            'key_scope_exceeded',
            `locations: this key is limited to ${own.join(', ')}; ${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} outside it.`,
            { param: 'locations' },
          );
        }
      }
      spec = { ...base, role: 'owner', capabilities, locations };
    }
    return this.deps.database.withWriteLock(async (trx) => {
      const { row, key } = await this.insertKey(trx, actor, spec);
      return { ...toKeyView(row), key };
    });
  }

  /** The keys of the caller's tenant it may see (revoked ones included, so the history is visible), newest first. */
  async listForPrincipal(principal: Principal, q: PageQuery): Promise<Page<ApiKeyView>> {
    this.assertCanManage(principal);
    const rows = (await keyRepository.listForTenant(this.deps.database.db, principal.tenantId)).filter((r) => withinScope(principal, r));
    // keys of one tenant are few, so the cursor walks the filtered rows in memory
    return mapPage(paginateRows(rows, q), toKeyView);
  }

  async getForPrincipal(principal: Principal, id: string): Promise<ApiKeyView> {
    this.assertCanManage(principal);
    return toKeyView(await this.load(this.deps.database.db, principal, id));
  }

  /** Revoked from the next request on (401 api_key_revoked). Revoking a revoked key answers it as it is. */
  async revokeForPrincipal(principal: Principal, actor: Actor, id: string): Promise<ApiKeyView> {
    this.assertCanManage(principal);
    const now = toIso(this.deps.clock.now());
    return this.deps.database
      .withWriteLock(async (trx) => {
        const row = await this.load(trx, principal, id);
        if (row.revoked_at) return toKeyView(row);
        await keyRepository.revoke(trx, id, now);
        await this.deps.audit.appendIn(trx, actor, [
          {
            tenantId: row.tenant_id,
            action: 'api_key.revoked',
            resourceType: 'api_key',
            resourceId: id,
            data: { preview: row.preview, name: row.name },
            scope: scopeOfLocations(row.locations),
          },
        ]);
        return toKeyView({ ...row, revoked_at: now });
      })
      .finally(() => this.deps.invalidation.publish(CACHE_TOPICS.apiKey, id));
  }

  /** A new secret with the same role, capabilities, locations, mode and rate limit; the old key is revoked in the same transaction. */
  async rotateForPrincipal(principal: Principal, actor: Actor, id: string): Promise<ApiKeyWithSecretView> {
    this.assertCanManage(principal);
    const now = toIso(this.deps.clock.now());
    return this.deps.database
      .withWriteLock(async (trx) => {
        const old = await this.load(trx, principal, id);
        if (old.revoked_at) {
          throw new VigilError('invalid_state_transition', `Key ${id} was revoked at ${old.revoked_at}; create a new key instead.`, {
            extra: { current_status: 'revoked' },
          });
        }
        const { row, key } = await this.insertKey(
          trx,
          actor,
          {
            tenantId: old.tenant_id,
            tenantKind: old.tenant_kind,
            mode: old.mode,
            role: old.role,
            name: old.name,
            capabilities: (parseList(old.capabilities) ?? []) as Capability[],
            locations: parseList(old.locations),
            rateLimitPerMinute: old.rate_limit_per_minute,
          },
          { action: 'api_key.rotated', data: { replaces: old.id, replaced_preview: old.preview } },
        );
        await keyRepository.revoke(trx, old.id, now);
        await this.deps.audit.appendIn(trx, actor, [
          {
            tenantId: old.tenant_id,
            action: 'api_key.revoked',
            resourceType: 'api_key',
            resourceId: old.id,
            data: { preview: old.preview, name: old.name, replaced_by: row.id },
            scope: scopeOfLocations(old.locations),
          },
        ]);
        return { ...toKeyView(row), key };
      })
      .finally(() => this.deps.invalidation.publish(CACHE_TOPICS.apiKey, id));
  }

  /** Households: owners only. Organizations: keys:manage (also checked by the route, kept here for every other door). */
  private assertCanManage(principal: Principal): void {
    assertOwner(principal, 'manage keys');
    if (principal.tenantKind === 'organization' && !principal.capabilities.has('keys:manage')) {
      throw new VigilError('insufficient_capability', 'This key lacks the capability "keys:manage".', {
        param: 'keys:manage',
        extra: { capability: 'keys:manage' },
      });
    }
  }

  /** A key of the caller's tenant within its scope; anything else is 404 (docs/design.md "Auth": no existence leaks). */
  private async load(db: DbExecutor, principal: Principal, id: string): Promise<ApiKeyTable> {
    const row = await keyRepository.findForTenant(db, principal.tenantId, id);
    if (!row || !withinScope(principal, row)) throw notFound('API key', id);
    return row;
  }

  async ensureTenant(db: DbExecutor, kind: TenantKind, name: string, now: number) {
    const existing = await findTenantByName(db, kind, name);
    if (existing) return existing;
    const row = {
      id: newId(kind === 'organization' ? 'org' : 'hh', now),
      kind,
      name,
      settings: '{}',
      created_at: toIso(now),
    };
    await insertTenant(db, row);
    return row;
  }

  private resolveCapabilities(input: CreateKeyInput): Capability[] {
    if (input.tenantKind === 'household') return [];
    const requested = input.capabilities ?? 'all';
    if (requested === 'all') return [...CAPABILITIES];
    const unknown = requested.filter((c) => !isCapability(c));
    if (unknown.length) {
      throw invalid('capabilities', `unknown capability ${unknown.join(', ')}; known: ${CAPABILITIES.join(', ')}`);
    }
    return requested as Capability[];
  }

  async listKeys() {
    const rows = await keyRepository.listAll(this.deps.database.db);
    return rows.map((r) => ({
      id: r.id,
      preview: r.preview,
      tenant_id: r.tenant_id,
      tenant_name: r.tenant_name,
      tenant_kind: r.tenant_kind,
      mode: r.mode,
      role: r.tenant_kind === 'household' ? r.role : null,
      name: r.name,
      capabilities: JSON.parse(r.capabilities) as string[],
      locations: r.locations ? (JSON.parse(r.locations) as string[]) : null,
      created_at: r.created_at,
      revoked_at: r.revoked_at,
    }));
  }

  async revokeKey(id: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.database
      .withWriteLock(async (trx) => {
        const row = await keyRepository.findById(trx, id);
        if (!row) throw notFound('API key', id);
        if (!(await keyRepository.revoke(trx, id, toIso(now)))) return;
        await this.deps.audit.appendIn(trx, CLI_ACTOR, [
          { tenantId: row.tenant_id, action: 'api_key.revoked', resourceType: 'api_key', resourceId: id, data: { preview: row.preview, name: row.name } },
        ]);
      })
      .finally(() => this.deps.invalidation.publish(CACHE_TOPICS.apiKey, id));
  }

  /**
   * A verified key is trusted for a few seconds without a lookup (VerifiedKeyCache); revoking or
   * rotating it here forgets it at once, so revocation takes effect on the next request.
   */
  async authenticate(presented: string | undefined): Promise<Principal> {
    if (!presented) throw new VigilError('missing_api_key', 'Send Authorization: Bearer <API key>.');
    if (presented.length !== KEY_LENGTH) throw malformedKey();
    const hash = hashKey(presented);
    const now = this.deps.clock.now();
    if (this.deps.externalCommits?.()) this.verified.forgetAll();
    // only keys that parsed and verified are cached, so a hit needs no second look at the shape
    // and checksum (a regular expression and a CRC32 on every request)
    const cached = this.verified.get(hash, now);
    if (cached) return cached;
    if (!parseKey(presented)) throw malformedKey();
    const generation = this.verified.generation;
    const row = await keyRepository.findByHash(this.deps.database.db, hash);
    if (!row) throw new VigilError('invalid_api_key', 'The API key is not recognised.');
    if (row.revoked_at) throw new VigilError('api_key_revoked', `The API key ${row.preview} was revoked at ${row.revoked_at}.`);
    const principal = toPrincipal(row);
    this.verified.set(hash, principal, now, generation);
    return principal;
  }

  /**
   * `authenticate`'s cache hit, synchronous: the same freshness check (another process's commit
   * forgets every key first) and the same cache, so a revoked key is refused exactly as there.
   */
  cachedPrincipal(presented: string): Principal | undefined {
    if (presented.length !== KEY_LENGTH) return undefined;
    if (this.deps.externalCommits?.()) this.verified.forgetAll();
    return this.verified.get(hashKey(presented), this.deps.clock.now());
  }
}

function malformedKey(): VigilError {
  return new VigilError('invalid_api_key', 'The API key is malformed (wrong prefix, length or checksum).');
}

/** What a key row authorizes; a console session acts with exactly this too. */
export function toPrincipal(row: ApiKeyTable): Principal {
  return Object.freeze({
    keyId: row.id,
    tenantId: row.tenant_id,
    tenantKind: row.tenant_kind,
    mode: row.mode,
    capabilities: new Set(JSON.parse(row.capabilities) as Capability[]),
    locations: row.locations ? (JSON.parse(row.locations) as string[]) : null,
    rateLimitPerMinute: row.rate_limit_per_minute,
    role: row.role,
  });
}

/**
 * Whether an organization key may see (and so revoke or rotate) another key of its organization:
 * only keys no wider than itself, or rotating would hand it a wider secret. Household owners see
 * every key of their household.
 */
function withinScope(principal: Principal, row: ApiKeyTable): boolean {
  if (principal.tenantKind === 'household') return true;
  const caps = parseList(row.capabilities) ?? [];
  if (!caps.every((c) => principal.capabilities.has(c as Capability))) return false;
  if (!principal.locations) return true;
  const locs = parseList(row.locations);
  return locs !== null && locs.every((l) => principal.locations!.includes(l));
}
