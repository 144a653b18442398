import type { DatabaseHandle } from '../db/database.ts';
import type { Principal } from '../keys/key.service.ts';
import { invalid } from '../lib/errors.ts';
import { mapPage, paginate } from '../http/pagination.ts';
import { computeAuditHash, GENESIS_HASH, type AuditFields } from './audit-chain.ts';
import { auditQueryRepository, type AuditFilter } from './audit-query.repository.ts';
import type { AuditRow } from './audit.repository.ts';
import type { AuditEntryView, AuditListQueryT, AuditVerificationView } from './audit.schemas.ts';

const CHUNK = 1000;

/** The exported line: exactly the hashed fields, then prev_hash and hash (DESIGN.md "Audit"). */
export type AuditExportLine = AuditFields & { prev_hash: string; hash: string };

export function toAuditEntryView(r: AuditRow): AuditEntryView {
  let data: unknown = null;
  if (r.data !== null) {
    try {
      data = JSON.parse(r.data);
    } catch {
      data = r.data;
    }
  }
  return {
    id: r.id,
    object: 'audit_entry',
    at: r.at,
    actor: { key_id: r.actor_key_id, operator: r.actor_operator },
    action: r.action,
    resource: { type: r.resource_type, id: r.resource_id },
    request_id: r.request_id,
    data,
    prev_hash: r.prev_hash,
    hash: r.hash,
  };
}

export function toExportLine(r: AuditRow): AuditExportLine {
  return {
    id: r.id,
    tenant_id: r.tenant_id,
    at: r.at,
    actor_key_id: r.actor_key_id,
    actor_operator: r.actor_operator,
    action: r.action,
    resource_type: r.resource_type,
    resource_id: r.resource_id,
    request_id: r.request_id,
    data: r.data,
    prev_hash: r.prev_hash,
    hash: r.hash,
  };
}

/**
 * Walks lines of one chain in order and names the first that does not link or does not hash.
 * The same function checks the database (GET /v1/audit/verify) and an NDJSON export offline.
 */
export function verifyAuditLines(lines: Iterable<AuditExportLine>, state = { head: GENESIS_HASH, checked: 0 }): { valid: boolean; entries_checked: number; first_broken_id?: string; head: string } {
  for (const line of lines) {
    state.checked++;
    if (line.prev_hash !== state.head || computeAuditHash(state.head, line) !== line.hash) {
      return { valid: false, entries_checked: state.checked, first_broken_id: line.id, head: state.head };
    }
    state.head = line.hash;
  }
  return { valid: true, entries_checked: state.checked, head: state.head };
}

/** Listing, verification and export of a tenant's audit trail (issue 3 §6). */
export class AuditTrailService {
  constructor(private readonly deps: { database: DatabaseHandle }) {}

  async list(principal: Principal, q: AuditListQueryT) {
    if (q.since && q.until && q.since > q.until) throw invalid('since', 'must not be after until');
    const filter: AuditFilter = {
      resourceType: q.resource_type,
      resourceId: q.resource_id,
      actor: q.actor,
      action: q.action,
      since: q.since && new Date(q.since).toISOString(),
      until: q.until && new Date(q.until).toISOString(),
    };
    const qb = auditQueryRepository.listQuery(this.deps.database.db, principal.tenantId, filter);
    return mapPage(await paginate(qb, 'id', q), (r) => toAuditEntryView({ ...r, seq: Number(r.seq) }));
  }

  /** Recomputes the whole chain in chunks (constant memory) and names the first broken entry. */
  async verify(principal: Principal): Promise<AuditVerificationView> {
    const state = { head: GENESIS_HASH, checked: 0 };
    let afterSeq = 0;
    for (;;) {
      const rows = await auditQueryRepository.chainChunk(this.deps.database.db, principal.tenantId, afterSeq, CHUNK);
      if (rows.length === 0) break;
      const r = verifyAuditLines(rows.map(toExportLine), state);
      if (!r.valid) return { valid: false, entries_checked: r.entries_checked, first_broken_id: r.first_broken_id, head_hash: null };
      afterSeq = rows[rows.length - 1].seq;
    }
    return { valid: true, entries_checked: state.checked, head_hash: state.checked ? state.head : null };
  }

  /** The chain in order as NDJSON lines, streamed in chunks. */
  async *exportLines(principal: Principal): AsyncGenerator<string> {
    let afterSeq = 0;
    for (;;) {
      const rows = await auditQueryRepository.chainChunk(this.deps.database.db, principal.tenantId, afterSeq, CHUNK);
      if (rows.length === 0) return;
      yield rows.map((r) => JSON.stringify(toExportLine(r)) + '\n').join('');
      afterSeq = rows[rows.length - 1].seq;
    }
  }
}
