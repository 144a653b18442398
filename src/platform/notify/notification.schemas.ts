import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, ListOf, ListQuery, Name, prefixedId, MAX_URL_CHARS, MAX_EMAIL_CHARS, MAX_LABEL_CHARS } from '../http/index.ts';

/** The event kinds a device or address can be told about, per surface (docs/decisions.md, "Notifications through the outbox"). */
export const HOUSEHOLD_NOTIFY_KINDS = ['watch.observation', 'watch.alert'] as const;
export const ORGANIZATION_NOTIFY_KINDS = ['incident.created', 'alert.fired', 'protocol.triggered'] as const;
const NOTIFY_KINDS = [...HOUSEHOLD_NOTIFY_KINDS, ...ORGANIZATION_NOTIFY_KINDS];

const Channel = Type.Union([Type.Literal('push'), Type.Literal('email')], {
  description: 'push: a Web Push subscription of a browser or phone; email: an address',
});

export const CreateSubscriptionBody = Type.Object(
  {
    channel: Channel,
    endpoint: Type.Optional(
      Type.String({
        maxLength: MAX_URL_CHARS,
        description: 'push: the PushSubscription endpoint (https)',
        examples: ['https://fcm.googleapis.com/fcm/send/…'],
      }),
    ),
    keys: Type.Optional(
      Type.Object(
        {
          p256dh: Type.String({ minLength: 1, maxLength: 120, description: 'the subscription’s P-256 public key, base64url (65 bytes)' }),
          auth: Type.String({ minLength: 1, maxLength: 40, description: 'the subscription’s authentication secret, base64url (16 bytes)' }),
        },
        { additionalProperties: false },
      ),
    ),
    address: Type.Optional(Type.String({ format: 'email', maxLength: MAX_EMAIL_CHARS, description: 'email: where to send' })),
    label: Type.Optional(Name({ maxLength: MAX_LABEL_CHARS, description: 'how the device is listed (“Maria’s phone”)' })),
    events: Type.Optional(
      Type.Array(Type.Union(NOTIFY_KINDS.map((k) => Type.Literal(k))), {
        minItems: 1,
        uniqueItems: true,
        description: 'default: every kind of the key’s surface it may read',
      }),
    ),
    responder_id: Type.Optional(
      Type.String({
        description: 'organization keys with responders:manage: this device or address is a responder’s (rsp_…), told of protocol triggers and escalations',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateSubscriptionBodyT = Static<typeof CreateSubscriptionBody>;

export const NotificationSubscriptionSchema = Type.Object(
  {
    id: prefixedId('nsub'),
    object: Type.Literal('notification_subscription'),
    channel: Channel,
    endpoint_origin: Type.Union([Type.String(), Type.Null()], { description: 'push: the push service (the endpoint itself is a secret of the device)' }),
    address: Type.Union([Type.String(), Type.Null()]),
    label: Type.Union([Type.String(), Type.Null()]),
    events: Type.Array(Type.String()),
    key_id: Type.Union([Type.String(), Type.Null()]),
    responder_id: Type.Union([Type.String(), Type.Null()]),
    status: Type.Union([Type.Literal('active'), Type.Literal('revoked'), Type.Literal('gone')], {
      description: 'gone: the push service said the subscription no longer exists (404/410)',
    }),
    created_at: IsoTime,
    revoked_at: Type.Union([IsoTime, Type.Null()]),
  },
  { $id: 'NotificationSubscription' },
);
export type NotificationSubscriptionView = Static<typeof NotificationSubscriptionSchema>;

export const SubscriptionList = ListOf(Type.Ref('NotificationSubscription'));
export const SubscriptionListQuery = Type.Composite(
  [ListQuery, Type.Object({ responder_id: Type.Optional(Type.String({ description: 'a responder’s devices instead of this key’s (responders:manage)' })) })],
  { additionalProperties: false },
);
export const SubscriptionIdParams = Type.Object({ id: Type.String({ description: 'nsub_…' }) });
export const SubscriptionDeliveryParams = Type.Object({ id: Type.String({ description: 'nsub_…' }), delivery_id: Type.String({ description: 'dlv_…' }) });
export const RevokedSubscription = Type.Object({ id: Type.String(), object: Type.Literal('notification_subscription'), revoked: Type.Literal(true) });

export const NotificationDeliverySchema = Type.Object(
  {
    id: prefixedId('dlv'),
    object: Type.Literal('notification_delivery'),
    subscription_id: Type.String(),
    channel: Channel,
    event_id: Type.String(),
    event: Type.String(),
    status: Type.Union(['pending', 'retrying', 'delivered', 'dropped', 'cancelled'].map((s) => Type.Literal(s))),
    series: Type.Integer(),
    attempt_count: Type.Integer(),
    next_attempt_at: Type.Union([IsoTime, Type.Null()]),
    delivered_at: Type.Union([IsoTime, Type.Null()]),
    last_status_code: Type.Union([Type.Integer(), Type.Null()]),
    last_error: Type.Union([Type.String(), Type.Null()]),
    message: Type.Unknown({ description: 'the notification as rendered for this recipient' }),
    attempts: Type.Array(
      Type.Object({
        series: Type.Integer(),
        attempt: Type.Integer(),
        started_at: IsoTime,
        status_code: Type.Union([Type.Integer(), Type.Null()]),
        duration_ms: Type.Integer(),
        error: Type.Union([Type.String(), Type.Null()]),
        outcome: Type.String(),
      }),
    ),
    created_at: IsoTime,
  },
  { $id: 'NotificationDelivery' },
);
export type NotificationDeliveryView = Static<typeof NotificationDeliverySchema>;
export const NotificationDeliveryList = ListOf(Type.Ref('NotificationDelivery'));

const HourMinute = Type.String({
  pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
  description: 'HH:MM local time (the household’s time zone; UTC for organizations)',
  examples: ['23:00'],
});
const QuietHours = Type.Union([
  Type.Object(
    { from: HourMinute, to: HourMinute },
    { additionalProperties: false, description: 'no notifications from `from` until `to` (may cross midnight)' },
  ),
  Type.Null(),
]);
const Exclude = Type.Object(
  {
    rooms: Type.Optional(Type.Array(Name({ maxLength: MAX_LABEL_CHARS }), { maxItems: 50, description: 'rooms (by name) whose events are not sent' })),
    sensors: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 50, description: 'sensor ids whose events are not sent' })),
    watches: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 50, description: 'watch ids whose events are not sent' })),
  },
  { additionalProperties: false },
);

export const PreferencesQuery = Type.Object(
  {
    scope: Type.Optional(
      Type.Union([Type.Literal('me'), Type.Literal('household')], { description: 'me (default): this key’s own; household: every key’s default' }),
    ),
  },
  { additionalProperties: false },
);
export const PutPreferencesBody = Type.Object(
  {
    scope: Type.Optional(Type.Union([Type.Literal('me'), Type.Literal('household')])),
    quiet_hours: Type.Optional(QuietHours),
    exclude: Type.Optional(Exclude),
    paused: Type.Optional(
      Type.Boolean({ description: 'true: nothing is sent until set false again ("stop the notifications"); quiet hours and exclusions are kept' }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type PutPreferencesBodyT = Static<typeof PutPreferencesBody>;
export const NotificationPreferencesSchema = Type.Object(
  {
    object: Type.Literal('notification_preferences'),
    scope: Type.Union([Type.Literal('me'), Type.Literal('household')]),
    paused: Type.Boolean({ description: 'true: nothing is sent (quiet hours and exclusions apply again once resumed)' }),
    quiet_hours: QuietHours,
    exclude: Type.Object({ rooms: Type.Array(Type.String()), sensors: Type.Array(Type.String()), watches: Type.Array(Type.String()) }),
    time_zone: Type.String(),
    updated_at: Type.Union([IsoTime, Type.Null()]),
  },
  { $id: 'NotificationPreferences' },
);
export type NotificationPreferencesView = Static<typeof NotificationPreferencesSchema>;

export const VapidPublicKey = Type.Object({
  public_key: Type.String({ description: 'the server’s VAPID public key, base64url: PushManager.subscribe({applicationServerKey})' }),
});
