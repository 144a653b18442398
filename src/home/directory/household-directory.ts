import type { DbExecutor, WatchTable } from '../../platform/db/index.ts';
import type { IngestGate, WithheldReason } from '../../org/pipeline/index.ts';
import { parseHomeSettings, type HomeSettings } from './home-settings.ts';
import { householdRepository, type SensorRow } from './household.repository.ts';
import { findTenant } from '../../platform/identity/index.ts';
import { CACHE_TOPICS, EVERY_KEY, type CacheInvalidation } from '../../platform/coordination/index.ts';

export interface KnownSensor {
  id: string;
  tenantId: string;
  name: string;
  kind: SensorRow['kind'];
  roomId: string;
  room: string;
  sceneId: string;
  muted: boolean;
}

export interface KnownWatch {
  id: string;
  tenantId: string;
  subject: string;
  sensorIds: string[];
  startsAt: number;
  endsAt: number;
  recurrence: WatchTable['recurrence'];
  windowText: string;
  conditions: string[] | null;
  /** only these known people; null = anyone */
  personIds: string[] | null;
}

export interface KnownHome {
  tenantId: string;
  settings: HomeSettings;
  sensors: KnownSensor[];
  boundedRooms: Set<string>;
  boundedSensors: Set<string>;
  watches: KnownWatch[];
}

/**
 * The in-memory picture of every household that the detection hot path reads: sensors, what is
 * muted or left alone, and the active watches by sensor. The database is the truth; a household
 * is re-read after each change to it (changes are rare, detections are not).
 */
export class HouseholdDirectory implements IngestGate {
  /** activeWatches: the watches module's reader, handed in so the directory does not import watches */
  constructor(private readonly deps: { activeWatches: (db: DbExecutor, tenantId: string) => Promise<KnownWatch[]> }) {}

  private homes = new Map<string, KnownHome>();
  private sensors = new Map<string, KnownSensor>();
  private watchesBySensor = new Map<string, KnownWatch[]>();

  async loadAll(db: DbExecutor): Promise<void> {
    const tenants = await householdRepository.listHouseholds(db);
    for (const t of tenants) await this.refresh(db, t.id, t.settings);
  }

  /** Re-reads a household whenever a writer (on any node) announces a change to it. Returns the unsubscribe. */
  followChanges(invalidation: CacheInvalidation, db: DbExecutor): () => void {
    return invalidation.subscribe(CACHE_TOPICS.household, async (tenantId) => {
      if (tenantId === EVERY_KEY) return this.loadAll(db);
      await this.refresh(db, tenantId);
    });
  }

  /** Re-reads one household from the database (after a change committed). */
  async refresh(db: DbExecutor, tenantId: string, settingsJson?: string): Promise<KnownHome> {
    const settingsText = settingsJson ?? (await findTenant(db, tenantId))?.settings ?? '{}';
    const [sensorRows, boundaries, watches] = await Promise.all([
      householdRepository.listSensors(db, tenantId),
      householdRepository.listActiveBoundaries(db, tenantId),
      this.deps.activeWatches(db, tenantId),
    ]);
    const home: KnownHome = {
      tenantId,
      settings: parseHomeSettings(settingsText),
      sensors: sensorRows.map((s) => ({
        id: s.id,
        tenantId,
        name: s.name,
        kind: s.kind,
        roomId: s.room_id,
        room: s.room,
        sceneId: s.scene_id,
        muted: s.muted === 1,
      })),
      boundedRooms: new Set(boundaries.filter((b) => b.room_id && !b.sensor_id).map((b) => b.room_id!)),
      boundedSensors: new Set(boundaries.filter((b) => b.sensor_id).map((b) => b.sensor_id!)),
      watches,
    };
    const previous = this.homes.get(tenantId);
    for (const s of previous?.sensors ?? []) {
      this.sensors.delete(s.id);
      this.watchesBySensor.delete(s.id);
    }
    this.homes.set(tenantId, home);
    for (const s of home.sensors) this.sensors.set(s.id, s);
    for (const w of home.watches) {
      for (const id of w.sensorIds) this.watchesBySensor.set(id, [...(this.watchesBySensor.get(id) ?? []), w]);
    }
    return home;
  }

  home(tenantId: string): KnownHome | undefined {
    return this.homes.get(tenantId);
  }

  /** Every household known here. */
  allHomes(): KnownHome[] {
    return [...this.homes.values()];
  }

  sensor(streamId: string): KnownSensor | undefined {
    return this.sensors.get(streamId);
  }

  /** Active watches covering a sensor (hot path: one map lookup for every detection). */
  watchesOn(streamId: string): readonly KnownWatch[] | undefined {
    return this.watchesBySensor.get(streamId);
  }

  /** Muted, or under a boundary of its own or of its room. */
  isOutOfReach(sensor: KnownSensor): boolean {
    return this.reasonOf(sensor) !== null;
  }

  /**
   * The ingest gate: a household sensor that is left alone or muted is not looked
   * at. One map lookup for every detection; streams that are not household sensors pass.
   */
  withheldReason(streamId: string): WithheldReason | null {
    const sensor = this.sensors.get(streamId);
    return sensor ? this.reasonOf(sensor) : null;
  }

  /**
   * Stops looking at once, before the change that says so has committed (called inside its
   * transaction): a detection that reaches the pipeline after this is dropped. The refresh after
   * the commit (or after a rollback) replaces this with what the database holds.
   */
  withhold(tenantId: string, what: { sensorId?: string; roomId?: string; muted?: boolean }): void {
    const home = this.homes.get(tenantId);
    if (!home) return;
    if (what.roomId) home.boundedRooms.add(what.roomId);
    if (what.sensorId && what.muted) {
      const s = this.sensors.get(what.sensorId);
      if (s) s.muted = true;
    } else if (what.sensorId) home.boundedSensors.add(what.sensorId);
  }

  private reasonOf(sensor: KnownSensor): WithheldReason | null {
    const home = this.homes.get(sensor.tenantId);
    if (home && (home.boundedSensors.has(sensor.id) || home.boundedRooms.has(sensor.roomId))) return 'left_alone';
    return sensor.muted ? 'muted' : null;
  }
}
