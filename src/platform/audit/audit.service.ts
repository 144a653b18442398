import type { Actor } from '../identity/index.ts';
import type { CompanionWrite, DatabaseHandle, DbExecutor } from '../db/index.ts';
import { type Clock, toIso } from '../time/index.ts';
import { isWellFormedText, newId, toWellFormedText } from '../lib/index.ts';
import { computeDataHash, newSalt, type AuditFields } from './audit-chain.ts';
import { auditRepository } from './audit.repository.ts';

export interface AuditInput {
  tenantId: string;
  action: string;
  resourceType: string;
  resourceId: string | null;
  data?: unknown;
  at?: number;
  /**
   * The place the entry is about: reads confine organization keys to their locations and keep a
   * household's muted sensors and left-alone rooms out of every key's view by it. Leave it off for
   * entries that must stay visible to the whole tenant (a boundary set or lifted, a sensor muted).
   */
  scope?: { location?: string | null; streamId?: string | null };
}

/**
 * The scope of an entry about a resource confined to locations (a key, webhook or alert rule):
 * its one location, so a key limited to it reads the entry; none when organization-wide or
 * spanning several, so only unrestricted keys read it.
 */
export function scopeOfLocations(locations: readonly string[] | string | null | undefined): NonNullable<AuditInput['scope']> {
  const list = typeof locations === 'string' ? (JSON.parse(locations) as string[]) : locations;
  return { location: list?.length === 1 ? list[0] : null };
}

/** The text as both databases store it: an unpaired UTF-16 surrogate becomes U+FFFD. */
function wellFormed(s: string | null): string | null {
  return s === null || isWellFormedText(s) ? s : toWellFormedText(s);
}

export class AuditService {
  constructor(private readonly deps: { database: DatabaseHandle; clock: Clock }) {}

  build(actor: Actor, input: AuditInput): AuditFields {
    const at = input.at ?? this.deps.clock.now();
    return this.fields(newId('aud', at), at, actor, input);
  }

  /**
   * `build` but for the id, left empty for the caller to set (`newId('aud', at)`) when the entry takes
   * its place in the chain's order: the pipeline builds an entry (its salt, data and data hash) when
   * the detection arrives, while the commit before it is in flight, and names it when its own commit
   * starts, so ids still follow the order entries are appended in (docs/decisions.md, "Pipeline p95
   * tail").
   */
  buildUnnamed(actor: Actor, input: AuditInput): AuditFields {
    return this.fields('', input.at ?? this.deps.clock.now(), actor, input);
  }

  private fields(id: string, at: number, actor: Actor, input: AuditInput): AuditFields {
    // JSON.stringify writes an unpaired surrogate as the escape \udXXX, so data is stored as hashed;
    // the plain text columns are made well-formed here, so what is hashed is exactly what either
    // database stores (docs/decisions.md, "Text integrity"). Requests never get this far with one.
    const data = input.data === undefined ? null : JSON.stringify(input.data);
    const location = wellFormed(input.scope?.location ?? null);
    const streamId = wellFormed(input.scope?.streamId ?? null);
    const resourceId = wellFormed(input.resourceId);
    const salt = newSalt();
    return {
      id,
      tenant_id: input.tenantId,
      at: toIso(at),
      actor_key_id: actor.keyId,
      actor_operator: wellFormed(actor.operator ?? null),
      action: input.action,
      resource_type: input.resourceType,
      resource_id: resourceId,
      request_id: actor.requestId ?? null,
      data,
      location,
      stream_id: streamId,
      salt,
      data_hash: computeDataHash(salt, resourceId, location, streamId, data),
      format: 2,
    };
  }

  /** Appends inside an existing write-locked transaction (same transaction as the change it records). */
  async appendIn(trx: DbExecutor, actor: Actor, inputs: AuditInput[]): Promise<string[]> {
    const entries = inputs.map((i) => this.build(actor, i));
    await auditRepository.appendChained(trx, entries, this.deps.database.dialect);
    return entries.map((e) => e.id);
  }

  /**
   * Appends entries made with `build` beside a companion write, in the caller's tenant-locked
   * transaction (the pipeline's commit): see auditRepository.appendChainedWith.
   */
  appendBuiltWith(trx: DbExecutor, entries: AuditFields[], companion: CompanionWrite): Promise<void> | undefined {
    return auditRepository.appendChainedWith(this.deps.database, trx, entries, companion);
  }

  /** Clears the content of the tenant's entries about or naming `subject` (erasure); see auditRepository.eraseContent. */
  eraseIn(trx: DbExecutor, tenantId: string, subject: string): Promise<number> {
    return auditRepository.eraseContent(trx, tenantId, subject, this.deps.database.dialect);
  }

  async append(actor: Actor, ...inputs: AuditInput[]): Promise<void> {
    await this.deps.database.withWriteLock((trx) => this.appendIn(trx, actor, inputs));
  }
}
