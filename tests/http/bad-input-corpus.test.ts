import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import type { CreatedKey } from '../../src/platform/keys/key.service.ts';

/**
 * The bad-input corpus: for EVERY operation in openapi.json, requests are
 * generated from the operation's own schemas — wrong types, missing required fields, unknown
 * fields, huge and blank strings, non-finite and out-of-range numbers (sent as raw JSON text),
 * malformed ids, bad query parameters, wrong content types, malformed, empty and non-object
 * bodies — and sent with a valid key of the right tenant. No answer may be a 5xx; every 4xx is
 * application/problem+json with `code` and `request_id` (the X-Request-Id), and field errors name
 * the field (`param`).
 */

type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  operationId: string;
  tags: string[];
  params: Array<{ name: string; in: string; required?: boolean; schema: Schema }>;
  body: { mediaType: string; schema: Schema; required: boolean } | null;
}
interface Probe {
  op: Operation;
  label: string;
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
  /** the request must be refused with 400 naming this field (top-level name) */
  refuse?: string;
}

const spec = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const HOUSEHOLD_TAGS = new Set(['Conversations', 'Watches', 'Events', 'Household']);
/** collection segment before an `{id}` → id prefix (docs/design.md "IDs") */
const ID_PREFIX: Record<string, string> = {
  streams: 'stream',
  scenes: 'scene',
  webhooks: 'whk',
  deliveries: 'dlv',
  watches: 'wat',
  conversations: 'conv',
  'alert-rules': 'rule',
  alerts: 'alert',
  incidents: 'incident',
  'protocol-runs': 'prot',
  responders: 'rsp',
  detections: 'det',
  people: 'person',
};
/** where a body generated from the schema alone is not a valid request (the service checks more) */
const HOOK = 'http://127.0.0.1:9/vigil';
const BASE: Record<string, object> = {
  createStream: { source_type: 'sandbox' },
  injectSandboxDetection: { value: 1 },
  createWebhook: { url: HOOK },
  updateWebhook: { url: HOOK },
  createResponder: { contact: { webhook_url: HOOK } },
};
/** field-error codes must name the field */
const FIELD_CODES = new Set(['validation_failed', 'unknown_field', 'invalid_json']);

function resolve(s: Schema | undefined): Schema {
  if (!s) return {};
  if (s.$ref) return resolve(spec.components.schemas[String(s.$ref).split('/').pop()!]);
  return s;
}

function operations(): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<any>(spec.paths)) {
    for (const method of METHODS) {
      const o = item[method];
      if (!o) continue;
      const content = o.requestBody?.content ?? {};
      const mediaType = Object.keys(content)[0];
      ops.push({
        method: method.toUpperCase(),
        path,
        operationId: o.operationId,
        tags: o.tags ?? [],
        params: o.parameters ?? [],
        body: mediaType ? { mediaType, schema: resolve(content[mediaType].schema), required: !!o.requestBody.required } : null,
      });
    }
  }
  return ops;
}

/** A plausible valid value for a schema: examples, default, enum, then by type. */
function sample(raw: Schema, depth = 0): unknown {
  const s = resolve(raw);
  if (s.examples?.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  if (s.anyOf || s.oneOf) return sample((s.anyOf ?? s.oneOf)[0], depth);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth > 4) return out;
      for (const k of s.required ?? []) out[k] = sample(s.properties?.[k] ?? {}, depth + 1);
      return out;
    }
    case 'array':
      return s.minItems ? Array.from({ length: s.minItems }, () => sample(s.items ?? {}, depth + 1)) : [];
    case 'integer':
    case 'number':
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : Math.min(1, s.maximum ?? 1));
    case 'boolean':
      return true;
    case 'string':
      if (s.format === 'date-time') return new Date().toISOString();
      if (s.format === 'uri') return 'https://hooks.example.com/vigil';
      if (s.format === 'email') return 'a@example.com';
      return 'x'.repeat(Math.max(3, s.minLength ?? 0));
    default:
      return 'x';
  }
}

const RAW = '@@raw@@';
/** bad values for any field; RAW-marked strings are spliced into the JSON text unquoted */
const BAD_VALUES: Array<[string, unknown]> = [
  ['null', null],
  ['true', true],
  ['string', 'not-a-number'],
  ['blank', ''],
  ['spaces', '   '],
  ['nul', 'a\u0000b'],
  ['control', 'a\u0007b'],
  ['huge-string', 'x'.repeat(100_000)],
  ['int', 12],
  ['negative', -1],
  ['fraction', 1.5],
  ['max-safe', 1e308],
  ['-max-safe', -1e308],
  ['+inf', `${RAW}1e400`],
  ['-inf', `${RAW}-1e400`],
  ['array', []],
  ['object', {}],
  ['nested', { a: { b: [1, { c: 'd' }] } }],
];

function jsonText(body: unknown): string {
  return JSON.stringify(body).replace(/"@@raw@@([^"]*)"/g, '$1');
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v));
}

function setAt(obj: any, path: string[], value: unknown): any {
  const out = clone(obj);
  let cur = out;
  for (const k of path.slice(0, -1)) cur = cur[k];
  cur[path[path.length - 1]] = value;
  return out;
}

function deleteAt(obj: any, path: string[]): any {
  const out = clone(obj);
  let cur = out;
  for (const k of path.slice(0, -1)) cur = cur[k];
  delete cur[path[path.length - 1]];
  return out;
}

/** every property path of an object schema (following the branch the sample took), with whether it is required */
function fieldPaths(raw: Schema, base: unknown, prefix: string[] = [], depth = 0): Array<{ path: string[]; required: boolean; schema: Schema }> {
  let s = resolve(raw);
  if (s.anyOf || s.oneOf) {
    const branches: Schema[] = (s.anyOf ?? s.oneOf).map(resolve);
    s =
      branches.find(
        (b) =>
          b.type === 'object' &&
          typeof base === 'object' &&
          base &&
          Object.entries(b.properties ?? {}).every(
            ([k, p]: [string, any]) => !(k in (base as object)) || !resolve(p).enum || resolve(p).enum.includes((base as any)[k]),
          ),
      ) ?? branches[0];
  }
  if (s.type !== 'object' || !s.properties || depth > 2) return [];
  const out: Array<{ path: string[]; required: boolean; schema: Schema }> = [];
  for (const [k, p] of Object.entries<Schema>(s.properties)) {
    const path = [...prefix, k];
    out.push({ path, required: (s.required ?? []).includes(k), schema: resolve(p) });
    const child = base && typeof base === 'object' ? (base as any)[k] : undefined;
    if (child && typeof child === 'object' && !Array.isArray(child)) out.push(...fieldPaths(p, child, path, depth + 1));
  }
  return out;
}

describe('bad-input corpus generated from openapi.json', () => {
  let t: TestApp;
  let org: CreatedKey;
  let home: CreatedKey;
  const ids = new Map<string, string>(); // prefix → an existing id of the right tenant
  before(async () => {
    // SQLite in the suite (fast); CORPUS_DIALECT=postgres runs the same corpus on PostgreSQL
    t = await createTestApp({ dialect: process.env.CORPUS_DIALECT === 'postgres' ? 'postgres' : 'sqlite', config: { webhookAllowPrivate: true } });
    org = await t.orgKey({ mode: 'test' });
    home = await t.householdKey({ mode: 'test' });
  });
  after(() => t.close());

  const keyFor = (op: Operation) => (op.tags.some((x) => HOUSEHOLD_TAGS.has(x)) ? home : org);

  function collectIds(v: unknown): void {
    if (typeof v === 'string') {
      const m = /^([a-z]+)_[0-9a-z]{26}$/.exec(v);
      if (m && !ids.has(m[1])) ids.set(m[1], v);
    } else if (Array.isArray(v)) v.forEach(collectIds);
    else if (v && typeof v === 'object') Object.values(v).forEach(collectIds);
  }

  /** body references (`stream_id`, `detection_ids`) pointed at real resources of the caller */
  function withRealIds(v: unknown): unknown {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const one = /^(.*)_id$/.exec(k);
      const many = /^(.*)_ids$/.exec(k);
      const prefix = (name: string) => (({ detection: 'det', rule: 'rule', stream: 'stream' }) as Record<string, string>)[name] ?? name;
      if (one && ids.has(prefix(one[1]))) out[k] = ids.get(prefix(one[1]));
      else if (many && ids.has(prefix(many[1]))) out[k] = [ids.get(prefix(many[1]))];
      else out[k] = withRealIds(x);
    }
    return out;
  }

  /** the path with real ids of the caller's tenant where they exist */
  function validPath(op: Operation): string {
    return op.path.replace(/\{([^}]+)\}/g, (_m, name: string, offset: number) => {
      const p = op.params.find((x) => x.in === 'path' && x.name === name);
      const en = p ? resolve(p.schema) : {};
      if (en.enum || en.anyOf) return String(sample(en));
      const segment = op.path.slice(0, offset).split('/').filter(Boolean).pop() ?? '';
      const prefix = ID_PREFIX[segment] ?? segment;
      return ids.get(prefix) ?? `${prefix}_01jd3k8e7f9g2h4j6k8m0n2p4q`;
    });
  }

  function probes(op: Operation): Probe[] {
    const out: Probe[] = [];
    const url = validPath(op);
    const json = (label: string, body: unknown, u = url, refuse?: string): Probe => ({
      op,
      label,
      url: u,
      headers: { 'content-type': 'application/json' },
      payload: jsonText(body),
      refuse,
    });
    const base =
      op.body && op.body.mediaType === 'application/json' ? withRealIds({ ...(sample(op.body.schema) as object), ...(BASE[op.operationId] ?? {}) }) : undefined;

    // malformed path parameters (the rest of the request valid)
    const BAD_IDS = [
      'x',
      '0',
      'stream_',
      `${'a'.repeat(101)}`,
      'a'.repeat(2000),
      '%zz',
      '%00',
      '..%2F..%2Fetc',
      "'%20OR%201=1--",
      '%E2%98%83',
      'rule_01JD3K8E7F9G2H4J6K8M0N2P4Q',
      'null',
      '-1',
      '1e400',
    ];
    for (const p of op.params.filter((x) => x.in === 'path')) {
      for (const bad of BAD_IDS) {
        const u = op.path.replace(/\{([^}]+)\}/g, (m, name: string) => (name === p.name ? bad : validPath({ ...op, path: m })));
        out.push(base !== undefined ? json(`path ${p.name}=${bad.slice(0, 20)}`, base, u) : { op, label: `path ${p.name}=${bad.slice(0, 20)}`, url: u });
      }
    }
    // bad query parameters (only on operations that are safe to call repeatedly)
    if (op.method === 'GET') {
      const BAD_QUERY = [
        '',
        'abc',
        '-1',
        '0',
        '101',
        '0x10',
        '1e1',
        '+5',
        '%2016',
        '16.5',
        '1e400',
        'NaN',
        'Infinity',
        '99999999999999999999999',
        '%00',
        'x'.repeat(5000),
        '%E2%98%83',
      ];
      for (const p of op.params.filter((x) => x.in === 'query')) {
        const numeric = ['integer', 'number'].includes(resolve(p.schema).type);
        const STRICT = ['abc', '0x10', '1e1', '+5', '%2016', '1e400', 'NaN', 'Infinity', '99999999999999999999999', '%00'];
        for (const bad of BAD_QUERY) {
          out.push({
            op,
            label: `query ${p.name}=${bad.slice(0, 20)}`,
            url: `${url}?${p.name}=${bad}`,
            refuse: numeric && STRICT.includes(bad) ? p.name : undefined,
          });
        }
        out.push({ op, label: `query ${p.name} twice`, url: `${url}?${p.name}=1&${p.name}=2` });
      }
      out.push({ op, label: 'unknown query param', url: `${url}?no_such_param=1` });
      out.push({ op, label: 'query %zz', url: `${url}?limit=%zz` });
    }
    if (op.method === 'DELETE') return out; // deleting real resources would end the corpus early

    if (op.body && op.body.mediaType !== 'application/json') {
      out.push({ op, label: 'empty binary body', url, headers: { 'content-type': op.body.mediaType }, payload: Buffer.alloc(0) });
      out.push({ op, label: 'garbage binary body', url, headers: { 'content-type': op.body.mediaType }, payload: Buffer.from('not a jpeg at all') });
      out.push(json('json instead of binary', { a: 1 }));
      return out;
    }
    // whole-body faults
    out.push({ op, label: 'empty json body', url, headers: { 'content-type': 'application/json' }, payload: '' });
    out.push({ op, label: 'malformed json', url, headers: { 'content-type': 'application/json' }, payload: '{"a":' });
    out.push({ op, label: 'json with trailing garbage', url, headers: { 'content-type': 'application/json' }, payload: '{} x' });
    out.push({ op, label: 'text/plain', url, headers: { 'content-type': 'text/plain' }, payload: 'hello' });
    out.push({ op, label: 'form encoded', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1' });
    out.push({ op, label: 'no content type', url, payload: '{"a":1}' });
    out.push({ op, label: 'proto poisoning', url, headers: { 'content-type': 'application/json' }, payload: '{"__proto__":{"x":1}}' });
    out.push({ op, label: 'deep nesting', url, headers: { 'content-type': 'application/json' }, payload: '['.repeat(5000) + ']'.repeat(5000) });
    out.push({ op, label: 'over 1 MiB', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ a: 'x'.repeat(1_100_000) }) });
    for (const [label, v] of [
      ['array', []],
      ['null', null],
      ['string', 'x'],
      ['number', 1],
      ['1e400', `${RAW}1e400`],
    ] as Array<[string, unknown]>) {
      out.push(json(`body is ${label}`, v));
    }
    out.push({
      op,
      label: 'Idempotency-Key too long',
      url,
      headers: { 'content-type': 'application/json', 'idempotency-key': 'k'.repeat(300) },
      payload: jsonText(base ?? {}),
    });
    if (!op.body) return out;

    // field-level faults on an otherwise valid body
    out.push(json('unknown field', { ...(base as object), no_such_field: 1 }));
    // streamed replies (conversations) answer errors before any stream bytes
    for (const [label, v] of [
      ['unknown field', { ...(base as object), no_such_field: 1 }],
      ['body is array', []],
    ] as Array<[string, unknown]>) {
      out.push({
        op,
        label: `${label} (text/event-stream)`,
        url,
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        payload: jsonText(v),
      });
    }
    for (const f of fieldPaths(op.body.schema, base)) {
      const name = f.path.join('.');
      if (f.required) out.push(json(`missing ${name}`, deleteAt(base, f.path)));
      const s = f.schema;
      const numeric = s.type === 'integer' || s.type === 'number';
      const top = f.path[0];
      const text = s.type === 'string' && !s.enum && !s.format && !/_id$/.test(top);
      for (const [label, v] of BAD_VALUES) {
        const mustRefuse =
          (numeric && ['+inf', '-inf', 'max-safe', '-max-safe', 'string', 'null'].includes(label)) ||
          (text && ['blank', 'spaces', 'nul', 'control'].includes(label));
        out.push(json(`${name}=${label}`, setAt(base, f.path, v), url, mustRefuse ? top : undefined));
      }
      if (numeric) {
        if (s.maximum !== undefined) out.push(json(`${name}=max+1`, setAt(base, f.path, s.maximum + 1), url, top));
        if (s.minimum !== undefined) out.push(json(`${name}=min-1`, setAt(base, f.path, s.minimum - 1), url, top));
      }
      if (s.type === 'string' && s.maxLength !== undefined) out.push(json(`${name}=maxLength+1`, setAt(base, f.path, 'y'.repeat(s.maxLength + 1))));
    }
    return out;
  }

  test('no 5xx and every 4xx is problem+json with code, request_id and param', { timeout: 600_000 }, async () => {
    const ops = operations();
    // create one of everything first so path ids and body references are real
    const create = async (url: string, body: object, key: CreatedKey = org) => {
      const r = await t.app.inject({ method: 'POST', url, headers: bearer(key), payload: body });
      assert.ok(r.statusCode < 300, `${url}: ${r.body}`);
      collectIds(r.json());
      return r.json();
    };
    const hook = HOOK;
    const stream = await create('/v1/streams', {
      name: 'Lobby cam',
      source_type: 'sandbox',
      source_url: 'sandbox://lobby?scenario=lobby&seed=7',
      location: 'north_lobby',
    });
    await create('/v1/webhooks', { url: hook, events: ['alert.fired'] });
    await create('/v1/alert-rules', { name: 'Crowd', condition: { type: 'person_count', above: 3 } });
    await create('/v1/sandbox/detections', { stream_id: stream.id, type: 'person_count', value: 4 });
    await create('/v1/responders', { name: 'Desk', kind: 'person', escalation_level: 1, contact: { webhook_url: hook } });
    const incident = await create('/v1/incidents', { stream_id: stream.id, title: 'Tailgating' });
    await create(`/v1/incidents/${incident.id}/protocol`, { protocol_type: 'unauthorized_access', notify_responders: false, escalation_level: 1 });
    await create('/v1/conversations', { message: 'Watch the front porch tonight' }, home);
    for (const url of ['/v1/streams', '/v1/alerts', '/v1/webhooks']) collectIds((await t.app.inject({ url, headers: bearer(org) })).json());
    for (const url of ['/v1/watches', '/v1/events']) collectIds((await t.app.inject({ url, headers: bearer(home) })).json());
    if (process.env.CORPUS_DEBUG) console.log([...ids.entries()]);

    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let requests = 0;
    const slow: Array<[string, number]> = [];
    for (const op of ops) {
      const opStarted = Date.now();
      for (const p of probes(op)) {
        const key = keyFor(op);
        const res = await t.app.inject({
          method: op.method as 'GET',
          url: p.url,
          headers: { ...bearer(key), ...(p.headers ?? {}) },
          ...(p.payload !== undefined ? { payload: p.payload } : {}),
        });
        requests++;
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        const where = `${op.method} ${op.path} [${p.label}] → ${res.statusCode}`;
        if (res.statusCode >= 500) {
          failures.push(`${where} ${res.body.slice(0, 200)}`);
          continue;
        }
        if (p.refuse !== undefined && res.statusCode !== 400) {
          failures.push(`${where} should be refused with 400 naming ${p.refuse}: ${res.body.slice(0, 120)}`);
          continue;
        }
        if (res.statusCode < 400) continue;
        const type = String(res.headers['content-type'] ?? '');
        if (!type.startsWith('application/problem+json')) {
          failures.push(`${where} content-type ${type}: ${res.body.slice(0, 120)}`);
          continue;
        }
        const body = res.json();
        if (typeof body.code !== 'string' || body.request_id !== res.headers['x-request-id'])
          failures.push(`${where} code/request_id missing: ${res.body.slice(0, 160)}`);
        else if (FIELD_CODES.has(body.code) && typeof body.param !== 'string') failures.push(`${where} ${body.code} without param`);
        else if (p.refuse !== undefined && !String(body.param).startsWith(p.refuse)) failures.push(`${where} names ${body.param}, not ${p.refuse}`);
      }
      slow.push([op.operationId, Date.now() - opStarted]);
    }
    if (process.env.CORPUS_DEBUG) console.log(slow.sort((a, b) => b[1] - a[1]).slice(0, 10));
    const perStatus = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
    console.log(`bad-input corpus: ${ops.length} operations, ${requests} requests; ${perStatus}; ${failures.length} failures`);
    for (const f of failures.slice(0, Number(process.env.CORPUS_SHOW ?? 60))) console.log(`  ${f}`);
    assert.ok(ops.length >= 60, 'every operation of openapi.json is covered');
    assert.deepEqual(failures, []);
  });

  test('every numeric field of every request (bodies, query strings, path parameters) has a minimum and a maximum', () => {
    const unbounded: string[] = [];
    const walk = (raw: Schema, where: string, depth = 0): void => {
      const s = resolve(raw);
      if (depth > 8) return;
      if (s.type === 'integer' || s.type === 'number') {
        const hasMin = s.minimum !== undefined || s.exclusiveMinimum !== undefined;
        const hasMax = s.maximum !== undefined || s.exclusiveMaximum !== undefined;
        if (!hasMin || !hasMax) unbounded.push(where);
      }
      for (const b of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) walk(b, where, depth + 1);
      for (const [k, p] of Object.entries<Schema>(s.properties ?? {})) walk(p, `${where}.${k}`, depth + 1);
      if (s.items) walk(s.items, `${where}[]`, depth + 1);
    };
    for (const op of operations()) {
      for (const p of op.params) walk(p.schema, `${op.operationId} ${p.in} ${p.name}`);
      if (op.body) walk(op.body.schema, `${op.operationId} body`);
    }
    assert.deepEqual(unbounded, []);
  });
});
