import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { listGeneratedFiles, renderClients } from '../../scripts/clients/render-clients.ts';
import { readOperationModel, type OpenApiDocument } from '../../scripts/clients/operation-model.ts';

test('the committed client files are exactly what `npm run generate` writes', async () => {
  // from the committed openapi.json; tests/http/contract-files.test.ts checks that file against the code
  const files = await renderClients(readFileSync('openapi.json', 'utf8'));
  for (const f of files) {
    assert.ok(existsSync(f.path), `${f.path} is missing: run npm run generate`);
    assert.equal(readFileSync(f.path, 'utf8'), f.content, `${f.path} is stale: run npm run generate`);
  }
  const expected = files.map((f) => f.path).sort();
  assert.deepEqual(listGeneratedFiles(), expected, 'no leftover files in the generated folders');
});

test('both clients have a method for every operation in openapi.json', () => {
  const doc = JSON.parse(readFileSync('openapi.json', 'utf8')) as OpenApiDocument;
  const nodeJs = readFileSync('clients/node/src/generated/resources.js', 'utf8');
  const python = readFileSync('clients/python/vigil/_generated/resources.py', 'utf8');
  const resources = readOperationModel(doc);
  assert.ok(resources.length > 0);
  for (const r of resources) {
    for (const op of r.operations) {
      assert.ok(nodeJs.includes(`(OPERATIONS.${op.operationId}, [`), `Node ${r.name}.${op.method}`);
      assert.ok(python.includes(`_OPERATIONS["${op.operationId}"], (`), `Python ${op.operationId}`);
    }
  }
});

test('method names come from operationIds with the resource noun removed', () => {
  const op = (operationId: string, extra: Record<string, unknown> = {}) => ({ operationId, responses: { 200: { description: 'ok' } }, ...extra });
  const doc: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/v1/incidents': { post: op('createIncident'), get: op('listIncidents') },
      '/v1/incidents/{incident_id}/protocol': { post: op('triggerIncidentProtocol') },
      '/v1/incidents/{id}/notes': { post: op('addIncidentNote') },
      '/v1/watches/{id}': { delete: op('standDownWatch') },
      '/v1/conversations': { post: op('converse') },
      '/v1/alert-rules/{id}/pause': { post: op('pauseAlertRule') },
      '/v1/policies': { get: op('listPolicies') },
      '/v1/audit/verify': { get: op('verifyAuditTrail') },
      '/v1/streams/{id}': { patch: op('renameStream', { 'x-vigil-method': 'rename' }) },
      '/healthz': { get: op('healthz', { tags: ['System'] }) },
    },
  };
  const names = readOperationModel(doc).flatMap((r) => r.operations.map((o) => `${r.name}.${o.method}`)).sort();
  assert.deepEqual(names, [
    'alertRules.pause',
    'audit.verifyTrail',
    'conversations.create',
    'incidents.addNote',
    'incidents.create',
    'incidents.list',
    'incidents.triggerProtocol',
    'policies.list',
    'streams.rename',
    'system.healthz',
    'watches.standDown',
  ]);
  const clash: OpenApiDocument = { ...doc, paths: { '/v1/streams': { get: op('listStreams') }, '/v1/streams/all': { get: op('listAllStreams', { 'x-vigil-method': 'list' }) } } };
  assert.throws(() => readOperationModel(clash), /both become streams\.list/);
});

test('raw-bytes bodies and responses are told apart from JSON and text by their media type', () => {
  const bytes = { type: 'string', format: 'binary' };
  const doc: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/v1/streams/{id}/frames': {
        post: {
          operationId: 'pushStreamFrame',
          requestBody: { required: true, content: { 'image/jpeg': { schema: bytes } } },
          responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } },
        },
      },
      '/v1/detections/{id}/snapshot': {
        get: { operationId: 'getDetectionSnapshot', responses: { 200: { description: 'ok', content: { 'image/jpeg': { schema: bytes } } } } },
      },
      '/v1/audit/export': {
        get: { operationId: 'exportAudit', responses: { 200: { description: 'ok', content: { 'application/x-ndjson': { schema: { type: 'string' } } } } } },
      },
    },
  };
  const ops = new Map(readOperationModel(doc).flatMap((r) => r.operations.map((o) => [o.operationId, o] as const)));
  const push = ops.get('pushStreamFrame')!;
  assert.deepEqual(push.binaryBody, { mediaType: 'image/jpeg', required: true });
  assert.equal(push.body, null, 'not a JSON body');
  assert.equal(push.success.binary, null);
  assert.deepEqual(ops.get('getDetectionSnapshot')!.success, { status: 200, schema: null, binary: 'image/jpeg', text: false });
  assert.deepEqual(ops.get('exportAudit')!.success, { status: 200, schema: null, binary: null, text: true });
});

test('the Node client type declarations compile against the generated wire types', () => {
  try {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'clients/node/tsconfig.json'], { encoding: 'utf8', stdio: 'pipe' });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    assert.fail(`tsc -p clients/node failed:\n${e.stdout}${e.stderr}`);
  }
});
