import { Type, type TSchema, type Static, type StringOptions } from '@sinclair/typebox';
import { ERROR_CODES, type ErrorCode } from '../lib/index.ts';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../db/index.ts';

/** The longest URL a body may carry (webhook and responder receivers, stream sources, push endpoints, brokers). */
export const MAX_URL_CHARS = 2048;
/** The longest email address (RFC 5321's 64 + 1 + 255). */
export const MAX_EMAIL_CHARS = 320;
/** The longest name or title of something an organization names: a stream, a responder, a person, an alert rule, an incident. */
export const MAX_NAME_CHARS = 200;
/** The longest short label: a key's or a device's name, a zone, a room, a sandbox track id. */
export const MAX_LABEL_CHARS = 100;
/** The longest IANA time zone name a body may carry. */
export const MAX_TIME_ZONE_CHARS = 64;
/** The longest short free text: an endpoint's description, a protocol step, why recordings are held. */
export const MAX_SHORT_TEXT_CHARS = 500;

/** RFC 9457 problem details as docs/design.md "Errors" fixes them. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'Documentation URL of the error code' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.Unsafe<ErrorCode>({ type: 'string', enum: ERROR_CODES, description: 'Stable machine-readable error code (docs/errors.md)' }),
    request_id: Type.String(),
    param: Type.Optional(Type.String({ description: 'The request field the error is about' })),
    errors: Type.Optional(Type.Array(Type.Object({ param: Type.String(), message: Type.String() }))),
  },
  { $id: 'Problem', additionalProperties: true },
);

export const ProblemRef = Type.Ref('Problem');

/**
 * Strings people read back: a name or label is one line with at least one visible
 * character and no control characters; free text (notes, messages) may also hold line breaks and
 * tabs. The lookahead keeps both patterns linear on long input.
 */
export const NAME_PATTERN = '^(?=[\\s\\S]*\\S)[^\\u0000-\\u001f\\u007f]*$';
export const TEXT_PATTERN = '^(?=[\\s\\S]*\\S)[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$';
/** how the problem handler explains the two patterns instead of quoting them */
export const PATTERN_MESSAGES: Record<string, string> = {
  [NAME_PATTERN]: 'must not be blank or contain control characters',
  [TEXT_PATTERN]: 'must not be blank or contain control characters other than line breaks and tabs',
};

/** A stored single-line name, title or label. */
export function Name(opts: StringOptions & { maxLength: number }) {
  return Type.String({ minLength: 1, ...opts, pattern: NAME_PATTERN });
}

/** Stored free text: a note, a message, a description. */
export function Text(opts: StringOptions & { maxLength: number }) {
  return Type.String({ minLength: 1, ...opts, pattern: TEXT_PATTERN });
}

export const IsoTime = Type.String({ format: 'date-time', examples: ['2026-11-21T20:40:00.000Z'] });
export const Location = Type.String({
  pattern: '^[a-z][a-z0-9_]*$',
  maxLength: 64,
  description: 'Location label, snake_case',
  examples: ['north_lobby'],
});

export function prefixedId(prefix: string, description?: string) {
  return Type.String({ pattern: `^${prefix}_[0-9a-z]{26}$`, description, examples: [`${prefix}_01jd3k8e7f9g2h4j6k8m0n2p4q`] });
}

export const ListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT })),
    starting_after: Type.Optional(Type.String({ description: 'Cursor: return items older than this id' })),
    ending_before: Type.Optional(Type.String({ description: 'Cursor: return items newer than this id' })),
  },
  { additionalProperties: false },
);
export type ListQueryT = Static<typeof ListQuery>;

/** `{object: "list", data, has_more}` (docs/design.md "Lists"). */
export function ListOf<T extends TSchema>(item: T) {
  return Type.Object({
    object: Type.Literal('list'),
    data: Type.Array(item),
    has_more: Type.Boolean(),
  });
}

/** Error responses every authenticated route may answer. */
export function withErrors<T extends Record<number, TSchema>>(ok: T) {
  return {
    ...ok,
    400: ProblemRef,
    401: ProblemRef,
    403: ProblemRef,
    404: ProblemRef,
    409: ProblemRef,
    413: ProblemRef,
    415: ProblemRef,
    422: ProblemRef,
    429: ProblemRef,
    500: ProblemRef,
  };
}
