import { type Actor, type Principal } from '../identity/index.ts';
import { type DatabaseHandle, type DbExecutor, mapPage, sendsReadsAhead, type PageQuery } from '../db/index.ts';
import { type Clock, toIso } from '../time/index.ts';
import { VigilError, invalid, notFound, newId } from '../lib/index.ts';
import { scopeOfLocations, type AuditService } from '../audit/index.ts';
import { DELIVERY_CHANNEL } from './delivery-worker.ts';
import type { WakeSignal } from '../coordination/index.ts';
import { eventKindsOf, isEventKind, subscribableKindsOf } from './event-kinds.ts';
import type { ChannelTarget, NotificationRouter } from './channels.ts';
import { deriveHouseholdSecret, generateWebhookSecret } from './webhook-signature.ts';
import { assertWebhookUrlAllowed } from './webhook-url-guard.ts';
import { webhookRepository, type HiddenEventIds, type WebhookAttemptRow, type WebhookDeliveryRow, type WebhookEndpointRow } from './webhook.repository.ts';
import type {
  CreateWebhookBodyT,
  DeliveryListQueryT,
  UpdateWebhookBodyT,
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookEndpointWithSecretView,
} from './webhook.schemas.ts';

/** How long a rotated-out secret keeps signing alongside the new one. */
export const SECRET_OVERLAP_MS = 24 * 3600_000;

export interface WebhookEventInput {
  tenantId: string;
  /** a kind from event-kinds.ts */
  kind: string;
  /** event fields; `id`, `event` and `created_at` are stamped on by the outbox */
  payload: Record<string, unknown>;
  /** the location the event is about; default: read from the payload (see locationOfEvent) */
  location?: string;
  /** how many occurrences this event stands for (default 1; see OutboxEvent) */
  weight?: number;
}

/** What a tap of the outbox sees of each event (see WebhookService.onEvent). */
export type EventTap = (e: {
  tenantId: string;
  kind: string;
  eventId: string;
  at: number;
  location: string | undefined;
  payload: Record<string, unknown>;
}) => void;

/**
 * The location an organization event is about, for endpoints confined to locations.
 * Undefined when neither the input nor the payload names one: a confined endpoint then receives
 * nothing (fail closed).
 */
function locationOfEvent(event: WebhookEventInput): string | undefined {
  if (event.location) return event.location;
  const p = event.payload as { location?: unknown; detection?: { location?: unknown }; alert?: { location?: unknown }; incident?: { location?: unknown } };
  const found = p.location ?? p.detection?.location ?? p.alert?.location ?? p.incident?.location;
  return typeof found === 'string' ? found : undefined;
}

/** Whether a location-restricted key may see an endpoint: only one confined within its own locations. */
function endpointVisible(principal: Principal, r: Pick<WebhookEndpointRow, 'locations'>): boolean {
  if (!principal.locations) return true;
  const locs = r.locations === null ? null : (JSON.parse(r.locations) as string[]);
  return locs !== null && locs.every((l) => principal.locations!.includes(l));
}

export function toEndpointView(r: WebhookEndpointRow, now: number): WebhookEndpointView {
  const overlap = r.previous_secret_expires_at !== null && r.previous_secret_expires_at > now;
  return {
    id: r.id,
    object: 'webhook_endpoint',
    url: r.url,
    description: r.description,
    events: JSON.parse(r.events) as string[],
    locations: r.locations === null ? null : (JSON.parse(r.locations) as string[]),
    enabled: r.enabled === 1,
    secret_source: r.secret_source,
    previous_secret_expires_at: overlap ? toIso(r.previous_secret_expires_at!) : null,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

function toAttemptView(a: WebhookAttemptRow) {
  return {
    series: a.series,
    attempt: a.attempt,
    started_at: a.started_at,
    url: a.url,
    status_code: a.status_code,
    duration_ms: a.duration_ms,
    error: a.error,
    outcome: a.outcome,
    next_attempt_at: a.next_attempt_at,
  };
}

function toDeliveryView(d: WebhookDeliveryRow & { body: string }, attempts: WebhookAttemptRow[]): WebhookDeliveryView {
  return {
    id: d.id,
    object: 'webhook_delivery',
    endpoint_id: d.endpoint_id!,
    event_id: d.event_id,
    event: d.event_kind,
    status: d.status,
    series: d.series,
    attempt_count: d.attempt_count,
    first_attempt_at: d.first_attempt_at === null ? null : toIso(Number(d.first_attempt_at)),
    next_attempt_at: d.next_attempt_at === null ? null : toIso(Number(d.next_attempt_at)),
    delivered_at: d.delivered_at,
    last_status_code: d.last_status_code,
    last_error: d.last_error,
    // the body as the latest attempt sent it (deliveryBody: its sent_at is that attempt's start); no sent_at before the first
    payload: { ...(JSON.parse(d.body) as Record<string, unknown>), delivery_id: d.id, ...(attempts.length ? { sent_at: attempts.at(-1)!.started_at } : {}) },
    attempts: attempts.map(toAttemptView),
    created_at: d.created_at,
  };
}

/**
 * Webhook endpoints and the transactional outbox (docs/design.md "Webhooks"). Organization endpoints
 * sign with a generated whsec_ secret; household endpoints with a secret derived from the API key
 * that registered them (docs/design.md "Webhooks", Secrets).
 */
/** What a principal may not read of its deliveries (household boundaries); null: everything is readable. */
export interface DeliveryVisibility {
  hiddenEventIds(principal: Principal): Promise<HiddenEventIds | null>;
}

/** What one write transaction has already read and sent (WebhookService.perTransaction). */
type EnabledEndpoints = Array<Pick<WebhookEndpointRow, 'id' | 'events' | 'locations'>>;

interface TransactionMemo {
  /** per tenant, its enabled endpoints, or the read of them under way (prefetchIn) */
  endpoints: Map<string, EnabledEndpoints | Promise<EnabledEndpoints>>;
  woken: boolean;
}

export class WebhookService {
  private readonly listeners: Array<() => void> = [];
  private readonly taps: EventTap[] = [];
  private visibility: DeliveryVisibility | null = null;
  private router: NotificationRouter | null = null;
  /**
   * Per write transaction (the executor object lives as long as the transaction): each tenant's
   * enabled endpoints as first read in it, and whether the delivery workers were woken. A pipeline
   * commit or a burst enqueues many events in one transaction; reading the endpoints and sending the
   * wake (a NOTIFY round trip on PostgreSQL) once per transaction is enough. Writing an
   * endpoint in a transaction forgets its entry.
   */
  private readonly perTransaction = new WeakMap<DbExecutor, TransactionMemo>();

  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      allowPrivate: boolean;
      /** announces committed deliveries to the delivery workers (every node's, with PostgreSQL NOTIFY) */
      wakeSignal: WakeSignal;
    },
  ) {}

  /** Registers a callback run when new deliveries may have been committed (the worker's wake). */
  onEnqueued(fn: () => void): void {
    this.listeners.push(fn);
  }

  /**
   * Registers a tap that sees every event enqueueIn is asked to write, subscribed or not (the
   * organization live feed). It runs inside the writer's transaction, before commit.
   */
  onEvent(fn: EventTap): void {
    this.taps.push(fn);
  }

  /** Set once at wiring: the household event log says which deliveries are about a place left alone. */
  setVisibility(v: DeliveryVisibility): void {
    this.visibility = v;
  }

  /** Set once at wiring: the devices and addresses each event also goes to (platform/notify). */
  setRouter(r: NotificationRouter): void {
    this.router = r;
  }

  /** Wakes the delivery worker (call after committing outbox rows written outside enqueueIn). */
  notify(): void {
    for (const fn of this.listeners) fn();
  }

  /** The URL safety check of registrations, for other services that take receiver URLs (responders). */
  async assertUrlAllowed(url: string): Promise<void> {
    await assertWebhookUrlAllowed(url, { allowPrivate: this.deps.allowPrivate });
  }

  private checkEvents(principal: Principal, events: string[] | undefined): string[] {
    // the default is the surface's kinds; opt-in kinds (audit.checkpoint) only when named
    if (events === undefined) return [...eventKindsOf(principal.tenantKind)];
    const allowed = subscribableKindsOf(principal.tenantKind);
    const wrong = events.filter((e) => !(allowed as readonly string[]).includes(e));
    if (wrong.length) {
      const known = wrong.filter(isEventKind);
      const why =
        known.length === wrong.length
          ? `${wrong.map((w) => JSON.stringify(w)).join(', ')} ${wrong.length === 1 ? 'is' : 'are'} not ${principal.tenantKind} event kinds`
          : `unknown event kind${wrong.length === 1 ? '' : 's'} ${wrong.map((w) => JSON.stringify(w)).join(', ')}`;
      throw new VigilError('validation_failed', `events: ${why}; this key can subscribe to ${allowed.join(', ')}.`, {
        param: 'events',
        errors: wrong.map((w) => ({ param: 'events', message: `${JSON.stringify(w)} is not a ${principal.tenantKind} event kind` })),
      });
    }
    return events;
  }

  private secretFor(principal: Principal, bearerKey: string | null): { secret: string; source: 'generated' | 'api_key'; shown: string | null } {
    if (principal.tenantKind === 'household') {
      if (!bearerKey) throw new VigilError('missing_api_key', 'Send Authorization: Bearer <API key>.');
      return { secret: deriveHouseholdSecret(bearerKey), source: 'api_key', shown: null };
    }
    const secret = generateWebhookSecret();
    return { secret, source: 'generated', shown: secret };
  }

  /**
   * The locations an organization endpoint is confined to: default the key's own; a
   * restricted key cannot register an endpoint reaching beyond them.
   */
  private checkLocations(principal: Principal, wanted: string[] | null | undefined): string[] | null {
    if (principal.tenantKind === 'household') {
      if (wanted !== undefined) throw invalid('locations', 'household webhooks receive the whole household; locations apply to organization webhooks');
      return null;
    }
    const locations = wanted === undefined ? (principal.locations ? [...principal.locations] : null) : wanted;
    if (principal.locations) {
      const outside = locations === null ? ['every location'] : locations.filter((l) => !principal.locations!.includes(l));
      if (outside.length) {
        throw new VigilError(
          'location_not_allowed',
          `locations: this key is limited to ${principal.locations.join(', ')}; ${outside.join(', ')} is outside it.`,
          { param: 'locations' },
        );
      }
    }
    return locations;
  }

  async create(principal: Principal, actor: Actor, body: CreateWebhookBodyT, bearerKey: string | null): Promise<WebhookEndpointWithSecretView> {
    const events = this.checkEvents(principal, body.events);
    const locations = this.checkLocations(principal, body.locations);
    await assertWebhookUrlAllowed(body.url, { allowPrivate: this.deps.allowPrivate });
    const now = this.deps.clock.now();
    const s = this.secretFor(principal, bearerKey);
    const row: WebhookEndpointRow = {
      id: newId('whk', now),
      tenant_id: principal.tenantId,
      tenant_kind: principal.tenantKind,
      url: body.url,
      description: body.description ?? null,
      events: JSON.stringify(events),
      enabled: 1,
      secret_source: s.source,
      secret: s.secret,
      previous_secret: null,
      previous_secret_expires_at: null,
      created_at: toIso(now),
      updated_at: toIso(now),
      deleted_at: null,
      locations: locations ? JSON.stringify(locations) : null,
    };
    const view = toEndpointView(row, now);
    await this.deps.database.withWriteLock(async (trx) => {
      await webhookRepository.insertEndpoint(trx, row);
      this.perTransaction.delete(trx);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'webhook.created',
          resourceType: 'webhook_endpoint',
          resourceId: row.id,
          data: { after: view },
          scope: scopeOfLocations(row.locations),
        },
      ]);
    });
    return s.shown ? { ...view, secret: s.shown } : view;
  }

  async list(principal: Principal, q: PageQuery) {
    const now = this.deps.clock.now();
    // a restricted key sees only endpoints confined within its locations
    const visible = principal.locations ? (r: WebhookEndpointRow) => endpointVisible(principal, r) : undefined;
    const page = await webhookRepository.listEndpointsPage(this.deps.database.db, principal.tenantId, q, visible);
    return mapPage(page, (r) => toEndpointView(r, now));
  }

  async get(principal: Principal, id: string): Promise<WebhookEndpointView> {
    return toEndpointView(await this.load(principal, id), this.deps.clock.now());
  }

  /** An endpoint of the key's tenant; anything else is 404 (docs/design.md "Auth": no existence leaks). */
  private async load(principal: Principal, id: string): Promise<WebhookEndpointRow> {
    const row = await webhookRepository.findEndpoint(this.deps.database.db, principal.tenantId, id);
    if (!row || !endpointVisible(principal, row)) throw notFound('webhook endpoint', id);
    return row;
  }

  async update(principal: Principal, actor: Actor, id: string, body: UpdateWebhookBodyT): Promise<WebhookEndpointView> {
    const before = await this.load(principal, id);
    const events = body.events !== undefined ? this.checkEvents(principal, body.events) : undefined;
    if (body.url !== undefined) await assertWebhookUrlAllowed(body.url, { allowPrivate: this.deps.allowPrivate });
    const now = this.deps.clock.now();
    const patch: Partial<WebhookEndpointRow> = { updated_at: toIso(now) };
    if (body.url !== undefined) patch.url = body.url;
    if (events !== undefined) patch.events = JSON.stringify(events);
    if (body.description !== undefined) patch.description = body.description;
    if (body.enabled !== undefined) patch.enabled = body.enabled ? 1 : 0;
    const after = { ...before, ...patch };
    await this.deps.database.withWriteLock(async (trx) => {
      await webhookRepository.updateEndpoint(trx, id, patch);
      this.perTransaction.delete(trx);
      if (before.enabled === 1 && after.enabled === 0) await webhookRepository.cancelOpenDeliveries(trx, id, toIso(now));
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'webhook.updated',
          resourceType: 'webhook_endpoint',
          resourceId: id,
          data: { before: toEndpointView(before, now), after: toEndpointView(after, now) },
          scope: scopeOfLocations(before.locations),
        },
      ]);
    });
    return toEndpointView(after, now);
  }

  async remove(principal: Principal, actor: Actor, id: string) {
    const before = await this.load(principal, id);
    const now = this.deps.clock.now();
    await this.deps.database.withWriteLock(async (trx) => {
      await webhookRepository.updateEndpoint(trx, id, { deleted_at: toIso(now), enabled: 0, updated_at: toIso(now) });
      this.perTransaction.delete(trx);
      await webhookRepository.cancelOpenDeliveries(trx, id, toIso(now));
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'webhook.deleted',
          resourceType: 'webhook_endpoint',
          resourceId: id,
          data: { before: toEndpointView(before, now) },
          scope: scopeOfLocations(before.locations),
        },
      ]);
    });
    return { id, object: 'webhook_endpoint' as const, deleted: true as const };
  }

  /**
   * New secret, shown once; the previous one keeps signing for 24 h in X-Service-Signature-Previous
   * so receivers can switch without missing a delivery. Household endpoints re-derive from the key
   * presented (e.g. after the household replaced its key).
   */
  async rotateSecret(principal: Principal, actor: Actor, id: string, bearerKey: string | null): Promise<WebhookEndpointWithSecretView> {
    const before = await this.load(principal, id);
    const now = this.deps.clock.now();
    const s = this.secretFor(principal, bearerKey);
    const patch: Partial<WebhookEndpointRow> = {
      secret: s.secret,
      secret_source: s.source,
      previous_secret: before.secret,
      previous_secret_expires_at: now + SECRET_OVERLAP_MS,
      updated_at: toIso(now),
    };
    const after = { ...before, ...patch };
    await this.deps.database.withWriteLock(async (trx) => {
      await webhookRepository.updateEndpoint(trx, id, patch);
      this.perTransaction.delete(trx);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'webhook.secret_rotated',
          resourceType: 'webhook_endpoint',
          resourceId: id,
          data: { previous_secret_expires_at: toIso(now + SECRET_OVERLAP_MS) },
          scope: scopeOfLocations(before.locations),
        },
      ]);
    });
    const view = toEndpointView(after, now);
    return s.shown ? { ...view, secret: s.shown } : view;
  }

  async listDeliveries(principal: Principal, id: string, q: DeliveryListQueryT) {
    await this.load(principal, id);
    const hidden = await this.visibility?.hiddenEventIds(principal);
    const page = await webhookRepository.listDeliveriesPage(this.deps.database.db, id, { hidden, status: q.status }, q);
    const attempts = await webhookRepository.attemptsOf(
      this.deps.database.db,
      page.data.map((d) => d.id),
    );
    const byDelivery = new Map<string, WebhookAttemptRow[]>();
    for (const a of attempts) byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), a]);
    return mapPage(page, (d) => toDeliveryView(d, byDelivery.get(d.id) ?? []));
  }

  /** Sends a delivery again as a new attempt series with a fresh 24 h window (docs/design.md "Webhooks"). */
  async redeliver(principal: Principal, actor: Actor, id: string, deliveryId: string): Promise<WebhookDeliveryView> {
    const endpoint = await this.load(principal, id);
    const found = await webhookRepository.findDelivery(this.deps.database.db, id, deliveryId);
    const hidden = found && (await this.visibility?.hiddenEventIds(principal));
    if (!found || (hidden && (await webhookRepository.isDeliveryOfEvents(this.deps.database.db, found.id, hidden))))
      throw notFound('webhook delivery', deliveryId, 'delivery_id');
    if (endpoint.enabled !== 1) {
      throw new VigilError('webhook_endpoint_disabled', `Webhook endpoint ${id} is disabled; enable it (PATCH enabled: true) before redelivering.`);
    }
    const now = this.deps.clock.now();
    await this.deps.database.withWriteLock(async (trx) => {
      await webhookRepository.restartDelivery(trx, deliveryId, now, toIso(now));
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'webhook.delivery_redelivered',
          resourceType: 'webhook_delivery',
          resourceId: deliveryId,
          data: { endpoint_id: id, previous_status: found.status, series: found.series + 1 },
          scope: scopeOfLocations(endpoint.locations),
        },
      ]);
    });
    this.notify();
    return this.loadDeliveryView(id, deliveryId);
  }

  private async loadDeliveryView(endpointId: string, deliveryId: string): Promise<WebhookDeliveryView> {
    const db = this.deps.database.db;
    const row = await webhookRepository.findDeliveryWithBody(db, endpointId, deliveryId);
    if (!row) throw notFound('webhook delivery', deliveryId, 'delivery_id');
    return toDeliveryView(row, await webhookRepository.attemptsOf(db, [deliveryId]));
  }

  /**
   * The transactional outbox (docs/design.md "Webhooks"): inside the caller's write-locked transaction,
   * writes the event and one delivery per enabled endpoint of the tenant subscribed to the kind, so
   * the deliveries exist exactly when the change does. Body: `{id, event, created_at, ...payload}`.
   * The event row is written only when someone subscribed.
   */
  async enqueueIn(trx: DbExecutor, event: WebhookEventInput): Promise<{ eventId: string; deliveryIds: string[] }> {
    if (!isEventKind(event.kind)) throw new Error(`webhook event kind "${event.kind}" is not in src/platform/outbox/event-kinds.ts`);
    const now = this.deps.clock.now();
    const eventId = newId('evt', now);
    const location = locationOfEvent(event);
    for (const tap of this.taps) tap({ tenantId: event.tenantId, kind: event.kind, eventId, at: now, location, payload: event.payload });
    const endpoints = (await this.enabledEndpoints(trx, event.tenantId)).filter(
      (e) =>
        (JSON.parse(e.events) as string[]).includes(event.kind) &&
        (e.locations === null || (location !== undefined && (JSON.parse(e.locations) as string[]).includes(location))),
    );
    const routed = this.router
      ? await this.router.routeIn(trx, {
          tenantId: event.tenantId,
          kind: event.kind,
          eventId,
          location,
          payload: event.payload,
          at: now,
          weight: event.weight ?? 1,
        })
      : [];
    if (endpoints.length === 0 && routed.length === 0) return { eventId, deliveryIds: [] };
    const deliveries = [
      ...endpoints.map((e) => this.deliveryRow(event, eventId, now, { endpointId: e.id })),
      ...routed.map((t) => this.targetRow(event, eventId, now, t)),
    ];
    await this.writeOutbox(trx, event, eventId, now, deliveries);
    return { eventId, deliveryIds: deliveries.map((d) => d.id) };
  }

  /**
   * Like enqueueIn, but to one receiver that is not a registered endpoint (e.g. a responder's
   * contact URL), signed with the given secret (null: unsigned). Same retries, same attempt log.
   */
  async enqueueToUrlIn(trx: DbExecutor, event: WebhookEventInput & { url: string; secret: string | null }): Promise<{ eventId: string; deliveryId: string }> {
    const now = this.deps.clock.now();
    const eventId = newId('evt', now);
    const delivery = this.deliveryRow(event, eventId, now, { targetUrl: event.url, targetSecret: event.secret });
    await this.writeOutbox(trx, event, eventId, now, [delivery]);
    return { eventId, deliveryId: delivery.id };
  }

  /**
   * One event to chosen receivers (a responder's webhook URL, push subscriptions, email address),
   * with the same retries, attempt log and redelivery as webhooks. Every delivery shares the
   * event id, so whoever asked can follow them all (a protocol run counts responders reached).
   */
  async enqueueToTargetsIn(trx: DbExecutor, event: WebhookEventInput, targets: ChannelTarget[]): Promise<{ eventId: string; deliveryIds: string[] }> {
    const now = this.deps.clock.now();
    const eventId = newId('evt', now);
    if (targets.length === 0) return { eventId, deliveryIds: [] };
    const deliveries = targets.map((t) => this.targetRow(event, eventId, now, t));
    await this.writeOutbox(trx, event, eventId, now, deliveries);
    return { eventId, deliveryIds: deliveries.map((d) => d.id) };
  }

  private targetRow(event: WebhookEventInput, eventId: string, now: number, t: ChannelTarget): WebhookDeliveryRow {
    if (t.channel === 'webhook') return this.deliveryRow(event, eventId, now, { targetUrl: t.url, targetSecret: t.secret });
    if (t.channel === 'push')
      return this.deliveryRow(event, eventId, now, { channel: 'push', subscriptionId: t.subscriptionId, message: JSON.stringify(t.message) });
    return this.deliveryRow(event, eventId, now, {
      channel: 'email',
      targetUrl: `mailto:${t.address}`,
      subscriptionId: t.subscriptionId ?? null,
      message: JSON.stringify(t.message),
    });
  }

  private deliveryRow(
    event: WebhookEventInput,
    eventId: string,
    now: number,
    to: { endpointId?: string; targetUrl?: string; targetSecret?: string | null; channel?: 'push' | 'email'; subscriptionId?: string | null; message?: string },
  ): WebhookDeliveryRow {
    return {
      channel: to.channel ?? 'webhook',
      subscription_id: to.subscriptionId ?? null,
      message: to.message ?? null,
      id: newId('dlv', now),
      tenant_id: event.tenantId,
      endpoint_id: to.endpointId ?? null,
      target_url: to.targetUrl ?? null,
      target_secret: to.targetSecret ?? null,
      event_id: eventId,
      event_kind: event.kind,
      status: 'pending',
      series: 1,
      attempt_count: 0,
      first_attempt_at: null,
      next_attempt_at: now,
      lease_until: null,
      last_status_code: null,
      last_error: null,
      delivered_at: null,
      created_at: toIso(now),
      updated_at: toIso(now),
    };
  }

  private memoOf(trx: DbExecutor): TransactionMemo {
    // outside a transaction (the pool itself) nothing is remembered: it would outlive every change
    if (trx === this.deps.database.db) return { endpoints: new Map(), woken: false };
    let memo = this.perTransaction.get(trx);
    if (!memo) this.perTransaction.set(trx, (memo = { endpoints: new Map(), woken: false }));
    return memo;
  }

  private async enabledEndpoints(trx: DbExecutor, tenantId: string): Promise<EnabledEndpoints> {
    const memo = this.memoOf(trx);
    let list = memo.endpoints.get(tenantId);
    if (!list) {
      // enqueueIn runs inside a write-locked transaction (EventSink), so on SQLite the raw
      // connection is ours: a prepared statement, as on the rest of the pipeline's commit
      const read = webhookRepository.enabledEndpointsIn(this.deps.database, trx, tenantId);
      list = read instanceof Promise ? await read : read;
      memo.endpoints.set(tenantId, list);
    }
    return list;
  }

  /**
   * EventSink.prefetchIn: starts reading these tenants' enabled endpoints in `trx` without waiting
   * (on PostgreSQL the pipeline's commit sends them beside its insert); enqueueIn in the same
   * transaction then uses what was read.
   */
  prefetchIn(trx: DbExecutor, tenantIds: readonly string[]): Promise<unknown> {
    if (!sendsReadsAhead(this.deps.database) || trx === this.deps.database.db) return Promise.resolve();
    const memo = this.memoOf(trx);
    const reads: Array<Promise<EnabledEndpoints>> = [];
    for (const t of tenantIds) {
      if (memo.endpoints.has(t)) continue;
      const read = webhookRepository.listEnabledEndpoints(trx, t);
      memo.endpoints.set(t, read);
      reads.push(read);
    }
    return Promise.all(reads);
  }

  private async writeOutbox(trx: DbExecutor, event: WebhookEventInput, eventId: string, now: number, deliveries: WebhookDeliveryRow[]): Promise<void> {
    const { id: _id, event: _event, created_at: _created, ...rest } = event.payload;
    const body = JSON.stringify({ id: eventId, event: event.kind, created_at: toIso(now), ...rest });
    await webhookRepository.insertEventWithDeliveries(
      trx,
      this.deps.database.dialect,
      { id: eventId, tenant_id: event.tenantId, kind: event.kind, body, created_at: toIso(now) },
      deliveries,
    );
    // tied to this transaction where the signal can be (PostgreSQL NOTIFY goes out at commit, never
    // on rollback); in process, the worker's claim queues behind it on SQLite's single connection
    const memo = this.memoOf(trx);
    if (memo.woken) return;
    memo.woken = true;
    await this.deps.wakeSignal.wake(DELIVERY_CHANNEL, trx);
  }
}
