import type { DbExecutor } from '../../platform/db/database.ts';
import type { Clock } from '../../platform/time/clock.ts';
import { newId } from '../../platform/lib/ids.ts';

/**
 * Where household events go besides the event log: the webhook outbox. `enqueueIn` runs inside
 * the transaction that stores the event, so the event and its deliveries exist together
 * (DESIGN.md data flow: "outbox rows (same transaction)"). WebhookService satisfies it.
 */
export interface EventSink {
  enqueueIn(trx: DbExecutor, event: { tenantId: string; kind: string; payload: Record<string, unknown> }): Promise<{ eventId: string }>;
}

/** Used until a webhook service is wired: nothing is pushed; the event still gets its evt_ id. */
export function createLogOnlySink(clock: Clock): EventSink {
  return { enqueueIn: async () => ({ eventId: newId('evt', clock.now()) }) };
}
