import { defineApiModule } from '../http/api-module.ts';
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
