// The module's public face: what other modules may import (docs/architecture.md).
export { ORGANIZATION_EVENT_KINDS } from './event-kinds.ts';

import { defineServiceModule, LOG, token } from '../lib/index.ts';
import { CONFIG } from '../config/index.ts';
import { CLOCK, toIso } from '../time/index.ts';
import { DATABASE } from '../db/index.ts';
import { AUDIT, AUDIT_CHECKPOINTS, CHECKPOINT_EVENT, checkpointPayload } from '../audit/index.ts';
import { COORDINATION } from '../coordination/index.ts';
import { METRICS } from '../metrics/index.ts';
import { countOpenDeliveries } from './webhook-queue.repository.ts';
import { WebhookService as WebhookServiceT, type WebhookService } from './webhook.service.ts';
import { DeliveryWorker as DeliveryWorkerT } from './delivery-worker.ts';
import { loadVapidKeys, type VapidKeys } from './push-sender.ts';
import { MailSender } from './mail-sender.ts';
export { DeliveryWorker } from './delivery-worker.ts';
export { HOUSEHOLD_EVENT_KINDS } from './event-kinds.ts';
export { type EventSink, type UrlGuard } from './event-sink.ts';
export { generateWebhookSecret } from './webhook-signature.ts';
export { describeBlockedAddress } from './webhook-url-guard.ts';
export { type HiddenEventIds } from './webhook.repository.ts';
export { cancelOpenDeliveriesOfEvents } from './webhook-queries.ts';
export { WebhookService } from './webhook.service.ts';
export { type ChannelTarget, type DeliveryOutcome, type NotificationMessage, type NotificationRouter, type RoutedEvent } from './channels.ts';
export { checkSubscriptionKeys, MAX_PUSH_PLAINTEXT, type VapidKeys } from './push-sender.ts';
export { assertWebhookUrlAllowed, parseWebhookUrl } from './webhook-url-guard.ts';

import { defineApiModule } from '../http/index.ts';
import { WebhookDeliverySchema, WebhookEndpointSchema } from './webhook.schemas.ts';
import { webhookRoutes } from './webhook.routes.ts';

/** The webhooks module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const webhooksApi = defineApiModule({
  name: 'webhooks',
  tags: [{ name: 'Webhooks', description: 'Signed event deliveries with 24 h retries and a delivery log (both surfaces)' }],
  schemas: [WebhookEndpointSchema, WebhookDeliverySchema],
  routes: ({ webhooks }: { webhooks: WebhookService }) => webhookRoutes(webhooks),
});

export const WEBHOOKS = token<WebhookServiceT>('webhooks');
export const DELIVERY_WORKER = token<DeliveryWorkerT>('deliveryWorker');
/** The server's VAPID key pair (from the environment, else made once and kept with the server secrets); read once per process. */
export const VAPID_KEYS = token<() => Promise<VapidKeys>>('vapidKeys');

export const outboxServices = defineServiceModule({
  name: 'outbox',
  provide(c) {
    c.provide(
      WEBHOOKS,
      (c) =>
        new WebhookServiceT({
          database: c.get(DATABASE),
          clock: c.get(CLOCK),
          audit: c.get(AUDIT),
          allowPrivate: c.get(CONFIG).webhookAllowPrivate,
          wakeSignal: c.get(COORDINATION).wakeSignal,
        }),
    );
    c.provide(VAPID_KEYS, (c) => {
      let loaded: Promise<VapidKeys> | null = null;
      const database = c.get(DATABASE);
      const config = c.get(CONFIG);
      const clock = c.get(CLOCK);
      return () =>
        (loaded ??= loadVapidKeys(database, config.vapidKeys, toIso(clock.now())).catch((err) => {
          loaded = null;
          throw err;
        }));
    });
    c.provide(DELIVERY_WORKER, (c) => {
      const config = c.get(CONFIG);
      return new DeliveryWorkerT({
        database: c.get(DATABASE),
        clock: c.get(CLOCK),
        allowPrivate: config.webhookAllowPrivate,
        wakeSignal: c.get(COORDINATION).wakeSignal,
        log: c.get(LOG),
        push: { keys: c.get(VAPID_KEYS), subject: config.vapidSubject },
        mail: config.smtpUrl ? new MailSender(config.smtpUrl, { timeoutMs: 10_000 }) : null,
        ca: config.outboundCa,
      });
    });
  },
  install(c) {
    const worker = c.get(DELIVERY_WORKER);
    c.get(WEBHOOKS).onEnqueued(() => worker.wake());
    // every signed checkpoint goes out too, for subscribers to keep (docs/audit-threat-model.md)
    const webhooks = c.get(WEBHOOKS);
    c.get(AUDIT_CHECKPOINTS).onCheckpoint((trx, cp) =>
      webhooks.enqueueIn(trx, { tenantId: cp.tenant_id, kind: CHECKPOINT_EVENT, payload: { checkpoint: checkpointPayload(cp) } }),
    );
    const db = c.get(DATABASE).db;
    c.get(METRICS).watchWebhookQueue(() => countOpenDeliveries(db));
  },
});
