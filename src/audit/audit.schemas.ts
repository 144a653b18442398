import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, ListOf, ListQuery, prefixedId } from '../http/common.schemas.ts';

export const AuditEntrySchema = Type.Object(
  {
    id: prefixedId('aud'),
    object: Type.Literal('audit_entry'),
    at: IsoTime,
    actor: Type.Object({
      key_id: Type.Union([Type.String(), Type.Null()], { description: 'key_… that made the request; null for the system' }),
      operator: Type.Union([Type.String(), Type.Null()], { description: 'X-Operator header, "system" or "admin-cli"' }),
    }),
    action: Type.String({ examples: ['webhook.created'] }),
    resource: Type.Object({ type: Type.String(), id: Type.Union([Type.String(), Type.Null()]) }),
    request_id: Type.Union([Type.String(), Type.Null()]),
    data: Type.Unknown({ description: 'details: before/after where relevant' }),
    prev_hash: Type.String({ description: 'hash of the previous entry of this tenant (64 zeros for the first)' }),
    hash: Type.String(),
  },
  { $id: 'AuditEntry' },
);
export type AuditEntryView = Static<typeof AuditEntrySchema>;

export const AuditList = ListOf(Type.Ref('AuditEntry'));

export const AuditListQuery = Type.Composite(
  [
    ListQuery,
    Type.Object({
      resource_type: Type.Optional(Type.String({ maxLength: 100, examples: ['webhook_endpoint'] })),
      resource_id: Type.Optional(Type.String({ maxLength: 200 })),
      actor: Type.Optional(Type.String({ maxLength: 200, description: 'a key id (key_…) or an operator name' })),
      action: Type.Optional(Type.String({ maxLength: 100, description: 'exact action, or a prefix such as webhook.*' })),
      since: Type.Optional(Type.String({ format: 'date-time', description: 'entries at or after this instant' })),
      until: Type.Optional(Type.String({ format: 'date-time', description: 'entries at or before this instant' })),
    }),
  ],
  { additionalProperties: false },
);
export type AuditListQueryT = Static<typeof AuditListQuery>;

export const AuditVerification = Type.Object({
  valid: Type.Boolean(),
  entries_checked: Type.Integer({ description: 'entries recomputed, up to and including the first broken one' }),
  first_broken_id: Type.Optional(Type.String({ description: 'the first entry whose prev_hash or hash does not match; present when valid is false' })),
  head_hash: Type.Union([Type.String(), Type.Null()], { description: 'hash of the newest entry when the chain is valid' }),
});
export type AuditVerificationView = Static<typeof AuditVerification>;
