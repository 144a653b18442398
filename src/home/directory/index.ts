import { defineServiceModule, token } from '../../platform/lib/index.ts';
import { DATABASE, type DbExecutor as DbExecutorT } from '../../platform/db/index.ts';
import { COORDINATION } from '../../platform/coordination/index.ts';
import { HOUSEHOLD_BOUNDARIES } from '../../platform/audit/index.ts';
import { INGEST_GATE, PIPELINE } from '../../org/pipeline/index.ts';
import { HouseholdDirectory as HouseholdDirectoryT, type KnownWatch as KnownWatchT } from './household-directory.ts';
import { householdBoundaries as householdBoundariesV } from './household-boundaries.ts';
// The module's public face: what other modules may import (docs/architecture.md).
export { DEMO_HOME_LOCATION, mergeHomeSettings, parseHomeSettings, toLocationKey, type HomeSettings } from './home-settings.ts';
export { capitalize, describeSensorName } from './home-words.ts';
export { householdBoundaries } from './household-boundaries.ts';
export { HouseholdDirectory, type KnownHome, type KnownSensor, type KnownWatch } from './household-directory.ts';
export { type BoundaryRow, type RoomRow, type SensorRow } from './household.repository.ts';
export {
  listRooms,
  insertRoom,
  renameRoom,
  hasSensor,
  insertSensor,
  setSensorMuted,
  listSensors,
  listActiveBoundaries,
  insertBoundary,
  clearBoundary,
  listOutOfReach,
  listLeftAloneSensorIds,
  earliestDetectionAt,
  latestDetections,
} from './household-queries.ts';

export const HOUSEHOLD_DIRECTORY = token<HouseholdDirectoryT>('householdDirectory');
/** port: the watches module's reader of active watches */
export const ACTIVE_WATCHES = token<(db: DbExecutorT, tenantId: string) => Promise<KnownWatchT[]>>('activeWatches');

export const directoryServices = defineServiceModule({
  name: 'directory',
  provide(c) {
    c.provide(HOUSEHOLD_DIRECTORY, (c) => new HouseholdDirectoryT({ activeWatches: c.get(ACTIVE_WATCHES) }));
    // muted sensors and places left alone are not ingested, and the audit trail hides them
    c.provide(INGEST_GATE, (c) => c.get(HOUSEHOLD_DIRECTORY));
    c.provide(HOUSEHOLD_BOUNDARIES, () => householdBoundariesV);
  },
  async install(c) {
    const directory = c.get(HOUSEHOLD_DIRECTORY);
    const database = c.get(DATABASE);
    c.get(PIPELINE).setGate(directory);
    await directory.loadAll(database.db);
    directory.followChanges(c.get(COORDINATION).invalidation, database.db);
  },
});
