import { SYSTEM_ACTOR } from '../../platform/identity/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import type { DatabaseHandle, DbExecutor } from '../../platform/db/index.ts';
import type { FenceClaim } from '../../platform/coordination/index.ts';
import { toIso } from '../../platform/time/index.ts';
import type { StreamRef } from '../pipeline/index.ts';
import { findStream, updateStream } from '../streams/index.ts';
import type { StreamStatus } from '../../ingest/video/index.ts';

export interface StreamStatusDeps {
  database: DatabaseHandle;
  audit: AuditService;
  /** the transactional outbox (src/platform/outbox): stream.status_changed events */
  webhooks: { enqueueIn(trx: DbExecutor, event: { tenantId: string; kind: string; payload: Record<string, unknown> }): Promise<unknown> };
  /** cluster mode: refuses a write whose stream lease moved on (throws FencedWriteError) */
  fence?: { assertHeld(trx: DbExecutor, claims: readonly FenceClaim[]): Promise<void> } | null;
}

/**
 * A real source's status (a camera's, a phone's, an MQTT sensor's): the row, the
 * stream.status_changed event and the audit entry in one transaction, so a webhook exists exactly
 * when the change does. A report of the status the row already has (a restart's `connecting`)
 * refreshes the row without an event. `lastAt`: the last frame or message (epoch ms), null to keep
 * the row's.
 */
export async function writeStreamStatus(
  deps: StreamStatusDeps,
  ref: StreamRef,
  status: StreamStatus,
  report: { error: string | null; lastAt: number | null },
): Promise<void> {
  const { database, webhooks, audit } = deps;
  await database.withWriteLock(async (trx) => {
    // cluster mode: written only under the lease the source runs under (throws FencedWriteError)
    if (ref.lease) await deps.fence?.assertHeld(trx, [{ streamId: ref.id, ...ref.lease }]);
    const row = await findStream(trx, ref.tenant_id, ref.id);
    if (!row) return; // deleted meanwhile
    const lastFrameAt = report.lastAt === null ? row.last_frame_at : toIso(report.lastAt);
    await updateStream(trx, ref.id, { status, error: report.error, last_frame_at: lastFrameAt });
    if (row.status === status) return;
    const change = { stream_id: ref.id, location: ref.location, status, previous_status: row.status, error: report.error, last_frame_at: lastFrameAt };
    await webhooks.enqueueIn(trx, { tenantId: ref.tenant_id, kind: 'stream.status_changed', payload: change });
    await audit.appendIn(trx, SYSTEM_ACTOR, [
      {
        tenantId: ref.tenant_id,
        action: 'stream.status_changed',
        resourceType: 'stream',
        resourceId: ref.id,
        data: change,
        scope: { location: ref.location, streamId: ref.id },
      },
    ]);
  });
}
