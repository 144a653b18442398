// The module's public face: what other modules may import (docs/architecture.md).
export { DeliveryWorker } from './delivery-worker.ts';
export { HOUSEHOLD_EVENT_KINDS } from './event-kinds.ts';
export { type EventSink, type UrlGuard } from './event-sink.ts';
export { generateWebhookSecret } from './webhook-signature.ts';
export { webhookRepository, type HiddenEventIds } from './webhook.repository.ts';
export { WebhookService } from './webhook.service.ts';

import { defineApiModule } from '../http/index.ts';
import type { WebhookService } from './webhook.service.ts';
import { WebhookDeliverySchema, WebhookEndpointSchema } from './webhook.schemas.ts';
import { webhookRoutes } from './webhook.routes.ts';

/** The webhooks module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const webhooksApi = defineApiModule({
  name: 'webhooks',
  tags: [{ name: 'Webhooks', description: 'Signed event deliveries with 24 h retries and a delivery log (both surfaces)' }],
  schemas: [WebhookEndpointSchema, WebhookDeliverySchema],
  routes: ({ webhooks }: { webhooks: WebhookService }) => webhookRoutes(webhooks),
});
