import type { Actor, Principal } from '../../platform/identity/index.ts';
import type { DatabaseHandle, DbExecutor, DetectionTable, PageQuery } from '../../platform/db/index.ts';
import {
  type DetectionRecord,
  type DetectionType,
  animalSubtypes,
  boxOf,
  detectionPageForStream,
  detectionsInRangeWithState,
  lastSighting,
  latestReadings,
  personSightings,
  readingsBefore,
} from '../detections/index.ts';
import { type Clock, toIso, isValidTimeZone, formatMoment, sayAgo } from '../../platform/time/index.ts';
import { VigilError, invalid, notFound, newId } from '../../platform/lib/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import { findStream, listRunnableStreams, listStreamSceneIds, listStreamsOfScene } from '../streams/stream-queries.ts';
import {
  DEFAULT_QUERY_WINDOW_MS,
  answerQuery,
  answerCameraStatus,
  buildExamples,
  interpretQuery,
  parseWindow,
  vehicleKindsNote,
  subAreaNote,
  type InterpretResult,
  type Interpretation,
  type QueryAnswer,
  type QueryContext,
} from './query/query.ts';
import type { CameraStream } from './query/camera-status.ts';
import {
  answerKnownVsUnknown,
  answerPersonQuestion,
  answerWhoAtMoment,
  answerWhoQuestion,
  readPeopleQuestion,
  type KnownPerson,
} from './query/people-questions.ts';
import { combineHistory, streamCombineOf, type SceneEngine, type SceneState } from './scene-engine.ts';
import { sceneRepository, type SceneRow, type SceneStreamRef } from './scene.repository.ts';
import {
  asksAboutNow,
  claimsPresent,
  freshnessFields,
  sceneFreshness,
  staleRange,
  staleRangeNote,
  staleSentence,
  whySilent,
  type FreshnessSource,
  type SceneFreshness,
} from './scene-freshness.ts';
import type { DetectionListT, DetectionView, QueryBodyT, QueryResultT, SceneView, StreamDetectionsQueryT, UpdateSceneBodyT } from './scene.schemas.ts';

export function toDetectionView(d: DetectionTable | DetectionRecord): DetectionView {
  return {
    id: d.id,
    // stored rows hold a DETECTION_TYPES value: every writer goes through DetectionInput
    type: d.type as DetectionType,
    ...(d.subtype != null ? { subtype: d.subtype } : {}),
    ...(d.value != null ? { value: d.value } : {}),
    ...(d.count != null ? { count: d.count } : {}),
    location: d.location,
    confidence: d.confidence,
    timestamp: toIso(d.at),
    stream_id: d.stream_id,
    ...(d.track_id != null ? { track_id: d.track_id } : {}),
    ...(d.dwell_s != null ? { dwell_s: d.dwell_s } : {}),
    ...(d.zone != null ? { zone: d.zone } : {}),
    ...(d.box != null ? { box: boxOf(d)! } : {}),
    ...(d.person_id != null ? { person_id: d.person_id } : {}),
  };
}

/** How far back a question about an animal the detector does not label looks for detections of it (interpretWithAnimals). */
const OTHER_ANIMAL_LOOKBACK_MS = 30 * 24 * 3_600_000;

/** A port: the tenant's known people and face recognition opt-in (org/people implements it). */
export interface ScenePeople {
  list(tenantId: string): Promise<KnownPerson[]>;
  recognitionEnabled(tenantId: string): boolean;
}

function toRecords(rows: DetectionTable[]): DetectionRecord[] {
  return rows.map((d) => ({ ...d, type: d.type as DetectionType, box: boxOf(d) }));
}

type CombinedHistory = ReturnType<typeof combineHistory<DetectionTable>>;

/** An understood scene question and what it is answered from. */
interface SceneQuestion {
  sceneId: string;
  scene: SceneRow;
  query: string;
  interp: Interpretation;
  people: KnownPerson[];
  about: ReturnType<typeof readPeopleQuestion>;
  history: DetectionTable[];
  combined: CombinedHistory;
  combinedBaseline: CombinedHistory[];
  state: SceneState | undefined;
  recognitionOn: boolean;
}

/** The detections an answer cites are the stored readings, not the scene's combined ones. */
function citedDetections(detections: QueryAnswer['detections'], histories: CombinedHistory[]): Array<DetectionTable | DetectionRecord> {
  const stored = new Map(histories.flatMap((h) => [...h.original.values()].map((r) => [r.id, r] as const)));
  return detections.map((d) => {
    const c = stored.get(d.id);
    return c ? toRecords([c])[0] : d;
  });
}

/** The answer to a question about the scene's cameras, or the question back when it names a camera the scene does not have. */
function cameraAnswer(interp: Interpretation, streams: readonly CameraStream[], now: number): QueryAnswer {
  const told = answerCameraStatus(interp, streams, now);
  if ('ask' in told) return { answer: '', ask: told.ask, detections: [], crowd_density: 0, anomaly_flag: false };
  return { answer: told.answer, detections: [], crowd_density: 0, anomaly_flag: false };
}

/**
 * Animals "now" and an animal's stay are answered from the latest reading, which the answer dates;
 * on a stale scene it also says why nothing newer came (docs/decisions.md, "Before round L: scene questions").
 */
function staleAnimalsNote(interp: Interpretation, freshness: SceneFreshness): string {
  if (!freshness.stale || interp.metric !== 'animals' || (interp.aggregate !== 'current' && interp.aggregate !== 'dwell')) return '';
  const why = whySilent(freshness.sources);
  return ` ${why.charAt(0).toUpperCase()}${why.slice(1)}.`;
}

/**
 * "when was the last vehicle seen?" on a stale scene whose last reading still showed some: the sighting's
 * own time leads, and the stale sentence after it gives the last frame (docs/decisions.md, "Round S: scene questions").
 */
export function lastSightingLead(interp: Interpretation, cited: Array<DetectionTable | DetectionRecord>, place: string, timeZone: string, now: number): string {
  if (interp.aggregate !== 'last_seen' || interp.subtype || (interp.metric !== 'vehicles' && interp.metric !== 'people')) return '';
  const vehicles = interp.metric === 'vehicles';
  const seen = cited.filter((d) =>
    vehicles ? d.type === 'vehicle' && (d.count ?? 1) > 0 : d.type === 'person' || (d.type === 'person_count' && (d.value ?? 0) > 0),
  );
  if (seen.length === 0) return '';
  const at = Math.max(...seen.map((d) => d.at));
  return `The last ${vehicles ? 'vehicle' : 'person'} was seen in ${place} at ${formatMoment(at, timeZone, now)} (${sayAgo(now - at)}). `;
}

/** A scene question's result: the answer, or on a stale scene asked about now, the stale sentence. */
function sceneQueryResult(r: {
  body: QueryBodyT;
  now: number;
  scene: SceneRow;
  interp: Interpretation;
  about: SceneQuestion['about'];
  state: SceneState | undefined;
  freshness: SceneFreshness;
  answer: QueryAnswer;
  cited: Array<DetectionTable | DetectionRecord>;
}): QueryResultT {
  const { body, now, scene, interp, about, state, freshness, answer } = r;
  // a stale scene never answers a question about now with "now" (docs/decisions.md, "Freshness")
  // nor an answer to a range ending now that says "now", "currently" or "still" (animals' answers date their reading)
  // and a range after its last reading, of which nothing is known; a range across it says so after the answer
  const presentClaim = interp.metric !== 'animals' && claimsPresent(interp, answer.answer);
  const range = interp.metric === 'camera' ? undefined : staleRange(freshness, interp);
  const replaced = range === 'after' && interp.metric !== 'animals' && !about;
  const staleNow = freshness.stale && (asksAboutNow(interp) || presentClaim || replaced) && !about && interp.metric !== 'camera';
  const note = range && !staleNow ? ` ${staleRangeNote(freshness, now, scene.time_zone)}` : '';
  const stateNow = { people: state?.people ?? scene.people, vehicles: state?.vehicles ?? scene.vehicles };
  return {
    stream_id: body.stream_id,
    query: body.query,
    answered_at: toIso(now),
    detections: r.cited.map(toDetectionView),
    crowd_density: answer.crowd_density,
    anomaly_flag: answer.anomaly_flag,
    answer: staleNow
      ? lastSightingLead(interp, r.cited, `the ${scene.location.replace(/_/g, ' ')}`, scene.time_zone, now) +
        staleSentence({
          freshness,
          now,
          timeZone: scene.time_zone,
          place: `the ${scene.location.replace(/_/g, ' ')}`,
          counts: interp.metric === 'vehicles' ? { vehicles: stateNow.vehicles } : interp.metric === 'activity' ? stateNow : { people: stateNow.people },
        }) +
        (interp.vehicle_kinds?.length ? ` ${vehicleKindsNote(interp)}` : '') +
        (interp.sub_area ? ` ${subAreaNote(interp)}` : '')
      : answer.answer + (note || staleAnimalsNote(interp, freshness)),
    ...freshnessFields(freshness),
    interpretation: {
      metric: interp.metric,
      aggregate: interp.aggregate,
      from: toIso(interp.from),
      to: toIso(interp.to),
      summary: interp.summary,
      ...(interp.time_phrase ? { time_phrase: interp.time_phrase } : {}),
      ...(interp.window ? { window: interp.window } : {}),
    },
  };
}

/** One scene per (tenant, location), kept current by the engine; queries answer from its history. */
export class SceneService {
  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      engine: SceneEngine;
      defaultCapacity: number;
      /** questions about known people ("was Maria here today?"); without it they are not understood */
      people?: ScenePeople;
      /**
       * cluster mode: a scene's streams may run on other nodes, so views read the
       * scene row their owners write each second rather than this process's partial copy
       */
      sharedState?: boolean;
      /** a scene with no live source for this long is stale (default SOURCE_SILENCE_MS, 30 s) */
      silenceMs?: number;
    },
  ) {}

  private readonly timeZoneListeners: Array<(sceneId: string, timeZone: string) => void> = [];

  /** Told after a scene's time zone changed through this process (the streams module restarts its sandboxes). */
  onTimeZoneChange(listener: (sceneId: string, timeZone: string) => void): void {
    this.timeZoneListeners.push(listener);
  }

  /**
   * How fresh a scene's counts are now (docs/decisions.md, "Freshness"): from its streams' status
   * and last frame as their ingest wrote them, and its last detection.
   */
  async freshness(sceneId: string): Promise<SceneFreshness> {
    const { db } = this.deps.database;
    const [row, streams] = await Promise.all([sceneRepository.findById(db, sceneId), listStreamsOfScene(db, sceneId)]);
    return this.freshnessOf(row ?? null, streams);
  }

  private freshnessOf(row: Pick<SceneRow, 'id' | 'last_detection_at'> | null, sources: readonly FreshnessSource[]): SceneFreshness {
    const now = this.deps.clock.now();
    const s = row && !this.deps.sharedState ? this.deps.engine.get(row.id) : undefined;
    const lastDetectionAt = s?.lastDetectionAt ?? (row?.last_detection_at ? Date.parse(row.last_detection_at) : null);
    return sceneFreshness({ now, lastDetectionAt, sources, silenceMs: this.deps.silenceMs });
  }

  /**
   * Registers a scene this process has not seen (created through another node after this one
   * started) with its streams' last readings. Before this, a detection for it answered 500.
   */
  async ensureLoaded(sceneId: string): Promise<void> {
    if (this.deps.engine.get(sceneId)) return;
    const { db } = this.deps.database;
    const row = await sceneRepository.findById(db, sceneId);
    if (!row || this.deps.engine.get(sceneId)) return;
    this.deps.engine.register(row);
    for (const stream of await listStreamsOfScene(db, sceneId)) {
      this.deps.engine.restoreStream(sceneId, stream.id, await latestReadings(db, stream.id));
    }
  }

  /**
   * Cluster mode, before this node writes its changed scenes: the readings of streams it does not
   * run come from their recorded history (their owners' latest), so a node never writes a scene
   * total with another node's streams frozen at what it saw when it started.
   */
  async refreshForeignReadings(runsHere: (streamId: string) => boolean): Promise<void> {
    const { db } = this.deps.database;
    for (const scene of this.deps.engine.dirtyScenes()) {
      for (const stream of await listStreamsOfScene(db, scene.id)) {
        if (runsHere(stream.id)) continue;
        this.deps.engine.restoreStream(scene.id, stream.id, await latestReadings(db, stream.id));
      }
    }
  }

  /** Loads every scene into the engine (server start). */
  async loadAll(): Promise<void> {
    const { db } = this.deps.database;
    for (const row of await sceneRepository.listAll(db)) this.deps.engine.register(row);
    // Restore each stream's last readings so a scene with several streams adds up after a
    // restart instead of showing only the first stream that reports again.
    for (const stream of await listRunnableStreams(db)) {
      const latest = await latestReadings(db, stream.id);
      this.deps.engine.restoreStream(stream.scene_id, stream.id, latest);
    }
  }

  /** The scene of a location, created on first use; registered with the engine. Runs in the caller's transaction. */
  async ensureScene(trx: DbExecutor, tenantId: string, location: string): Promise<SceneRow> {
    let row = await sceneRepository.findByLocation(trx, tenantId, location);
    if (!row) {
      const now = toIso(this.deps.clock.now());
      row = {
        id: newId('scene', this.deps.clock.now()),
        tenant_id: tenantId,
        location,
        capacity: this.deps.defaultCapacity,
        time_zone: 'UTC',
        people: 0,
        vehicles: 0,
        crowd_density: 0,
        active_anomalies: 0,
        last_detection_at: null,
        created_at: now,
        updated_at: now,
        stream_combine: 'max',
      };
      await sceneRepository.insert(trx, row);
    }
    this.deps.engine.register(row);
    return row;
  }

  registerLoaded(sceneId: string): void {
    if (!this.deps.engine.get(sceneId)) throw new Error(`scene ${sceneId} not loaded`);
  }

  /**
   * The scenes' time zones as stored: in a cluster a change made through another node is not in
   * this node's engine, and the sandbox's local day must follow it (docs/decisions.md, "Cluster").
   */
  async storedTimeZones(sceneIds: readonly string[]): Promise<Map<string, string>> {
    return sceneRepository.timeZones(this.deps.database.db, [...new Set(sceneIds)]);
  }

  timeZoneOf(sceneId: string): string {
    return this.deps.engine.get(sceneId)?.timeZone ?? 'UTC';
  }

  detachStream(sceneId: string, streamId: string): void {
    this.deps.engine.removeStream(sceneId, streamId, this.deps.clock.now());
  }

  async list(principal: Principal, q: PageQuery & { location?: string }) {
    const page = await sceneRepository.listPage(this.deps.database.db, principal.tenantId, principal.locations, { location: q.location }, q);
    const streams = await this.streamsByScene(principal.tenantId);
    const rows = await Promise.all(page.data.map((r) => this.withSharedAnomalies(r)));
    return { ...page, data: rows.map((r) => this.toView(r, streams.get(r.id) ?? [])) };
  }

  /**
   * Cluster mode: the anomalies every node holds for the scene now (the row's count is as of the
   * last node's write, and anomalies run out between writes). A single node reads its engine.
   */
  private async withSharedAnomalies(row: SceneRow): Promise<SceneRow> {
    if (!this.deps.sharedState) return row;
    return { ...row, active_anomalies: await sceneRepository.activeAnomalies(this.deps.database.db, row.id, this.deps.clock.now()) };
  }

  /**
   * A stream's detections, newest first: what a detection snapshot, a webhook or an incident names
   * by id, listed (optionally one type, between two times).
   */
  async listStreamDetections(principal: Principal, streamId: string, q: StreamDetectionsQueryT): Promise<DetectionListT> {
    const stream = await findStream(this.deps.database.db, principal.tenantId, streamId);
    if (!stream || (principal.locations && !principal.locations.includes(stream.location))) throw notFound('stream', streamId);
    if (q.starting_after && q.ending_before) throw invalid('ending_before', 'give starting_after or ending_before, not both');
    const time = (param: 'from' | 'to', v: string | undefined) => {
      if (v === undefined) return undefined;
      const ms = Date.parse(v);
      if (!Number.isFinite(ms)) throw invalid(param, `"${v}" is not a date-time (RFC 3339, e.g. 2026-11-26T21:00:00Z)`);
      return ms;
    };
    const from = time('from', q.from);
    const to = time('to', q.to);
    if (from !== undefined && to !== undefined && from > to) throw invalid('from', 'is after to');
    const page = await detectionPageForStream(
      this.deps.database.db,
      { tenantId: principal.tenantId, sceneId: stream.scene_id, streamId, type: q.type, from, to },
      q,
    );
    if (!page) {
      const param = q.ending_before ? 'ending_before' : 'starting_after';
      throw invalid(param, `${q.ending_before ?? q.starting_after} is not a detection of stream ${streamId}`);
    }
    return { object: 'list', data: page.rows.map(toDetectionView), has_more: page.has_more };
  }

  async get(principal: Principal, id: string): Promise<SceneView> {
    const found = await sceneRepository.findWithStreamIds(this.deps.database, principal.tenantId, id);
    if (!found || !this.visibleTo(principal, found.row)) throw notFound('scene', id);
    return this.toView(await this.withSharedAnomalies(found.row), found.streams);
  }

  async update(principal: Principal, actor: Actor, id: string, body: UpdateSceneBodyT): Promise<SceneView> {
    const before = await this.load(principal, id);
    if (body.time_zone !== undefined && !isValidTimeZone(body.time_zone)) {
      throw invalid('time_zone', `"${body.time_zone}" is not an IANA time zone (e.g. Europe/Lisbon)`);
    }
    const patch: Partial<SceneRow> = { updated_at: toIso(this.deps.clock.now()) };
    if (body.capacity !== undefined) patch.capacity = body.capacity;
    if (body.time_zone !== undefined) patch.time_zone = body.time_zone;
    if (body.stream_combine !== undefined) patch.stream_combine = body.stream_combine;
    await this.deps.database.withWriteLock(async (trx) => {
      await sceneRepository.update(trx, id, patch);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'scene.updated',
          resourceType: 'scene',
          resourceId: id,
          data: { before: { capacity: before.capacity, time_zone: before.time_zone, stream_combine: streamCombineOf(before.stream_combine) }, after: body },
          scope: { location: before.location },
        },
      ]);
    });
    this.deps.engine.register({ ...before, ...patch });
    if (patch.time_zone !== undefined && patch.time_zone !== before.time_zone) {
      for (const listener of this.timeZoneListeners) listener(id, patch.time_zone);
    }
    return this.get(principal, id);
  }

  async query(principal: Principal, actor: Actor, sceneId: string, body: QueryBodyT): Promise<QueryResultT> {
    const scene = await this.load(principal, sceneId);
    const { windowMs, windowSource, streamId } = await this.checkSceneQuery(principal, sceneId, scene, body);
    const now = this.deps.clock.now();
    const state = this.deps.sharedState ? undefined : this.deps.engine.snapshot(sceneId, now);
    const { people, about, interp } = await this.interpretSceneQuery(principal, actor, sceneId, scene, streamId, body, now, windowMs, windowSource);
    const { history, sceneStreams, combined, combinedBaseline } = await this.sceneQueryHistory(sceneId, scene, interp);
    const freshness = this.freshnessOf(scene, sceneStreams);
    const recognitionOn = this.deps.people?.recognitionEnabled(principal.tenantId) ?? false;
    const asked = { sceneId, scene, query: body.query, interp, people, about, history, combined, combinedBaseline, state, recognitionOn };
    // a question about the cameras themselves: their status and last frame (query/camera-status.ts)
    const answer = interp.metric === 'camera' ? cameraAnswer(interp, sceneStreams, now) : await this.answerSceneQuery(asked);
    if ('ask' in answer && answer.ask)
      throw new VigilError('query_not_understood', answer.ask, { param: 'query', extra: { examples: buildExamples(scene.location) } });
    const cited = citedDetections(answer.detections, [combined, ...combinedBaseline]);
    const result = sceneQueryResult({ body, now, scene, interp, about, state, freshness, answer, cited });
    // every query is recorded in the audit trail (docs/design.md, "Audit")
    await this.deps.audit.append(actor, {
      tenantId: principal.tenantId,
      action: 'scene.queried',
      resourceType: 'scene',
      resourceId: sceneId,
      data: { stream_id: body.stream_id, query: body.query, window: body.window, interpretation: result.interpretation, answer: result.answer },
      scope: { location: scene.location, streamId },
    });
    return result;
  }

  /** The answer to an understood scene question: about a moment, a person, known and unknown people, who, or the scene's figures. */
  private async answerSceneQuery(q: SceneQuestion): Promise<QueryAnswer> {
    const { sceneId, scene, interp, people, about, history, combined, combinedBaseline, state, recognitionOn } = q;
    const { db } = this.deps.database;
    // "who was that at 22:40?": the tracks around that moment (one that began up to an hour before may still be there)
    const atMoment =
      about?.kind === 'who' && about.moment
        ? answerWhoAtMoment(
            interp,
            people,
            toRecords(await detectionsInRangeWithState(db, sceneId, interp.to - 60 * 60_000, interp.to + 2 * 60_000)),
            interp.to,
          )
        : undefined;
    if (atMoment && 'cannot' in atMoment) throw new VigilError('face_not_seen', atMoment.cannot, { param: 'query' });
    return atMoment
      ? atMoment.answer
      : about?.kind === 'person'
        ? answerPersonQuestion(
            interp,
            about.person,
            toRecords(await personSightings(db, sceneId, about.person.id, interp.from, interp.to)),
            recognitionOn,
            about.first,
            about.count,
          )
        : about?.kind === 'known_vs_unknown'
          ? answerKnownVsUnknown(interp, people, toRecords(history), q.query)
          : about?.kind === 'who'
            ? answerWhoQuestion(interp, people, toRecords(history), recognitionOn)
            : answerQuery(
                interp,
                toRecords(combined.records),
                {
                  people: state?.people ?? scene.people,
                  vehicles: state?.vehicles ?? scene.vehicles,
                  counts: state?.counts,
                  capacity: scene.capacity,
                  active_anomalies: state?.activeAnomalies ?? (this.deps.sharedState ? scene.active_anomalies : 0),
                },
                combinedBaseline.map((b) => toRecords(b.records)),
              );
  }

  /** The window and the stream of a scene question, checked. */
  private async checkSceneQuery(
    principal: Principal,
    sceneId: string,
    scene: SceneRow,
    body: QueryBodyT,
  ): Promise<{ windowMs: number; windowSource: 'default' | 'request'; streamId: string }> {
    if (!body.query.trim()) throw invalid('query', 'must not be empty');
    // no window: the question's own time, else the default the interpretation reports (docs/decisions.md, "Scene questions: an optional window")
    const windowSource = body.window === undefined ? 'default' : 'request';
    const windowMs = body.window === undefined ? DEFAULT_QUERY_WINDOW_MS : parseWindow(body.window.trim());
    if (windowMs === null) {
      throw invalid('window', `"${body.window}" is not a duration: use an integer followed by s, m, h or d (e.g. 15m), up to 30d`);
    }
    const stream = await findStream(this.deps.database.db, principal.tenantId, body.stream_id);
    if (!stream || (principal.locations && !principal.locations.includes(stream.location))) throw notFound('stream', body.stream_id, 'stream_id');
    if (stream.scene_id !== sceneId) {
      throw new VigilError('stream_not_in_scene', `Stream ${stream.id} is at ${stream.location}, not in scene ${sceneId} (${scene.location}).`, {
        param: 'stream_id',
      });
    }
    return { windowMs, windowSource, streamId: stream.id };
  }

  /** What a scene question asks, or query_not_understood (recorded in the audit trail). */
  private async interpretSceneQuery(
    principal: Principal,
    actor: Actor,
    sceneId: string,
    scene: SceneRow,
    streamId: string,
    body: QueryBodyT,
    now: number,
    windowMs: number,
    windowSource: 'default' | 'request',
  ): Promise<{ people: KnownPerson[]; about: ReturnType<typeof readPeopleQuestion>; interp: Interpretation }> {
    const people = this.deps.people ? await this.deps.people.list(principal.tenantId) : [];
    const about = readPeopleQuestion(body.query, people);
    const parsed: InterpretResult =
      about?.kind === 'unknown_name'
        ? { ok: false, reason: about.reason, examples: people.slice(0, 3).map((p) => `Was ${p.name} here today?`) }
        : about?.kind === 'cannot'
          ? { ok: false, reason: about.reason, examples: buildExamples(scene.location) }
          : await this.interpretWithAnimals(sceneId, about ? about.rewritten : body.query, {
              now,
              windowMs,
              windowSource,
              timeZone: scene.time_zone,
              location: scene.location,
            });
    if (!parsed.ok) {
      await this.deps.audit.append(actor, {
        tenantId: principal.tenantId,
        action: 'scene.query_not_understood',
        resourceType: 'scene',
        resourceId: sceneId,
        data: { query: body.query, window: body.window, reason: parsed.reason },
        scope: { location: scene.location, streamId },
      });
      throw new VigilError('query_not_understood', parsed.reason, { param: 'query', extra: { examples: parsed.examples } });
    }
    const interp = parsed.interpretation;
    return { people, about, interp };
  }

  /**
   * interpretQuery; a question refused for naming animals the detector does not label ("when did the
   * goats get in") is read again when the scene's detections of the last 30 days hold every one of them
   * (query/other-animals.ts)
   */
  private async interpretWithAnimals(sceneId: string, text: string, ctx: QueryContext): Promise<InterpretResult> {
    const parsed = interpretQuery(text, ctx);
    if (parsed.ok || !parsed.animals) return parsed;
    const seen = await animalSubtypes(this.deps.database.db, sceneId, parsed.animals, ctx.now - OTHER_ANIMAL_LOOKBACK_MS, ctx.now);
    return parsed.animals.every((a) => seen.includes(a)) ? interpretQuery(text, { ...ctx, animalsSeen: seen }) : parsed;
  }

  /** The detections a scene question is answered from: its span, the baseline's, combined over the scene's streams. */
  private async sceneQueryHistory(sceneId: string, scene: SceneRow, interp: Interpretation) {
    const { db } = this.deps.database;
    // "last seen" looks back up to 30 days: fetch the few rows it needs, not the whole range
    const history =
      interp.aggregate === 'last_seen' || interp.aggregate === 'last_arrival' || interp.aggregate === 'last_departure'
        ? await lastSighting(
            db,
            sceneId,
            interp.subtype === 'unrecognized' ? 'unrecognized' : interp.metric === 'vehicles' ? 'vehicles' : 'people',
            interp.from,
            interp.to,
          )
        : await detectionsInRangeWithState(db, sceneId, interp.from, interp.to);
    // "more than usual": the same time of day on earlier days
    const baseline: DetectionTable[][] = [];
    for (const span of interp.baseline ?? []) baseline.push(await detectionsInRangeWithState(db, sceneId, span.from, span.to));
    // several streams: counts are the scene's, combined as it says (docs/decisions.md, "One location, several cameras")
    const sceneStreams = await listStreamsOfScene(db, sceneId);
    const sightingsOnly = interp.aggregate === 'last_seen' || interp.aggregate === 'last_arrival' || interp.aggregate === 'last_departure';
    const combined = sightingsOnly
      ? { records: history, original: new Map<DetectionTable, DetectionTable>() }
      : await this.combinedHistory(
          sceneStreams.map((x) => x.id),
          streamCombineOf(scene.stream_combine),
          history,
          interp.from,
        );
    const combinedBaseline = await Promise.all(
      baseline.map((rows, i) =>
        this.combinedHistory(
          sceneStreams.map((x) => x.id),
          streamCombineOf(scene.stream_combine),
          rows,
          interp.baseline![i].from,
        ),
      ),
    );
    return { history, sceneStreams, combined, combinedBaseline };
  }

  async load(principal: Principal, id: string): Promise<SceneRow> {
    const row = await sceneRepository.findForTenant(this.deps.database.db, principal.tenantId, id);
    if (!row || !this.visibleTo(principal, row)) throw notFound('scene', id);
    return row;
  }

  /** A key limited to locations sees only their scenes; any other is 404 (no existence leaks). */
  private visibleTo(principal: Principal, row: SceneRow): boolean {
    return !principal.locations || principal.locations.includes(row.location);
  }

  private async streamsByScene(tenantId: string): Promise<Map<string, SceneStreamRef[]>> {
    const rows = await listStreamSceneIds(this.deps.database.db, tenantId);
    const m = new Map<string, SceneStreamRef[]>();
    for (const r of rows) {
      const list = m.get(r.scene_id) ?? [];
      list.push({ id: r.id, status: r.status, last_frame_at: r.last_frame_at, source_type: r.source_type });
      m.set(r.scene_id, list);
    }
    return m;
  }

  /** A scene's history with each stream's reading in force at `from` added, combined (one stream: as stored). */
  private async combinedHistory(streamIds: string[], mode: ReturnType<typeof streamCombineOf>, rows: DetectionTable[], from: number) {
    if (streamIds.length < 2) return combineHistory(rows, mode);
    const { db } = this.deps.database;
    const have = new Set(rows.map((r) => r.id));
    const before = (await Promise.all(streamIds.map((id) => readingsBefore(db, id, from)))).flat().filter((r) => !have.has(r.id));
    const all = [...before, ...rows].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return combineHistory(all, mode);
  }

  private toView(row: SceneRow, streams: readonly SceneStreamRef[]): SceneView {
    const streamIds = streams.map((x) => x.id);
    const s: SceneState | undefined = this.deps.sharedState ? undefined : this.deps.engine.snapshot(row.id, this.deps.clock.now());
    const people = s?.people ?? row.people;
    const anomalies = s?.activeAnomalies ?? (this.deps.sharedState ? row.active_anomalies : 0);
    return {
      id: row.id,
      object: 'scene',
      location: row.location,
      people_count: people,
      vehicle_count: s?.vehicles ?? row.vehicles,
      object_counts: { ...s?.counts, vehicle: s?.vehicles ?? row.vehicles },
      crowd_density: s?.crowdDensity ?? row.crowd_density,
      capacity: row.capacity,
      time_zone: row.time_zone,
      anomaly_flag: anomalies > 0,
      active_anomalies: anomalies,
      stream_ids: streamIds.sort().reverse(),
      stream_combine: streamCombineOf(row.stream_combine),
      last_detection_at: s?.lastDetectionAt != null ? toIso(s.lastDetectionAt) : row.last_detection_at,
      ...freshnessFields(this.freshnessOf(row, streams)),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}
