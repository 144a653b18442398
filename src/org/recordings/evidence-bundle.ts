import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import type { AuditService, AuditTrailService } from '../../platform/audit/index.ts';
import type { DatabaseHandle } from '../../platform/db/index.ts';
import type { Actor, Principal } from '../../platform/identity/index.ts';
import { toIso, type Clock } from '../../platform/time/index.ts';
import { VigilError } from '../../platform/lib/index.ts';
import type { RecordingService } from './recording.service.ts';
import type { SegmentRow } from './recording.repository.ts';

/** The format name every bundle's manifest carries; the verifier refuses others. */
export const EVIDENCE_FORMAT = 'vigil-evidence/1';

/** The incident as GET /v1/incidents/{id} shows it, with its timeline (a port: org/incidents through the composition root). */
export type IncidentTimeline = (
  principal: Principal,
  incidentId: string,
) => Promise<{ id: string; stream_id: string; timeline: Array<{ kind: string; id: string; detection?: unknown }> } & Record<string, unknown>>;

export interface ManifestFile {
  path: string;
  sha256: string;
  bytes: number;
}

export interface EvidenceManifest {
  format: typeof EVIDENCE_FORMAT;
  tenant_id: string;
  incident_id: string;
  stream_id: string;
  created_at: string;
  range: { from: string; to: string };
  /** every file of the bundle but the manifest itself and the audit proof (which proves itself) */
  files: ManifestFile[];
  /** the original segments: each one's audit entry carries the same SHA-256 */
  segments: Array<{ id: string; path: string; audit_id: string; start: string; end: string; sha256: string; bytes: number }>;
  /** the clip made from the segments (copied, not re-encoded), when there is video */
  clip: string | null;
  snapshots: string[];
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

const README = `Vigil evidence bundle (${EVIDENCE_FORMAT})

Check it offline, without the server:   npx vigil verify-evidence <this file> [--key <checkpoint key>]

manifest.json            SHA-256 of every file below; its own SHA-256 is in the audit entry
                         "incident.evidence_exported" of audit/chain.ndjson
segments/                the recorded segments as written by the camera's ffmpeg; each one's SHA-256,
                         stream, start and end are in its "recording.segment_closed" audit entry
clip.mp4 / clip.webm     the incident's clip, made by copying those segments (no re-encoding)
snapshots/               the frames the incident's detections were made on
incident.json            the incident and its timeline as the API showed it at export
audit/chain.ndjson       a run of the tenant's hash-chained audit trail, from the earliest entry
                         above to the head of a signed checkpoint (other entries redacted: their
                         data_hash still links the chain)
audit/checkpoint.json    that checkpoint: HMAC-SHA256 under the server's checkpoint key
`;

/**
 * An incident's evidence bundle (docs/decisions.md, "Evidence bundles"): one zip with the
 * segments of its window and the clip made from them, its snapshots and timeline, a manifest of
 * SHA-256 of every file, and the proof: the audit entries that sealed each segment and recorded
 * this export (with the manifest's SHA-256), chained up to a signed checkpoint.
 */
export class EvidenceBundles {
  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      auditTrail: AuditTrailService;
      recordings: RecordingService;
      timeline: IncidentTimeline;
      snapshotJpeg(principal: Principal, detectionId: string): Promise<Buffer>;
    },
  ) {}

  async build(principal: Principal, actor: Actor, incidentId: string): Promise<{ zip: Buffer; name: string; manifestSha256: string }> {
    const { recordings } = this.deps;
    const incident = await recordings.loadIncident(principal, incidentId);
    const stream = await recordings.videoStream(principal, incident.stream_id);
    const { from, to } = recordings.incidentWindow(incident);
    const segments: SegmentRow[] = await recordings.segmentsOf(principal.tenantId, stream.id, from, to);
    const detail = await this.deps.timeline(principal, incident.id);
    const zip = new AdmZip();
    const files: ManifestFile[] = [];
    const add = (path: string, data: Buffer) => {
      zip.addFile(path, data);
      // video and JPEG do not deflate: stored, which makes a bundle about three times faster to build
      if (/\.(mp4|webm|jpg)$/.test(path)) zip.getEntry(path)!.header.method = 0;
      files.push({ path, sha256: sha256(data), bytes: data.length });
    };
    const segmentEntries: EvidenceManifest['segments'] = [];
    for (const s of segments) {
      const data = readFileSync(join(recordings.root, s.path));
      const path = `segments/${s.start_at}-${s.end_at}-${s.id}.${s.path.split('.').pop()}`;
      add(path, data);
      segmentEntries.push({ id: s.id, path, audit_id: s.audit_id, start: toIso(s.start_at), end: toIso(s.end_at), sha256: s.sha256, bytes: s.bytes });
    }
    let clipPath: string | null = null;
    const clip = await recordings.clips.make(segments, from, to);
    clipPath = clip.contentType === 'video/webm' ? 'clip.webm' : 'clip.mp4';
    add(clipPath, readFileSync(clip.file));
    const snapshots: string[] = [];
    for (const entry of detail.timeline) {
      if (entry.kind !== 'detection') continue;
      const jpeg = await this.deps.snapshotJpeg(principal, entry.id).catch(() => null);
      if (!jpeg) continue;
      add(`snapshots/${entry.id}.jpg`, jpeg);
      snapshots.push(`snapshots/${entry.id}.jpg`);
    }
    add('incident.json', Buffer.from(JSON.stringify(detail, null, 2) + '\n'));
    add('README.txt', Buffer.from(README));
    const manifest: EvidenceManifest = {
      format: EVIDENCE_FORMAT,
      tenant_id: principal.tenantId,
      incident_id: incident.id,
      stream_id: stream.id,
      created_at: toIso(this.deps.clock.now()),
      range: { from: toIso(from), to: toIso(to) },
      files,
      segments: segmentEntries,
      clip: clipPath,
      snapshots,
    };
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2) + '\n');
    const manifestSha256 = sha256(manifestBytes);
    zip.addFile('manifest.json', manifestBytes);
    // the export is audited, and that entry carries the manifest's hash; the proof then covers it
    const exportId = await this.deps.database.withWriteLock(
      async (trx) =>
        (
          await this.deps.audit.appendIn(trx, actor, [
            {
              tenantId: principal.tenantId,
              action: 'incident.evidence_exported',
              resourceType: 'incident',
              resourceId: incident.id,
              data: { manifest_sha256: manifestSha256, segments: segmentEntries.length, files: files.length, from: manifest.range.from, to: manifest.range.to },
              scope: { location: incident.location, streamId: incident.stream_id },
            },
          ])
        )[0],
    );
    const proof = await this.deps.auditTrail.proofFor(principal, [...segmentEntries.map((s) => s.audit_id), exportId]);
    if (!proof) throw new VigilError('service_unavailable', 'The audit trail could not be checkpointed for this bundle; try again.');
    zip.addFile('audit/chain.ndjson', Buffer.from(proof.lines.map((l) => JSON.stringify(l)).join('\n') + '\n'));
    zip.addFile(
      'audit/checkpoint.json',
      Buffer.from(JSON.stringify({ ...proof.checkpoint, first_position: proof.first_position, export_entry_id: exportId }, null, 2) + '\n'),
    );
    return { zip: zip.toBuffer(), name: `evidence-${incident.id}.zip`, manifestSha256 };
  }
}
