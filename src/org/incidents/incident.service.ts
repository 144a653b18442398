import { type Actor, type Principal, AUTOMATION_ACTOR } from '../../platform/identity/index.ts';
import { type DatabaseHandle, type DbExecutor, type DetectionTable, mapPage } from '../../platform/db/index.ts';
import type { DetectionRecord } from '../detections/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import { VigilError, invalid, notFound, newId } from '../../platform/lib/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import { toDetectionView, type DetectionView } from '../scenes/index.ts';
import { findStream } from '../streams/index.ts';
import type { EventSink } from '../../platform/outbox/index.ts';
import { listAlertsOfIncident, toAlertView } from '../alerts/index.ts';
import { incidentRepository, type IncidentDetectionRow, type IncidentRow } from './incident.repository.ts';
import { toIncidentView, toNoteView } from './incident-view.ts';
import type { CreateIncidentBodyT, IncidentListQueryT, IncidentView, NoteView, TimelineEntry, UpdateIncidentBodyT } from './incident.schemas.ts';

type IncidentStatus = IncidentRow['status'];

/** Allowed status changes: open → acknowledged → resolved | dismissed; anything else is 409. */
const TRANSITIONS: Record<IncidentStatus, readonly IncidentStatus[]> = {
  open: ['acknowledged'],
  acknowledged: ['resolved', 'dismissed'],
  resolved: [],
  dismissed: [],
};

/**
 * The ULID body of a prefixed id. Ids come from one monotonic ULID factory, so within one
 * millisecond the bodies still sort in creation order across prefixes (a detection before the
 * incident it opened): the timeline's tie-breaker.
 */
function ulidOf(id: string): string {
  return id.slice(id.indexOf('_') + 1);
}

/** Timeline detection entries kept per incident (the newest); the count is reported in full. */
const TIMELINE_DETECTIONS = 500;
/** Audit actions shown through their own timeline entries (notes, protocol runs), not again as actions. */
const SHOWN_ELSEWHERE = new Set(['incident.note_added', 'protocol.triggered']);

/** A detection attached to an incident, with a snapshot that outlives history retention. */
function toLinkRow(incidentId: string, tenantId: string, d: DetectionTable | DetectionRecord): IncidentDetectionRow {
  return {
    incident_id: incidentId,
    detection_id: d.id,
    tenant_id: tenantId,
    track_id: d.track_id ?? null,
    at: d.at,
    detection: JSON.stringify(toDetectionView(d)),
  };
}

/**
 * What incidents need of protocol runs. The protocols module implements it (ProtocolRunService):
 * runs belong to incidents, so protocols import incidents and never the other way round.
 */
export interface IncidentProtocols {
  /** the incident's protocol runs, oldest first, with their API view for the timeline */
  runsOf(db: DbExecutor, incidentId: string): Promise<Array<{ id: string; created_at: string; view: unknown }>>;
  /** acknowledging or closing an incident moves its live runs along, in the same transaction; returns what to do after commit */
  followIncidentIn(trx: DbExecutor, actor: Actor, incident: IncidentRow): Promise<() => void>;
}

/**
 * Incidents: created by hand from a stream or automatically from anomalies, worked
 * through open → acknowledged → resolved | dismissed, with a timeline of everything that happened.
 */
export class IncidentService {
  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      events: EventSink;
      runs: IncidentProtocols;
    },
  ) {}

  async create(principal: Principal, actor: Actor, body: CreateIncidentBodyT): Promise<IncidentView> {
    const stream = await findStream(this.deps.database.db, principal.tenantId, body.stream_id);
    if (!stream || (principal.locations && !principal.locations.includes(stream.location))) throw notFound('stream', body.stream_id, 'stream_id');
    const now = this.deps.clock.now();
    const row = await this.deps.database.withWriteLock(async (trx) => {
      const found: DetectionTable[] = [];
      for (const detId of body.detection_ids ?? []) {
        const d = await incidentRepository.findDetection(trx, principal.tenantId, detId);
        if (!d || (principal.locations && !principal.locations.includes(d.location)))
          throw invalid('detection_ids', `no detection ${detId} in this organization`);
        found.push(d);
      }
      const row: IncidentRow = {
        id: newId('incident', now),
        tenant_id: principal.tenantId,
        stream_id: stream.id,
        scene_id: stream.scene_id,
        location: stream.location,
        title: body.title ?? `Incident at ${stream.location}`,
        severity: body.severity ?? 'medium',
        status: 'open',
        source: 'manual',
        last_activity_at: Math.max(now, ...found.map((d) => d.at)),
        acknowledged_at: null,
        closed_at: null,
        created_at: toIso(now),
        updated_at: toIso(now),
      };
      await this.insertIn(
        trx,
        actor,
        row,
        found.map((d) => toLinkRow(row.id, principal.tenantId, d)),
      );
      return row;
    });
    return toIncidentView(row);
  }

  /**
   * Opens an automatic incident for an anomaly (in the pipeline's transaction), audited as the
   * automation and published as incident.created.
   */
  async openAutomaticIn(trx: DbExecutor, rec: DetectionRecord, title: string, severity: IncidentRow['severity']): Promise<IncidentRow> {
    const now = this.deps.clock.now();
    const row: IncidentRow = {
      id: newId('incident', now),
      tenant_id: rec.tenant_id,
      stream_id: rec.stream_id,
      scene_id: rec.scene_id,
      location: rec.location,
      title,
      severity,
      status: 'open',
      source: 'automatic',
      last_activity_at: rec.at,
      acknowledged_at: null,
      closed_at: null,
      created_at: toIso(now),
      updated_at: toIso(now),
    };
    await this.insertIn(trx, AUTOMATION_ACTOR, row, [toLinkRow(row.id, rec.tenant_id, rec)]);
    return row;
  }

  /** Adds anomalous detections to an automatic incident and moves its activity time on. */
  async extendIn(trx: DbExecutor, incident: IncidentRow, recs: DetectionRecord[]): Promise<void> {
    if (recs.length === 0) return;
    await incidentRepository.linkDetections(
      trx,
      recs.map((r) => toLinkRow(incident.id, r.tenant_id, r)),
    );
    const last = Math.max(...recs.map((r) => r.at));
    if (last > Number(incident.last_activity_at)) await incidentRepository.update(trx, incident.id, { last_activity_at: last });
  }

  /**
   * extendIn for several incidents at once, inside the pipeline's commit (its write lock): on
   * PostgreSQL one insert of every link and one update of the activity times that moved, on SQLite
   * prepared statements on the raw connection.
   */
  async extendManyIn(trx: DbExecutor, extensions: Array<{ incident: IncidentRow; recs: DetectionRecord[] }>): Promise<void> {
    const links = extensions.flatMap((e) => e.recs.map((r) => toLinkRow(e.incident.id, r.tenant_id, r)));
    const moves = extensions
      .filter((e) => e.recs.length)
      .map((e) => ({ id: e.incident.id, lastActivityAt: Math.max(...e.recs.map((r) => r.at)), was: Number(e.incident.last_activity_at) }))
      .filter((m) => m.lastActivityAt > m.was);
    await incidentRepository.linkAndMoveActivityIn(this.deps.database, trx, links, moves);
  }

  /**
   * The automatic incident each scene's anomalies would join (active at or after that scene's
   * `since`), for the pipeline's commit: prepared statements on SQLite (inside its write lock).
   */
  async groupableIn(trx: DbExecutor, sinceByScene: Map<string, number>): Promise<Map<string, IncidentRow>> {
    return incidentRepository.findGroupableManyIn(this.deps.database, trx, sinceByScene);
  }

  async list(principal: Principal, q: IncidentListQueryT) {
    const filter = {
      status: q.status,
      severity: q.severity,
      source: q.source,
      location: q.location,
      streamId: q.stream_id,
      since: q.since ? toIso(Date.parse(q.since)) : undefined,
    };
    return mapPage(await incidentRepository.listPage(this.deps.database.db, principal.tenantId, principal.locations, filter, q), toIncidentView);
  }

  /** The incident with its timeline: detections, alerts, notes, protocol runs and actions in time order. */
  async get(principal: Principal, id: string) {
    const db = this.deps.database.db;
    const incident = await this.load(db, principal, id);
    const [detections, count, alerts, notes, runs] = await Promise.all([
      incidentRepository.listDetections(db, id, TIMELINE_DETECTIONS),
      incidentRepository.countDetections(db, id),
      listAlertsOfIncident(db, id),
      incidentRepository.listNotes(db, id),
      this.deps.runs.runsOf(db, id),
    ]);
    const audit = await incidentRepository.listAuditFor(
      db,
      principal.tenantId,
      id,
      runs.map((r) => r.id),
    );
    const timeline: Array<TimelineEntry & { order: string }> = [
      ...detections.map((d) => ({
        at: toIso(Number(d.at)),
        kind: 'detection' as const,
        id: d.detection_id,
        detection: JSON.parse(d.detection) as DetectionView,
        order: ulidOf(d.detection_id),
      })),
      ...alerts.map((a) => ({ at: a.fired_at, kind: 'alert' as const, id: a.id, alert: toAlertView(a), order: ulidOf(a.id) })),
      ...notes.map((n) => ({ at: n.created_at, kind: 'note' as const, id: n.id, note: toNoteView(n), order: ulidOf(n.id) })),
      ...runs.map((r) => ({ at: r.created_at, kind: 'protocol_run' as const, id: r.id, protocol_run: r.view, order: ulidOf(r.id) })),
      ...audit
        .filter((e) => !SHOWN_ELSEWHERE.has(e.action))
        .map((e) => ({
          at: e.at,
          kind: 'action' as const,
          id: e.id,
          action: {
            action: e.action,
            actor: { key_id: e.actor_key_id, operator: e.actor_operator },
            resource_type: e.resource_type,
            resource_id: e.resource_id,
            ...(e.data ? { data: JSON.parse(e.data) as unknown } : {}),
          },
          order: ulidOf(e.id),
        })),
    ];
    timeline.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
    return { ...toIncidentView(incident), detection_count: count, timeline: timeline.map(({ order: _order, ...e }) => e) };
  }

  async update(principal: Principal, actor: Actor, id: string, body: UpdateIncidentBodyT): Promise<IncidentView> {
    const now = this.deps.clock.now();
    let afterCommit: () => void = () => {};
    const after = await this.deps.database.withWriteLock(async (trx) => {
      const before = await this.load(trx, principal, id);
      const patch: Partial<IncidentRow> = { updated_at: toIso(now) };
      if (body.status !== undefined) {
        if (!TRANSITIONS[before.status].includes(body.status)) {
          const allowed = TRANSITIONS[before.status];
          throw new VigilError(
            'invalid_state_transition',
            `Incident ${id} is ${before.status}; it can move to ${allowed.length ? allowed.join(' or ') : 'nothing (it is closed)'}, not ${body.status}.`,
            { param: 'status', extra: { current_status: before.status, allowed: [...allowed] } },
          );
        }
        patch.status = body.status;
        if (body.status === 'acknowledged') patch.acknowledged_at = toIso(now);
        else patch.closed_at = toIso(now);
      }
      if (body.title !== undefined) patch.title = body.title;
      if (body.severity !== undefined) patch.severity = body.severity;
      const after = { ...before, ...patch };
      await incidentRepository.update(trx, id, patch);
      const action = body.status ? `incident.${body.status}` : 'incident.updated';
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action,
          resourceType: 'incident',
          resourceId: id,
          data: { before: toIncidentView(before), after: toIncidentView(after) },
          scope: { location: before.location },
        },
      ]);
      await this.deps.events.enqueueIn(trx, {
        tenantId: principal.tenantId,
        kind: 'incident.updated',
        payload: { incident: toIncidentView(after), previous: { status: before.status, title: before.title, severity: before.severity } },
      });
      if (body.status) afterCommit = await this.deps.runs.followIncidentIn(trx, actor, after);
      return after;
    });
    afterCommit();
    return toIncidentView(after);
  }

  async addNote(principal: Principal, actor: Actor, id: string, body: { body: string }): Promise<NoteView> {
    const now = this.deps.clock.now();
    const note = await this.deps.database.withWriteLock(async (trx) => {
      const incident = await this.load(trx, principal, id);
      const row = {
        id: newId('note', now),
        incident_id: incident.id,
        tenant_id: principal.tenantId,
        body: body.body,
        author_key_id: actor.keyId,
        author_operator: actor.operator ?? null,
        created_at: toIso(now),
      };
      await incidentRepository.insertNote(trx, row);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'incident.note_added',
          resourceType: 'incident',
          resourceId: id,
          data: { note_id: row.id, body: row.body },
          scope: { location: incident.location },
        },
      ]);
      return row;
    });
    return toNoteView(note);
  }

  private async insertIn(trx: DbExecutor, actor: Actor, row: IncidentRow, links: IncidentDetectionRow[]): Promise<void> {
    await incidentRepository.insert(trx, row);
    await incidentRepository.linkDetections(trx, links);
    const view = toIncidentView(row);
    await this.deps.audit.appendIn(trx, actor, [
      {
        tenantId: row.tenant_id,
        action: 'incident.created',
        resourceType: 'incident',
        resourceId: row.id,
        data: { after: view, detection_ids: links.map((l) => l.detection_id) },
        scope: { location: row.location },
      },
    ]);
    await this.deps.events.enqueueIn(trx, { tenantId: row.tenant_id, kind: 'incident.created', payload: { incident: view } });
  }

  private async load(db: DbExecutor, principal: Principal, id: string): Promise<IncidentRow> {
    const row = await incidentRepository.findForTenant(db, principal.tenantId, id);
    if (!row || (principal.locations && !principal.locations.includes(row.location))) throw notFound('incident', id);
    return row;
  }
}
