import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import { withErrors } from '../http/common.schemas.ts';
import type { AuditTrailService } from './audit-trail.service.ts';
import { AuditList, AuditListQuery, AuditVerification } from './audit.schemas.ts';

const tags = ['Audit'];
const security = [{ bearerAuth: [] }];
/** Organization keys need audit:read; a household key reads its own household's trail. */
const config = { surface: 'any', capability: 'audit:read' } as const;

const EXPORT_DOC =
  'The whole trail of the key\'s tenant, oldest first, one JSON object per line with exactly the hashed fields ' +
  '(id, tenant_id, at, actor_key_id, actor_operator, action, resource_type, resource_id, request_id, data — data is the ' +
  'stored JSON text) plus prev_hash and hash. To verify offline: start with head = 64 zeros; for each line check ' +
  'prev_hash == head and hash == hex(SHA-256(JSON.stringify([head, id, tenant_id, at, actor_key_id, actor_operator, ' +
  'action, resource_type, resource_id, request_id, data]))), then set head = hash. The first line that fails is where ' +
  'the trail was changed.';

export const auditRoutes = (trail: AuditTrailService): FastifyPluginAsyncTypebox => async (app) => {
  app.get('/v1/audit', {
    config,
    schema: {
      tags, security, operationId: 'listAuditEntries', summary: 'Audit trail, newest first',
      description: 'Filters: resource_type, resource_id, actor (key id or operator), action (exact or prefix.*), since/until.',
      querystring: AuditListQuery,
      response: withErrors({ 200: AuditList }),
    },
  }, async (req) => trail.list(principalOf(req), req.query));

  app.get('/v1/audit/verify', {
    config,
    schema: {
      tags, security, operationId: 'verifyAuditTrail', summary: 'Recompute the hash chain',
      description: 'Recomputes every entry\'s hash from its fields and its predecessor\'s hash; names the first entry that does not match.',
      response: withErrors({ 200: AuditVerification }),
    },
  }, async (req) => trail.verify(principalOf(req)));

  app.get('/v1/audit/export', {
    config,
    schema: {
      tags, security, operationId: 'exportAuditTrail', summary: 'Export the trail as NDJSON for offline verification',
      description: EXPORT_DOC,
      response: withErrors({
        200: Type.Unsafe<string>({
          description: 'NDJSON, one entry per line, oldest first',
          content: { 'application/x-ndjson': { schema: Type.String() } },
        }),
      }),
    },
  }, async (req, reply) => {
    const lines = trail.exportLines(principalOf(req));
    return reply.type('application/x-ndjson').send(Readable.from(lines));
  });
};
