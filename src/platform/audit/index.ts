// The module's public face: what other modules may import (docs/architecture.md).
export { AuditCheckpointService } from './audit-checkpoint.service.ts';
export { AuditTrailService, type HouseholdBoundaries } from './audit-trail.service.ts';
export { auditRepository } from './audit.repository.ts';
export { AuditService, scopeOfLocations } from './audit.service.ts';

import { defineApiModule } from '../http/index.ts';
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
