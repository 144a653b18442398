import { type DbExecutor, type ResponderTable, type PageQuery, paginate } from '../../platform/db/index.ts';

export type ResponderRow = ResponderTable;

export const responderRepository = {
  async insert(db: DbExecutor, row: ResponderRow): Promise<void> {
    await db.insertInto('responders').values(row).execute();
  },
  findForTenant(db: DbExecutor, tenantId: string, id: string) {
    return db.selectFrom('responders').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  },
  listQuery(db: DbExecutor, tenantId: string) {
    return db.selectFrom('responders').selectAll().where('tenant_id', '=', tenantId);
  },
  listPage(db: DbExecutor, tenantId: string, f: { escalationLevel?: number }, page: PageQuery) {
    let q = this.listQuery(db, tenantId);
    if (f.escalationLevel !== undefined) q = q.where('escalation_level', '=', f.escalationLevel);
    return paginate(q, 'id', page);
  },
  /** Everyone a protocol at this level reaches ("every responder at or below the level"). */
  listAtOrBelow(db: DbExecutor, tenantId: string, level: number) {
    return db.selectFrom('responders').selectAll().where('tenant_id', '=', tenantId).where('escalation_level', '<=', level).orderBy('id', 'asc').execute();
  },
  async update(db: DbExecutor, id: string, patch: Partial<ResponderRow>): Promise<void> {
    await db.updateTable('responders').set(patch).where('id', '=', id).execute();
  },
  async delete(db: DbExecutor, id: string): Promise<void> {
    await db.deleteFrom('responders').where('id', '=', id).execute();
  },
  /** The responder's devices and addresses not yet revoked (push subscriptions and email targets). */
  liveDevices(db: DbExecutor, responderId: string) {
    return db
      .selectFrom('notification_subscriptions')
      .selectAll()
      .where('responder_id', '=', responderId)
      .where('revoked_at', 'is', null)
      .orderBy('id')
      .execute();
  },
  async revokeDevices(db: DbExecutor, responderId: string, at: string): Promise<void> {
    await db
      .updateTable('notification_subscriptions')
      .set({ revoked_at: at, revoked_reason: 'revoked' })
      .where('responder_id', '=', responderId)
      .where('revoked_at', 'is', null)
      .execute();
  },
  /**
   * Stops what is queued and not yet sent to the responder: on its devices, and every channel of
   * the outbox events that paged it (its webhook, its contact email). Returns how many were stopped
   * and the outbox events they belonged to (the protocol runs that paged it recount who was reached).
   */
  async cancelOpenDeliveries(db: DbExecutor, responderId: string, at: string): Promise<{ count: number; eventIds: string[] }> {
    const open = await db
      .selectFrom('webhook_deliveries')
      .select(['id', 'event_id'])
      .where('status', 'in', ['pending', 'retrying'])
      .where((eb) =>
        eb.or([
          eb('subscription_id', 'in', eb.selectFrom('notification_subscriptions').select('id').where('responder_id', '=', responderId)),
          eb('event_id', 'in', eb.selectFrom('protocol_notifications').select('delivery_event_id').where('responder_id', '=', responderId)),
        ]),
      )
      .execute();
    if (open.length === 0) return { count: 0, eventIds: [] };
    const result = await db
      .updateTable('webhook_deliveries')
      .set({ status: 'cancelled', next_attempt_at: null, lease_until: null, updated_at: at })
      .where(
        'id',
        'in',
        open.map((d) => d.id),
      )
      .where('status', 'in', ['pending', 'retrying'])
      .executeTakeFirst();
    return { count: Number(result.numUpdatedRows), eventIds: [...new Set(open.map((d) => d.event_id))] };
  },
};
