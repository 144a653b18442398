import { createHash } from 'node:crypto';
import AdmZip from 'adm-zip';
import { verifyAuditRun, type AuditCheckpointFile, type AuditExportLine } from '../../platform/audit/index.ts';
import { EVIDENCE_FORMAT, type EvidenceManifest } from './evidence-bundle.ts';

export interface EvidenceCheck {
  ok: boolean;
  /** a limit of what is proven (not a failure): the signature not checked, what the clip is */
  note?: true;
  /** what this line proves, or names what failed (a file or an audit entry) */
  text: string;
}

export interface EvidenceReport {
  valid: boolean;
  checks: EvidenceCheck[];
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface CheckpointFile extends AuditCheckpointFile {
  first_position: number;
  export_entry_id: string;
}

function pass(checks: EvidenceCheck[], text: string): void {
  checks.push({ ok: true, text });
}

function fail(checks: EvidenceCheck[], text: string): void {
  checks.push({ ok: false, text });
}

function note(checks: EvidenceCheck[], text: string): void {
  checks.push({ ok: true, note: true, text });
}

function done(checks: EvidenceCheck[]): EvidenceReport {
  return { valid: checks.length > 0 && checks.every((c) => c.ok), checks };
}

function dataOf(l: AuditExportLine | undefined): Record<string, unknown> | null {
  if (!l || l.redacted || l.data === null) return null;
  try {
    return JSON.parse(l.data) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** Step 1: every file as the manifest lists it, and nothing else. */
function checkFiles(files: Map<string, Buffer>, manifest: EvidenceManifest, checks: EvidenceCheck[]): void {
  // 1. every file as the manifest lists it, and nothing else
  let filesOk = true;
  const listed = new Set<string>();
  for (const f of manifest.files) {
    listed.add(f.path);
    const data = files.get(f.path);
    if (!data) {
      fail(checks, `${f.path}: listed in the manifest but missing from the bundle`);
      filesOk = false;
    } else if (sha256(data) !== f.sha256) {
      fail(checks, `${f.path}: SHA-256 ${sha256(data)} differs from the manifest's ${f.sha256}: the file was changed`);
      filesOk = false;
    }
  }
  for (const name of files.keys()) {
    if (!listed.has(name) && name !== 'manifest.json' && !name.startsWith('audit/')) {
      fail(checks, `${name}: in the bundle but not in the manifest: it was added`);
      filesOk = false;
    }
  }
  if (filesOk) pass(checks, `all ${manifest.files.length} files match the SHA-256 the manifest lists`);
}

/** Step 4: the manifest is the one the export recorded. */
function checkExportEntry(byId: Map<string, AuditExportLine>, cp: CheckpointFile, manifestBytes: Buffer, checks: EvidenceCheck[]): void {
  // 4. the manifest is the one the export recorded
  const exported = dataOf(byId.get(cp.export_entry_id));
  if (!exported || byId.get(cp.export_entry_id)?.action !== 'incident.evidence_exported') {
    fail(checks, `audit entry ${cp.export_entry_id}: the export's entry is missing from the chain run or unreadable`);
  } else if (exported.manifest_sha256 !== sha256(manifestBytes)) {
    fail(
      checks,
      `manifest.json: SHA-256 ${sha256(manifestBytes)} differs from ${String(exported.manifest_sha256)} recorded by audit entry ${cp.export_entry_id}: the manifest was changed`,
    );
  } else {
    pass(checks, `manifest.json is the one recorded by audit entry ${cp.export_entry_id} (incident.evidence_exported, ${byId.get(cp.export_entry_id)!.at})`);
  }
}

/** Step 5: each segment was sealed, with these bytes, when it was recorded. */
function checkSegments(byId: Map<string, AuditExportLine>, files: Map<string, Buffer>, manifest: EvidenceManifest, checks: EvidenceCheck[]): void {
  // 5. each segment was sealed, with these bytes, when it was recorded
  let segmentsOk = true;
  for (const s of manifest.segments) {
    const entry = byId.get(s.audit_id);
    const d = dataOf(entry);
    const data = files.get(s.path);
    if (!entry || !d || entry.action !== 'recording.segment_closed') {
      fail(checks, `${s.path}: its audit entry ${s.audit_id} is missing from the chain run or unreadable`);
      segmentsOk = false;
    } else if (!data || sha256(data) !== d.sha256) {
      fail(
        checks,
        `${s.path}: SHA-256 ${data ? sha256(data) : '(missing)'} differs from ${String(d.sha256)} sealed by audit entry ${s.audit_id}: the segment was changed`,
      );
      segmentsOk = false;
    } else if (d.start !== s.start || d.end !== s.end || entry.stream_id !== manifest.stream_id) {
      fail(checks, `${s.path}: the manifest's stream or times differ from those sealed by audit entry ${s.audit_id}`);
      segmentsOk = false;
    }
  }
  if (segmentsOk && manifest.segments.length) {
    const first = manifest.segments[0];
    const lastSeg = manifest.segments[manifest.segments.length - 1];
    pass(
      checks,
      `${manifest.segments.length} segments of stream ${manifest.stream_id} (${first.start} to ${lastSeg.end}) are byte for byte those sealed in the audit trail when they were recorded`,
    );
  }
}

/**
 * Checks an evidence bundle offline (`vigil verify-evidence`, docs/decisions.md "Evidence
 * bundles"): every file against the manifest, the manifest against the export's audit entry, each
 * segment against the audit entry that sealed it, the chain run link by link up to the
 * checkpoint's head, and the checkpoint's signature when the key is given. Each check says what it
 * proves or names the file or entry that fails; nothing here needs the server or its database.
 */
export function verifyEvidence(bundle: Buffer, opts: { checkpointKey?: Buffer | null } = {}): EvidenceReport {
  const checks: EvidenceCheck[] = [];

  let zip: AdmZip;
  try {
    zip = new AdmZip(bundle);
  } catch (err) {
    fail(checks, `the file is not a zip archive: ${(err as Error).message}`);
    return done(checks);
  }
  const files = new Map<string, Buffer>();
  for (const e of zip.getEntries()) {
    if (e.isDirectory) continue;
    try {
      files.set(e.entryName, e.getData());
    } catch (err) {
      fail(checks, `${e.entryName}: cannot be read from the archive (${(err as Error).message}): it was changed`);
    }
  }
  const manifestBytes = files.get('manifest.json');
  if (!manifestBytes) {
    fail(checks, 'manifest.json is missing');
    return done(checks);
  }
  let manifest: EvidenceManifest;
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8')) as EvidenceManifest;
  } catch {
    fail(checks, 'manifest.json is not valid JSON: it was changed');
    return done(checks);
  }
  if (manifest.format !== EVIDENCE_FORMAT) {
    fail(checks, `manifest.json: format ${JSON.stringify(manifest.format)} is not ${EVIDENCE_FORMAT}`);
    return done(checks);
  }

  checkFiles(files, manifest, checks);

  // 2. the audit run, link by link, up to the checkpoint's head
  const chainText = files.get('audit/chain.ndjson');
  const cpText = files.get('audit/checkpoint.json');
  if (!chainText || !cpText) {
    fail(checks, 'audit/chain.ndjson or audit/checkpoint.json is missing: nothing ties the manifest to the audit trail');
    return done(checks);
  }
  let lines: AuditExportLine[];
  let cp: CheckpointFile;
  try {
    lines = chainText
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as AuditExportLine);
    cp = JSON.parse(cpText.toString('utf8')) as CheckpointFile;
  } catch {
    fail(checks, 'audit/chain.ndjson or audit/checkpoint.json is not valid JSON: it was changed');
    return done(checks);
  }
  // 2–3. the audit run up to the checkpoint's head, and its signature (shared with `vigil verify-audit`)
  const auditChecks = verifyAuditRun(lines, cp, { firstPosition: cp.first_position, checkpointKey: opts.checkpointKey, source: 'audit/chain.ndjson' });
  checks.push(...auditChecks);
  if (lines.length === 0) return done(checks);

  const byId = new Map(lines.map((l) => [l.id, l]));

  checkExportEntry(byId, cp, manifestBytes, checks);
  checkSegments(byId, files, manifest, checks);
  if (manifest.clip)
    note(
      checks,
      `${manifest.clip} was made by Vigil by copying those segments (no re-encoding); its bytes are proven through the manifest, its content only as far as the segments are`,
    );
  return done(checks);
}
