import type { DbExecutor } from '../../platform/db/index.ts';
import type { DetectionRecord } from '../../org/detections/index.ts';
import { toWallClock } from '../../platform/time/index.ts';
import type { EventService } from '../events/index.ts';
import { type HouseholdDirectory, type KnownHome, type KnownSensor, type KnownWatch, listOutOfReach } from '../directory/index.ts';
import type { PipelineHook } from '../../org/pipeline/index.ts';
import type { SceneEngine } from '../../org/scenes/index.ts';
import { watchRepository } from './watch.repository.ts';
import { matchesConditions, WatchRules, type HomeMoment, type WatchFinding } from './watch-rules.ts';
import { WatchSchedule } from './watch-schedule.ts';

interface PendingEvent {
  tenantId: string;
  watchId: string;
  sensor: KnownSensor;
  rec: DetectionRecord;
  finding: WatchFinding;
}

/**
 * The pipeline hook that keeps watches under observation: for each detection of a
 * watched sensor inside its watch's window it decides, synchronously and cheaply, which
 * observations and alerts to raise; persist() then stores them with their webhook rows in the
 * detections' transaction. persist() re-reads, inside that transaction, whether each watch is
 * still active and each sensor still reachable, so a stand-down, mute or boundary committed in
 * between is honoured exactly: no event from it afterwards.
 */
export class WatchObserver implements PipelineHook {
  private pending: PendingEvent[] = [];
  private rules = new WatchRules();
  private schedules = new WeakMap<KnownWatch, WatchSchedule>();

  constructor(private readonly deps: { directory: HouseholdDirectory; engine: SceneEngine; events: EventService }) {}

  onDetection(rec: DetectionRecord): void {
    const watches = this.deps.directory.watchesOn(rec.stream_id);
    if (!watches || watches.length === 0) return;
    const sensor = this.deps.directory.sensor(rec.stream_id);
    const home = this.deps.directory.home(rec.tenant_id);
    if (!sensor || !home || this.deps.directory.isOutOfReach(sensor)) return;
    const moment = this.createMoment(home);
    for (const w of watches) {
      if (!this.scheduleOf(w, home).contains(rec.at)) continue;
      for (const finding of this.rules.evaluate(w.id, rec, sensor, moment)) {
        // a watch for known people hears only of them, recognized
        if (w.personIds && !(finding.type === 'person_recognized' && rec.person_id && w.personIds.includes(rec.person_id))) continue;
        if (matchesConditions(finding.type, w.conditions)) this.pending.push({ tenantId: rec.tenant_id, watchId: w.id, sensor, rec, finding });
      }
    }
  }

  async persist(trx: DbExecutor): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending.splice(0);
    const active = await watchRepository.filterActive(trx, [...new Set(batch.map((e) => e.watchId))]);
    const outOfReach = await listOutOfReach(trx, [...new Set(batch.map((e) => e.sensor.id))]);
    for (const e of batch) {
      if (!active.has(e.watchId) || outOfReach.has(e.sensor.id)) continue;
      await this.deps.events.recordIn(trx, {
        tenantId: e.tenantId,
        kind: e.finding.kind,
        type: e.finding.type,
        watchId: e.watchId,
        sensorId: e.sensor.id,
        room: e.sensor.room,
        summary: e.finding.summary,
        detection: e.rec,
        occurredAt: e.rec.at,
      });
    }
  }

  /** The window of a watch as the home's place and zone define it; rebuilt when the directory re-reads the watch. */
  scheduleOf(w: KnownWatch, home: KnownHome): WatchSchedule {
    let s = this.schedules.get(w);
    if (!s) {
      s = new WatchSchedule(w, { timeZone: home.settings.time_zone, lat: home.settings.lat, lon: home.settings.lon });
      this.schedules.set(w, s);
    }
    return s;
  }

  private createMoment(home: KnownHome): HomeMoment {
    const engine = this.deps.engine;
    return {
      // nobody in view of any camera of the home (cameras count people; contacts and PIRs cannot)
      isEmpty: () => {
        const cameras = home.sensors.filter((s) => s.kind === 'camera');
        return cameras.length > 0 && cameras.every((s) => (engine.get(s.sceneId)?.people ?? 0) === 0);
      },
      localHour: (at) => toWallClock(at, home.settings.time_zone).hour,
    };
  }
}
