import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Factory = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']>;
type Serialize = ReturnType<ReturnType<Factory>>;

const build = SerializerSelector() as unknown as Factory;
/** per set of shared schemas (their $ids) and serializer options: one compiled serializer per response schema object */
const compiled = new Map<string, WeakMap<object, Serialize>>();

/**
 * Fastify's own response serializer (fast-json-stringify), compiled once per response schema
 * object for the whole process rather than once per route, status code and app: every route's
 * ten error statuses share the one Problem schema, and route schemas are module constants, so an
 * app built again in the same process (the tests build hundreds) compiles nothing it has seen
 * (docs/decisions.md, "Schemas compiled once per process").
 */
export const cachedSerializerFactory: Factory = (externalSchemas, serializerOpts) => {
  const inner = build(scalarUnionsAsTypes(externalSchemas), serializerOpts);
  const key = `${Object.keys((externalSchemas ?? {}) as object)
    .sort()
    .join(',')}|${JSON.stringify(serializerOpts ?? {})}`;
  let bySchema = compiled.get(key);
  if (!bySchema) compiled.set(key, (bySchema = new WeakMap()));
  const cache = bySchema;
  return (def) => {
    const schema = def.schema as object;
    const known = cache.get(schema);
    if (known) return known;
    const fn = inner({ ...def, schema: scalarUnionsAsTypes(def.schema) });
    cache.set(schema, fn);
    return fn;
  };
};

/** The scalar JSON types a serializer can tell apart by `typeof` alone. */
const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);
/** Keywords that only annotate or validate a scalar: they do not change how a valid value is written. */
const SCALAR_KEYWORDS = new Set([
  'type',
  'const',
  'enum',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'description',
  'examples',
  'title',
]);

/**
 * A copy of a response schema for the serializer only (routes, validation and openapi.json keep the
 * original), in which an `anyOf` of plain scalar schemas (a time or null, a union of string
 * literals) becomes one `type` list. fast-json-stringify writes an `anyOf` by running a schema
 * validator on the value for each branch until one matches (ajv's date-time format check on every
 * `as_of`, every read); with a `type` list it picks the branch by `typeof`. A value the response
 * schema allows is written the same either way (docs/decisions.md, "Request path: the read's fixed costs").
 */
export function scalarUnionsAsTypes<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(scalarUnionsAsTypes) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = scalarUnionsAsTypes(v);
  const types = Array.isArray(out.anyOf) && out.type === undefined ? scalarTypesOf(out.anyOf as unknown[]) : null;
  if (types === null) return out as T;
  delete out.anyOf;
  out.type = types.length === 1 ? types[0] : types;
  return out as T;
}

/** The distinct types of an anyOf whose every branch is a plain scalar schema; null otherwise. */
function scalarTypesOf(branches: unknown[]): string[] | null {
  const types: string[] = [];
  for (const b of branches) {
    if (b === null || typeof b !== 'object' || Array.isArray(b)) return null;
    const type = (b as { type?: unknown }).type;
    if (typeof type !== 'string' || !SCALAR_TYPES.has(type)) return null;
    if (Object.keys(b).some((k) => !SCALAR_KEYWORDS.has(k))) return null;
    if (!types.includes(type)) types.push(type);
  }
  // integer and number together would be told apart by value, not by typeof: left to the validator
  if (types.includes('integer') && types.includes('number')) return null;
  return types.length > 0 ? types : null;
}
