import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, ListOf, ListQuery, Name, prefixedId, MAX_URL_CHARS, MAX_EMAIL_CHARS, MAX_NAME_CHARS } from '../../platform/http/index.ts';

export const MIN_ESCALATION_LEVEL = 1;
export const MAX_ESCALATION_LEVEL = 5;

export const EscalationLevel = Type.Integer({
  minimum: MIN_ESCALATION_LEVEL,
  maximum: MAX_ESCALATION_LEVEL,
  description: '1 (first line) to 5 (highest); responders at or below the level are notified',
});

const Kind = Type.Union([Type.Literal('person'), Type.Literal('system')], { description: 'a human or a downstream system' });
const WebhookUrl = Name({
  maxLength: MAX_URL_CHARS,
  description: 'receives signed protocol notifications (X-Service-Signature), like any webhook',
  examples: ['https://pager.example.com/hooks/vigil'],
});
const Email = Type.String({
  format: 'email',
  maxLength: MAX_EMAIL_CHARS,
  description: 'protocol triggers and escalations are emailed here (when the server has VIGIL_SMTP_URL)',
});
const Sms = Type.String({ pattern: '^\\+[1-9][0-9]{6,14}$', description: 'E.164 number, stored for downstream systems', examples: ['+351912345678'] });

export const CreateResponderBody = Type.Object(
  {
    name: Name({ maxLength: MAX_NAME_CHARS, examples: ['Night security desk'] }),
    kind: Kind,
    escalation_level: EscalationLevel,
    contact: Type.Object({ webhook_url: Type.Optional(WebhookUrl), email: Type.Optional(Email), sms: Type.Optional(Sms) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export type CreateResponderBodyT = Static<typeof CreateResponderBody>;

export const UpdateResponderBody = Type.Object(
  {
    name: Type.Optional(Name({ maxLength: MAX_NAME_CHARS })),
    kind: Type.Optional(Kind),
    escalation_level: Type.Optional(EscalationLevel),
    contact: Type.Optional(
      Type.Object(
        {
          webhook_url: Type.Optional(Type.Union([WebhookUrl, Type.Null()])),
          email: Type.Optional(Type.Union([Email, Type.Null()])),
          sms: Type.Optional(Type.Union([Sms, Type.Null()])),
        },
        { additionalProperties: false, minProperties: 1 },
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateResponderBodyT = Static<typeof UpdateResponderBody>;

const responderFields = {
  id: prefixedId('rsp'),
  object: Type.Literal('responder'),
  name: Type.String(),
  kind: Kind,
  escalation_level: Type.Integer(),
  contact: Type.Object({
    webhook_url: Type.Union([Type.String(), Type.Null()], {
      description: 'null: no webhook; the responder is reached by email and its devices (POST /v1/notification-subscriptions with responder_id)',
    }),
    email: Type.Union([Type.String(), Type.Null()]),
    sms: Type.Union([Type.String(), Type.Null()]),
  }),
  created_at: IsoTime,
  updated_at: IsoTime,
};

export const ResponderSchema = Type.Object(responderFields, { $id: 'Responder' });
export type ResponderView = Static<typeof ResponderSchema>;

export const CreatedResponderSchema = Type.Object({
  ...responderFields,
  signing_secret: Type.String({ description: 'whsec_… secret that signs deliveries to contact.webhook_url; shown only here' }),
});

export const ResponderIdParams = Type.Object({ id: Type.String({ description: 'rsp_…' }) });
export const ResponderList = ListOf(Type.Ref('Responder'));
export const ResponderListQuery = Type.Composite([ListQuery, Type.Object({ escalation_level: Type.Optional(EscalationLevel) })], {
  additionalProperties: false,
});
export const DeletedResponder = Type.Object({ id: Type.String(), object: Type.Literal('responder'), deleted: Type.Literal(true) });
