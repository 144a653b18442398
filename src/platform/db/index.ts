// The module's public face: what other modules may import (docs/architecture.md).

export { type ConsoleSessionTable } from './schema.ts';
export { type PersonFaceTable, type PersonTable } from './schema.ts';
export { type ScheduledJobTable } from './schema.ts';
export { type RecordingHoldTable, type RecordingSegmentTable } from './schema.ts';

import { token } from '../lib/index.ts';
import type { DatabaseHandle } from './database.ts';
export {
  externalCommitProbe,
  sharedDatabaseFile,
  holdsTenantLocks,
  migrateToLatest,
  openDatabase,
  pendingMigrations,
  tenantLockStatements,
  writeBeforeCommit,
  type DatabaseHandle,
  type Db,
  type DbExecutor,
  type Dialect,
} from './database.ts';
export { carriesNotify, sendsReadsAhead, writeAtomically, type CompanionWrite } from './dialect.ts';
export { cachedHotRead, hotRead, type HotReadCacheStats } from './hot-read.ts';
export { pgJsonText } from './pg-json.ts';
export { notifyIn } from './notify.ts';
export { isDatabaseUnavailable } from './unavailable.ts';
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, mapPage, paginate, paginateRows, type Page, type PageQuery } from './pagination.ts';
export {
  type AlertRuleTable,
  type AlertTable,
  type ApiKeyTable,
  type AuditCheckpointTable,
  type AuditTable,
  type AutomationSettingsTable,
  type ConversationTable,
  type ConversationTurnTable,
  type Database,
  type DetectionSnapshotTable,
  type DetectionTable,
  type HouseholdBoundaryTable,
  type HouseholdEventTable,
  type HouseholdRoomTable,
  type HouseholdSensorTable,
  type IdempotencyTable,
  type IncidentDetectionTable,
  type IncidentNoteTable,
  type IncidentTable,
  type ProtocolNotificationTable,
  type ProtocolRunTable,
  type ProtocolTypeTable,
  type ResponderTable,
  type SceneTable,
  type SnapshotTable,
  type StreamPublishTokenTable,
  type StreamTable,
  type TenantTable,
  type WatchTable,
  type WebhookAttemptTable,
  type WebhookDeliveryTable,
  type WebhookEndpointTable,
  type WebhookEventTable,
  type NotificationSubscriptionTable,
  type NotificationPreferenceTable,
  type NotificationThrottleTable,
} from './schema.ts';

/** The opened, migrated database (opened by the composition root before any service is made). */
export const DATABASE = token<DatabaseHandle>('database');
