/**
 * Reads an OpenAPI 3.1 document into the shape both client generators need: resources (from the
 * path's first segment after /v1, else the first tag) holding one method per operation, named by
 * stripping the resource noun from the operationId (`triggerIncidentProtocol` on
 * /v1/incidents/{incident_id}/protocol → incidents.triggerProtocol). An operation may override the
 * derived name with `x-vigil-method`, or stay out of the clients with `x-vigil-client: false`. Nothing here is specific to one endpoint, so new endpoints
 * reach both clients by `npm run generate` alone.
 */

export type JsonSchema = Record<string, any>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface ParameterModel {
  /** name on the wire (snake_case) */
  name: string;
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

export interface OperationModel {
  operationId: string;
  /** camelCase method name within the resource */
  method: string;
  httpMethod: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  pathParams: ParameterModel[];
  queryParams: ParameterModel[];
  /** the JSON request body schema, or null when the operation takes none */
  body: { required: boolean; schema: JsonSchema } | null;
  /** a request body sent as raw bytes (an image/jpeg frame), or null; never together with `body` */
  binaryBody: { mediaType: string; required: boolean } | null;
  /**
   * success status and its JSON schema (null when the success response has no JSON body); `binary`
   * names the media type of a raw-bytes response (image/jpeg); `text` for other media types (e.g. NDJSON exports)
   */
  success: { status: number; schema: JsonSchema | null; binary: string | null; text: boolean };
  /** a `{object: "list", data, has_more}` response with cursor parameters: the client pages it */
  paged: boolean;
  /** declares a text/event-stream response */
  streams: boolean;
}

export interface ResourceModel {
  /** camelCase property name on the client (`streams`, `auditLog`) */
  name: string;
  operations: OperationModel[];
}

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Words of a camelCase / snake_case / kebab-case identifier, lower-cased. */
export function splitWords(id: string): string[] {
  return id
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_\-./{}]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

export function toCamel(words: string[]): string {
  return words.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('');
}

export function toSnake(words: string[]): string {
  return words.join('_');
}

export function toPascal(words: string[]): string {
  return words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

/** English singular of a resource word (incidents → incident, watches → watch, policies → policy). */
export function singularize(word: string): string {
  if (/ies$/.test(word)) return word.slice(0, -3) + 'y';
  if (/(ch|sh|x|ss|z)es$/.test(word)) return word.slice(0, -2);
  if (/[^s]s$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The resource words of an operation: the first path segment after /v1, else its first tag. */
function resourceWordsOf(path: string, op: any): string[] {
  const m = /^\/v\d+\/([^/{}]+)/.exec(path);
  if (m) return splitWords(m[1]);
  const tag = Array.isArray(op.tags) && op.tags.length > 0 ? String(op.tags[0]) : 'default';
  return splitWords(tag);
}

/**
 * Removes the resource noun (plural first, then singular) from the operationId's words. An
 * operationId without the noun is kept as it is, except a POST to the collection itself, which is
 * `create` by REST convention (operationId `converse` on POST /v1/conversations → conversations.create).
 */
function deriveMethodWords(operationId: string, resourceWords: string[], creates: boolean): string[] {
  const words = splitWords(operationId);
  const plural = resourceWords;
  const singular = [...resourceWords.slice(0, -1), singularize(resourceWords[resourceWords.length - 1])];
  for (const noun of [plural, singular]) {
    for (let i = 1; i + noun.length <= words.length; i++) {
      if (noun.every((w, j) => words[i + j] === w)) {
        const rest = [...words.slice(0, i), ...words.slice(i + noun.length)];
        if (rest.length > 0) return rest;
      }
    }
  }
  return creates ? ['create'] : words;
}

export function resolveRef(doc: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema | undefined {
  let s = schema;
  for (let i = 0; s && typeof s.$ref === 'string' && i < 20; i++) {
    const name = s.$ref.replace(/^#\/components\/schemas\//, '');
    s = doc.components?.schemas?.[name];
  }
  return s;
}

function jsonSchemaOf(content: Record<string, any> | undefined): JsonSchema | null {
  if (!content) return null;
  const key = Object.keys(content).find((k) => k === 'application/json' || /\+json$/.test(k));
  return key ? (content[key].schema ?? {}) : null;
}

/**
 * The media type of content that travels as raw bytes rather than JSON or text: OpenAPI's
 * `type: string, format: binary`, or an image/audio/video/octet-stream media type.
 */
function binaryMediaTypeOf(content: Record<string, any> | undefined): string | null {
  if (!content) return null;
  const key = Object.keys(content).find(
    (k) => content[k]?.schema?.format === 'binary' || /^(image|audio|video)\//.test(k) || k === 'application/octet-stream',
  );
  return key ?? null;
}

function isPagedList(doc: OpenApiDocument, schema: JsonSchema | null, queryParams: ParameterModel[]): boolean {
  const s = resolveRef(doc, schema ?? undefined);
  const props = s?.properties ?? {};
  return (
    Array.isArray(props.object?.enum) &&
    props.object.enum.includes('list') &&
    props.data?.type === 'array' &&
    props.has_more !== undefined &&
    queryParams.some((p) => p.name === 'starting_after')
  );
}

function readParameters(doc: OpenApiDocument, pathItem: any, op: any): any[] {
  const all = [...(pathItem.parameters ?? []), ...(op.parameters ?? [])].map((p: any) =>
    p.$ref ? resolveComponentParameter(doc, p.$ref) : p,
  );
  // operation-level parameters override path-level ones of the same name and place
  const byKey = new Map<string, any>();
  for (const p of all) byKey.set(`${p.in}:${p.name}`, p);
  return [...byKey.values()];
}

function resolveComponentParameter(doc: OpenApiDocument, ref: string): any {
  const name = ref.replace(/^#\/components\/parameters\//, '');
  const found = (doc.components as any)?.parameters?.[name];
  if (!found) throw new Error(`unresolved parameter ${ref}`);
  return found;
}

/** Builds the resource → operation model of a document; throws on names the clients could not express. */
export function readOperationModel(doc: OpenApiDocument): ResourceModel[] {
  const resources = new Map<string, OperationModel[]>();
  for (const [path, pathItem] of Object.entries(doc.paths)) {
    for (const verb of HTTP_METHODS) {
      const op = pathItem[verb];
      if (!op) continue;
      // described for integrators, spoken by other stacks (WHIP: SDP, not JSON): no client method
      if (op['x-vigil-client'] === false) continue;
      if (!op.operationId) throw new Error(`${verb.toUpperCase()} ${path} has no operationId`);
      const resourceWords = resourceWordsOf(path, op);
      const resource = toCamel(resourceWords);
      const override = op['x-vigil-method'];
      const creates = verb === 'post' && /^\/v\d+\/[^/{}]+$/.test(path);
      const method = typeof override === 'string' ? override : toCamel(deriveMethodWords(op.operationId, resourceWords, creates));
      const params = readParameters(doc, pathItem, op);
      const toModel = (p: any): ParameterModel => ({
        name: p.name,
        required: p.in === 'path' ? true : Boolean(p.required),
        schema: p.schema ?? {},
        ...(p.description ? { description: p.description } : {}),
      });
      // path parameters in the order they appear in the path, so positional arguments read left to right
      const order = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const pathParams = params.filter((p) => p.in === 'path').map(toModel).sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
      const queryParams = params.filter((p) => p.in === 'query').map(toModel);
      const bodySchema = jsonSchemaOf(op.requestBody?.content);
      const bodyMediaType = bodySchema ? null : binaryMediaTypeOf(op.requestBody?.content);
      const successCode = Object.keys(op.responses ?? {}).filter((c) => /^2\d\d$/.test(c)).sort()[0] ?? '200';
      const successResponse = op.responses?.[successCode] ?? {};
      const successSchema = jsonSchemaOf(successResponse.content);
      const successBinary = successSchema ? null : binaryMediaTypeOf(successResponse.content);
      const streams = Object.values(op.responses ?? {}).some((r: any) => r?.content && 'text/event-stream' in r.content);
      const model: OperationModel = {
        operationId: op.operationId,
        method,
        httpMethod: verb.toUpperCase() as OperationModel['httpMethod'],
        path,
        ...(op.summary ? { summary: op.summary } : {}),
        ...(op.description ? { description: op.description } : {}),
        deprecated: Boolean(op.deprecated),
        pathParams,
        queryParams,
        body: bodySchema ? { required: Boolean(op.requestBody?.required), schema: bodySchema } : null,
        binaryBody: bodyMediaType ? { mediaType: bodyMediaType, required: Boolean(op.requestBody?.required) } : null,
        success: {
          status: Number(successCode),
          schema: successSchema,
          binary: successBinary,
          text: !successSchema && !successBinary && Object.keys(successResponse.content ?? {}).some((t) => t !== 'text/event-stream'),
        },
        paged: verb === 'get' && isPagedList(doc, successSchema, queryParams),
        streams,
      };
      const list = resources.get(resource) ?? [];
      list.push(model);
      resources.set(resource, list);
    }
  }
  const out: ResourceModel[] = [];
  for (const [name, operations] of [...resources.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const seen = new Map<string, string>();
    for (const op of operations) {
      const clash = seen.get(op.method);
      if (clash) {
        throw new Error(
          `${clash} and ${op.operationId} both become ${name}.${op.method}; rename one operationId or set x-vigil-method on it`,
        );
      }
      seen.set(op.method, op.operationId);
    }
    out.push({ name, operations });
  }
  return out;
}

/** Body property names and which are required (empty when the body is not an object schema). */
export function bodyProperties(doc: OpenApiDocument, schema: JsonSchema): { name: string; required: boolean; schema: JsonSchema }[] {
  const s = resolveRef(doc, schema);
  if (!s || !s.properties) return [];
  const required = new Set<string>(s.required ?? []);
  return Object.entries(s.properties as Record<string, JsonSchema>).map(([name, sch]) => ({ name, required: required.has(name), schema: sch }));
}

/** Words of the argument carrying a raw-bytes body, named after its media type (image/jpeg → `jpeg`), else `content`. */
export function binaryArgumentWords(mediaType: string): string[] {
  const subtype = mediaType.split('/')[1]?.split(';')[0]?.trim() ?? '';
  return /^[a-z][a-z0-9]*$/.test(subtype) ? [subtype] : ['content'];
}
