import type { DbExecutor } from '../../platform/db/database.ts';

/** An organization event for the webhook outbox (DESIGN.md "Webhooks"; kinds in src/platform/outbox/event-kinds.ts). */
export interface OutboxEvent {
  tenantId: string;
  kind: string;
  /** event fields; `id`, `event` and `created_at` are stamped on by the outbox */
  payload: Record<string, unknown>;
  /** the location the event is about, when the payload does not carry it (location-confined endpoints, issue 9 §4) */
  location?: string;
}

/**
 * Where operations publish: the webhook outbox (WebhookService implements it). Both methods run
 * inside the caller's write-locked transaction, so an event and its delivery rows exist exactly
 * when the change that caused them does.
 */
export interface EventSink {
  /** to every endpoint of the tenant subscribed to the kind */
  enqueueIn(trx: DbExecutor, event: OutboxEvent): Promise<{ eventId: string }>;
  /** to one receiver that is not a registered endpoint (a responder's contact URL), signed with its secret; same retries and log */
  enqueueToUrlIn(trx: DbExecutor, event: OutboxEvent & { url: string; secret: string | null }): Promise<{ eventId: string }>;
}

/** The receiver-URL safety check of webhook registrations (loopback/private/metadata refused). */
export interface UrlGuard {
  assertUrlAllowed(url: string): Promise<void>;
}
