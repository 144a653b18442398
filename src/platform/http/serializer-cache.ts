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
  const inner = build(externalSchemas, serializerOpts);
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
    const fn = inner(def);
    cache.set(schema, fn);
    return fn;
  };
};
