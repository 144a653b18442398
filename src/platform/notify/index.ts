// The module's public face: what other modules may import (docs/architecture.md).
export { NotificationService, type ResponderExists } from './notification.service.ts';
export { NotificationRouterService, inQuietHours, MIN_INTERVAL_MS, VISIT_GAP_MS, type Routing } from './notification-router.ts';
export { responderDevices } from './notification-queries.ts';

import { defineServiceModule, token } from '../lib/index.ts';
import { CONFIG } from '../config/index.ts';
import { CLOCK } from '../time/index.ts';
import { DATABASE } from '../db/index.ts';
import { AUDIT } from '../audit/index.ts';
import { DELIVERY_WORKER, VAPID_KEYS, WEBHOOKS } from '../outbox/index.ts';
import { defineApiModule } from '../http/index.ts';
import { NotificationService as NotificationServiceT } from './notification.service.ts';
import { NotificationRouterService } from './notification-router.ts';
import { NotificationDeliverySchema, NotificationPreferencesSchema, NotificationSubscriptionSchema } from './notification.schemas.ts';
import { notificationRoutes } from './notification.routes.ts';

/** The notifications module's HTTP face (docs/architecture.md). */
export const notificationsApi = defineApiModule({
  name: 'notifications',
  tags: [{ name: 'Notifications', description: 'Web Push to a key’s devices and email, through the outbox; quiet hours and exclusions (both surfaces)' }],
  schemas: [NotificationSubscriptionSchema, NotificationDeliverySchema, NotificationPreferencesSchema],
  routes: ({ notifications }: { notifications: NotificationServiceT }) => notificationRoutes(notifications),
});

export const NOTIFICATIONS = token<NotificationServiceT>('notifications');

export const notifyServices = defineServiceModule({
  name: 'notify',
  provide(c) {
    c.provide(
      NOTIFICATIONS,
      (c) =>
        new NotificationServiceT({
          database: c.get(DATABASE),
          clock: c.get(CLOCK),
          audit: c.get(AUDIT),
          allowPrivate: c.get(CONFIG).webhookAllowPrivate,
          vapidKeys: c.get(VAPID_KEYS),
        }),
    );
  },
  install(c) {
    // every event the outbox writes may also go to devices and addresses (docs/decisions.md, "Notifications through the outbox")
    c.get(WEBHOOKS).setRouter(new NotificationRouterService({ database: c.get(DATABASE), publicBaseUrl: c.get(CONFIG).publicBaseUrl }));
    const worker = c.get(DELIVERY_WORKER);
    c.get(NOTIFICATIONS).onRedeliver = () => worker.wake();
  },
});
