import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchema } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { isWellFormedText } from '../lib/index.ts';

/** An Ajv-shaped error, so the problem handler names the field the same way for every check. */
export interface AjvLikeError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  message?: string;
  params: Record<string, unknown>;
}

type Validator = ((data: unknown) => boolean) & { errors?: AjvLikeError[] | null };

/**
 * Request validation. Bodies are strict (no coercion: a string is not a number);
 * query strings and path parameters coerce, but only from canonical decimal text, so `0x10`,
 * `1e1`, `+5` and ` 16` are refused instead of silently read as numbers. `strictNumbers` makes
 * Ajv refuse Infinity (JSON.parse reads `1e400` as Infinity) for every number and integer, and
 * every string anywhere in a request (values and field names) is checked for U+0000, which
 * PostgreSQL text cannot hold, and for unpaired UTF-16 surrogates (`"\ud800"` in JSON): neither
 * database can store one, so the stored text would differ from what was hashed into the audit
 * chain (docs/decisions.md, "Text integrity").
 */
export function createValidatorCompiler() {
  const compile = ({ schema, httpPart }: { schema: FastifySchema; httpPart?: string }): Validator => {
    const coerces = httpPart !== 'body';
    const cache = coerces ? compiled.query : compiled.body;
    const known = cache.get(schema as object);
    if (known) return known;
    const ajvValidate = (coerces ? ajv.query : ajv.body).compile(schema as object) as ValidateFunction;
    const validate: Validator = (data: unknown) => {
      const early = (coerces ? nonCanonicalNumber(schema as TSchema, data) : null) ?? nonFiniteOrNul(data, '');
      if (early) {
        validate.errors = [early];
        return false;
      }
      const ok = ajvValidate(data);
      validate.errors = ajvValidate.errors as AjvLikeError[] | null;
      return ok;
    };
    cache.set(schema as object, validate);
    return validate;
  };
  return {
    compile,
    addSchema(s: TSchema) {
      for (const a of [ajv.body, ajv.query]) if (!s.$id || !a.getSchema(s.$id)) a.addSchema(s);
    },
  };
}

/**
 * One pair of Ajv instances and one compiled validator per schema object for the whole process:
 * route schemas are module constants, so every app built in a process (the tests build hundreds)
 * and every route sharing a schema reuse the same compiled function instead of compiling it
 * again (docs/decisions.md, "Schemas compiled once per process"). The schemas are our own
 * TypeBox output, so Ajv does not validate them against the meta-schema on every compile.
 */
const COMMON = { allErrors: false, strict: false, strictNumbers: true, useDefaults: true, removeAdditional: false as const, validateSchema: false };
const ajv = { body: new Ajv({ ...COMMON, coerceTypes: false }), query: new Ajv({ ...COMMON, coerceTypes: 'array' as const }) };
for (const a of [ajv.body, ajv.query]) (addFormats as unknown as (a: Ajv) => void)(a);
const compiled = { body: new WeakMap<object, Validator>(), query: new WeakMap<object, Validator>() };

const INTEGER_TEXT = /^-?(0|[1-9][0-9]{0,15})$/;
const NUMBER_TEXT = /^-?(0|[1-9][0-9]{0,15})(\.[0-9]{1,15})?$/;

function numericKind(s: TSchema | undefined): 'integer' | 'number' | null {
  if (!s) return null;
  const type: unknown = s.type;
  if (type === 'integer' || type === 'number') return type;
  for (const branch of (s.anyOf ?? s.oneOf ?? []) as TSchema[]) {
    const k = numericKind(branch);
    if (k) return k;
  }
  return null;
}

/** A query or path value for a numeric property must be plain decimal text before Ajv coerces it. */
function nonCanonicalNumber(schema: TSchema, data: unknown): AjvLikeError | null {
  if (!data || typeof data !== 'object' || !schema?.properties) return null;
  for (const [name, prop] of Object.entries(schema.properties as Record<string, TSchema>)) {
    const kind = numericKind(prop);
    const raw = (data as Record<string, unknown>)[name];
    if (!kind || raw === undefined) continue;
    for (const v of Array.isArray(raw) ? raw : [raw]) {
      if (typeof v !== 'string') continue;
      if (!(kind === 'integer' ? INTEGER_TEXT : NUMBER_TEXT).test(v)) {
        return {
          keyword: 'type',
          instancePath: `/${name}`,
          message: kind === 'integer' ? 'must be a decimal integer (digits only)' : 'must be a decimal number',
          params: { type: kind },
          schemaPath: `#/properties/${name}`,
        };
      }
    }
  }
  return null;
}

const LONE_SURROGATE = 'must be well-formed Unicode text: it holds an unpaired UTF-16 surrogate';

/** Why a string cannot be stored as given (U+0000, an unpaired surrogate), or null. */
export function textProblem(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain the NUL character';
  if (!isWellFormedText(s)) return LONE_SURROGATE;
  return null;
}

/** The first non-finite number or string holding U+0000 or an unpaired surrogate anywhere in the value (free-form objects included). */
function nonFiniteOrNul(v: unknown, path: string, depth = 0): AjvLikeError | null {
  if (typeof v === 'number') {
    return Number.isFinite(v) ? null : { keyword: 'type', instancePath: path, message: 'must be a finite number', params: { type: 'number' }, schemaPath: '#' };
  }
  if (typeof v === 'string') {
    const problem = textProblem(v);
    return problem ? { keyword: 'pattern', instancePath: path, message: problem, params: {}, schemaPath: '#' } : null;
  }
  if (!v || typeof v !== 'object' || depth > 64 || ArrayBuffer.isView(v)) return null;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const e = nonFiniteOrNul(v[i], `${path}/${i}`, depth + 1);
      if (e) return e;
    }
    return null;
  }
  for (const [k, x] of Object.entries(v)) {
    if (k.includes('\u0000'))
      return { keyword: 'pattern', instancePath: path, message: 'has a field name containing the NUL character', params: {}, schemaPath: '#' };
    if (!isWellFormedText(k))
      return { keyword: 'pattern', instancePath: path, message: 'has a field name holding an unpaired UTF-16 surrogate', params: {}, schemaPath: '#' };
    const e = nonFiniteOrNul(x, `${path}/${k}`, depth + 1);
    if (e) return e;
  }
  return null;
}
