import type { DbExecutor } from '../../platform/db/index.ts';
import type { HouseholdBoundaries } from '../../platform/audit/index.ts';
import { householdRepository } from './household.repository.ts';

/**
 * The boundaries in force now, as the audit trail needs them: a muted sensor or a sensor left
 * alone hides its stream id; a room left alone hides its location (docs/decisions.md, privacy sections); and the incidents,
 * alerts and protocol runs either gave rise to are hidden by their ids, entries written before
 * the boundary included.
 */
export const householdBoundaries: HouseholdBoundaries = {
  async hiddenFrom(db: DbExecutor, tenantId: string) {
    const [rooms, sensors, boundaries] = await Promise.all([
      householdRepository.listRooms(db, tenantId),
      householdRepository.listSensors(db, tenantId),
      householdRepository.listActiveBoundaries(db, tenantId),
    ]);
    const boundedRooms = new Set(boundaries.filter((b) => !b.sensor_id && b.room_id).map((b) => b.room_id));
    const hiddenStreams = new Set(sensors.filter((s) => s.muted === 1).map((s) => s.id));
    for (const b of boundaries) if (b.sensor_id) hiddenStreams.add(b.sensor_id);
    const locations = rooms.filter((r) => boundedRooms.has(r.id)).map((r) => r.location);
    const streams = [...hiddenStreams];
    return { locations, streams, resources: await householdRepository.resourcesOf(db, tenantId, streams, locations) };
  },
};
