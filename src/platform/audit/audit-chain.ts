import { hash } from 'node:crypto';
import { takeRandomHex } from '../lib/index.ts';

/**
 * The hash chain of the audit trail (docs/design.md "Audit", docs/decisions.md "Audit"). Each entry's
 * hash covers the previous entry's hash of the same tenant plus the entry's own fields, in a fixed
 * order, so any change to a stored row, a deletion or a reordering breaks the chain from that row on.
 *
 * Two formats live in one chain, told apart per entry by `format`:
 * - format 1 (rows written before migration 006): hash = SHA-256(JSON [prev, id, tenant_id, at,
 *   actor_key_id, actor_operator, action, resource_type, resource_id, request_id, data]).
 * - format 2: the content (resource_id, location, stream_id, data) is committed through
 *   data_hash = SHA-256(JSON [salt, resource_id, location, stream_id, data]) and
 *   hash = SHA-256(JSON ["v2", prev, id, tenant_id, at, actor_key_id, actor_operator, action,
 *   resource_type, request_id, data_hash]).
 *   A reader who may not see the content gets the entry with resource_id, data, salt, location and
 *   stream_id withheld and can still check the chain through data_hash (the resource id is content:
 *   another location's stream id must not leak its existence, docs/design.md "Auth"). The random per-entry salt keeps a
 *   withheld small value (a detection's type and confidence, a room name) from being guessed by
 *   hashing candidates.
 * Exported entries (NDJSON) carry exactly these fields, so a client can re-verify offline.
 */
export const GENESIS_HASH = '0'.repeat(64);
export const CURRENT_AUDIT_FORMAT = 2;

/** What every entry says, in either format; the content fields may be withheld in an export. */
interface AuditEntryCore {
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
  location: string | null;
  stream_id: string | null;
}

/** The fields an entry is written with (format 2). */
export interface AuditFields extends AuditEntryCore {
  salt: string;
  data_hash: string;
  format: 2;
}

/** An entry as stored or exported: either format; content fields may be withheld (redacted). */
export interface AuditLineFields extends AuditEntryCore {
  format: number | null;
  data_hash: string | null;
  salt: string | null;
}

// one-shot crypto.hash (Node ≥ 20.12): about half the cost of createHash().update().digest() for
// inputs this small, and the pipeline hashes twice per detection
const sha256 = (s: string) => hash('sha256', s, 'hex');

export function computeDataHash(salt: string, resourceId: string | null, location: string | null, streamId: string | null, data: string | null): string {
  return sha256(JSON.stringify([salt, resourceId, location, streamId, data]));
}

/** 16 random bytes, hex: one per entry, on the detection hot path, so from the CSPRNG pool. */
export function newSalt(): string {
  return takeRandomHex(16);
}

/** The entry hash for either format (format 2 hashes data_hash, so it needs no content). */
export function computeAuditHash(prevHash: string, e: AuditLineFields): string {
  if ((e.format ?? 1) === 1) {
    return sha256(
      JSON.stringify([prevHash, e.id, e.tenant_id, e.at, e.actor_key_id, e.actor_operator, e.action, e.resource_type, e.resource_id, e.request_id, e.data]),
    );
  }
  return sha256(
    JSON.stringify(['v2', prevHash, e.id, e.tenant_id, e.at, e.actor_key_id, e.actor_operator, e.action, e.resource_type, e.request_id, e.data_hash]),
  );
}

export interface ChainedAuditRow extends AuditFields {
  prev_hash: string;
  hash: string;
}

/**
 * Links entries into their tenants' chains, given each tenant's current head: sets prev_hash and
 * hash on the entries themselves (no copy of every entry on the detection hot path)
 * and returns them. Chaining the same entries again (from fresher heads) overwrites both.
 */
export function chainEntries(entries: AuditFields[], headOf: (tenantId: string) => string): ChainedAuditRow[] {
  const heads = new Map<string, string>();
  const rows = entries as ChainedAuditRow[];
  for (const row of rows) {
    const prev = heads.get(row.tenant_id) ?? headOf(row.tenant_id);
    row.prev_hash = prev;
    row.hash = computeAuditHash(prev, row);
    heads.set(row.tenant_id, row.hash);
  }
  return rows;
}
