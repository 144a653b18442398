import { createHmac, timingSafeEqual } from 'node:crypto';
import { GENESIS_HASH } from './audit-chain.ts';
import { checkpointMessage } from './audit-checkpoint.service.ts';
import { verifyAuditLines, type AuditExportLine } from './audit-trail.service.ts';

/** One line of an offline verification: what it proves, or names what failed. */
export interface AuditCheck {
  ok: boolean;
  /** a limit of what is proven (not a failure): the signature not checked */
  note?: true;
  text: string;
}

/** The signed checkpoint an export or an evidence bundle carries. */
export interface AuditCheckpointFile {
  tenant_id: string;
  head_id: string;
  head_hash: string;
  entry_count: number;
  created_at: string;
  mac: string;
}

/**
 * Checks a run of audit entries offline against the checkpoint it ends at (docs/decisions.md,
 * "Offline audit verification"): link by link, each entry's own hash, that the last entry is the
 * checkpoint's head and the count its entry_count, and the checkpoint's signature when the key is
 * given. `firstPosition` is the chain position of the first line (1 for a whole export, which must
 * then start at the genesis hash). Shared by `vigil verify-audit` and `vigil verify-evidence`.
 */
export function verifyAuditRun(
  lines: AuditExportLine[],
  cp: AuditCheckpointFile,
  opts: { firstPosition: number; checkpointKey?: Buffer | null; source: string },
): AuditCheck[] {
  const checks: AuditCheck[] = [];
  const fail = (text: string) => checks.push({ ok: false, text });
  if (lines.length === 0) {
    fail(`${opts.source} holds no entries`);
    return checks;
  }
  const start = opts.firstPosition === 1 ? GENESIS_HASH : lines[0].prev_hash;
  const broken = verifyAuditLines(lines, { head: start, headId: null, checked: 0 });
  let chainOk = !broken;
  if (broken) fail(`audit entry ${broken.first_broken_id ?? '?'}: ${broken.reason}: ${broken.detail}`);
  const last = lines[lines.length - 1];
  if (last.id !== cp.head_id || last.hash !== cp.head_hash) {
    fail(`${opts.source} ends with entry ${last.id} (${last.hash}), not with the checkpoint's head ${cp.head_id} (${cp.head_hash})`);
    chainOk = false;
  } else if (opts.firstPosition + lines.length - 1 !== cp.entry_count) {
    fail(
      `${opts.source} holds ${lines.length} entries from position ${opts.firstPosition}; the checkpoint's head is the ${cp.entry_count}th: entries were removed or added`,
    );
    chainOk = false;
  }
  if (chainOk) {
    checks.push({
      ok: true,
      text: `the ${lines.length} audit entries link hash to hash into entries ${opts.firstPosition}–${cp.entry_count} of tenant ${cp.tenant_id}'s chain, ending at checkpoint head ${cp.head_id}`,
    });
  }
  if (opts.checkpointKey) {
    const expected = createHmac('sha256', opts.checkpointKey).update(checkpointMessage(cp)).digest();
    const given = Buffer.from(cp.mac ?? '', 'hex');
    if (given.length === expected.length && timingSafeEqual(given, expected)) {
      checks.push({
        ok: true,
        text: `checkpoint ${cp.head_id} (${cp.created_at}) carries the server's signature: the chain up to it existed at that time and has not changed`,
      });
    } else {
      fail(`the checkpoint's signature does not match the given key: the checkpoint was forged or changed, or the key is not this server's`);
    }
  } else {
    checks.push({
      ok: true,
      note: true,
      text: `checkpoint signature not checked (no key given: --key, VIGIL_AUDIT_CHECKPOINT_KEY or --key-file); compare head ${cp.head_hash} with a kept audit.checkpoint event instead`,
    });
  }
  return checks;
}

/**
 * `GET /v1/audit/export` offline (`vigil verify-audit`): the NDJSON's first line is the signed
 * checkpoint, then the whole chain from its first entry. A line that is not JSON is named by its
 * line number.
 */
export function verifyAuditExport(ndjson: string, opts: { checkpointKey?: Buffer | null } = {}): { valid: boolean; checks: AuditCheck[] } {
  const checks: AuditCheck[] = [];
  let cp: AuditCheckpointFile | null = null;
  const lines: AuditExportLine[] = [];
  const rows = ndjson.split('\n');
  for (let i = 0; i < rows.length; i++) {
    if (rows[i].trim() === '') continue;
    let v: Record<string, unknown>;
    try {
      v = JSON.parse(rows[i]) as Record<string, unknown>;
    } catch {
      checks.push({ ok: false, text: `line ${i + 1}: not valid JSON: it was changed` });
      return { valid: false, checks };
    }
    if (v.object === 'audit_checkpoint') {
      if (cp || lines.length) {
        checks.push({ ok: false, text: `line ${i + 1}: a second checkpoint line: the export was changed` });
        return { valid: false, checks };
      }
      cp = v as unknown as AuditCheckpointFile;
    } else lines.push(v as unknown as AuditExportLine);
  }
  if (!cp) {
    checks.push({ ok: false, text: 'the export does not start with its signed checkpoint line (object "audit_checkpoint")' });
    return { valid: false, checks };
  }
  checks.push(...verifyAuditRun(lines, cp, { firstPosition: 1, checkpointKey: opts.checkpointKey, source: 'the export' }));
  return { valid: checks.every((c) => c.ok), checks };
}
