import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, ListOf, ListQuery, Location, Name, prefixedId, MAX_LABEL_CHARS } from '../http/index.ts';
import { CAPABILITIES } from '../identity/index.ts';

/** Keys in account settings (docs/design.md "Auth"). */
export const KeyIdParams = Type.Object({ id: Type.String({ description: 'key_…', maxLength: 100 }) });

const Role = Type.Union([Type.Literal('owner'), Type.Literal('member')], {
  description:
    'Household keys only. owner: sets and lifts boundaries, mutes and unmutes sensors, manages keys. ' +
    'member: can add boundaries and mutes, never lift them, and cannot manage keys.',
});
const Capability = Type.Union(CAPABILITIES.map((c) => Type.Literal(c)));
const Mode = Type.Union([Type.Literal('live'), Type.Literal('test')]);

export const CreateKeyBody = Type.Object(
  {
    name: Type.Optional(Name({ maxLength: MAX_LABEL_CHARS, description: 'A label, e.g. "Ana\'s phone" or "north gate kiosk"' })),
    role: Type.Optional(Role),
    capabilities: Type.Optional(
      Type.Array(Capability, {
        uniqueItems: true,
        maxItems: CAPABILITIES.length,
        description: "Organization keys only; default: the creating key's own set. Never more than the creating key holds.",
      }),
    ),
    locations: Type.Optional(
      Type.Union([Type.Array(Location, { minItems: 1, maxItems: 100, uniqueItems: true }), Type.Null()], {
        description:
          "Organization keys only: the locations the key may reach (null: every location). Default: the creating key's own; " +
          'a key limited to locations can only create keys limited to some of them.',
      }),
    ),
    mode: Type.Optional(Mode),
  },
  { additionalProperties: false },
);
export type CreateKeyBodyT = Static<typeof CreateKeyBody>;

const keyProperties = {
  id: prefixedId('key'),
  object: Type.Literal('api_key'),
  name: Type.Union([Type.String(), Type.Null()]),
  preview: Type.String({ description: 'First and last characters of the key, to recognise it; never enough to use it' }),
  mode: Mode,
  role: Type.Union([Role, Type.Null()], { description: 'owner or member for household keys; null for organization keys' }),
  capabilities: Type.Array(Type.String(), { description: 'Organization keys; empty for household keys (they reach their whole household)' }),
  locations: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'null: every location' }),
  rate_limit_per_minute: Type.Union([Type.Integer(), Type.Null()], { description: 'null: the server default (60)' }),
  created_at: IsoTime,
  revoked_at: Type.Union([IsoTime, Type.Null()]),
};

export const ApiKeySchema = Type.Object(keyProperties, { $id: 'ApiKey' });
export type ApiKeyView = Static<typeof ApiKeySchema>;

/** Creation and rotation answers: the key itself, shown only here. */
export const ApiKeyWithSecret = Type.Object({
  ...keyProperties,
  key: Type.String({ description: 'The API key (vk_live_… or vk_test_…). Shown only in this response; store it now.' }),
});
export type ApiKeyWithSecretView = Static<typeof ApiKeyWithSecret>;

export const ApiKeyList = ListOf(Type.Ref('ApiKey'));
export const KeyListQuery = ListQuery;
