import type { DatabaseHandle, DbExecutor } from '../db/index.ts';
import type { ChannelTarget, NotificationMessage, NotificationRouter, RoutedEvent } from '../outbox/index.ts';
import { toIso } from '../time/index.ts';
import { notificationRepository, type PreferenceRow, type RoutableSubscription } from './notification.repository.ts';
import { HOUSEHOLD_NOTIFY_KINDS, ORGANIZATION_NOTIFY_KINDS } from './notification.schemas.ts';

/** A visit: events of one watch (or incident) with less than this between them are one visit, told as one notification with a count. */
export const VISIT_GAP_MS = 5 * 60_000;
/** At most one notification per tag in this long, unless severity rises. */
export const MIN_INTERVAL_MS = 60_000;

const SEVERITY_RANK = { info: 1, warning: 2, critical: 3 } as const;
/** What an organization key needs to read each kind. */
const NEEDS: Record<string, string> = { 'incident.created': 'incidents:read', 'protocol.triggered': 'incidents:read', 'alert.fired': 'alerts:read' };
const NOTIFY_KINDS = new Set<string>([...HOUSEHOLD_NOTIFY_KINDS, ...ORGANIZATION_NOTIFY_KINDS]);

export interface Exclusions {
  rooms: string[];
  sensors: string[];
  watches: string[];
}
export interface Routing {
  quietHours: { from: string; to: string } | null;
  exclude: Exclusions;
  /** "stop the notifications": nothing is sent until resumed; absent = false */
  paused?: boolean;
}

export function parsePreferences(row: PreferenceRow | undefined): Routing | null {
  if (!row) return null;
  const ex = JSON.parse(row.exclude) as Partial<Exclusions>;
  return {
    quietHours: row.quiet_hours ? (JSON.parse(row.quiet_hours) as Routing['quietHours']) : null,
    exclude: { rooms: ex.rooms ?? [], sensors: ex.sensors ?? [], watches: ex.watches ?? [] },
    paused: row.paused === 1,
  };
}

/** Minutes since local midnight of an instant in a time zone. */
function localMinutes(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(at));
  const h = Number(parts.find((p) => p.type === 'hour')!.value);
  const m = Number(parts.find((p) => p.type === 'minute')!.value);
  return h * 60 + m;
}

/** Whether an instant falls in quiet hours [from, to), which may cross midnight. */
export function inQuietHours(at: number, q: { from: string; to: string }, timeZone: string): boolean {
  const toMin = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5));
  const now = localMinutes(at, timeZone);
  const from = toMin(q.from);
  const to = toMin(q.to);
  if (from === to) return false;
  return from < to ? now >= from && now < to : now >= from || now < to;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v ? v : null;
}

/**
 * Which devices and addresses an event goes to (docs/decisions.md, "Notifications through the
 * outbox"), decided in the event's transaction: the tenant's live subscriptions whose key is not
 * revoked, may read the event (capability, locations) and asked for its kind; not in the person's
 * quiet hours nor excluded rooms, sensors or watches; and grouped: the events of one watch or
 * incident within a visit become one notification with a count, at most one a minute unless the
 * severity rises, all with one tag so the device replaces the last one.
 */
export class NotificationRouterService implements NotificationRouter {
  constructor(private readonly deps: { database: DatabaseHandle; publicBaseUrl: string }) {}

  async routeIn(trx: DbExecutor, e: RoutedEvent): Promise<ChannelTarget[]> {
    if (!NOTIFY_KINDS.has(e.kind)) return [];
    const subs = (await notificationRepository.routable(trx, e.tenantId)).filter(
      (s) => (JSON.parse(s.events) as string[]).includes(e.kind) && this.mayRead(s, e),
    );
    if (subs.length === 0) return [];
    const draft = this.render(e);
    if (!draft) return [];
    const household = (HOUSEHOLD_NOTIFY_KINDS as readonly string[]).includes(e.kind);
    let recipients = subs;
    if (household) {
      const prefs = await notificationRepository.preferences(trx, e.tenantId);
      const byKey = new Map(prefs.map((p) => [p.key_id, parsePreferences(p)!]));
      const timeZone = await this.timeZoneOf(trx, e.tenantId);
      recipients = subs.filter((s) => {
        const r = byKey.get(s.key_id ?? '') ?? byKey.get('*');
        if (!r) return true;
        if (r.paused) return false;
        if (r.quietHours && inQuietHours(e.at, r.quietHours, timeZone)) return false;
        const room = draft.room?.toLowerCase();
        if (room && r.exclude.rooms.some((x) => x.toLowerCase() === room)) return false;
        const sensor = str(e.payload.sensor_id);
        if (sensor && r.exclude.sensors.includes(sensor)) return false;
        if (draft.watch_id && r.exclude.watches.includes(draft.watch_id)) return false;
        return true;
      });
      if (recipients.length === 0) return [];
    }
    const count = await this.groupIn(trx, e, draft);
    if (count === null) return [];
    const message: NotificationMessage = { ...draft, count, title: count > 1 ? `${draft.title} (${count})` : draft.title };
    return recipients.map((s): ChannelTarget =>
      s.channel === 'push' ? { channel: 'push', subscriptionId: s.id, message } : { channel: 'email', address: s.address!, subscriptionId: s.id, message },
    );
  }

  /** An organization key reads an event only with the capability and, when confined, at one of its locations. */
  private mayRead(s: RoutableSubscription, e: RoutedEvent): boolean {
    if (s.capabilities === null) return true;
    const caps = JSON.parse(s.capabilities) as string[];
    const need = NEEDS[e.kind];
    if (need && !caps.includes(need) && !caps.includes('*')) return false;
    if (s.locations === null) return true;
    return e.location !== undefined && (JSON.parse(s.locations) as string[]).includes(e.location);
  }

  private async timeZoneOf(trx: DbExecutor, tenantId: string): Promise<string> {
    const raw = await notificationRepository.tenantSettings(trx, tenantId);
    try {
      const tz = raw ? (JSON.parse(raw) as { home?: { time_zone?: unknown }; time_zone?: unknown }) : {};
      const found = str(tz.home?.time_zone) ?? str(tz.time_zone);
      if (found) return found;
    } catch {
      // settings that do not parse: UTC
    }
    return 'UTC';
  }

  /**
   * The grouping of one tag: null when this event is held back (same visit, within the minute,
   * severity not higher), else how many events the notification stands for.
   */
  private async groupIn(trx: DbExecutor, e: RoutedEvent, m: Omit<NotificationMessage, 'count'>): Promise<number | null> {
    const severity = SEVERITY_RANK[m.severity];
    const row = await notificationRepository.lockThrottle(trx, this.deps.database.dialect, e.tenantId, m.tag);
    const weight = Math.max(1, e.weight ?? 1);
    if (!row || e.at - row.last_event_at > VISIT_GAP_MS) {
      await notificationRepository.saveThrottle(trx, {
        tenant_id: e.tenantId,
        tag: m.tag,
        visit_started_at: e.at,
        last_event_at: e.at,
        last_sent_at: e.at,
        count: weight,
        severity,
      });
      return weight;
    }
    const count = row.count + weight;
    const send = severity > row.severity || e.at - row.last_sent_at >= MIN_INTERVAL_MS;
    await notificationRepository.saveThrottle(trx, {
      ...row,
      last_event_at: e.at,
      count,
      last_sent_at: send ? e.at : row.last_sent_at,
      severity: Math.max(severity, row.severity),
    });
    return send ? count : null;
  }

  /** The words and link of an event, from its payload (what every recipient of this tenant may read). */
  private render(e: RoutedEvent): Omit<NotificationMessage, 'count'> | null {
    const p = e.payload as Record<string, unknown>;
    const base = this.deps.publicBaseUrl.replace(/\/+$/, '');
    const at = str(p.occurred_at) ?? toIso(e.at);
    if (e.kind === 'watch.observation' || e.kind === 'watch.alert') {
      const watchId = str(p.watch_id);
      const alert = e.kind === 'watch.alert';
      const summary = str(p.summary) ?? (alert ? 'A watch raised an alert' : 'A watch saw something');
      return {
        event: e.kind,
        title: alert ? `Alert: ${summary}` : summary,
        body: summary,
        // a visit's update opens the visit's event (docs/decisions.md, "Watch events: one per visit")
        url: `${base}/console/#/events?event=${encodeURIComponent(str(p.update_of) ?? e.eventId)}`,
        tag: `watch:${watchId ?? e.eventId}`,
        severity: alert ? 'critical' : 'info',
        occurred_at: at,
        room: str(p.room),
        watch_id: watchId,
        detection_id: str((p.detection as Record<string, unknown> | undefined)?.id),
      };
    }
    const incident = (p.incident ?? null) as Record<string, unknown> | null;
    if (e.kind === 'incident.created' && incident) {
      const title = str(incident.title) ?? 'New incident';
      return {
        event: e.kind,
        title: `Incident: ${title}`,
        body: `${title} at ${str(incident.location) ?? 'a location'}`,
        url: `${base}/console/#/incidents?id=${encodeURIComponent(String(incident.id))}`,
        tag: `incident:${incident.id}`,
        severity: 'warning',
        occurred_at: at,
        location: str(incident.location),
        incident_id: str(incident.id),
      };
    }
    if (e.kind === 'protocol.triggered' && incident) {
      const run = (p.protocol_run ?? {}) as Record<string, unknown>;
      return {
        event: e.kind,
        title: `Protocol ${str(run.protocol_type) ?? ''}: ${str(incident.title) ?? 'incident'}`.replace(/\s+:/, ':'),
        body: `Level ${run.escalation_level ?? '?'} at ${str(incident.location) ?? 'a location'}`,
        url: `${base}/console/#/incidents?id=${encodeURIComponent(String(incident.id))}`,
        tag: `incident:${incident.id}`,
        severity: 'critical',
        occurred_at: at,
        location: str(incident.location),
        incident_id: str(incident.id),
      };
    }
    if (e.kind === 'alert.fired') {
      const a = (p.alert ?? {}) as Record<string, unknown>;
      const incidentId = str(a.incident_id);
      const name = str(a.rule_name) ?? str(a.name) ?? str(a.condition) ?? 'Alert';
      return {
        event: e.kind,
        title: `Alert: ${name}`,
        body: `${name} at ${str(a.location) ?? e.location ?? 'a location'}`,
        url: incidentId ? `${base}/console/#/incidents?id=${encodeURIComponent(incidentId)}` : `${base}/console/#/alerts`,
        tag: incidentId ? `incident:${incidentId}` : `alert:${str(a.rule_id) ?? e.eventId}`,
        severity: 'warning',
        occurred_at: at,
        location: str(a.location) ?? e.location ?? null,
        incident_id: incidentId,
        detection_id: str((a.detection as Record<string, unknown> | undefined)?.id),
      };
    }
    return null;
  }
}
