import { defineApiModule } from '../http/api-module.ts';
import type { AuditTrailService } from './audit-trail.service.ts';
import { AuditCheckpointSchema, AuditEntrySchema } from './audit.schemas.ts';
import { auditRoutes } from './audit.routes.ts';

/** The audit module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const auditApi = defineApiModule({
  name: 'audit',
  tags: [{ name: 'Audit', description: 'Append-only, hash-chained audit trail: list, verify, export' }],
  schemas: [AuditEntrySchema, AuditCheckpointSchema],
  routes: ({ auditTrail }: { auditTrail: AuditTrailService }) => auditRoutes(auditTrail),
});
