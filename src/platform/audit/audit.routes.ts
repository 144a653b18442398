import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf, withErrors, ListQuery, type RouteApp } from '../http/index.ts';
import type { AuditTrailService } from './audit-trail.service.ts';
import { AuditCheckpointList, AuditList, AuditListQuery, AuditVerification } from './audit.schemas.ts';

const tags = ['Audit'];
const security = [{ bearerAuth: [] }];
/** Organization keys need audit:read; a household key reads its own household's trail. */
const config = { surface: 'any', capability: 'audit:read' } as const;

const EXPORT_DOC =
  "The whole trail of the key's tenant as NDJSON. The first line is the signed checkpoint of the head the export " +
  'ends at (object "audit_checkpoint": head_id, head_hash, entry_count; made now if the head moved). Then every entry ' +
  'up to that head, oldest first, one JSON object per line: id, format, tenant_id, at, actor_key_id, actor_operator, ' +
  'action, resource_type, request_id, resource_id, location, stream_id, data (the stored JSON text), salt, data_hash, ' +
  'prev_hash, hash, and redacted: true on an entry the key may not read (another location, a muted sensor or a room ' +
  'left alone): its resource_id, data, salt, location and stream_id are null. To verify offline: head = 64 zeros; for ' +
  'each entry check prev_hash == head; for format 2 check, unless redacted, data_hash == hex(SHA-256(JSON.stringify([salt, ' +
  'resource_id, location, stream_id, data]))) and always hash == hex(SHA-256(JSON.stringify(["v2", head, id, tenant_id, ' +
  'at, actor_key_id, actor_operator, action, resource_type, request_id, data_hash]))); for format 1 (entries ' +
  'written before format 2) hash == hex(SHA-256(JSON.stringify([head, id, tenant_id, at, actor_key_id, actor_operator, ' +
  'action, resource_type, resource_id, request_id, data]))), not checkable when redacted; then head = hash. At the end ' +
  "the last entry must be the checkpoint's head_id with its head_hash and the count its entry_count; an earlier " +
  'checkpoint you kept must name an entry still at its place with its hash. A line that fails its own hash was changed; ' +
  'a line that does not link means the one before it was changed and re-hashed or entries were removed.';

/** The trail, newest first, and the recomputation of its hash chain. */
function registerTrailReads(app: RouteApp, trail: AuditTrailService): void {
  app.get(
    '/v1/audit',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'listAuditEntries',
        summary: 'Audit trail, newest first',
        description:
          'Filters: resource_type, resource_id, actor (key id or operator), action and exclude_action (comma-separated, each exact or a family such as incident.*), since/until.',
        querystring: AuditListQuery,
        response: withErrors({ 200: AuditList }),
      },
    },
    async (req) => trail.list(principalOf(req), req.query),
  );

  app.get(
    '/v1/audit/verify',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'verifyAuditTrail',
        summary: 'Recompute the hash chain',
        description:
          "Recomputes every entry's hash from its fields and its predecessor's hash over the whole chain, and checks it " +
          'against every signed checkpoint (made each minute and on every export): an entry a checkpoint names must still be ' +
          'there with its hash, and entries removed from the end are reported (reason truncated). Names the first broken ' +
          'entry when the key may read it.',
        response: withErrors({ 200: AuditVerification }),
      },
    },
    async (req) => trail.verify(principalOf(req)),
  );
}

/** The signed checkpoints, and the NDJSON export for offline verification. */
function registerCheckpointAndExportRoutes(app: RouteApp, trail: AuditTrailService): void {
  app.get(
    '/v1/audit/checkpoints',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'listAuditCheckpoints',
        summary: 'Signed checkpoints of the chain head, newest first',
        description:
          "A checkpoint is made at least every minute while the trail grows and on every export. Keep them: an export verified later must still contain each checkpoint's head entry with its hash.",
        querystring: ListQuery,
        response: withErrors({ 200: AuditCheckpointList }),
      },
    },
    async (req) => trail.checkpoints(principalOf(req), req.query),
  );

  app.get(
    '/v1/audit/export',
    {
      config,
      schema: {
        tags,
        security,
        operationId: 'exportAuditTrail',
        summary: 'Export the trail as NDJSON for offline verification',
        description: EXPORT_DOC,
        response: withErrors({
          200: Type.Unsafe<string>({
            description: 'NDJSON, one entry per line, oldest first',
            content: { 'application/x-ndjson': { schema: Type.String() } },
          }),
        }),
      },
    },
    async (req, reply) => {
      const lines = trail.exportLines(principalOf(req));
      return reply.type('application/x-ndjson').send(Readable.from(lines));
    },
  );
}

export const auditRoutes =
  (trail: AuditTrailService): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerTrailReads(app, trail);
    registerCheckpointAndExportRoutes(app, trail);
  };
