import type { DatabaseHandle, DetectionSnapshotTable } from '../../platform/db/index.ts';
import type { DetectionRecord } from '../../platform/kinds/index.ts';
import { notFound, newId } from '../../platform/lib/index.ts';
import type { Principal } from '../../platform/identity/index.ts';
import { snapshotRepository } from './snapshot.repository.ts';

/**
 * The JPEG kept with person and vehicle detections of real video. The video
 * pipeline encodes one JPEG per frame and hands the same Buffer to every detection of that frame,
 * so a batch stores each distinct image once.
 */
export class SnapshotService {
  constructor(private readonly deps: { database: DatabaseHandle }) {}

  /**
   * Stores the snapshots of stored detections. `snapshots[i]` belongs to `records[i]` (absent for
   * detections without one, such as person counts).
   */
  async storeFor(records: readonly DetectionRecord[], snapshots: ReadonlyArray<Buffer | undefined>): Promise<void> {
    const groups = new Map<Buffer, DetectionRecord[]>();
    records.forEach((rec, i) => {
      const jpeg = snapshots[i];
      if (!jpeg) return;
      const list = groups.get(jpeg) ?? [];
      list.push(rec);
      groups.set(jpeg, list);
    });
    if (groups.size === 0) return;
    await this.deps.database.withWriteLock(async (trx) => {
      for (const [jpeg, recs] of groups) {
        const first = recs[0];
        const id = newId('snap', first.at);
        const links: DetectionSnapshotTable[] = recs.map((r) => ({ detection_id: r.id, snapshot_id: id, tenant_id: r.tenant_id, at: r.at }));
        await snapshotRepository.insert(trx, { id, tenant_id: first.tenant_id, stream_id: first.stream_id, at: first.at, jpeg }, links);
      }
    });
  }

  /** A detection's JPEG; 404 when the detection has none, is another tenant's, or is outside the key's locations. */
  async getJpeg(principal: Principal, detectionId: string): Promise<Buffer> {
    const row = await snapshotRepository.findForDetection(this.deps.database.db, principal.tenantId, detectionId);
    if (!row || (principal.locations && !principal.locations.includes(row.location))) throw notFound('detection snapshot', detectionId);
    return Buffer.from(row.jpeg);
  }

  /** A stream's latest JPEG (the zone editor draws on it); 404 when it has none, is another tenant's, or is outside the key's locations. */
  async latestForStream(principal: Principal, streamId: string): Promise<{ jpeg: Buffer; at: number }> {
    const row = await snapshotRepository.latestForStream(this.deps.database.db, principal.tenantId, streamId);
    if (!row || (principal.locations && !principal.locations.includes(row.location))) throw notFound('stream snapshot', streamId);
    return { jpeg: Buffer.from(row.jpeg), at: Number(row.at) };
  }

  /** Drops snapshots older than the history retention (with the detections they belong to). */
  async pruneOlderThan(cutoff: number): Promise<number> {
    return this.deps.database.withWriteLock((trx) => snapshotRepository.deleteOlderThan(trx, cutoff));
  }
}
