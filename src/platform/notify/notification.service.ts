import { isIP } from 'node:net';
import { type DatabaseHandle, type PageQuery, mapPage } from '../db/index.ts';
import { type Clock, toIso } from '../time/index.ts';
import { VigilError, invalid, newId, notFound } from '../lib/index.ts';
import type { Actor, Principal } from '../identity/index.ts';
import type { AuditService } from '../audit/index.ts';
import { assertWebhookUrlAllowed, checkSubscriptionKeys, type VapidKeys } from '../outbox/index.ts';
import { notificationRepository, type SubscriptionRow } from './notification.repository.ts';
import { parsePreferences, type Routing } from './notification-router.ts';
import {
  HOUSEHOLD_NOTIFY_KINDS,
  ORGANIZATION_NOTIFY_KINDS,
  type CreateSubscriptionBodyT,
  type NotificationDeliveryView,
  type NotificationPreferencesView,
  type NotificationSubscriptionView,
  type PutPreferencesBodyT,
} from './notification.schemas.ts';

export function toSubscriptionView(r: SubscriptionRow): NotificationSubscriptionView {
  return {
    id: r.id,
    object: 'notification_subscription',
    channel: r.channel,
    endpoint_origin: r.endpoint ? new URL(r.endpoint).origin : null,
    address: r.address,
    label: r.label,
    events: JSON.parse(r.events) as string[],
    key_id: r.key_id,
    responder_id: r.responder_id,
    status: r.revoked_at === null ? 'active' : r.revoked_reason === 'gone' ? 'gone' : 'revoked',
    created_at: r.created_at,
    revoked_at: r.revoked_at,
  };
}

/** Checks that a responder exists in the tenant (org/responders implements it; platform does not import org). */
export type ResponderExists = (tenantId: string, responderId: string) => Promise<boolean>;

/**
 * A key's devices and addresses, and the routing a person or household sets (docs/decisions.md,
 * "Notifications through the outbox"). `setRouting` is the seam the household agent's phrasing
 * ("notify me only between 11pm and 7am", "don't send me the garage ones") is to call.
 */
export class NotificationService {
  private responderExists: ResponderExists = async () => false;

  constructor(
    private readonly deps: { database: DatabaseHandle; clock: Clock; audit: AuditService; allowPrivate: boolean; vapidKeys: () => Promise<VapidKeys> },
  ) {}

  setResponderCheck(fn: ResponderExists): void {
    this.responderExists = fn;
  }

  private cancelledListeners: Array<(eventIds: string[]) => Promise<void>> = [];

  /** Called after a revocation commits with the outbox events whose queued deliveries it cancelled (protocol runs recount). */
  onDeliveriesCancelled(fn: (eventIds: string[]) => Promise<void>): void {
    this.cancelledListeners.push(fn);
  }

  async vapidPublicKey(): Promise<{ public_key: string }> {
    return { public_key: (await this.deps.vapidKeys()).publicKey };
  }

  private kindsOf(principal: Principal, responder: boolean): readonly string[] {
    if (principal.tenantKind === 'household') return HOUSEHOLD_NOTIFY_KINDS;
    if (responder) return ['protocol.triggered'];
    const can = (c: string) => principal.capabilities.has(c as never);
    return ORGANIZATION_NOTIFY_KINDS.filter((k) => (k === 'alert.fired' ? can('alerts:read') : can('incidents:read')));
  }

  async create(principal: Principal, actor: Actor, body: CreateSubscriptionBodyT): Promise<NotificationSubscriptionView> {
    const responderId = body.responder_id ?? null;
    if (responderId) {
      if (principal.tenantKind !== 'organization') throw invalid('responder_id', 'responders belong to organizations');
      if (!principal.capabilities.has('responders:manage')) {
        throw new VigilError('insufficient_capability', 'This key lacks the capability "responders:manage".', {
          param: 'responders:manage',
          extra: { capability: 'responders:manage' },
        });
      }
      if (!(await this.responderExists(principal.tenantId, responderId))) throw notFound('responder', responderId, 'responder_id');
    }
    const allowed = this.kindsOf(principal, responderId !== null);
    const events = body.events ?? [...allowed];
    const wrong = events.filter((e) => !allowed.includes(e));
    if (wrong.length)
      throw invalid('events', `${wrong.join(', ')} cannot be sent to this ${responderId ? 'responder' : 'key'}; it may have ${allowed.join(', ') || 'none'}`);
    let endpoint: string | null = null;
    let address: string | null = null;
    if (body.channel === 'push') {
      if (body.address !== undefined) throw invalid('address', 'a push subscription has an endpoint and keys, not an address');
      if (!body.endpoint) throw invalid('endpoint', 'a push subscription needs its endpoint');
      // the endpoint is judged first, so a bad one is named whatever else is missing
      endpoint = await this.checkEndpoint(body.endpoint);
      if (!body.keys) throw invalid('keys', 'a push subscription needs keys.p256dh and keys.auth');
      const bad = checkSubscriptionKeys(body.keys.p256dh, body.keys.auth);
      if (bad) throw invalid(bad.param, bad.message);
    } else {
      if (body.endpoint !== undefined || body.keys !== undefined)
        throw invalid(body.endpoint !== undefined ? 'endpoint' : 'keys', 'an email subscription has an address only');
      if (!body.address) throw invalid('address', 'an email subscription needs an address');
      address = body.address;
    }
    const owner = { keyId: responderId ? null : principal.keyId, responderId };
    const same = await notificationRepository.findSame(this.deps.database.db, principal.tenantId, owner, body.channel, (endpoint ?? address)!);
    if (same) return toSubscriptionView(same);
    const now = this.deps.clock.now();
    const row: SubscriptionRow = {
      id: newId('nsub', now),
      tenant_id: principal.tenantId,
      key_id: owner.keyId,
      responder_id: responderId,
      channel: body.channel,
      endpoint,
      p256dh: body.keys?.p256dh ?? null,
      auth: body.keys?.auth ?? null,
      address,
      label: body.label ?? null,
      events: JSON.stringify(events),
      created_at: toIso(now),
      revoked_at: null,
      revoked_reason: null,
    };
    const view = toSubscriptionView(row);
    await this.deps.database.withWriteLock(async (trx) => {
      await notificationRepository.insertSubscription(trx, row);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'notification_subscription.created',
          resourceType: 'notification_subscription',
          resourceId: row.id,
          data: { after: view },
        },
      ]);
    });
    return view;
  }

  /** https only; a private or loopback push service only when private receivers are allowed; no credentials in it. */
  private async checkEndpoint(raw: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw invalid('endpoint', 'must be an absolute https:// URL');
    }
    if (url.protocol !== 'https:') throw invalid('endpoint', `must be https:// (push services are reached over TLS), not ${url.protocol}//`);
    if (url.username || url.password) throw invalid('endpoint', 'must not carry credentials');
    try {
      await assertWebhookUrlAllowed(raw, { allowPrivate: this.deps.allowPrivate });
    } catch (err) {
      if (!(err instanceof VigilError)) throw err;
      const detail = err.message
        .replace(/^url:\s*/, '')
        .replace(/Webhooks go to public addresses only;.*$/, 'Push services are public; a private one needs VIGIL_WEBHOOK_ALLOW_PRIVATE=1.');
      throw new VigilError(err.code, `endpoint: ${detail}`, { param: 'endpoint', errors: [{ param: 'endpoint', message: detail }] });
    }
    if (!this.deps.allowPrivate && isIP(url.hostname.replace(/^\[|\]$/g, '')) === 0 && url.hostname === 'localhost')
      throw invalid('endpoint', 'must not be localhost');
    return raw;
  }

  async list(principal: Principal, q: PageQuery & { responder_id?: string }) {
    if (q.responder_id && (principal.tenantKind !== 'organization' || !principal.capabilities.has('responders:manage'))) {
      throw new VigilError('insufficient_capability', 'Listing a responder’s devices needs "responders:manage".', {
        param: 'responders:manage',
        extra: { capability: 'responders:manage' },
      });
    }
    const page = await notificationRepository.listPage(
      this.deps.database.db,
      principal.tenantId,
      q.responder_id ? { responderId: q.responder_id } : { keyId: principal.keyId },
      q,
    );
    return mapPage(page, toSubscriptionView);
  }

  /** A subscription the key may manage: its own, or a responder's with responders:manage; anything else is 404. */
  private async load(principal: Principal, id: string): Promise<SubscriptionRow> {
    const row = await notificationRepository.findSubscription(this.deps.database.db, principal.tenantId, id);
    const mine =
      row &&
      (row.responder_id === null ? row.key_id === principal.keyId : principal.tenantKind === 'organization' && principal.capabilities.has('responders:manage'));
    if (!row || !mine) throw notFound('notification subscription', id);
    return row;
  }

  /** Revoked: nothing more is sent to it, including what was queued. */
  async revoke(principal: Principal, actor: Actor, id: string) {
    const row = await this.load(principal, id);
    const now = toIso(this.deps.clock.now());
    const cancelled = await this.deps.database.withWriteLock(async (trx) => {
      await notificationRepository.revoke(trx, id, now);
      const events = await notificationRepository.cancelOpenDeliveries(trx, id, now);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'notification_subscription.revoked',
          resourceType: 'notification_subscription',
          resourceId: id,
          data: { before: toSubscriptionView(row) },
        },
      ]);
      return events;
    });
    if (cancelled.length) for (const fn of this.cancelledListeners) await fn(cancelled);
    return { id, object: 'notification_subscription' as const, revoked: true as const };
  }

  async listDeliveries(principal: Principal, id: string, q: PageQuery) {
    await this.load(principal, id);
    const db = this.deps.database.db;
    const page = await notificationRepository.listDeliveriesPage(db, id, q);
    const attempts = await notificationRepository.attemptsOf(
      db,
      page.data.map((d) => d.id),
    );
    return mapPage(page, (d) =>
      toDeliveryView(
        d,
        attempts.filter((a) => a.delivery_id === d.id),
      ),
    );
  }

  async redeliver(principal: Principal, actor: Actor, id: string, deliveryId: string): Promise<NotificationDeliveryView> {
    const sub = await this.load(principal, id);
    const db = this.deps.database.db;
    const found = await notificationRepository.findDelivery(db, id, deliveryId);
    if (!found) throw notFound('notification delivery', deliveryId, 'delivery_id');
    if (sub.revoked_at !== null)
      throw new VigilError('invalid_state_transition', `Subscription ${id} is ${toSubscriptionView(sub).status}; nothing is sent to it.`, {
        param: 'id',
        extra: { current_status: toSubscriptionView(sub).status },
      });
    const now = this.deps.clock.now();
    await this.deps.database.withWriteLock(async (trx) => {
      await notificationRepository.restartDelivery(trx, deliveryId, now, toIso(now));
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'notification_delivery.redelivered',
          resourceType: 'webhook_delivery',
          resourceId: deliveryId,
          data: { subscription_id: id, previous_status: found.status, series: found.series + 1 },
        },
      ]);
    });
    this.onRedeliver?.();
    const row = (await notificationRepository.findDelivery(db, id, deliveryId))!;
    return toDeliveryView(row, await notificationRepository.attemptsOf(db, [deliveryId]));
  }

  /** wakes the delivery worker after a redelivery (set at wiring) */
  onRedeliver: (() => void) | null = null;

  async getPreferences(principal: Principal, scope: 'me' | 'household' = 'me'): Promise<NotificationPreferencesView> {
    const keyId = scope === 'household' ? '*' : principal.keyId;
    const rows = await notificationRepository.preferences(this.deps.database.db, principal.tenantId);
    const row = rows.find((r) => r.key_id === keyId);
    const r = parsePreferences(row) ?? { quietHours: null, exclude: { rooms: [], sensors: [], watches: [] }, paused: false };
    return {
      object: 'notification_preferences',
      scope,
      paused: r.paused === true,
      quiet_hours: r.quietHours,
      exclude: r.exclude,
      time_zone: await this.timeZone(principal.tenantId),
      updated_at: row?.updated_at ?? null,
    };
  }

  async putPreferences(principal: Principal, actor: Actor, body: PutPreferencesBodyT): Promise<NotificationPreferencesView> {
    const scope = body.scope ?? 'me';
    const before = await this.getPreferences(principal, scope);
    return this.setRouting(principal, actor, scope, {
      quietHours: body.quiet_hours === undefined ? before.quiet_hours : body.quiet_hours,
      exclude:
        body.exclude === undefined
          ? before.exclude
          : { rooms: body.exclude.rooms ?? [], sensors: body.exclude.sensors ?? [], watches: body.exclude.watches ?? [] },
      paused: body.paused === undefined ? before.paused : body.paused,
    });
  }

  /**
   * Sets a person's (scope `me`: the key's) or the household's routing: quiet hours and what is not
   * sent. The household agent is to call this for "notify me only between 11pm and 7am" (quiet
   * 07:00–23:00) and "don't send me the garage ones" (exclude the room), after its precision rules;
   * "stop the notifications" pauses them (`paused`), keeping quiet hours and exclusions.
   */
  async setRouting(principal: Principal, actor: Actor, scope: 'me' | 'household', routing: Routing): Promise<NotificationPreferencesView> {
    if (scope === 'household' && principal.tenantKind === 'household' && principal.role !== 'owner') {
      throw new VigilError(
        'owner_role_required',
        'Only an owner of the household can set the household’s notification routing; set your own with scope "me".',
        { extra: { role: principal.role } },
      );
    }
    const now = toIso(this.deps.clock.now());
    const row = {
      tenant_id: principal.tenantId,
      key_id: scope === 'household' ? '*' : principal.keyId,
      quiet_hours: routing.quietHours ? JSON.stringify(routing.quietHours) : null,
      exclude: JSON.stringify(routing.exclude),
      paused: routing.paused ? 1 : 0,
      updated_at: now,
    };
    await this.deps.database.withWriteLock(async (trx) => {
      await notificationRepository.upsertPreferences(trx, row);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'notification_preferences.set',
          resourceType: 'notification_preferences',
          resourceId: row.key_id,
          data: { after: { scope, quiet_hours: routing.quietHours, exclude: routing.exclude, paused: routing.paused === true } },
        },
      ]);
    });
    return this.getPreferences(principal, scope);
  }

  private async timeZone(tenantId: string): Promise<string> {
    const raw = await notificationRepository.tenantSettings(this.deps.database.db, tenantId);
    try {
      const tz = raw ? (JSON.parse(raw) as { time_zone?: unknown }).time_zone : null;
      return typeof tz === 'string' && tz ? tz : 'UTC';
    } catch {
      return 'UTC';
    }
  }
}

function toDeliveryView(
  d: Awaited<ReturnType<typeof notificationRepository.findDelivery>> & object,
  attempts: Array<{
    series: number;
    attempt: number;
    started_at: string;
    status_code: number | null;
    duration_ms: number;
    error: string | null;
    outcome: string;
  }>,
): NotificationDeliveryView {
  return {
    id: d.id,
    object: 'notification_delivery',
    subscription_id: d.subscription_id!,
    channel: d.channel === 'email' ? 'email' : 'push',
    event_id: d.event_id,
    event: d.event_kind,
    status: d.status,
    series: d.series,
    attempt_count: d.attempt_count,
    next_attempt_at: d.next_attempt_at === null ? null : toIso(Number(d.next_attempt_at)),
    delivered_at: d.delivered_at,
    last_status_code: d.last_status_code,
    last_error: d.last_error,
    message: d.message ? (JSON.parse(d.message) as unknown) : null,
    attempts: attempts.map((a) => ({
      series: a.series,
      attempt: a.attempt,
      started_at: a.started_at,
      status_code: a.status_code,
      duration_ms: a.duration_ms,
      error: a.error,
      outcome: a.outcome,
    })),
    created_at: d.created_at,
  };
}
