import { type DatabaseHandle, type DbExecutor, type PageQuery, mapPage } from '../db/index.ts';
import type { Principal } from '../identity/index.ts';
import { invalid } from '../lib/index.ts';
import { computeAuditHash, computeDataHash, GENESIS_HASH, type AuditLineFields } from './audit-chain.ts';
import { checkpointPayload, type AuditCheckpointService } from './audit-checkpoint.service.ts';
import { auditQueryRepository, FULL_VISIBILITY, type AuditCheckpointRow, type AuditFilter, type AuditVisibility } from './audit-query.repository.ts';
import type { AuditRow } from './audit.repository.ts';
import type { AuditCheckpointView, AuditEntryView, AuditListQueryT, AuditVerificationView } from './audit.schemas.ts';

const CHUNK = 1000;

/**
 * One exported line (docs/design.md "Audit", docs/decisions.md "Audit"): the hashed fields, the
 * content fields, then prev_hash and hash. A line the caller may not read has `redacted: true` and
 * resource_id, data, salt, location and stream_id null; its data_hash still lets the chain be checked.
 */
export type AuditExportLine = AuditLineFields & { redacted?: true; prev_hash: string; hash: string };

export type BreakReason = 'entry_altered' | 'link_broken' | 'checkpoint_mismatch' | 'checkpoint_invalid' | 'entry_missing' | 'truncated';

export interface ChainBreak {
  reason: BreakReason;
  /** absent when the broken entries no longer exist (truncation) or the checkpoint itself is bad */
  first_broken_id?: string;
  detail: string;
}

function parseData(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function toAuditEntryView(r: AuditRow): AuditEntryView {
  return {
    id: r.id,
    object: 'audit_entry',
    at: r.at,
    actor: { key_id: r.actor_key_id, operator: r.actor_operator },
    action: r.action,
    resource: { type: r.resource_type, id: r.resource_id },
    request_id: r.request_id,
    data: parseData(r.data),
    data_hash: r.data_hash,
    prev_hash: r.prev_hash,
    hash: r.hash,
  };
}

export function toCheckpointView(c: AuditCheckpointRow): AuditCheckpointView {
  return checkpointPayload(c);
}

export function isVisible(v: AuditVisibility, r: Pick<AuditRow, 'location' | 'stream_id' | 'resource_id'>): boolean {
  if (v.allowedLocations && (r.location === null || !v.allowedLocations.includes(r.location))) return false;
  if (r.location !== null && v.hiddenLocations.includes(r.location)) return false;
  if (r.stream_id !== null && v.hiddenStreams.includes(r.stream_id)) return false;
  if (r.resource_id !== null && v.hiddenResources.includes(r.resource_id)) return false;
  return true;
}

/** A format-2 entry whose content was cleared by an erasure (data and salt gone, data_hash kept). */
function isErased(r: AuditRow): boolean {
  return (r.format ?? 1) >= 2 && r.salt === null && r.data === null;
}

export function toExportLine(r: AuditRow, visible = true): AuditExportLine {
  const base = {
    id: r.id,
    format: r.format ?? 1,
    tenant_id: r.tenant_id,
    at: r.at,
    actor_key_id: r.actor_key_id,
    actor_operator: r.actor_operator,
    action: r.action,
    resource_type: r.resource_type,
    request_id: r.request_id,
  };
  // an erased entry reads as redacted to every key: its data_hash still links it into the chain
  if (!visible || isErased(r))
    return {
      ...base,
      resource_id: null,
      location: null,
      stream_id: null,
      data: null,
      salt: null,
      data_hash: r.data_hash,
      redacted: true,
      prev_hash: r.prev_hash,
      hash: r.hash,
    };
  return {
    ...base,
    resource_id: r.resource_id,
    location: r.location,
    stream_id: r.stream_id,
    data: r.data,
    salt: r.salt,
    data_hash: r.data_hash,
    prev_hash: r.prev_hash,
    hash: r.hash,
  };
}

/** Whether a line is consistent with itself (its hash from its own fields and prev_hash). */
function isSelfConsistent(line: AuditExportLine): boolean {
  const format = line.format ?? 1;
  // a redacted format-1 line withholds the data its hash covers: only its links can be checked
  if (format === 1 && line.redacted) return true;
  if (format !== 1 && !line.redacted && !dataHashMatches(line)) return false;
  return computeAuditHash(line.prev_hash, line) === line.hash;
}

function dataHashMatches(line: AuditExportLine): boolean {
  return line.salt !== null && computeDataHash(line.salt, line.resource_id, line.location, line.stream_id, line.data) === line.data_hash;
}

type TextField = 'actor_operator' | 'resource_id' | 'location' | 'stream_id';
const REPLACEMENT = '\ufffd';
/** spans of U+FFFD tried per group of fields: each costs up to 2,048 hashes */
const MAX_LEGACY_POSITIONS = 12;

/**
 * Whether the line was written before requests were checked for unpaired UTF-16 surrogates, with
 * one in a text field (docs/decisions.md, "Text integrity"): the entry was hashed over the
 * surrogate, but the database stored U+FFFD in its place (PostgreSQL one, SQLite three). Such a
 * line hashes to its stored hash once that span is put back to the surrogate it replaced, so it is recognised by
 * trying each surrogate (U+D800–U+DFFF) at each U+FFFD. Only that substitution is accepted: any
 * other change to the entry still fails. One surrogate per group is recognised (the hash covers
 * actor_operator; data_hash covers resource_id, location and stream_id), which bounds the search.
 */
export function isLegacySubstitution(line: AuditExportLine): boolean {
  const format = line.format ?? 1;
  if (format === 1) {
    if (line.redacted) return false;
    return substituted(line, ['actor_operator', 'resource_id'], (l) => computeAuditHash(l.prev_hash, l) === line.hash);
  }
  if (!line.redacted && !dataHashMatches(line)) {
    if (!substituted(line, ['resource_id', 'location', 'stream_id'], dataHashMatches)) return false;
  }
  return computeAuditHash(line.prev_hash, line) === line.hash || substituted(line, ['actor_operator'], (l) => computeAuditHash(l.prev_hash, l) === line.hash);
}

function substituted(line: AuditExportLine, fields: TextField[], matches: (l: AuditExportLine) => boolean): boolean {
  // PostgreSQL (through Buffer's UTF-8 encoder) stored one U+FFFD per surrogate; SQLite stored the
  // surrogate's three WTF-8 bytes, which read back as three U+FFFD: both spans are candidates
  const spans: Array<[TextField, number, number]> = [];
  for (const f of fields) {
    const v = line[f];
    for (let i = v?.indexOf(REPLACEMENT) ?? -1; i >= 0 && v; i = v.indexOf(REPLACEMENT, i + 1)) {
      spans.push([f, i, 1]);
      if (v.startsWith(REPLACEMENT.repeat(3), i)) spans.push([f, i, 3]);
    }
  }
  if (spans.length === 0 || spans.length > MAX_LEGACY_POSITIONS) return false;
  for (const [f, i, n] of spans) {
    const v = line[f]!;
    for (let code = 0xd800; code <= 0xdfff; code++) {
      if (matches({ ...line, [f]: v.slice(0, i) + String.fromCharCode(code) + v.slice(i + n) })) return true;
    }
  }
  return false;
}

export interface ChainState {
  head: string;
  headId: string | null;
  checked: number;
}

/**
 * Walks lines of one chain in order and names the first broken entry. A line whose own hash does
 * not match was changed; a line that is consistent but does not link to its predecessor means the
 * predecessor was changed and re-hashed (or entries after it were removed), so the predecessor is
 * named. The same function checks the database (GET /v1/audit/verify) and an NDJSON export.
 */
export function verifyAuditLines(lines: Iterable<AuditExportLine>, state: ChainState = { head: GENESIS_HASH, headId: null, checked: 0 }): ChainBreak | null {
  for (const line of lines) {
    const b = stepLine(line, state);
    if (b) return b;
  }
  return null;
}

function stepLine(line: AuditExportLine, state: ChainState): ChainBreak | null {
  state.checked++;
  if (!isSelfConsistent(line) && !isLegacySubstitution(line)) {
    return {
      reason: 'entry_altered',
      first_broken_id: line.id,
      detail: `Entry ${line.id} does not hash to its stored hash: it was changed after it was written.`,
    };
  }
  if (line.prev_hash !== state.head) {
    const id = state.headId ?? line.id;
    return {
      reason: 'link_broken',
      first_broken_id: id,
      detail: state.headId
        ? `Entry ${line.id} does not link to ${state.headId}: ${state.headId} was changed and re-hashed, or entries after it were removed.`
        : `The first entry ${line.id} does not start the chain: earlier entries were removed.`,
    };
  }
  state.head = line.hash;
  state.headId = line.id;
  return null;
}

const CONFINED_DETAIL: Record<BreakReason, string> = {
  entry_altered: 'An entry does not hash to its stored hash: it was changed after it was written.',
  link_broken: 'An entry was changed and re-hashed, or entries after it were removed.',
  checkpoint_mismatch: 'An entry a signed checkpoint names has a different hash now: it was changed and re-hashed.',
  checkpoint_invalid: "A checkpoint does not carry the server's signature: it was forged or changed.",
  entry_missing: 'An entry a signed checkpoint names is missing: it was deleted.',
  truncated: 'Entries were removed from the end of the chain after the latest signed checkpoint.',
};

export interface VerifyOutcome {
  valid: boolean;
  entries_checked: number;
  head_hash: string | null;
  checkpoint: AuditCheckpointRow | null;
  broken: ChainBreak | null;
}

/**
 * What a household's boundaries hide now (muted sensors, rooms and sensors left alone), as the
 * locations and stream ids of audit entries. The household module supplies it; the audit trail
 * only applies it, so the platform never reads household tables.
 */
export interface HouseholdBoundaries {
  hiddenFrom(db: DbExecutor, tenantId: string): Promise<{ locations: string[]; streams: string[]; resources: string[] }>;
}

/** Listing, verification and export of a tenant's audit trail. */
export class AuditTrailService {
  constructor(private readonly deps: { database: DatabaseHandle; checkpoints: AuditCheckpointService; householdBoundaries: HouseholdBoundaries }) {}

  /**
   * What this key may read: an organization key its locations; a household key nothing about a
   * muted sensor or a room or sensor left alone — decided by the boundaries in force now, so what
   * was recorded before a boundary is out of view too (the user asked for the room not to be looked at).
   */
  async visibilityOf(principal: Principal, db: DbExecutor = this.deps.database.db): Promise<AuditVisibility> {
    if (principal.tenantKind === 'organization') return { ...FULL_VISIBILITY, allowedLocations: principal.locations };
    const hidden = await this.deps.householdBoundaries.hiddenFrom(db, principal.tenantId);
    return {
      allowedLocations: principal.locations,
      hiddenLocations: hidden.locations,
      hiddenStreams: hidden.streams,
      hiddenResources: hidden.resources,
    };
  }

  async list(principal: Principal, q: AuditListQueryT) {
    if (q.since && q.until && q.since > q.until) throw invalid('since', 'must not be after until');
    const filter: AuditFilter = {
      resourceType: q.resource_type,
      resourceId: q.resource_id,
      actor: q.actor,
      action: q.action?.split(','),
      excludeAction: q.exclude_action?.split(','),
      since: q.since && new Date(q.since).toISOString(),
      until: q.until && new Date(q.until).toISOString(),
    };
    const visibility = await this.visibilityOf(principal);
    const page = await auditQueryRepository.listPage(this.deps.database.db, principal.tenantId, filter, visibility, q);
    return mapPage(page, (r) => toAuditEntryView({ ...r, seq: Number(r.seq) }));
  }

  /**
   * Recomputes the whole chain in chunks (constant memory) and checks it against every signed
   * checkpoint of the tenant: an entry a checkpoint names must still be there, in its place, with
   * its hash, and nothing the newest checkpoint covers may be missing at the end.
   */
  async verifyChain(tenantId: string): Promise<VerifyOutcome> {
    const { db } = this.deps.database;
    const state: ChainState = { head: GENESIS_HASH, headId: null, checked: 0 };
    let afterSeq = 0;
    let latest: AuditCheckpointRow | null = null;
    const fail = (broken: ChainBreak): VerifyOutcome => ({ valid: false, entries_checked: state.checked, head_hash: null, checkpoint: latest, broken });
    const checkCheckpoint = async (cp: AuditCheckpointRow): Promise<ChainBreak | null> => {
      latest = cp;
      if (!(await this.deps.checkpoints.isAuthentic(cp))) {
        return { reason: 'checkpoint_invalid', detail: `Checkpoint ${cp.id} does not carry the server's signature: it was forged or changed.` };
      }
      return null;
    };
    for (;;) {
      const rows = await auditQueryRepository.chainChunk(db, tenantId, afterSeq, CHUNK);
      if (rows.length === 0) break;
      const cps = await auditQueryRepository.checkpointsInRange(db, tenantId, afterSeq, rows[rows.length - 1].seq);
      let c = 0;
      for (const row of rows) {
        // a checkpoint whose entry's place has been passed without meeting it: that entry is gone
        for (; c < cps.length && cps[c].head_seq < row.seq; c++) {
          const bad = await checkCheckpoint(cps[c]);
          if (bad) return fail(bad);
          return fail({
            reason: 'entry_missing',
            first_broken_id: cps[c].head_id,
            detail: `Entry ${cps[c].head_id}, the ${cps[c].entry_count}th of the chain in checkpoint ${cps[c].id}, is missing: it was deleted.`,
          });
        }
        const broken = stepLine(toExportLine(row), state);
        if (broken) return fail(broken);
        for (; c < cps.length && cps[c].head_seq === row.seq; c++) {
          const cp = cps[c];
          const bad = await checkCheckpoint(cp);
          if (bad) return fail(bad);
          if (cp.head_id !== row.id || cp.head_hash !== row.hash || cp.entry_count !== state.checked) {
            return fail({
              reason: 'checkpoint_mismatch',
              first_broken_id: row.id,
              detail: `Checkpoint ${cp.id} signed entry ${cp.head_id} as the ${cp.entry_count}th with hash ${cp.head_hash}; the chain now has ${row.id} as the ${state.checked}th with hash ${row.hash}: it was changed and re-hashed.`,
            });
          }
        }
      }
      afterSeq = rows[rows.length - 1].seq;
    }
    // checkpoints beyond the end of the chain: the newest entries were removed
    const beyond = await auditQueryRepository.checkpointsInRange(db, tenantId, afterSeq);
    if (beyond.length) {
      const cp = beyond[beyond.length - 1];
      const bad = await checkCheckpoint(cp);
      if (bad) return fail(bad);
      return fail({
        reason: 'truncated',
        detail: `Checkpoint ${cp.id} (${cp.created_at}) signed ${cp.entry_count} entries ending with ${cp.head_id}; the chain now ends after ${state.checked}${state.headId ? ` with ${state.headId}` : ''}: ${cp.entry_count - state.checked} or more entries were removed from its end.`,
      });
    }
    return { valid: true, entries_checked: state.checked, head_hash: state.checked ? state.head : null, checkpoint: latest, broken: null };
  }

  /**
   * Verifies the whole chain server-side for any key; a key that cannot see the first broken
   * entry (another location, a room left alone) learns that the chain is broken and why, not which entry.
   */
  async verify(principal: Principal): Promise<AuditVerificationView> {
    const out = await this.verifyChain(principal.tenantId);
    const view: AuditVerificationView = {
      valid: out.valid,
      entries_checked: out.entries_checked,
      head_hash: out.head_hash,
      checkpoint: out.checkpoint ? toCheckpointView(out.checkpoint) : null,
    };
    if (!out.broken) return view;
    let { first_broken_id: id, detail } = out.broken;
    const visibility = await this.visibilityOf(principal);
    const confined =
      visibility.allowedLocations !== null ||
      visibility.hiddenLocations.length > 0 ||
      visibility.hiddenStreams.length > 0 ||
      visibility.hiddenResources.length > 0;
    if (confined) {
      // the detailed text names neighbouring entries, which may be out of view: a confined key gets the reason's own words
      detail = CONFINED_DETAIL[out.broken.reason];
      const row = id ? await auditQueryRepository.placeOf(this.deps.database.db, principal.tenantId, id) : undefined;
      // a deleted entry's place is unknown: its id is kept from a confined key
      if (id && (!row || !isVisible(visibility, row))) {
        id = undefined;
        detail = `${detail} The entry is outside what this key may read.`;
      }
    }
    return { ...view, reason: out.broken.reason, detail, ...(id ? { first_broken_id: id } : {}) };
  }

  async checkpoints(principal: Principal, q: PageQuery) {
    const page = await auditQueryRepository.checkpointsPage(this.deps.database.db, principal.tenantId, q);
    return mapPage(page, (r) => toCheckpointView({ ...r, head_seq: Number(r.head_seq), entry_count: Number(r.entry_count) }));
  }

  /**
   * A proof that these entries are in the tenant's chain under a signed checkpoint (the evidence
   * bundle, docs/decisions.md "Evidence bundles"): the run of entries from the earliest of them to
   * the head of the first checkpoint that covers the latest (made now when none does yet), entries
   * the key may not read redacted (their data_hash still links them), and the checkpoint. The first
   * line is the `first_position`-th entry of the chain; the last is the checkpoint's head.
   */
  async proofFor(
    principal: Principal,
    entryIds: readonly string[],
  ): Promise<{ checkpoint: AuditCheckpointView; first_position: number; lines: AuditExportLine[] } | null> {
    const { db } = this.deps.database;
    const seqs = await auditQueryRepository.seqsOf(db, principal.tenantId, entryIds);
    if (seqs.length === 0) return null;
    const minSeq = Math.min(...seqs);
    const maxSeq = Math.max(...seqs);
    let cp: AuditCheckpointRow | null = (await auditQueryRepository.checkpointsInRange(db, principal.tenantId, maxSeq - 1))[0] ?? null;
    cp ??= await this.deps.checkpoints.checkpoint(principal.tenantId);
    if (!cp || cp.head_seq < maxSeq) return null;
    const visibility = await this.visibilityOf(principal);
    const lines: AuditExportLine[] = [];
    for (let after = minSeq - 1; ;) {
      const rows = await auditQueryRepository.chainChunk(db, principal.tenantId, after, CHUNK, cp.head_seq);
      if (rows.length === 0) break;
      for (const r of rows) lines.push(toExportLine(r, isVisible(visibility, r)));
      after = rows[rows.length - 1].seq;
    }
    return { checkpoint: toCheckpointView(cp), first_position: cp.entry_count - lines.length + 1, lines };
  }

  /**
   * The chain as NDJSON: first the tenant's checkpoint of its current head (made now if the head
   * moved), then every entry up to that head, oldest first; entries the key may not read redacted.
   */
  async *exportLines(principal: Principal): AsyncGenerator<string> {
    const cp = await this.deps.checkpoints.checkpoint(principal.tenantId);
    const visibility = await this.visibilityOf(principal);
    if (cp) yield JSON.stringify(toCheckpointView(cp)) + '\n';
    let afterSeq = 0;
    for (;;) {
      const rows = await auditQueryRepository.chainChunk(this.deps.database.db, principal.tenantId, afterSeq, CHUNK, cp?.head_seq ?? 0);
      if (rows.length === 0) return;
      yield rows.map((r) => JSON.stringify(toExportLine(r, isVisible(visibility, r))) + '\n').join('');
      afterSeq = rows[rows.length - 1].seq;
    }
  }
}
