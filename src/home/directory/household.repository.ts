import type { DbExecutor, HouseholdBoundaryTable, HouseholdRoomTable, HouseholdSensorTable } from '../../platform/db/index.ts';

export type RoomRow = HouseholdRoomTable;
export type SensorMetaRow = HouseholdSensorTable;
export type BoundaryRow = HouseholdBoundaryTable;

/** A sensor as the household sees it: its stream joined with its room and metadata. */
export interface SensorRow {
  id: string;
  tenant_id: string;
  name: string;
  kind: SensorMetaRow['kind'];
  room_id: string;
  room: string;
  location: string;
  scene_id: string;
  source_type: string;
  source_url: string;
  sandbox: number;
  status: string;
  /** the stream's last frame (a contact's last report), when any */
  last_frame_at?: string | null;
  muted: number;
  muted_at: string | null;
  created_at: string;
}

export const householdRepository = {
  listRooms(db: DbExecutor, tenantId: string) {
    return db.selectFrom('household_rooms').selectAll().where('tenant_id', '=', tenantId).orderBy('id', 'asc').execute();
  },
  async insertRoom(db: DbExecutor, row: RoomRow): Promise<void> {
    await db.insertInto('household_rooms').values(row).execute();
  },
  async renameRoom(db: DbExecutor, id: string, name: string, updatedAt: string): Promise<void> {
    await db.updateTable('household_rooms').set({ name, updated_at: updatedAt }).where('id', '=', id).execute();
  },
  async hasSensor(db: DbExecutor, streamId: string): Promise<boolean> {
    return (await db.selectFrom('household_sensors').select('stream_id').where('stream_id', '=', streamId).executeTakeFirst()) !== undefined;
  },
  async insertSensor(db: DbExecutor, row: SensorMetaRow): Promise<void> {
    await db.insertInto('household_sensors').values(row).execute();
  },
  async setMuted(db: DbExecutor, streamId: string, muted: boolean, at: string | null): Promise<void> {
    await db
      .updateTable('household_sensors')
      .set({ muted: muted ? 1 : 0, muted_at: muted ? at : null })
      .where('stream_id', '=', streamId)
      .execute();
  },
  /** Every sensor of the household, or of all households when tenantId is null (server start). */
  listSensors(db: DbExecutor, tenantId: string | null): Promise<SensorRow[]> {
    let q = db
      .selectFrom('household_sensors as hs')
      .innerJoin('streams as s', 's.id', 'hs.stream_id')
      .innerJoin('household_rooms as r', 'r.id', 'hs.room_id')
      .select([
        's.id as id',
        's.tenant_id as tenant_id',
        's.name as name',
        'hs.kind as kind',
        'hs.room_id as room_id',
        'r.name as room',
        's.location as location',
        's.scene_id as scene_id',
        's.source_type as source_type',
        's.source_url as source_url',
        's.sandbox as sandbox',
        's.status as status',
        's.last_frame_at as last_frame_at',
        'hs.muted as muted',
        'hs.muted_at as muted_at',
        'hs.created_at as created_at',
      ])
      .orderBy('s.id', 'asc');
    if (tenantId) q = q.where('hs.tenant_id', '=', tenantId);
    return q.execute();
  },
  listActiveBoundaries(db: DbExecutor, tenantId: string | null) {
    let q = db.selectFrom('household_boundaries').selectAll().where('cleared_at', 'is', null).orderBy('id', 'asc');
    if (tenantId) q = q.where('tenant_id', '=', tenantId);
    return q.execute();
  },
  async insertBoundary(db: DbExecutor, row: BoundaryRow): Promise<void> {
    await db.insertInto('household_boundaries').values(row).execute();
  },
  async clearBoundary(db: DbExecutor, id: string, at: string, keyId: string | null): Promise<void> {
    await db.updateTable('household_boundaries').set({ cleared_at: at, cleared_by_key_id: keyId }).where('id', '=', id).execute();
  },
  /** Which of these sensors are muted or under a boundary (their own or their room's), read in the caller's transaction. */
  async listOutOfReach(db: DbExecutor, sensorIds: string[]): Promise<Set<string>> {
    if (sensorIds.length === 0) return new Set();
    const rows = await db
      .selectFrom('household_sensors as hs')
      .select(['hs.stream_id', 'hs.room_id', 'hs.muted', 'hs.tenant_id'])
      .where('hs.stream_id', 'in', sensorIds)
      .execute();
    const out = new Set(rows.filter((r) => r.muted === 1).map((r) => r.stream_id));
    if (rows.length === 0) return out;
    const bounds = await db
      .selectFrom('household_boundaries')
      .select(['room_id', 'sensor_id'])
      .where('cleared_at', 'is', null)
      .where('tenant_id', 'in', [...new Set(rows.map((r) => r.tenant_id))])
      .execute();
    for (const r of rows) {
      if (bounds.some((b) => b.sensor_id === r.stream_id || (!b.sensor_id && b.room_id === r.room_id))) out.add(r.stream_id);
    }
    return out;
  },
  /**
   * Sensors under an active boundary, their own or their room's: nothing about them
   * is readable by any key of the household while it holds.
   */
  async listLeftAloneSensorIds(db: DbExecutor, tenantId: string): Promise<string[]> {
    const bounds = await db
      .selectFrom('household_boundaries')
      .select(['room_id', 'sensor_id'])
      .where('tenant_id', '=', tenantId)
      .where('cleared_at', 'is', null)
      .execute();
    if (bounds.length === 0) return [];
    const rooms = bounds.filter((b) => !b.sensor_id && b.room_id).map((b) => b.room_id!);
    const sensors = bounds.filter((b) => b.sensor_id).map((b) => b.sensor_id!);
    const rows = await db
      .selectFrom('household_sensors')
      .select('stream_id')
      .where('tenant_id', '=', tenantId)
      .where((eb) => eb.or([...(rooms.length ? [eb('room_id', 'in', rooms)] : []), ...(sensors.length ? [eb('stream_id', 'in', sensors)] : [])]))
      .execute();
    return rows.map((r) => r.stream_id);
  },
  /** Household tenants (server start loads their settings). */
  listHouseholds(db: DbExecutor) {
    return db.selectFrom('tenants').selectAll().where('kind', '=', 'household').execute();
  },
  /** Latest detections of some streams, newest first (describing what a sensor shows). */
  /** When the oldest recorded detection of these sensors was made (null when none): how far back the agent can answer. */
  async earliestDetectionAt(db: DbExecutor, streamIds: string[]): Promise<number | null> {
    if (streamIds.length === 0) return null;
    const row = await db
      .selectFrom('detections')
      .select((eb) => eb.fn.min('at').as('first'))
      .where('stream_id', 'in', streamIds)
      .executeTakeFirst();
    return row?.first == null ? null : Number(row.first);
  },
  latestDetections(db: DbExecutor, streamIds: string[], since: number, limit: number) {
    if (streamIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('detections').selectAll().where('stream_id', 'in', streamIds).where('at', '>=', since).orderBy('at', 'desc').limit(limit).execute();
  },

  /**
   * The ids of the incidents and alerts a hidden sensor or place gave rise to, and of those
   * incidents' protocol runs: the audit trail hides every entry about them like the sensor's own
   * detections (docs/decisions.md, "Boundaries on every audit row about the sensor").
   */
  async resourcesOf(db: DbExecutor, tenantId: string, streams: string[], locations: string[]): Promise<string[]> {
    if (streams.length === 0 && locations.length === 0) return [];
    const about = <T extends 'incidents' | 'alerts'>(table: T) =>
      db
        .selectFrom(table as 'incidents')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where((eb) => eb.or([...(streams.length ? [eb('stream_id', 'in', streams)] : []), ...(locations.length ? [eb('location', 'in', locations)] : [])]));
    const [incidents, alerts] = await Promise.all([about('incidents').execute(), about('alerts').execute()]);
    const incidentIds = incidents.map((r) => r.id);
    const runs = incidentIds.length
      ? await db.selectFrom('protocol_runs').select('id').where('tenant_id', '=', tenantId).where('incident_id', 'in', incidentIds).execute()
      : [];
    return [...incidentIds, ...alerts.map((r) => r.id), ...runs.map((r) => r.id)];
  },
};
