import type { DatabaseHandle, DbExecutor } from '../db/database.ts';
import type { ApiKeyTable } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { VigilError, invalid, notFound } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { toIso } from '../lib/time.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { tenantRepository, type TenantKind } from '../tenants/tenant.repository.ts';
import { CAPABILITIES, isCapability, type Capability } from './capabilities.ts';
import { generateKey, hashKey, parseKey, previewKey, type KeyMode } from './key-format.ts';
import { keyRepository } from './key.repository.ts';

/** The authenticated principal of a request. */
export interface Principal {
  keyId: string;
  tenantId: string;
  tenantKind: TenantKind;
  mode: KeyMode;
  capabilities: ReadonlySet<Capability>;
  /** null = every location */
  locations: readonly string[] | null;
  rateLimitPerMinute: number | null;
}

export interface CreateKeyInput {
  tenantKind: TenantKind;
  tenantName: string;
  mode: KeyMode;
  capabilities?: string[] | 'all';
  locations?: string[] | null;
  rateLimitPerMinute?: number | null;
}

export interface CreatedKey {
  id: string;
  key: string;
  tenant_id: string;
  mode: KeyMode;
}

export class KeyService {
  constructor(private readonly deps: { database: DatabaseHandle; clock: Clock; audit: AuditService }) {}

  /** Creates the tenant on first use by name, then a key for it; the key is returned only here. */
  async createKey(input: CreateKeyInput): Promise<CreatedKey> {
    const caps = this.resolveCapabilities(input);
    for (const l of input.locations ?? []) {
      if (!/^[a-z][a-z0-9_]*$/.test(l)) throw invalid('locations', `"${l}" is not a snake_case location`);
    }
    if (!input.tenantName.trim()) throw invalid('name', 'must not be empty');
    const key = generateKey(input.mode);
    const now = this.deps.clock.now();
    return this.deps.database.withWriteLock(async (trx) => {
      const tenant = await this.ensureTenant(trx, input.tenantKind, input.tenantName.trim(), now);
      const row: ApiKeyTable = {
        id: newId('key', now),
        tenant_id: tenant.id,
        tenant_kind: input.tenantKind,
        mode: input.mode,
        key_hash: hashKey(key),
        preview: previewKey(key),
        capabilities: JSON.stringify(caps),
        locations: input.locations && input.locations.length ? JSON.stringify(input.locations) : null,
        rate_limit_per_minute: input.rateLimitPerMinute ?? null,
        created_at: toIso(now),
        revoked_at: null,
      };
      await keyRepository.insert(trx, row);
      await this.deps.audit.appendIn(trx, { keyId: null, operator: 'admin-cli' }, [
        {
          tenantId: tenant.id,
          action: 'api_key.created',
          resourceType: 'api_key',
          resourceId: row.id,
          data: { mode: row.mode, capabilities: caps, locations: input.locations ?? null, preview: row.preview },
        },
      ]);
      return { id: row.id, key, tenant_id: tenant.id, mode: input.mode };
    });
  }

  async ensureTenant(db: DbExecutor, kind: TenantKind, name: string, now: number) {
    const existing = await tenantRepository.findByName(db, kind, name);
    if (existing) return existing;
    const row = {
      id: newId(kind === 'organization' ? 'org' : 'hh', now),
      kind,
      name,
      settings: '{}',
      created_at: toIso(now),
    };
    await tenantRepository.insert(db, row);
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
      capabilities: JSON.parse(r.capabilities) as string[],
      locations: r.locations ? (JSON.parse(r.locations) as string[]) : null,
      created_at: r.created_at,
      revoked_at: r.revoked_at,
    }));
  }

  async revokeKey(id: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.database.withWriteLock(async (trx) => {
      const row = await keyRepository.findById(trx, id);
      if (!row) throw notFound('API key', id);
      if (!(await keyRepository.revoke(trx, id, toIso(now)))) return;
      await this.deps.audit.appendIn(trx, { keyId: null, operator: 'admin-cli' }, [
        { tenantId: row.tenant_id, action: 'api_key.revoked', resourceType: 'api_key', resourceId: id },
      ]);
    });
  }

  /** Looks the key up on every request, so revocation takes effect on the next one. */
  async authenticate(presented: string | undefined): Promise<Principal> {
    if (!presented) throw new VigilError('missing_api_key', 'Send Authorization: Bearer <API key>.');
    if (!parseKey(presented)) {
      throw new VigilError('invalid_api_key', 'The API key is malformed (wrong prefix, length or checksum).');
    }
    const row = await keyRepository.findByHash(this.deps.database.db, hashKey(presented));
    if (!row) throw new VigilError('invalid_api_key', 'The API key is not recognised.');
    if (row.revoked_at) throw new VigilError('api_key_revoked', `The API key ${row.preview} was revoked at ${row.revoked_at}.`);
    return {
      keyId: row.id,
      tenantId: row.tenant_id,
      tenantKind: row.tenant_kind,
      mode: row.mode,
      capabilities: new Set(JSON.parse(row.capabilities) as Capability[]),
      locations: row.locations ? (JSON.parse(row.locations) as string[]) : null,
      rateLimitPerMinute: row.rate_limit_per_minute,
    };
  }
}
