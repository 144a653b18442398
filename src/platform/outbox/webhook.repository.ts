import type BetterSqlite3 from 'better-sqlite3';
import { sql, type SelectQueryBuilder } from 'kysely';
import {
  type DatabaseHandle,
  type DbExecutor,
  type Dialect,
  writeAtomically,
  paginate,
  paginateRows,
  type PageQuery,
  type Database,
  type WebhookAttemptTable,
  type WebhookDeliveryTable,
  type WebhookEndpointTable,
  type WebhookEventTable,
} from '../db/index.ts';

export type WebhookEndpointRow = WebhookEndpointTable;
export type WebhookEventRow = WebhookEventTable;
export type WebhookDeliveryRow = WebhookDeliveryTable;
export type WebhookAttemptRow = Omit<WebhookAttemptTable, 'seq'> & { seq: number };

/** Ids of events a reader may not see: a subquery selecting `id` (household events about a place left alone). */
export type HiddenEventIds = SelectQueryBuilder<Database, 'household_events', { id: string }>;

const enabledEndpointStatements = new WeakMap<BetterSqlite3.Database, BetterSqlite3.Statement>();

/** Statuses the worker still has to send. */
export const OPEN_STATUSES = ['pending', 'retrying'] as const;

/** A delivery joined with what sending it needs. */
export interface DeliveryToSend {
  id: string;
  series: number;
  attempt_count: number;
  first_attempt_at: number | null;
  event_id: string;
  event_kind: string;
  body: string;
  endpoint_id: string | null;
  target_url: string | null;
  target_secret: string | null;
  url: string | null;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  enabled: number | null;
  deleted_at: string | null;
  tenant_id: string;
  channel: 'webhook' | 'push' | 'email';
  subscription_id: string | null;
  message: string | null;
  /** push: the subscription's endpoint and keys, read now (a revoked one is not sent to) */
  push_endpoint: string | null;
  p256dh: string | null;
  auth: string | null;
  subscription_revoked_at: string | null;
  /** the key that owns the subscription was revoked: its devices stop at once */
  key_revoked_at: string | null;
}

/** What an attempt moves a delivery on to (the worker's record of one send). */
export type AttemptPatch = Pick<
  WebhookDeliveryRow,
  'status' | 'attempt_count' | 'first_attempt_at' | 'next_attempt_at' | 'last_status_code' | 'last_error' | 'delivered_at' | 'updated_at'
>;

export interface RecordedAttempt {
  attempt: Omit<WebhookAttemptRow, 'seq'>;
  patch: AttemptPatch;
}

const ATTEMPT_COLUMNS = ['delivery_id', 'series', 'attempt', 'started_at', 'url', 'status_code', 'duration_ms', 'error', 'outcome', 'next_attempt_at'] as const;
const ATTEMPT_TYPES = ['text', 'integer', 'integer', 'text', 'text', 'integer', 'integer', 'text', 'text', 'text'];
const PATCH_COLUMNS = [
  'status',
  'attempt_count',
  'first_attempt_at',
  'next_attempt_at',
  'last_status_code',
  'last_error',
  'delivered_at',
  'updated_at',
] as const;
const PATCH_TYPES = ['text', 'integer', 'bigint', 'bigint', 'integer', 'text', 'text', 'text'];

/** Queries only (docs/architecture.md, "Rules that keep it so"). */
export const webhookRepository = {
  async insertEndpoint(db: DbExecutor, row: WebhookEndpointRow): Promise<void> {
    await db.insertInto('webhook_endpoints').values(row).execute();
  },

  async findEndpoint(db: DbExecutor, tenantId: string, id: string): Promise<WebhookEndpointRow | undefined> {
    return db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  },

  listEndpointsQuery(db: DbExecutor, tenantId: string) {
    return db.selectFrom('webhook_endpoints').selectAll().where('tenant_id', '=', tenantId).where('deleted_at', 'is', null);
  },

  /**
   * A page of a tenant's live endpoints. With `visible`, only those rows (visibility decided in
   * code, for a location-restricted key): a tenant has few endpoints, so they are paged in memory.
   */
  async listEndpointsPage(db: DbExecutor, tenantId: string, page: PageQuery, visible?: (row: WebhookEndpointRow) => boolean) {
    const q = this.listEndpointsQuery(db, tenantId);
    if (!visible) return paginate(q, 'id', page);
    return paginateRows((await q.orderBy('id', 'desc').execute()).filter(visible), page);
  },

  async updateEndpoint(db: DbExecutor, id: string, patch: Partial<WebhookEndpointRow>): Promise<void> {
    await db.updateTable('webhook_endpoints').set(patch).where('id', '=', id).execute();
  },

  /** Enabled, live endpoints of a tenant (subscription filtering happens in the caller on the JSON list). */
  async listEnabledEndpoints(db: DbExecutor, tenantId: string): Promise<Pick<WebhookEndpointRow, 'id' | 'events' | 'locations'>[]> {
    return db
      .selectFrom('webhook_endpoints')
      .select(['id', 'events', 'locations'])
      .where('tenant_id', '=', tenantId)
      .where('enabled', '=', 1)
      .where('deleted_at', 'is', null)
      .execute();
  },

  /** listEnabledEndpoints as a prepared statement on SQLite's raw connection (inside the write lock: the pipeline's commit). */
  /**
   * listEnabledEndpoints in `trx`: inside a write-locked transaction on SQLite the raw connection is
   * ours, so a prepared statement answers at once (as on the rest of the pipeline's commit);
   * otherwise the query.
   */
  enabledEndpointsIn(
    database: DatabaseHandle,
    trx: DbExecutor,
    tenantId: string,
  ): Pick<WebhookEndpointRow, 'id' | 'events' | 'locations'>[] | Promise<Pick<WebhookEndpointRow, 'id' | 'events' | 'locations'>[]> {
    return database.sqlite && trx !== database.db ? this.listEnabledEndpointsSqlite(database.sqlite, tenantId) : this.listEnabledEndpoints(trx, tenantId);
  },
  listEnabledEndpointsSqlite(raw: BetterSqlite3.Database, tenantId: string): Pick<WebhookEndpointRow, 'id' | 'events' | 'locations'>[] {
    let st = enabledEndpointStatements.get(raw);
    if (!st) {
      st = raw.prepare('SELECT id, events, locations FROM webhook_endpoints WHERE tenant_id = ? AND enabled = 1 AND deleted_at IS NULL');
      enabledEndpointStatements.set(raw, st);
    }
    return st.all(tenantId) as Pick<WebhookEndpointRow, 'id' | 'events' | 'locations'>[];
  },

  /**
   * An event and its deliveries: on PostgreSQL in one statement (the event inserted in a
   * data-modifying CTE; the deliveries' foreign key is checked at the end of the statement, when
   * the event row exists), one round trip per event instead of two; on SQLite two inserts.
   */
  async insertEventWithDeliveries(db: DbExecutor, dialect: Dialect, event: WebhookEventRow, deliveries: WebhookDeliveryRow[]): Promise<void> {
    if (dialect !== 'postgres' || deliveries.length === 0) {
      await this.insertEvent(db, event);
      await this.insertDeliveries(db, deliveries);
      return;
    }
    await db
      .with('event', (q) => q.insertInto('webhook_events').values(event))
      .insertInto('webhook_deliveries')
      .values(deliveries)
      .execute();
  },

  async insertEvent(db: DbExecutor, row: WebhookEventRow): Promise<void> {
    await db.insertInto('webhook_events').values(row).execute();
  },

  async insertDeliveries(db: DbExecutor, rows: WebhookDeliveryRow[]): Promise<void> {
    if (rows.length) await db.insertInto('webhook_deliveries').values(rows).execute();
  },

  /** Stops the open deliveries of an endpoint that was disabled or deleted. */
  async cancelOpenDeliveries(db: DbExecutor, endpointId: string, updatedAt: string): Promise<void> {
    await db
      .updateTable('webhook_deliveries')
      .set({ status: 'cancelled', next_attempt_at: null, lease_until: null, updated_at: updatedAt })
      .where('endpoint_id', '=', endpointId)
      .where('status', 'in', OPEN_STATUSES)
      .execute();
  },

  /**
   * Stops the open deliveries of some events (a household boundary withdraws what was queued
   * about the place). `eventIds` is a subquery or a list.
   */
  async cancelOpenDeliveriesOfEvents(db: DbExecutor, tenantId: string, eventIds: HiddenEventIds, updatedAt: string): Promise<void> {
    await db
      .updateTable('webhook_deliveries')
      .set({ status: 'cancelled', next_attempt_at: null, lease_until: null, updated_at: updatedAt })
      .where('tenant_id', '=', tenantId)
      .where('status', 'in', OPEN_STATUSES)
      .where('event_id', 'in', eventIds)
      .execute();
  },

  async isDeliveryOfEvents(db: DbExecutor, deliveryId: string, eventIds: HiddenEventIds): Promise<boolean> {
    const row = await db.selectFrom('webhook_deliveries').select('id').where('id', '=', deliveryId).where('event_id', 'in', eventIds).executeTakeFirst();
    return row !== undefined;
  },

  listDeliveriesQuery(db: DbExecutor, endpointId: string) {
    return db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
      .selectAll('webhook_deliveries')
      .select('webhook_events.body')
      .where('webhook_deliveries.endpoint_id', '=', endpointId);
  },

  /** A page of an endpoint's deliveries with their event bodies, without the hidden events' ones. */
  listDeliveriesPage(db: DbExecutor, endpointId: string, f: { hidden?: HiddenEventIds | null; status?: WebhookDeliveryRow['status'] }, page: PageQuery) {
    let q = this.listDeliveriesQuery(db, endpointId);
    if (f.hidden) q = q.where('webhook_deliveries.event_id', 'not in', f.hidden);
    if (f.status) q = q.where('webhook_deliveries.status', '=', f.status);
    return paginate(q, 'webhook_deliveries.id', page);
  },

  /** One delivery of an endpoint with its event body. */
  findDeliveryWithBody(db: DbExecutor, endpointId: string, id: string) {
    return this.listDeliveriesQuery(db, endpointId).where('webhook_deliveries.id', '=', id).executeTakeFirst();
  },

  async findDelivery(db: DbExecutor, endpointId: string, id: string): Promise<WebhookDeliveryRow | undefined> {
    return db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).where('id', '=', id).executeTakeFirst();
  },

  async findDeliveryById(db: DbExecutor, id: string): Promise<WebhookDeliveryRow | undefined> {
    return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async attemptsOf(db: DbExecutor, deliveryIds: string[]): Promise<WebhookAttemptRow[]> {
    if (deliveryIds.length === 0) return [];
    return db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('seq', 'asc').execute();
  },

  /** Starts a new attempt series now (manual redelivery): fresh 24 h window, no lease. */
  async restartDelivery(db: DbExecutor, id: string, now: number, updatedAt: string): Promise<void> {
    await db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: 'pending',
        series: eb('series', '+', 1),
        attempt_count: 0,
        first_attempt_at: null,
        next_attempt_at: now,
        lease_until: null,
        updated_at: updatedAt,
      }))
      .where('id', '=', id)
      .execute();
  },

  /**
   * Claims up to `limit` due deliveries by leasing them. PostgreSQL: `FOR UPDATE SKIP LOCKED` so
   * several nodes claim disjoint rows, in one statement (no transaction needed); SQLite: under the
   * database write lock.
   */
  async claimDue(
    database: DatabaseHandle,
    opts: { now: number; leaseUntil: number; limit: number; exclude: string[] },
  ): Promise<Array<{ id: string; series: number }>> {
    return writeAtomically(database, async (db, postgres) => {
      let due = db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', 'in', OPEN_STATUSES)
        .where('next_attempt_at', '<=', opts.now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', opts.now)]))
        .orderBy('next_attempt_at', 'asc')
        .limit(opts.limit);
      if (opts.exclude.length) due = due.where('id', 'not in', opts.exclude);
      if (postgres) {
        // one statement: the queue idiom UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED)
        return db
          .updateTable('webhook_deliveries')
          .set({ lease_until: opts.leaseUntil })
          .where('id', 'in', due.forUpdate().skipLocked())
          .returning(['id', 'series'])
          .execute();
      }
      const ids = (await due.execute()).map((r) => r.id);
      if (ids.length === 0) return [];
      return db.updateTable('webhook_deliveries').set({ lease_until: opts.leaseUntil }).where('id', 'in', ids).returning(['id', 'series']).execute();
    });
  },

  async loadForSending(db: DbExecutor, ids: string[]): Promise<DeliveryToSend[]> {
    if (ids.length === 0) return [];
    return db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .leftJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
      .leftJoin('notification_subscriptions as s', 's.id', 'd.subscription_id')
      .leftJoin('api_keys as k', 'k.id', 's.key_id')
      .select([
        'd.id',
        'd.series',
        'd.attempt_count',
        'd.first_attempt_at',
        'd.event_id',
        'd.event_kind',
        'e.body',
        'd.endpoint_id',
        'd.target_url',
        'd.target_secret',
        'w.url',
        'w.secret',
        'w.previous_secret',
        'w.previous_secret_expires_at',
        'w.enabled',
        'w.deleted_at',
        'd.tenant_id',
        'd.channel',
        'd.subscription_id',
        'd.message',
        's.endpoint as push_endpoint',
        's.p256dh',
        's.auth',
        's.revoked_at as subscription_revoked_at',
        'k.revoked_at as key_revoked_at',
      ])
      .where('d.id', 'in', ids)
      .execute();
  },

  /** Earliest instant an open delivery falls due (for the worker's timer). */
  async nextDueAt(db: DbExecutor, exclude: string[]): Promise<number | null> {
    let q = db
      .selectFrom('webhook_deliveries')
      // a row leased by another worker falls due again only when its lease runs out
      .select(sql<number | null>`min(case when lease_until is not null and lease_until > next_attempt_at then lease_until else next_attempt_at end)`.as('next'))
      .where('status', 'in', OPEN_STATUSES);
    if (exclude.length) q = q.where('id', 'not in', exclude);
    const row = await q.executeTakeFirst();
    return row?.next == null ? null : Number(row.next);
  },

  /**
   * Logs an attempt and moves the delivery on, unless it was restarted meanwhile (series changed;
   * the attempt is still logged). PostgreSQL: one statement with a data-modifying CTE; SQLite: two,
   * under the database write lock.
   */
  async recordAttempt(database: DatabaseHandle, attempt: Omit<WebhookAttemptRow, 'seq'>, patch: Partial<WebhookDeliveryRow>): Promise<void> {
    const set = { ...patch, lease_until: null };
    await writeAtomically(database, async (db, postgres) => {
      if (postgres) {
        await db
          .with('logged', (q) => q.insertInto('webhook_attempts').values(attempt))
          .updateTable('webhook_deliveries')
          .set(set)
          .where('id', '=', attempt.delivery_id)
          .where('series', '=', attempt.series)
          .execute();
        return;
      }
      await db.insertInto('webhook_attempts').values(attempt).execute();
      await db.updateTable('webhook_deliveries').set(set).where('id', '=', attempt.delivery_id).where('series', '=', attempt.series).execute();
    });
  },

  /**
   * recordAttempt for many sends at once (the worker records the sends that finished together):
   * PostgreSQL one statement (attempts inserted from unnest() in a data-modifying CTE,
   * deliveries updated FROM unnest()), SQLite one transaction. A delivery restarted meanwhile (series
   * changed) keeps its state; its attempt is still logged.
   */
  async recordAttempts(database: DatabaseHandle, items: RecordedAttempt[]): Promise<void> {
    if (items.length === 0) return;
    if (database.dialect === 'postgres') {
      const attempts = ATTEMPT_COLUMNS.map((c, i) => sql`${items.map((it) => it.attempt[c] ?? null)}::${sql.raw(ATTEMPT_TYPES[i])}[]`);
      const patches = PATCH_COLUMNS.map((c, i) => sql`${items.map((it) => it.patch[c] ?? null)}::${sql.raw(PATCH_TYPES[i])}[]`);
      await sql`
        WITH logged AS (
          INSERT INTO webhook_attempts (${sql.raw(ATTEMPT_COLUMNS.join(', '))})
          SELECT * FROM unnest(${sql.join(attempts)})
        )
        UPDATE webhook_deliveries AS d
        SET ${sql.raw(PATCH_COLUMNS.map((c) => `${c} = u.${c}`).join(', '))}, lease_until = NULL
        FROM unnest(${items.map((it) => it.attempt.delivery_id)}::text[], ${items.map((it) => it.attempt.series)}::integer[], ${sql.join(patches)})
          AS u(id, series, ${sql.raw(PATCH_COLUMNS.join(', '))})
        WHERE d.id = u.id AND d.series = u.series`.execute(database.db);
      return;
    }
    await database.withWriteLock(async (db) => {
      for (const { attempt, patch } of items) {
        await db.insertInto('webhook_attempts').values(attempt).execute();
        await db
          .updateTable('webhook_deliveries')
          .set({ ...patch, lease_until: null })
          .where('id', '=', attempt.delivery_id)
          .where('series', '=', attempt.series)
          .execute();
      }
    });
  },

  /** A push service answered 404/410: the subscription is gone; it is never sent to again. */
  async markSubscriptionGone(database: DatabaseHandle, subscriptionId: string, at: string): Promise<void> {
    await writeAtomically(database, (db) =>
      db
        .updateTable('notification_subscriptions')
        .set({ revoked_at: at, revoked_reason: 'gone' })
        .where('id', '=', subscriptionId)
        .where('revoked_at', 'is', null)
        .execute(),
    );
  },

  /** Gives claimed deliveries back unsent (the worker stopped before starting them). */
  async releaseLeases(database: DatabaseHandle, claims: Array<{ id: string; series: number }>): Promise<void> {
    await writeAtomically(database, async (db) => {
      for (const c of claims)
        await db.updateTable('webhook_deliveries').set({ lease_until: null }).where('id', '=', c.id).where('series', '=', c.series).execute();
    });
  },

  /** Ends a delivery without an attempt (its endpoint was disabled or deleted after it was queued). */
  async cancelDelivery(database: DatabaseHandle, id: string, series: number, updatedAt: string): Promise<void> {
    await writeAtomically(database, (db) =>
      db
        .updateTable('webhook_deliveries')
        .set({ status: 'cancelled', next_attempt_at: null, lease_until: null, updated_at: updatedAt })
        .where('id', '=', id)
        .where('series', '=', series)
        .execute(),
    );
  },
};
