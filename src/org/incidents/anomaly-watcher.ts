import type { DbExecutor } from '../../platform/db/index.ts';
import { type DetectionRecord, buildDetectionAnomalyPayload } from '../detections/index.ts';
import type { PipelineHook } from '../pipeline/index.ts';
import { isAnomalous, LOITERING_DWELL_S, type SceneState } from '../scenes/index.ts';
import type { EventSink } from '../../platform/outbox/index.ts';
import type { AutomationService } from '../automation/index.ts';
import type { IncidentRow } from './incident.repository.ts';
import type { IncidentService } from './incident.service.ts';

interface Sighting {
  rec: DetectionRecord;
  timeZone: string;
  /** first anomalous sighting of this track within the grouping gap: publish detection.anomaly */
  announce: boolean;
}

/** What one commit's anomalies read before they write: the incident each scene would join. */
interface PendingReads {
  trx: DbExecutor;
  byScene: Map<string, Sighting[]>;
  since: Map<string, number>;
  found: Promise<Map<string, IncidentRow>>;
}

/** Tracks remembered for announcing; older entries are forgotten past this many. */
const MAX_REMEMBERED_TRACKS = 20_000;

/**
 * Anomalies without any rule: an unrecognized person, or a person loitering
 * (dwell ≥ 300 s), fires `detection.anomaly` once per tracked person and opens an automatic
 * incident, or extends the one open at that location when the last anomaly there is within the
 * organization's grouping gap. Anomalies outside business hours open high-severity incidents.
 * While an operator has automatic incidents paused, anomalies are still announced (with
 * incident_id null) but no incident is opened or extended.
 */
export class AnomalyWatcher implements PipelineHook {
  private pending: Sighting[] = [];
  /** the reads of the commit under way, started by prefetch() */
  private prefetched: PendingReads | null = null;
  /** `${scene}:${track}` → detection time of its last anomalous sighting */
  private readonly lastSeen = new Map<string, number>();

  constructor(private readonly deps: { automation: AutomationService; incidents: IncidentService; events: EventSink }) {}

  onDetection(rec: DetectionRecord, scene: SceneState): void {
    if (!isAnomalous(rec)) return;
    const key = `${rec.scene_id}:${rec.track_id ?? rec.id}`;
    const last = this.lastSeen.get(key);
    const announce = last === undefined || Math.abs(rec.at - last) > this.deps.automation.incidentGapMs(rec.tenant_id);
    this.lastSeen.set(key, last === undefined ? rec.at : Math.max(last, rec.at));
    if (this.lastSeen.size > MAX_REMEMBERED_TRACKS) this.forgetOldest();
    if (!announce && this.deps.automation.incidentsPaused(rec.tenant_id)) return;
    this.pending.push({ rec, timeZone: scene.timeZone, announce });
  }

  /**
   * Writes a commit's anomalies: one lookup of the incidents to join for all its scenes, then per
   * scene the incidents it opens and the events it announces, and at the end one insert of every
   * detection the incidents gain and one update of their activity times, whatever the number of
   * scenes and sightings (a burst of anomalies must not stall the pipeline's commit).
   */
  async persist(trx: DbExecutor): Promise<void> {
    if (this.pending.length === 0) return;
    const reads = this.prefetched?.trx === trx ? this.prefetched : this.read(trx);
    this.prefetched = null;
    this.pending = [];
    const { byScene } = reads;
    const found = await reads.found;
    const extensions: Array<{ incident: IncidentRow; recs: DetectionRecord[] }> = [];
    for (const [sceneId, sightings] of byScene) {
      const tenantId = sightings[0].rec.tenant_id;
      const incidentIds = reads.since.has(sceneId) ? await this.groupIn(trx, sightings, found.get(sceneId) ?? null, extensions) : null;
      for (const [i, s] of sightings.entries()) {
        if (!s.announce) continue;
        await this.deps.events.enqueueIn(trx, { tenantId, kind: 'detection.anomaly', payload: buildDetectionAnomalyPayload(s.rec, incidentIds?.[i] ?? null) });
      }
    }
    await this.deps.incidents.extendManyIn(trx, extensions);
  }

  /**
   * The reads persist() needs, started at the beginning of the commit so they share its first
   * round trip on PostgreSQL (docs/decisions.md, "PostgreSQL commit in two round trips"):
   * the incidents to join and the webhook endpoints of the tenants it will announce to.
   */
  prefetch(trx: DbExecutor): Promise<unknown> {
    if (this.pending.length === 0) return Promise.resolve();
    this.prefetched = this.read(trx);
    const announcing = [...new Set(this.pending.filter((s) => s.announce).map((s) => s.rec.tenant_id))];
    return Promise.all([this.prefetched.found, this.deps.events.prefetchIn?.(trx, announcing)]);
  }

  private read(trx: DbExecutor): PendingReads {
    const byScene = new Map<string, Sighting[]>();
    for (const s of this.pending) {
      const list = byScene.get(s.rec.scene_id);
      if (list) list.push(s);
      else byScene.set(s.rec.scene_id, [s]);
    }
    const since = new Map<string, number>();
    for (const [sceneId, sightings] of byScene) {
      sightings.sort((a, b) => a.rec.at - b.rec.at);
      const first = sightings[0].rec;
      if (!this.deps.automation.incidentsPaused(first.tenant_id)) since.set(sceneId, first.at - this.deps.automation.incidentGapMs(first.tenant_id));
    }
    return { trx, byScene, since, found: this.deps.incidents.groupableIn(trx, since) };
  }

  /**
   * Assigns one scene's sightings (in time order) to automatic incidents: the one open within the
   * gap (`found`), else a new one. Returns the incident id of each sighting; what existing or new
   * incidents gain is added to `extensions` (written by the caller, once for all scenes).
   */
  private async groupIn(
    trx: DbExecutor,
    sightings: Sighting[],
    found: IncidentRow | null,
    extensions: Array<{ incident: IncidentRow; recs: DetectionRecord[] }>,
  ): Promise<string[]> {
    const gapMs = this.deps.automation.incidentGapMs(sightings[0].rec.tenant_id);
    let current: { row: IncidentRow; lastAt: number; added: DetectionRecord[] } | null = null;
    if (found) current = { row: found, lastAt: Number(found.last_activity_at), added: [] };
    const ids: string[] = [];
    for (const s of sightings) {
      if (current && current.lastAt >= s.rec.at - gapMs) {
        current.added.push(s.rec);
        current.lastAt = Math.max(current.lastAt, s.rec.at);
      } else {
        if (current) extensions.push({ incident: current.row, recs: current.added });
        current = { row: await this.openIn(trx, s), lastAt: s.rec.at, added: [] };
      }
      ids.push(current.row.id);
    }
    if (current) extensions.push({ incident: current.row, recs: current.added });
    return ids;
  }

  private async openIn(trx: DbExecutor, s: Sighting): Promise<IncidentRow> {
    const { rec } = s;
    const afterHours = this.deps.automation.isAfterHours(rec.tenant_id, rec.at, s.timeZone);
    const what = rec.subtype === 'unrecognized' ? 'Unrecognized person' : `Person loitering (${Math.round(rec.dwell_s ?? LOITERING_DWELL_S)} s)`;
    const title = `${what} at ${rec.location}${afterHours ? ' after hours' : ''}`;
    return this.deps.incidents.openAutomaticIn(trx, rec, title, afterHours ? 'high' : 'medium');
  }

  private forgetOldest(): void {
    // Map iteration is insertion order: drop the first quarter
    let n = MAX_REMEMBERED_TRACKS / 4;
    for (const k of this.lastSeen.keys()) {
      if (n-- <= 0) break;
      this.lastSeen.delete(k);
    }
  }
}
