import {
  type DbExecutor,
  type Dialect,
  type NotificationPreferenceTable,
  type NotificationSubscriptionTable,
  type NotificationThrottleTable,
  paginate,
  type PageQuery,
} from '../db/index.ts';

export type SubscriptionRow = NotificationSubscriptionTable;
export type PreferenceRow = NotificationPreferenceTable;
export type ThrottleRow = NotificationThrottleTable;

/** A subscription as routing sees it: with what its key may read. */
export interface RoutableSubscription {
  id: string;
  key_id: string | null;
  channel: 'push' | 'email';
  address: string | null;
  events: string;
  capabilities: string | null;
  locations: string | null;
}

/** Queries only (docs/architecture.md, "Rules that keep it so"). */
export const notificationRepository = {
  async insertSubscription(db: DbExecutor, row: SubscriptionRow): Promise<void> {
    await db.insertInto('notification_subscriptions').values(row).execute();
  },
  findSubscription(db: DbExecutor, tenantId: string, id: string) {
    return db.selectFrom('notification_subscriptions').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  },
  /** A live subscription of the same key (or responder) to the same endpoint or address: subscribing again returns it. */
  findSame(db: DbExecutor, tenantId: string, owner: { keyId: string | null; responderId: string | null }, channel: string, target: string) {
    let q = db
      .selectFrom('notification_subscriptions')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('channel', '=', channel as 'push')
      .where('revoked_at', 'is', null)
      .where(channel === 'push' ? 'endpoint' : 'address', '=', target);
    q = owner.responderId ? q.where('responder_id', '=', owner.responderId) : q.where('key_id', '=', owner.keyId).where('responder_id', 'is', null);
    return q.executeTakeFirst();
  },
  listPage(db: DbExecutor, tenantId: string, owner: { keyId?: string; responderId?: string }, page: PageQuery) {
    let q = db.selectFrom('notification_subscriptions').selectAll().where('tenant_id', '=', tenantId);
    q = owner.responderId ? q.where('responder_id', '=', owner.responderId) : q.where('key_id', '=', owner.keyId!).where('responder_id', 'is', null);
    return paginate(q, 'id', page);
  },
  async revoke(db: DbExecutor, id: string, at: string): Promise<void> {
    await db
      .updateTable('notification_subscriptions')
      .set({ revoked_at: at, revoked_reason: 'revoked' })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  },
  /** Stops what was queued for a subscription and not yet sent (revoked: nothing more reaches the device). */
  /** Cancels what is queued for the subscription; returns the outbox events those deliveries belonged to. */
  async cancelOpenDeliveries(db: DbExecutor, subscriptionId: string, at: string): Promise<string[]> {
    const open = await db
      .selectFrom('webhook_deliveries')
      .select('event_id')
      .where('subscription_id', '=', subscriptionId)
      .where('status', 'in', ['pending', 'retrying'])
      .execute();
    if (open.length === 0) return [];
    await db
      .updateTable('webhook_deliveries')
      .set({ status: 'cancelled', next_attempt_at: null, lease_until: null, updated_at: at })
      .where('subscription_id', '=', subscriptionId)
      .where('status', 'in', ['pending', 'retrying'])
      .execute();
    return [...new Set(open.map((d) => d.event_id))];
  },
  /** The live subscriptions of keys (not responders) of a tenant whose key is not revoked, with what the key may read. */
  routable(db: DbExecutor, tenantId: string): Promise<RoutableSubscription[]> {
    return db
      .selectFrom('notification_subscriptions as s')
      .innerJoin('api_keys as k', 'k.id', 's.key_id')
      .select(['s.id', 's.key_id', 's.channel', 's.address', 's.events', 'k.capabilities', 'k.locations'])
      .where('s.tenant_id', '=', tenantId)
      .where('s.revoked_at', 'is', null)
      .where('s.responder_id', 'is', null)
      .where('k.revoked_at', 'is', null)
      .orderBy('s.id')
      .execute();
  },
  /** A responder's live push subscriptions. */
  responderDevices(db: DbExecutor, responderId: string) {
    return db
      .selectFrom('notification_subscriptions')
      .select(['id', 'channel', 'address'])
      .where('responder_id', '=', responderId)
      .where('revoked_at', 'is', null)
      .orderBy('id')
      .execute();
  },
  preferences(db: DbExecutor, tenantId: string): Promise<PreferenceRow[]> {
    return db.selectFrom('notification_preferences').selectAll().where('tenant_id', '=', tenantId).execute();
  },
  async upsertPreferences(db: DbExecutor, row: PreferenceRow): Promise<void> {
    await db
      .insertInto('notification_preferences')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'key_id']).doUpdateSet({ quiet_hours: row.quiet_hours, exclude: row.exclude, paused: row.paused, updated_at: row.updated_at }),
      )
      .execute();
  },
  async tenantSettings(db: DbExecutor, tenantId: string): Promise<string | null> {
    return (await db.selectFrom('tenants').select('settings').where('id', '=', tenantId).executeTakeFirst())?.settings ?? null;
  },
  /** The tag's grouping row, locked for this transaction on PostgreSQL (two nodes see one visit). */
  async lockThrottle(db: DbExecutor, dialect: Dialect, tenantId: string, tag: string): Promise<ThrottleRow | undefined> {
    const q = db.selectFrom('notification_throttle').selectAll().where('tenant_id', '=', tenantId).where('tag', '=', tag);
    const row = await (dialect === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
    return row
      ? { ...row, visit_started_at: Number(row.visit_started_at), last_event_at: Number(row.last_event_at), last_sent_at: Number(row.last_sent_at) }
      : undefined;
  },
  async saveThrottle(db: DbExecutor, row: ThrottleRow): Promise<void> {
    const { tenant_id: _t, tag: _g, ...rest } = row;
    await db
      .insertInto('notification_throttle')
      .values(row)
      .onConflict((oc) => oc.columns(['tenant_id', 'tag']).doUpdateSet(rest))
      .execute();
  },
  deliveriesQuery(db: DbExecutor, subscriptionId: string) {
    return db.selectFrom('webhook_deliveries').selectAll().where('subscription_id', '=', subscriptionId);
  },
  listDeliveriesPage(db: DbExecutor, subscriptionId: string, page: PageQuery) {
    return paginate(this.deliveriesQuery(db, subscriptionId), 'id', page);
  },
  findDelivery(db: DbExecutor, subscriptionId: string, id: string) {
    return this.deliveriesQuery(db, subscriptionId).where('id', '=', id).executeTakeFirst();
  },
  attemptsOf(db: DbExecutor, ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', ids).orderBy('seq', 'asc').execute();
  },
  async restartDelivery(db: DbExecutor, id: string, now: number, at: string): Promise<void> {
    await db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: 'pending',
        series: eb('series', '+', 1),
        attempt_count: 0,
        first_attempt_at: null,
        next_attempt_at: now,
        lease_until: null,
        updated_at: at,
      }))
      .where('id', '=', id)
      .execute();
  },
};
