import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, ListOf, ListQuery, Location, Name, Text, prefixedId, MAX_URL_CHARS, MAX_SHORT_TEXT_CHARS } from '../http/index.ts';
import { HOUSEHOLD_EVENT_KINDS, OPT_IN_EVENT_KINDS, ORGANIZATION_EVENT_KINDS } from './event-kinds.ts';

/** The longest event kind name a subscription lists. */
const MAX_EVENT_KIND_CHARS = 64;

const KINDS_DOC =
  `Organization kinds: ${ORGANIZATION_EVENT_KINDS.join(', ')}. ` +
  `Household kinds: ${HOUSEHOLD_EVENT_KINDS.join(', ')}. ` +
  `Either surface, only when named: ${OPT_IN_EVENT_KINDS.join(', ')} (each signed checkpoint of the audit trail, to keep outside Vigil). ` +
  'watch.observation and watch.alert come one per visit of a watch (update_of: null, count: 1), then at most one update a minute as the visit goes on: ' +
  "its own id, update_of naming the visit's event (GET /v1/events), count, first_seen_at, last_seen_at.";

export const WebhookIdParams = Type.Object({ id: Type.String({ description: 'whk_…' }) });
export const DeliveryIdParams = Type.Object({ id: Type.String({ description: 'whk_…' }), delivery_id: Type.String({ description: 'dlv_…' }) });

const Events = Type.Array(Name({ maxLength: MAX_EVENT_KIND_CHARS, examples: ['detection.anomaly'] }), {
  minItems: 1,
  maxItems: 32,
  uniqueItems: true,
  description: `Event kinds to receive; default: every kind of the key's surface. ${KINDS_DOC}`,
});

export const CreateWebhookBody = Type.Object(
  {
    url: Name({ maxLength: MAX_URL_CHARS, description: 'http:// or https:// receiver', examples: ['https://example.com/hooks/vigil'] }),
    events: Type.Optional(Events),
    description: Type.Optional(Text({ maxLength: MAX_SHORT_TEXT_CHARS })),
    locations: Type.Optional(
      Type.Union([Type.Array(Location, { minItems: 1, maxItems: 100, uniqueItems: true }), Type.Null()], {
        description:
          "Organization webhooks: receive only events at these locations (null: every location). Default: the key's own locations; " +
          'a key limited to locations can only register endpoints within them.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateWebhookBodyT = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Name({ maxLength: MAX_URL_CHARS })),
    events: Type.Optional(Events),
    description: Type.Optional(Type.Union([Text({ maxLength: MAX_SHORT_TEXT_CHARS }), Type.Null()], { description: 'null clears it' })),
    enabled: Type.Optional(Type.Boolean({ description: 'false pauses the endpoint; its pending deliveries are cancelled' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateWebhookBodyT = Static<typeof UpdateWebhookBody>;

const endpointProperties = {
  id: prefixedId('whk'),
  object: Type.Literal('webhook_endpoint'),
  url: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  events: Type.Array(Type.String()),
  locations: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'the locations whose events this endpoint receives; null: every location' }),
  enabled: Type.Boolean(),
  secret_source: Type.Union([Type.Literal('generated'), Type.Literal('api_key')], {
    description:
      'generated: a whsec_ secret returned once at creation and rotation. api_key (household endpoints): the secret is ' +
      'HMAC-SHA256(your API key, "vigil-webhook-v1") as lowercase hex; derive it yourself, it is never returned.',
  }),
  previous_secret_expires_at: Type.Union([IsoTime, Type.Null()], {
    description: 'After a rotation, until when the previous secret still signs (X-Service-Signature-Previous).',
  }),
  created_at: IsoTime,
  updated_at: IsoTime,
};

export const WebhookEndpointSchema = Type.Object(endpointProperties, { $id: 'WebhookEndpoint' });
export type WebhookEndpointView = Static<typeof WebhookEndpointSchema>;

/** Creation and rotation answers: the endpoint plus its new secret (shown only here). */
export const WebhookEndpointWithSecret = Type.Object({
  ...endpointProperties,
  secret: Type.Optional(
    Type.String({
      description: 'whsec_… signing secret; shown only in this response. Absent for household endpoints (secret_source api_key).',
    }),
  ),
});
export type WebhookEndpointWithSecretView = Static<typeof WebhookEndpointWithSecret>;

export const WebhookList = ListOf(Type.Ref('WebhookEndpoint'));

export const DeletedWebhook = Type.Object({ id: Type.String(), object: Type.Literal('webhook_endpoint'), deleted: Type.Literal(true) });

export const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'dropped', 'cancelled'] as const;

export const WebhookAttemptSchema = Type.Object({
  series: Type.Integer({ description: '1 for the original delivery, +1 per manual redelivery' }),
  attempt: Type.Integer({ description: 'attempt number within its series' }),
  started_at: IsoTime,
  url: Type.String(),
  status_code: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status, null when no response arrived' }),
  duration_ms: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
  outcome: Type.Union([Type.Literal('delivered'), Type.Literal('retrying'), Type.Literal('dropped')]),
  next_attempt_at: Type.Union([IsoTime, Type.Null()]),
});

export const WebhookDeliverySchema = Type.Object(
  {
    id: prefixedId('dlv'),
    object: Type.Literal('webhook_delivery'),
    endpoint_id: prefixedId('whk'),
    event_id: prefixedId('evt'),
    event: Type.String({ description: 'event kind' }),
    status: Type.Union(
      DELIVERY_STATUSES.map((s) => Type.Literal(s)),
      {
        description:
          'pending: not tried yet; retrying: failed, next attempt scheduled; delivered: a 2xx arrived; dropped: 24 h after the first attempt without success; cancelled: the endpoint was disabled or deleted',
      },
    ),
    series: Type.Integer(),
    attempt_count: Type.Integer({ description: 'attempts in the current series' }),
    first_attempt_at: Type.Union([IsoTime, Type.Null()]),
    next_attempt_at: Type.Union([IsoTime, Type.Null()]),
    delivered_at: Type.Union([IsoTime, Type.Null()]),
    last_status_code: Type.Union([Type.Integer(), Type.Null()]),
    last_error: Type.Union([Type.String(), Type.Null()]),
    payload: Type.Record(Type.String(), Type.Unknown(), {
      description:
        "the JSON body as the latest attempt sent it: the event with delivery_id and sent_at (the attempt's start) inside; no sent_at before the first attempt",
    }),
    attempts: Type.Array(WebhookAttemptSchema, { description: 'every attempt, oldest first' }),
    created_at: IsoTime,
  },
  { $id: 'WebhookDelivery' },
);
export type WebhookDeliveryView = Static<typeof WebhookDeliverySchema>;

export const DeliveryList = ListOf(Type.Ref('WebhookDelivery'));
export const DeliveryListQuery = Type.Composite(
  [ListQuery, Type.Object({ status: Type.Optional(Type.Union(DELIVERY_STATUSES.map((s) => Type.Literal(s)))) })],
  { additionalProperties: false },
);
export type DeliveryListQueryT = Static<typeof DeliveryListQuery>;
