import { createHash } from 'node:crypto';

/**
 * The hash chain of the audit trail (DESIGN.md "Audit"). Each entry's hash covers the previous
 * entry's hash of the same tenant plus the entry's own fields, in a fixed order, so any change to
 * a stored row, a deletion or a reordering breaks the chain from that row on. Exported entries
 * (NDJSON) carry exactly these fields, so a client can re-verify offline with this function.
 */
export const GENESIS_HASH = '0'.repeat(64);

export interface AuditFields {
  id: string;
  tenant_id: string;
  at: string;
  actor_key_id: string | null;
  actor_operator: string | null;
  action: string;
  resource_type: string;
  resource_id: string | null;
  request_id: string | null;
  data: string | null;
}

export function computeAuditHash(prevHash: string, e: AuditFields): string {
  const canonical = JSON.stringify([
    prevHash,
    e.id,
    e.tenant_id,
    e.at,
    e.actor_key_id,
    e.actor_operator,
    e.action,
    e.resource_type,
    e.resource_id,
    e.request_id,
    e.data,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

export interface ChainedAuditRow extends AuditFields {
  prev_hash: string;
  hash: string;
}

/** Links entries into their tenants' chains, given each tenant's current head. Pure. */
export function chainEntries(entries: AuditFields[], headOf: (tenantId: string) => string): ChainedAuditRow[] {
  const heads = new Map<string, string>();
  return entries.map((e) => {
    const prev = heads.get(e.tenant_id) ?? headOf(e.tenant_id);
    const hash = computeAuditHash(prev, e);
    heads.set(e.tenant_id, hash);
    return { ...e, prev_hash: prev, hash };
  });
}
