import type { DbExecutor } from '../db/index.ts';
import type { Clock } from '../time/index.ts';
import { newId } from '../lib/index.ts';
import type { ChannelTarget } from './channels.ts';

/** An event for the webhook outbox, from an organization or a household (docs/design.md "Webhooks"; kinds in src/platform/outbox/event-kinds.ts). */
export interface OutboxEvent {
  tenantId: string;
  kind: string;
  /** event fields; `id`, `event` and `created_at` are stamped on by the outbox */
  payload: Record<string, unknown>;
  /** the location the event is about, when the payload does not carry it (location-confined endpoints) */
  location?: string;
  /** how many occurrences this event stands for (a visit's update counts those since the last; default 1): notifications count them */
  weight?: number;
}

/**
 * Where every module publishes events: the webhook outbox (WebhookService implements it). Both methods run
 * inside the caller's write-locked transaction, so an event and its delivery rows exist exactly
 * when the change that caused them does.
 */
export interface EventSink {
  /** to every endpoint of the tenant subscribed to the kind */
  enqueueIn(trx: DbExecutor, event: OutboxEvent): Promise<{ eventId: string }>;
  /**
   * Optional: starts reading, in `trx`, what enqueueIn will need for these tenants (their
   * endpoints), so a caller can send those reads beside its own statements (the pipeline's commit).
   */
  prefetchIn?(trx: DbExecutor, tenantIds: readonly string[]): Promise<unknown>;
  /** to one receiver that is not a registered endpoint (a responder's contact URL), signed with its secret; same retries and log */
  enqueueToUrlIn(trx: DbExecutor, event: OutboxEvent & { url: string; secret: string | null }): Promise<{ eventId: string }>;
  /** to chosen receivers (webhook URLs, push subscriptions, email addresses), all under one event id; same retries and log */
  enqueueToTargetsIn(trx: DbExecutor, event: OutboxEvent, targets: ChannelTarget[]): Promise<{ eventId: string; deliveryIds: string[] }>;
}

/** The receiver-URL safety check of webhook registrations (loopback/private/metadata refused). */
export interface UrlGuard {
  assertUrlAllowed(url: string): Promise<void>;
}

/** Used until a webhook service is wired (tests, tools): nothing is pushed; the event still gets its evt_ id. */
export function createLogOnlySink(clock: Clock): EventSink {
  const record = async () => ({ eventId: newId('evt', clock.now()) });
  return { enqueueIn: record, enqueueToUrlIn: record, enqueueToTargetsIn: async () => ({ ...(await record()), deliveryIds: [] }) };
}
