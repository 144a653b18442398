import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, Name } from '../http/index.ts';

export const CreateConsoleSessionBody = Type.Object(
  {
    operator: Type.Optional(
      Name({
        maxLength: 100,
        description: 'who is signing in; the console sends it as X-Operator so the audit trail names the operator',
        examples: ['Dana Reyes'],
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateConsoleSessionBodyT = Static<typeof CreateConsoleSessionBody>;

export const ConsoleSessionSchema = Type.Object(
  {
    object: Type.Literal('console_session'),
    id: Type.Union([Type.String({ description: 'csn_…' }), Type.Null()], {
      description: 'null when the request was made with an API key rather than a console session',
    }),
    operator: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.Union([IsoTime, Type.Null()]),
    expires_at: Type.Union([IsoTime, Type.Null()]),
    key_id: Type.String({ description: 'the API key the session acts as (key_…)' }),
    tenant_id: Type.String(),
    tenant_kind: Type.Union([Type.Literal('organization'), Type.Literal('household')]),
    mode: Type.Union([Type.Literal('live'), Type.Literal('test')]),
    role: Type.Union([Type.Literal('owner'), Type.Literal('member'), Type.Null()], { description: 'household keys only' }),
    capabilities: Type.Array(Type.String(), { description: 'exactly the key’s capabilities (organization keys)' }),
    locations: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'exactly the key’s locations; null = every location' }),
  },
  { $id: 'ConsoleSession' },
);
export type ConsoleSessionView = Static<typeof ConsoleSessionSchema>;

export const ConsoleSignOutSchema = Type.Object({
  object: Type.Literal('console_sign_out'),
  revoked_sessions: Type.Integer({ minimum: 0, description: 'sessions ended by this call' }),
});
export type ConsoleSignOutView = Static<typeof ConsoleSignOutSchema>;
