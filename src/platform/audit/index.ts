// The module's public face: what other modules may import (docs/architecture.md).

import { join } from 'node:path';
import { defineServiceModule, LOG, token } from '../lib/index.ts';
import { CONFIG } from '../config/index.ts';
import { CLOCK } from '../time/index.ts';
import { DATABASE } from '../db/index.ts';
import { SCHEDULER } from '../scheduler/index.ts';
import { AuditService as AuditServiceT } from './audit.service.ts';
import { AuditCheckpointService as AuditCheckpointServiceT, CHECKPOINT_KEY_FILE } from './audit-checkpoint.service.ts';
import { AuditTrailService as AuditTrailServiceT, type HouseholdBoundaries as HouseholdBoundariesT, type AuditTrailService } from './audit-trail.service.ts';
export { AuditCheckpointService, CHECKPOINT_EVENT, CHECKPOINT_KEY_FILE, checkpointMessage, checkpointPayload } from './audit-checkpoint.service.ts';
export { AuditTrailService, verifyAuditLines, type AuditExportLine, type ChainState, type HouseholdBoundaries } from './audit-trail.service.ts';
export { verifyAuditExport, verifyAuditRun, type AuditCheck, type AuditCheckpointFile } from './audit-export-verifier.ts';
export { AuditService, scopeOfLocations } from './audit.service.ts';
export type { AuditFields } from './audit-chain.ts';

import { defineApiModule } from '../http/index.ts';
import { AuditCheckpointSchema, AuditEntrySchema } from './audit.schemas.ts';
import { auditRoutes } from './audit.routes.ts';

/** The audit module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const auditApi = defineApiModule({
  name: 'audit',
  tags: [{ name: 'Audit', description: 'Append-only, hash-chained audit trail: list, verify, export' }],
  schemas: [AuditEntrySchema, AuditCheckpointSchema],
  routes: ({ auditTrail }: { auditTrail: AuditTrailService }) => auditRoutes(auditTrail),
});

export const AUDIT = token<AuditServiceT>('audit');
export const AUDIT_CHECKPOINTS = token<AuditCheckpointServiceT>('auditCheckpoints');
export const AUDIT_TRAIL = token<AuditTrailServiceT>('auditTrail');
/** port: provided by the household surface (home/directory) */
export const HOUSEHOLD_BOUNDARIES = token<HouseholdBoundariesT>('householdBoundaries');

export const auditServices = defineServiceModule({
  name: 'audit',
  provide(c) {
    c.provide(AUDIT, (c) => new AuditServiceT({ database: c.get(DATABASE), clock: c.get(CLOCK) }));
    c.provide(
      AUDIT_CHECKPOINTS,
      (c) =>
        new AuditCheckpointServiceT({
          database: c.get(DATABASE),
          clock: c.get(CLOCK),
          configuredKey: c.get(CONFIG).auditCheckpointKey,
          // outside the database by default; a cluster without a configured key keeps it there so every node signs alike
          keyFile: c.get(CONFIG).cluster ? null : join(c.get(CONFIG).dataDir, CHECKPOINT_KEY_FILE),
          scheduler: c.get(SCHEDULER),
          onError: (err) => c.get(LOG)?.warn({ err }, 'audit checkpoint failed'),
        }),
    );
    c.provide(
      AUDIT_TRAIL,
      (c) => new AuditTrailServiceT({ database: c.get(DATABASE), checkpoints: c.get(AUDIT_CHECKPOINTS), householdBoundaries: c.get(HOUSEHOLD_BOUNDARIES) }),
    );
  },
});
