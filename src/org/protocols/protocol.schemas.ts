import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, Name, Text, prefixedId, MAX_SHORT_TEXT_CHARS } from '../../platform/http/index.ts';
import { EscalationLevel } from '../responders/index.ts';

/** The longest description of a protocol type, or reason given for an operator's action on a run. */
const MAX_PROTOCOL_TEXT_CHARS = 1000;

export const PROTOCOL_RUN_STATUSES = ['active', 'paused', 'completed', 'dismissed', 'terminated'] as const;

const ProtocolName = Type.String({
  pattern: '^[a-z][a-z0-9_]*$',
  minLength: 1,
  maxLength: 64,
  description: 'snake_case protocol type',
  examples: ['unauthorized_access'],
});

export const TriggerProtocolBody = Type.Object(
  {
    protocol_type: Name({
      maxLength: 64,
      description:
        'a built-in type (unauthorized_access, intrusion, fire, medical, crowd_control, suspicious_vehicle) or one of the organization’s (GET /v1/protocols)',
      examples: ['unauthorized_access'],
    }),
    notify_responders: Type.Boolean({
      description:
        'notify every responder at or below escalation_level on each of its channels: signed webhook to its contact URL, email to its contact address, Web Push to its devices',
    }),
    escalation_level: EscalationLevel,
  },
  { additionalProperties: false },
);
export type TriggerProtocolBodyT = Static<typeof TriggerProtocolBody>;

export const ProtocolRunSchema = Type.Object(
  {
    id: prefixedId('prot'),
    object: Type.Literal('protocol_run'),
    incident_id: Type.String(),
    protocol_type: Type.String(),
    status: Type.Union(
      PROTOCOL_RUN_STATUSES.map((s) => Type.Literal(s)),
      {
        description: 'active → paused ⇄ active; active|paused → completed (incident closed), dismissed (override) or terminated (final)',
      },
    ),
    escalation_level: Type.Integer(),
    responders_notified: Type.Integer({
      description:
        'responders reached so far: at least one of their channels (webhook, email, push) delivered. The trigger and an override wait briefly for the first attempts before answering; later outcomes update it',
    }),
    responders_unreached: Type.Integer({
      description:
        'responders notified whose every channel failed (a push subscription gone, mail refused, webhook dropped) or who have no channel; GET /v1/protocol-runs/{id}/notifications says which and why',
    }),
    notify_responders: Type.Boolean(),
    steps: Type.Array(Type.String()),
    acknowledged_at: Type.Union([IsoTime, Type.Null()], { description: 'set when the incident is acknowledged; an acknowledged run no longer escalates' }),
    next_escalation_at: Type.Union([IsoTime, Type.Null()], { description: 'when the run escalates one level unless acknowledged, paused or ended' }),
    created_at: IsoTime,
    updated_at: IsoTime,
    ended_at: Type.Union([IsoTime, Type.Null()]),
  },
  { $id: 'ProtocolRun' },
);
export type ProtocolRunView = Static<typeof ProtocolRunSchema>;

export const OverrideRunBody = Type.Object(
  {
    escalation_level: Type.Optional(EscalationLevel),
    dismiss: Type.Optional(Type.Literal(true, { description: 'end the run as dismissed (a false alarm)' })),
    reason: Type.Optional(Text({ maxLength: MAX_PROTOCOL_TEXT_CHARS, description: 'recorded in the audit trail' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type OverrideRunBodyT = Static<typeof OverrideRunBody>;

export const ProtocolTypeSchema = Type.Object(
  {
    id: Type.Union([prefixedId('ptype'), Type.Null()], { description: 'null for built-in types' }),
    object: Type.Literal('protocol_type'),
    name: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    steps: Type.Array(Type.String()),
    builtin: Type.Boolean(),
    created_at: Type.Union([IsoTime, Type.Null()]),
  },
  { $id: 'ProtocolType' },
);
export type ProtocolTypeView = Static<typeof ProtocolTypeSchema>;

export const CreateProtocolTypeBody = Type.Object(
  {
    name: ProtocolName,
    description: Type.Optional(Text({ maxLength: MAX_PROTOCOL_TEXT_CHARS })),
    steps: Type.Array(Text({ maxLength: MAX_SHORT_TEXT_CHARS }), { minItems: 1, maxItems: 50 }),
  },
  { additionalProperties: false },
);
export type CreateProtocolTypeBodyT = Static<typeof CreateProtocolTypeBody>;

export const ProtocolTypeList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(Type.Ref('ProtocolType')),
  has_more: Type.Boolean(),
});

export const IncidentProtocolParams = Type.Object({ incident_id: Type.String({ description: 'incident_…' }) });
export const RunIdParams = Type.Object({ id: Type.String({ description: 'prot_…' }) });

export const RunNotificationList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({
      responder_id: Type.String(),
      name: Type.Union([Type.String(), Type.Null()], { description: 'null once the responder was removed' }),
      escalation_level: Type.Integer({ description: 'the run’s level when this responder was notified' }),
      notified_at: IsoTime,
      reached: Type.Boolean({ description: 'at least one channel delivered' }),
      pending: Type.Boolean({ description: 'not reached yet and a channel is still being tried' }),
      channels: Type.Array(
        Type.Object({
          channel: Type.String({ description: 'webhook, email or push' }),
          delivery_id: Type.String(),
          status: Type.String({ description: 'pending, retrying, delivered, dropped or cancelled' }),
          error: Type.Union([Type.String(), Type.Null()], { description: 'why the last attempt failed (e.g. a push subscription gone)' }),
        }),
      ),
    }),
  ),
  has_more: Type.Boolean(),
});
