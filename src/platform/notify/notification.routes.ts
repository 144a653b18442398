import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf, principalOf, ListQuery, withErrors, type RouteApp } from '../http/index.ts';
import type { NotificationService } from './notification.service.ts';
import {
  CreateSubscriptionBody,
  NotificationDeliveryList,
  PreferencesQuery,
  PutPreferencesBody,
  RevokedSubscription,
  SubscriptionDeliveryParams,
  SubscriptionIdParams,
  SubscriptionList,
  SubscriptionListQuery,
  VapidPublicKey,
} from './notification.schemas.ts';

const tags = ['Notifications'];
const security = [{ bearerAuth: [] }];
/** Any key manages its own devices; responders' devices need responders:manage (checked in the service). */
const config = { surface: 'any' } as const;

/** The VAPID public key, and adding, listing and revoking devices and addresses. */
function registerSubscriptionRoutes(app: RouteApp, notifications: NotificationService): void {
  app.get(
    '/v1/notifications/vapid-public-key',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'getVapidPublicKey',
        summary: 'The server’s VAPID public key (applicationServerKey for PushManager.subscribe)',
        response: withErrors({ 200: VapidPublicKey }),
      },
    },
    async () => notifications.vapidPublicKey(),
  );

  app.post(
    '/v1/notification-subscriptions',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'createNotificationSubscription',
        summary: 'Add a device (Web Push) or an email address to be notified',
        description:
          'A push subscription (from PushManager.subscribe with the VAPID public key) or an email address of this key, or of a responder (responder_id, responders:manage). ' +
          'Endpoints must be https and public (private ones only with VIGIL_WEBHOOK_ALLOW_PRIVATE=1); keys must be a P-256 point and a 16-byte secret. ' +
          'Notifications go through the outbox with retries and a delivery log; a push service answering 404/410 removes the subscription. Subscribing the same endpoint again returns the existing subscription.',
        body: CreateSubscriptionBody,
        response: withErrors({ 201: Type.Ref('NotificationSubscription') }),
      },
    },
    async (req, reply) => reply.code(201).send(await notifications.create(principalOf(req), actorOf(req), req.body)),
  );

  app.get(
    '/v1/notification-subscriptions',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'listNotificationSubscriptions',
        summary: 'This key’s devices and addresses (or a responder’s), newest first',
        querystring: SubscriptionListQuery,
        response: withErrors({ 200: SubscriptionList }),
      },
    },
    async (req) => notifications.list(principalOf(req), req.query),
  );

  app.delete(
    '/v1/notification-subscriptions/:id',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'revokeNotificationSubscription',
        summary: 'Revoke a device or address: nothing more is sent to it, including what was queued',
        params: SubscriptionIdParams,
        response: withErrors({ 200: RevokedSubscription }),
      },
    },
    async (req) => notifications.revoke(principalOf(req), actorOf(req), req.params.id),
  );
}

/** A device's or address's delivery log, and sending a notification again. */
function registerDeliveryRoutes(app: RouteApp, notifications: NotificationService): void {
  app.get(
    '/v1/notification-subscriptions/:id/deliveries',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'listNotificationDeliveries',
        summary: 'Delivery log of a device or address, newest first, with every attempt',
        params: SubscriptionIdParams,
        querystring: ListQuery,
        response: withErrors({ 200: NotificationDeliveryList }),
      },
    },
    async (req) => notifications.listDeliveries(principalOf(req), req.params.id, req.query),
  );

  app.post(
    '/v1/notification-subscriptions/:id/deliveries/:delivery_id/redeliver',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'redeliverNotification',
        summary: 'Send a notification again as a new attempt series',
        params: SubscriptionDeliveryParams,
        response: withErrors({ 200: Type.Ref('NotificationDelivery') }),
      },
    },
    async (req) => notifications.redeliver(principalOf(req), actorOf(req), req.params.id, req.params.delivery_id),
  );
}

/** Quiet hours and exclusions: read and set. */
function registerPreferenceRoutes(app: RouteApp, notifications: NotificationService): void {
  app.get(
    '/v1/notification-preferences',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'getNotificationPreferences',
        summary: 'Quiet hours and exclusions: this key’s own, or the household’s default',
        querystring: PreferencesQuery,
        response: withErrors({ 200: Type.Ref('NotificationPreferences') }),
      },
    },
    async (req) => notifications.getPreferences(principalOf(req), req.query.scope),
  );

  app.put(
    '/v1/notification-preferences',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'setNotificationPreferences',
        summary: 'Set quiet hours and exclusions (scope me: this key; household: every key without its own, owners only)',
        body: PutPreferencesBody,
        response: withErrors({ 200: Type.Ref('NotificationPreferences') }),
      },
    },
    async (req) => notifications.putPreferences(principalOf(req), actorOf(req), req.body),
  );
}

export const notificationRoutes =
  (notifications: NotificationService): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerSubscriptionRoutes(app, notifications);
    registerDeliveryRoutes(app, notifications);
    registerPreferenceRoutes(app, notifications);
  };
