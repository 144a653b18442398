import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, ListOf, ListQuery, prefixedId } from '../http/index.ts';

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
    data_hash: Type.Union([Type.String(), Type.Null()], {
      description:
        'format-2 entries: hex SHA-256 of JSON [salt, resource_id, location, stream_id, data], which the entry hash covers instead of them (null for entries written before format 2)',
    }),
    prev_hash: Type.String({ description: 'hash of the previous entry of this tenant (64 zeros for the first)' }),
    hash: Type.String(),
  },
  { $id: 'AuditEntry' },
);
export type AuditEntryView = Static<typeof AuditEntrySchema>;

export const AuditList = ListOf(Type.Ref('AuditEntry'));

/** a comma-separated list of actions, each exact (`webhook.created`) or a family (`incident.*`) */
const ACTION_LIST = '^[a-z0-9_]+(\\.[a-z0-9_]+)*(\\.\\*)?(,[a-z0-9_]+(\\.[a-z0-9_]+)*(\\.\\*)?)*$';

export const AuditListQuery = Type.Composite(
  [
    ListQuery,
    Type.Object({
      resource_type: Type.Optional(Type.String({ maxLength: 100, examples: ['webhook_endpoint'] })),
      resource_id: Type.Optional(Type.String({ maxLength: 200 })),
      actor: Type.Optional(Type.String({ maxLength: 200, description: 'a key id (key_…) or an operator name' })),
      action: Type.Optional(
        Type.String({
          maxLength: 500,
          pattern: ACTION_LIST,
          description: 'only these actions, comma-separated: each exact (webhook.created) or a family (incident.*)',
          examples: ['incident.*,protocol_run.*'],
        }),
      ),
      exclude_action: Type.Optional(
        Type.String({
          maxLength: 500,
          pattern: ACTION_LIST,
          description: 'leave these actions out, same forms as action (detection.* hides detection entries)',
          examples: ['detection.*'],
        }),
      ),
      since: Type.Optional(Type.String({ format: 'date-time', description: 'entries at or after this instant' })),
      until: Type.Optional(Type.String({ format: 'date-time', description: 'entries at or before this instant' })),
    }),
  ],
  { additionalProperties: false },
);
export type AuditListQueryT = Static<typeof AuditListQuery>;

export const AuditCheckpointSchema = Type.Object(
  {
    id: prefixedId('ackp'),
    object: Type.Literal('audit_checkpoint'),
    tenant_id: Type.String(),
    head_id: Type.String({ description: 'the newest entry when the checkpoint was made' }),
    head_hash: Type.String({ description: "that entry's hash" }),
    entry_count: Type.Integer({ description: 'how many entries the chain had, head included' }),
    created_at: IsoTime,
    mac: Type.String({
      description:
        'hex HMAC-SHA256 under the server\'s checkpoint key of JSON ["vigil-audit-checkpoint-v1", tenant_id, head_id, head_hash, entry_count, created_at]',
    }),
  },
  { $id: 'AuditCheckpoint', description: "A signed statement of a tenant's chain head; keep them to detect removed entries later" },
);
export type AuditCheckpointView = Static<typeof AuditCheckpointSchema>;

export const AuditCheckpointList = ListOf(Type.Ref('AuditCheckpoint'));

export const AuditVerification = Type.Object({
  valid: Type.Boolean(),
  entries_checked: Type.Integer({ description: 'entries recomputed, up to and including the first broken one' }),
  first_broken_id: Type.Optional(
    Type.String({
      description:
        'when valid is false: the first entry that was changed or deleted; absent when the newest entries were removed (reason truncated), the checkpoint itself is bad, or the entry is outside what the key may read',
    }),
  ),
  reason: Type.Optional(
    Type.Union(
      ['entry_altered', 'link_broken', 'checkpoint_mismatch', 'checkpoint_invalid', 'entry_missing', 'truncated'].map((r) => Type.Literal(r)),
      { description: 'why the chain is not valid' },
    ),
  ),
  detail: Type.Optional(Type.String({ description: 'what was found, in words' })),
  head_hash: Type.Union([Type.String(), Type.Null()], { description: 'hash of the newest entry when the chain is valid' }),
  checkpoint: Type.Union([Type.Ref('AuditCheckpoint'), Type.Null()], { description: 'the newest signed checkpoint the chain was checked against' }),
});
export type AuditVerificationView = Static<typeof AuditVerification>;
