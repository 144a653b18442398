import { type DatabaseHandle, type DbExecutor, type DetectionTable } from '../../platform/db/index.ts';
import { type DetectionBox, type DetectionInput, type DetectionRecord, detectionInsert } from '../detections/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import { newId } from '../../platform/lib/index.ts';
import type { AuditFields, AuditService } from '../../platform/audit/index.ts';
import { type SceneEngine, type SceneState, shareSceneAnomalies, updateScene } from '../scenes/index.ts';
import type { FenceClaim } from '../../platform/coordination/index.ts';

export interface StreamRef {
  id: string;
  tenant_id: string;
  scene_id: string;
  location: string;
  /** cluster mode: the lease the stream's source runs under; its batches are fenced by it */
  lease?: { nodeId: string; epoch: number };
}

/**
 * Something that reacts to detections (alert rules, watches, anomaly events). onDetection runs
 * at the start of the group commit that will make that detection durable,
 * synchronously on the hot path right after the scene is updated and must be cheap; whatever it
 * decides to write is written by persist(), which runs inside the same transaction that makes the
 * detections durable (so an event and its outbox row exist exactly when the detection does).
 */
export interface PipelineHook {
  onDetection(rec: DetectionRecord, scene: SceneState): void;
  /**
   * Starts the reads persist() will need (optional). It runs at the start of the commit, beside the
   * detections' own insert, so on PostgreSQL its queries share that round trip; persist() runs
   * after it settled, in the same transaction (docs/decisions.md, "PostgreSQL commit in two
   * round trips").
   */
  prefetch?(trx: DbExecutor): Promise<unknown>;
  persist?(trx: DbExecutor): Promise<void>;
}

/**
 * Where a hook runs among the others: lower first, both for onDetection and for persist. Each module
 * that hooks in says its place (docs/architecture.md "Pipeline hooks"): household watches 100,
 * incidents' anomaly grouping 200, alert rules 300 (after incidents, so an alert joins the incident
 * its detection opened in the same commit).
 */
export interface HookPlacement {
  /** module.hook, for logs and the docs */
  name: string;
  order: number;
}

/**
 * Decides, per stream, whether its detections may be taken in at all (docs/design.md
 * "Privacy": a muted sensor or a place left alone is not looked at). A refused detection is
 * dropped before anything records it: no scene update, no rule, no history row, no audit entry,
 * no event, no snapshot, no delivery. The household directory implements it.
 */
export interface IngestGate {
  /** why this stream is not to be looked at now, or null when it may be */
  withheldReason(streamId: string): WithheldReason | null;
}

export type WithheldReason = 'muted' | 'left_alone';

/** who every detection's audit entry names as its actor */
const PIPELINE_ACTOR = { keyId: null, operator: 'pipeline' } as const;

/** A record with every optional field filled (null): the history row as stored, but for the box, which the row holds as JSON. */
type StoredDetection = DetectionRecord & Omit<DetectionTable, 'box'> & { box: DetectionBox | null };

interface Pending {
  /** the stream's lease when its source runs under one (cluster mode) */
  lease?: FenceClaim;
  records: StoredDetection[];
  /** each record's audit entry, built when it arrived but for its id (AuditService.buildUnnamed) */
  audits: AuditFields[];
  /** performance.now() when ingest took them (for the commit observer) */
  enteredAt: number;
  resolve: (r: DetectionRecord[]) => void;
  reject: (e: unknown) => void;
}

/** What a commit observer is told per ingest call a commit made durable: its records and when it entered. */
export interface CommittedIngest {
  readonly records: readonly DetectionRecord[];
  /** performance.now() when ingest was called */
  readonly enteredAt: number;
}

/**
 * detection produced → scene updated → rules evaluated → history row (and audit entry) durable.
 * Writes are group-committed: everything produced while one transaction runs goes into the next,
 * so throughput scales with load while an isolated detection still commits at once.
 */
export class DetectionPipeline {
  private queue: Pending[] = [];
  private flushing = false;
  private scheduled = false;
  private hooks: PipelineHook[] = [];
  private placements: HookPlacement[] = [];
  private idle: Array<() => void> = [];
  private gate: IngestGate | null = null;
  private withheldCount = 0;
  private committed: ((batch: readonly CommittedIngest[]) => void) | null = null;
  /** cluster mode: per scene, the anomalies this node wrote to the shared table and their times */
  private readonly sharedAnomalies = new WeakMap<SceneState, Map<string, number>>();

  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      scenes: SceneEngine;
      onError?: (err: unknown) => void;
      /** cluster mode: refuses a batch whose stream lease moved on (platform/coordination SqlLeaseStore) */
      fence?: { assertHeld(trx: DbExecutor, claims: readonly FenceClaim[]): Promise<void> } | null;
      /**
       * cluster mode: a scene's anomalies are shared through the database, so its
       * active_anomalies counts every node's, not the last writer's (docs/decisions.md,
       * "Cluster: the owner takes the frames, shared cooldowns and anomalies")
       */
      sharedAnomalies?: boolean;
    },
  ) {}

  addHook(hook: PipelineHook, placement: HookPlacement): void {
    if (this.placements.some((p) => p.order === placement.order)) {
      throw new Error(`pipeline hook ${placement.name}: order ${placement.order} is taken; every hook has its own place`);
    }
    const at = this.placements.findIndex((p) => p.order > placement.order);
    const index = at === -1 ? this.hooks.length : at;
    this.hooks.splice(index, 0, hook);
    this.placements.splice(index, 0, placement);
  }

  /** the hooks in the order they run (for the docs and tests) */
  hookOrder(): readonly HookPlacement[] {
    return this.placements;
  }

  setGate(gate: IngestGate): void {
    this.gate = gate;
  }

  /**
   * Calls `observer` once per commit, after its ingest calls were resolved, with what each of them
   * stored (the metrics, src/org/pipeline/pipeline-metrics.ts): one call per commit instead of a
   * promise and a closure per ingest call around `ingest`.
   */
  observeCommits(observer: (batch: readonly CommittedIngest[]) => void): void {
    this.committed = observer;
  }

  /**
   * Detections dropped by the gate since start, all streams together. Deliberately not per
   * sensor: how much a muted or left-alone sensor would have seen is itself a reading of it.
   */
  get withheld(): number {
    return this.withheldCount;
  }

  /**
   * Resolves with the stored records once they are durable; detections of a stream the gate
   * withholds (muted, left alone) are dropped and counted, and resolve as nothing stored.
   */
  ingest(stream: StreamRef, inputs: DetectionInput[]): Promise<DetectionRecord[]> {
    if (inputs.length === 0) return Promise.resolve([]);
    if (this.gate?.withheldReason(stream.id)) {
      this.withheldCount += inputs.length;
      return Promise.resolve([]);
    }
    const records: StoredDetection[] = [];
    const audits: AuditFields[] = [];
    for (const input of inputs) {
      const rec: StoredDetection = {
        id: newId('det', input.at),
        tenant_id: stream.tenant_id,
        stream_id: stream.id,
        scene_id: stream.scene_id,
        location: stream.location,
        type: input.type,
        subtype: input.subtype ?? null,
        value: input.value ?? null,
        count: input.count ?? null,
        confidence: input.confidence,
        at: input.at,
        track_id: input.track_id ?? null,
        dwell_s: input.dwell_s ?? null,
        zone: input.zone ?? null,
        box: input.box ?? null,
        person_id: input.person_id ?? null,
        // the frame's tracked objects ride along for the live wall; the insert names its columns
        ...(input.frame_objects?.length ? { frame_objects: input.frame_objects } : {}),
      };
      records.push(rec);
      // its audit entry's content (salt, data, data hash) now, while the commit before it is in flight,
      // not on the path of its own commit (docs/decisions.md, "Pipeline p95 tail"); its id when that starts
      audits.push(this.auditOf(rec));
    }
    return new Promise((resolve, reject) => {
      const lease = stream.lease && { streamId: stream.id, ...stream.lease };
      this.queue.push({ lease, records, audits, enteredAt: performance.now(), resolve, reject });
      this.schedule();
    });
  }

  /**
   * Writes the in-memory state of scenes that changed since the last call. The history rows are
   * the durable record; the scene row is a snapshot for restarts and other readers, so it is
   * written on a timer (and at shutdown) rather than on every commit of the hot path.
   */
  async persistScenes(): Promise<void> {
    const dirty = this.deps.scenes.takeDirty();
    if (dirty.length === 0) return;
    const nowMs = this.deps.clock.now();
    const now = toIso(nowMs);
    await this.deps.database.withWriteLock(async (trx) => {
      // cluster mode: scenes (and their anomaly rows) in one order on every node, so two nodes'
      // transactions never wait on each other's row locks in a cycle
      if (this.deps.sharedAnomalies) dirty.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      for (const s of dirty) {
        const anomalies = this.deps.sharedAnomalies ? await shareSceneAnomalies(trx, s.id, this.anomaliesToShare(s, nowMs), nowMs) : s.activeAnomalies;
        await updateScene(trx, s.id, {
          people: s.people,
          vehicles: s.vehicles,
          crowd_density: s.crowdDensity,
          active_anomalies: anomalies,
          last_detection_at: s.lastDetectionAt === null ? null : toIso(s.lastDetectionAt),
          updated_at: now,
        });
      }
    });
  }

  /** Cluster mode: the held anomalies of a scene not yet written with their current time. */
  private anomaliesToShare(s: SceneState, now: number): Array<[string, number]> {
    let written = this.sharedAnomalies.get(s);
    if (!written) {
      written = new Map();
      this.sharedAnomalies.set(s, written);
    }
    const out: Array<[string, number]> = [];
    for (const [key, until] of s.anomalyUntil) {
      if (until <= now || written.get(key) === until) continue;
      written.set(key, until);
      out.push([key, until]);
    }
    for (const [key, until] of written) if (until <= now) written.delete(key);
    return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  /** Resolves when everything ingested so far is durable. */
  async drain(): Promise<void> {
    if (!this.flushing && !this.scheduled && this.queue.length === 0) return;
    await new Promise<void>((r) => this.idle.push(r));
  }

  /** Every detection's audit entry names the pipeline and what was detected, where. */
  private auditOf(r: StoredDetection): AuditFields {
    return this.deps.audit.buildUnnamed(PIPELINE_ACTOR, {
      tenantId: r.tenant_id,
      action: 'detection.recorded',
      resourceType: 'detection',
      resourceId: r.id,
      at: r.at,
      scope: { location: r.location, streamId: r.stream_id },
      data: { stream_id: r.stream_id, type: r.type, subtype: r.subtype, value: r.value, count: r.count, confidence: r.confidence },
    });
  }

  /** Drops the call's records (and their audit entries) the gate withholds now. */
  private admit(p: Pending): void {
    const gate = this.gate!;
    const { records } = p;
    // nearly always every record is still admitted: the same arrays then, no copy per ingest call
    let i = 0;
    while (i < records.length && !gate.withheldReason(records[i].stream_id)) i++;
    if (i === records.length) return;
    const kept = records.map((r) => !gate.withheldReason(r.stream_id));
    p.records = records.filter((_, k) => kept[k]);
    p.audits = p.audits.filter((_, k) => kept[k]);
    this.withheldCount += records.length - p.records.length;
  }

  private schedule() {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    const batch = this.queue.splice(0);
    // a mute or boundary set while these waited in the queue applies to them too
    if (this.gate) for (const p of batch) this.admit(p);
    try {
      // Scene update and rule evaluation happen here, synchronously, for exactly this batch:
      // whatever the hooks decide belongs to the detections this transaction makes durable, and
      // nothing ingested while the transaction runs can slip its effects into it.
      for (const p of batch) {
        for (const rec of p.records) {
          const scene = this.deps.scenes.apply(rec);
          for (const h of this.hooks) h.onDetection(rec, scene);
        }
      }
      // the records themselves are the rows: the inserts bind their fields (and store the box as JSON)
      const rows: StoredDetection[] = [];
      const audits: AuditFields[] = [];
      for (const p of batch) {
        for (let k = 0; k < p.records.length; k++) {
          const r = p.records[k];
          rows.push(r);
          // named now, so audit ids follow the order entries are appended in, as before
          p.audits[k].id = newId('aud', r.at);
          audits.push(p.audits[k]);
        }
      }
      const { database } = this.deps;
      // one transaction per flush, locking only the tenants it writes (their audit chains), so
      // nodes writing for other tenants do not queue on it
      const tenants = [...new Set(rows.map((r) => r.tenant_id))];
      await database.withTenantWriteLock(tenants, async (trx) => {
        // a node whose lease moved on (paused past expiry) writes nothing
        await this.deps.fence?.assertHeld(
          trx,
          batch.flatMap((p) => (p.lease ? [p.lease] : [])),
        );
        // Every detection is recorded in the audit trail (docs/design.md "Audit"). The audit
        // repository writes both (SQLite: prepared statements on the raw connection; PostgreSQL: the
        // detections ride in the audit append's statement). On PostgreSQL the insert and the hooks'
        // reads are sent together, behind BEGIN and the locks, in one round trip (a pipelined
        // connection, see database.withTenantWriteLock)
        await Promise.all([
          rows.length ? this.deps.audit.appendBuiltWith(trx, audits, detectionInsert(rows)) : null,
          ...this.hooks.map((h) => h.prefetch?.(trx)),
        ]);
        for (const h of this.hooks) await h.persist?.(trx);
      });
      for (const p of batch) p.resolve(p.records);
    } catch (err) {
      this.deps.onError?.(err);
      for (const p of batch) p.reject(err);
      return;
    } finally {
      this.flushing = false;
      if (this.queue.length) this.schedule();
      else for (const r of this.idle.splice(0)) r();
    }
    try {
      this.committed?.(batch);
    } catch (err) {
      this.deps.onError?.(err);
    }
  }
}
