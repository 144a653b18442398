import { type DatabaseHandle, type DbExecutor, mapPage, type Page, type PageQuery } from '../../platform/db/index.ts';
import type { DetectionRecord } from '../../org/detections/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import { newId, VigilError } from '../../platform/lib/index.ts';
import { HOUSEHOLD_EVENT_KINDS, cancelOpenDeliveriesOfEvents, type HiddenEventIds, type EventSink } from '../../platform/outbox/index.ts';
import { listLeftAloneSensorIds, listSensors } from '../directory/index.ts';
import type { Principal } from '../../platform/identity/index.ts';
import { MIN_INTERVAL_MS, VISIT_GAP_MS } from '../../platform/notify/index.ts';
import { eventRepository, type EventRow, type HiddenSource } from './event.repository.ts';
import type { EventLogKind, EventView } from './event.schemas.ts';

export interface EventInput {
  tenantId: string;
  kind: EventLogKind;
  type: string;
  watchId?: string | null;
  sensorId?: string | null;
  room?: string | null;
  summary: string;
  detection?: DetectionRecord | null;
  data?: Record<string, unknown> | null;
  occurredAt: number;
}

export interface EventQuery extends PageQuery {
  watch_id?: string;
  kind?: string;
  since?: string;
  /** narrower than kind: event types (the agent's "any cars?") */
  types?: string[];
  /** only events from these sensors (the agent's "what happened in the garage?") */
  sensor_ids?: string[];
}

/** Webhook kind of an event-log kind: observations and alerts are pushed as watch.* (event-kinds.ts). */
function toWebhookKind(kind: EventLogKind): string | null {
  const k = kind === 'observation' ? 'watch.observation' : kind === 'alert' ? 'watch.alert' : kind;
  return (HOUSEHOLD_EVENT_KINDS as readonly string[]).includes(k) ? k : null;
}

function toDetectionJson(d: DetectionRecord): Record<string, unknown> {
  return {
    id: d.id,
    type: d.type,
    subtype: d.subtype ?? null,
    confidence: d.confidence,
    location: d.location,
    timestamp: toIso(d.at),
    ...(d.track_id != null ? { track_id: d.track_id } : {}),
    ...(d.dwell_s != null ? { dwell_s: d.dwell_s } : {}),
    ...(d.person_id != null ? { person_id: d.person_id } : {}),
  };
}

/** Observations and alerts of a watch are grouped per visit; changes are not. */
function isVisitKind(kind: EventLogKind): kind is 'observation' | 'alert' {
  return kind === 'observation' || kind === 'alert';
}

/**
 * What the events of one visit of a watch share (docs/decisions.md, "Watch events: one per
 * visit"): kind, type and sensor, and the person a recognition names, so the summary and the
 * sensor of the one event stay true of every observation it stands for.
 */
function visitKeyOf(input: EventInput): string {
  return JSON.stringify([input.kind, input.type, input.sensorId ?? null, input.detection?.person_id ?? null]);
}

/** The visit fields of an event (null for changes: they are not grouped). */
function visitFields(r: Pick<EventRow, 'visit_key' | 'visit_count' | 'occurred_at' | 'last_seen_at'>) {
  const grouped = r.visit_key !== null;
  return { count: r.visit_count, first_seen_at: grouped ? r.occurred_at : null, last_seen_at: grouped ? (r.last_seen_at ?? r.occurred_at) : null };
}

export function toEventView(r: EventRow): EventView {
  return {
    id: r.id,
    object: 'event',
    kind: r.kind as EventView['kind'],
    type: r.type,
    watch_id: r.watch_id,
    sensor_id: r.sensor_id,
    room: r.room,
    summary: r.summary,
    detection: r.detection ? (JSON.parse(r.detection) as EventView['detection']) : null,
    data: r.data ? (JSON.parse(r.data) as EventView['data']) : null,
    occurred_at: r.occurred_at,
    created_at: r.created_at,
    ...visitFields(r),
  };
}

/** The household event log: observations, alerts and changes, each pushed to webhooks as it is stored. */
export class EventService {
  constructor(private readonly deps: { database: DatabaseHandle; clock: Clock; sink: EventSink }) {}

  /**
   * Stores an event and enqueues its webhook deliveries in the caller's write-locked transaction.
   * An observation or alert of a watch joins its visit when one is open (the same kind, type,
   * sensor and person, the last seen less than VISIT_GAP_MS before): the one event counts it, and
   * an update goes to webhooks at most once a minute (docs/decisions.md, "Watch events: one per
   * visit").
   */
  async recordIn(trx: DbExecutor, input: EventInput): Promise<EventView> {
    const visitKey = isVisitKind(input.kind) && input.watchId ? visitKeyOf(input) : null;
    if (visitKey) {
      const open = await eventRepository.latestOfVisit(trx, input.tenantId, input.watchId!, visitKey);
      if (open && input.occurredAt >= Date.parse(open.occurred_at) && input.occurredAt - Date.parse(open.last_seen_at ?? open.occurred_at) <= VISIT_GAP_MS) {
        return this.extendVisitIn(trx, open, input);
      }
    }
    const detection = input.detection ? toDetectionJson(input.detection) : null;
    const occurredAt = toIso(input.occurredAt);
    const visit = { visit_key: visitKey, visit_count: 1, occurred_at: occurredAt, last_seen_at: visitKey ? occurredAt : null };
    const body = {
      household_id: input.tenantId,
      type: input.type,
      watch_id: input.watchId ?? null,
      sensor_id: input.sensorId ?? null,
      room: input.room ?? null,
      summary: input.summary,
      detection,
      data: input.data ?? null,
      occurred_at: occurredAt,
      ...visitFields(visit),
      ...(visitKey ? { update_of: null } : {}),
    };
    const webhookKind = toWebhookKind(input.kind);
    // kinds outside the webhook catalogue (watch.updated) are logged but not pushed
    const { eventId } = webhookKind
      ? await this.deps.sink.enqueueIn(trx, { tenantId: input.tenantId, kind: webhookKind, payload: body })
      : { eventId: newId('evt', this.deps.clock.now()) };
    const row: EventRow = {
      id: eventId,
      tenant_id: input.tenantId,
      kind: input.kind,
      type: input.type,
      watch_id: body.watch_id,
      sensor_id: body.sensor_id,
      room: body.room,
      summary: input.summary,
      detection: detection ? JSON.stringify(detection) : null,
      data: input.data ? JSON.stringify(input.data) : null,
      occurred_at: occurredAt,
      created_at: toIso(this.deps.clock.now()),
      visit_key: visitKey,
      visit_count: 1,
      last_seen_at: visit.last_seen_at,
      pushed_at: visitKey ? input.occurredAt : null,
      pushed_count: 1,
    };
    await eventRepository.insert(trx, row);
    return toEventView(row);
  }

  /**
   * One more observation of an open visit: the event counts it and its last sighting moves on;
   * when a minute has passed since the last webhook event about it, an update goes out (a new
   * outbox event of the same kind, `update_of` naming this one, standing for the observations
   * since the last).
   */
  private async extendVisitIn(trx: DbExecutor, open: EventRow, input: EventInput): Promise<EventView> {
    const lastSeen = Math.max(input.occurredAt, Date.parse(open.last_seen_at ?? open.occurred_at));
    const next: EventRow = { ...open, visit_count: open.visit_count + 1, last_seen_at: toIso(lastSeen) };
    const webhookKind = toWebhookKind(input.kind);
    const due = open.pushed_at === null || input.occurredAt - open.pushed_at >= MIN_INTERVAL_MS;
    if (webhookKind && due) {
      const view = toEventView(next);
      const payload = {
        household_id: next.tenant_id,
        type: view.type,
        watch_id: view.watch_id,
        sensor_id: view.sensor_id,
        room: view.room,
        summary: view.summary,
        detection: view.detection,
        data: view.data,
        occurred_at: view.occurred_at,
        count: view.count,
        first_seen_at: view.first_seen_at,
        last_seen_at: view.last_seen_at,
        update_of: open.id,
      };
      const weight = next.visit_count - open.pushed_count;
      const { eventId } = await this.deps.sink.enqueueIn(trx, { tenantId: next.tenant_id, kind: webhookKind, payload, weight });
      await eventRepository.insertUpdate(trx, { id: eventId, tenant_id: next.tenant_id, event_id: open.id, created_at: toIso(this.deps.clock.now()) });
      next.pushed_at = input.occurredAt;
      next.pushed_count = next.visit_count;
    }
    await eventRepository.updateVisit(trx, open.id, {
      visit_count: next.visit_count,
      last_seen_at: next.last_seen_at,
      pushed_at: next.pushed_at,
      pushed_count: next.pushed_count,
    });
    return toEventView(next);
  }

  /**
   * Newest first. Nothing from a place left alone is shown, whenever it was recorded (the user
   * asked not to look there); from a muted sensor, nothing after it was muted (what it
   * saw before stays: muting is "stop looking", not "hide what you saw"). Changes (boundary set,
   * sensor muted) carry no sensor_id and stay. Asking only about places left alone is refused, so
   * the agent says so instead of "nothing happened there".
   */
  async list(principal: Principal, q: EventQuery): Promise<Page<EventView>> {
    const hidden = await this.listHiddenSources(principal.tenantId);
    if (q.sensor_ids?.length && q.sensor_ids.every((id) => hidden.some((h) => h.sensorId === id && h.since === null))) {
      throw new VigilError(
        'boundary_in_effect',
        'You asked me to leave that place alone, so I do not look at what happened there; that has to be lifted first.',
        {
          param: 'sensor_id',
          extra: { reason: 'boundary' },
        },
      );
    }
    const filter = {
      watchId: q.watch_id,
      kind: q.kind,
      types: q.types,
      since: q.since ? toIso(Date.parse(q.since)) : undefined,
      sensorIds: q.sensor_ids,
      hidden,
    };
    return mapPage(await eventRepository.listPage(this.deps.database.db, principal.tenantId, filter, q), toEventView);
  }

  /**
   * Which webhook deliveries a principal may not read (WebhookService's DeliveryVisibility): those
   * of household events from a place left alone. Organizations have no boundaries.
   */
  async hiddenEventIds(principal: Principal): Promise<HiddenEventIds | null> {
    if (principal.tenantKind !== 'household') return null;
    const leftAlone = await listLeftAloneSensorIds(this.deps.database.db, principal.tenantId);
    return leftAlone.length ? eventRepository.idsFromSensors(this.deps.database.db, principal.tenantId, leftAlone) : null;
  }

  /** A boundary was just set: deliveries still queued about those sensors are not sent (in the caller's transaction). */
  async withdrawDeliveriesIn(trx: DbExecutor, tenantId: string, sensorIds: string[]): Promise<void> {
    if (sensorIds.length === 0) return;
    await cancelOpenDeliveriesOfEvents(trx, tenantId, eventRepository.idsFromSensors(trx, tenantId, sensorIds), toIso(this.deps.clock.now()));
  }

  private async listHiddenSources(tenantId: string): Promise<HiddenSource[]> {
    const db = this.deps.database.db;
    const [sensors, leftAlone] = await Promise.all([listSensors(db, tenantId), listLeftAloneSensorIds(db, tenantId)]);
    const hidden: HiddenSource[] = leftAlone.map((sensorId) => ({ sensorId, since: null }));
    for (const s of sensors) {
      if (s.muted === 1 && s.muted_at && !leftAlone.includes(s.id)) hidden.push({ sensorId: s.id, since: s.muted_at });
    }
    return hidden;
  }
}
