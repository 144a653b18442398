import type { DbExecutor, ProtocolNotificationTable, ProtocolRunTable, ProtocolTypeTable } from '../../platform/db/index.ts';

export type ProtocolRunRow = ProtocolRunTable;
export type ProtocolTypeRow = ProtocolTypeTable;
export type ProtocolNotificationRow = ProtocolNotificationTable;

/** A run that can still change: not completed, dismissed or terminated. */
export const LIVE_RUN_STATUSES = ['active', 'paused'] as const;

export const protocolRepository = {
  listTypes(db: DbExecutor, tenantId: string) {
    return db.selectFrom('protocol_types').selectAll().where('tenant_id', '=', tenantId).orderBy('id', 'asc').limit(500).execute();
  },
  findType(db: DbExecutor, tenantId: string, name: string) {
    return db.selectFrom('protocol_types').selectAll().where('tenant_id', '=', tenantId).where('name', '=', name).executeTakeFirst();
  },
  async insertType(db: DbExecutor, row: ProtocolTypeRow): Promise<void> {
    await db.insertInto('protocol_types').values(row).execute();
  },
  async insertRun(db: DbExecutor, row: ProtocolRunRow): Promise<void> {
    await db.insertInto('protocol_runs').values(row).execute();
  },
  findRunForTenant(db: DbExecutor, tenantId: string, id: string) {
    return db.selectFrom('protocol_runs').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  },
  findRun(db: DbExecutor, id: string) {
    return db.selectFrom('protocol_runs').selectAll().where('id', '=', id).executeTakeFirst();
  },
  listRunsByIncident(db: DbExecutor, incidentId: string) {
    return db.selectFrom('protocol_runs').selectAll().where('incident_id', '=', incidentId).orderBy('id', 'asc').execute();
  },
  listLiveRunsByIncident(db: DbExecutor, incidentId: string) {
    return db
      .selectFrom('protocol_runs')
      .selectAll()
      .where('incident_id', '=', incidentId)
      .where('status', 'in', [...LIVE_RUN_STATUSES])
      .execute();
  },
  /** Active runs waiting for an automatic escalation (re-armed at start). */
  listScheduled(db: DbExecutor, tenantId?: string) {
    let q = db.selectFrom('protocol_runs').selectAll().where('status', '=', 'active').where('next_escalation_at', 'is not', null);
    if (tenantId) q = q.where('tenant_id', '=', tenantId);
    return q.execute();
  },
  /** Active, unacknowledged runs of a tenant below the top level (escalation resumed org-wide). */
  listEscalatable(db: DbExecutor, tenantId: string, maxLevel: number) {
    return db
      .selectFrom('protocol_runs')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('status', '=', 'active')
      .where('acknowledged_at', 'is', null)
      .where('escalation_level', '<', maxLevel)
      .execute();
  },
  async updateRun(db: DbExecutor, id: string, patch: Partial<ProtocolRunRow>): Promise<void> {
    await db.updateTable('protocol_runs').set(patch).where('id', '=', id).execute();
  },
  listNotifiedResponderIds(db: DbExecutor, runId: string) {
    return db.selectFrom('protocol_notifications').select('responder_id').where('run_id', '=', runId).execute();
  },
  async insertNotifications(db: DbExecutor, rows: ProtocolNotificationRow[]): Promise<void> {
    if (rows.length) await db.insertInto('protocol_notifications').values(rows).execute();
  },
  /**
   * Per responder of a run: whether any of its deliveries (webhook, push, email) was delivered,
   * and whether any is still open. A responder with no delivery at all (no channel) is unreached.
   */
  async reach(db: DbExecutor, runId: string): Promise<Array<{ responder_id: string; delivered: number; open: number; total: number }>> {
    const rows = await db
      .selectFrom('protocol_notifications as n')
      .leftJoin('webhook_deliveries as d', 'd.event_id', 'n.delivery_event_id')
      .select((eb) => [
        'n.responder_id',
        eb.fn.sum<number>(eb.case().when('d.status', '=', 'delivered').then(1).else(0).end()).as('delivered'),
        eb.fn.sum<number>(eb.case().when('d.status', 'in', ['pending', 'retrying']).then(1).else(0).end()).as('open'),
        eb.fn.count<number>('d.id').as('total'),
      ])
      .where('n.run_id', '=', runId)
      .groupBy('n.responder_id')
      .execute();
    return rows.map((r) => ({ responder_id: r.responder_id, delivered: Number(r.delivered ?? 0), open: Number(r.open ?? 0), total: Number(r.total) }));
  },
  /** The runs whose responder notifications are these outbox events. */
  async runsOfEvents(db: DbExecutor, eventIds: string[]): Promise<string[]> {
    if (eventIds.length === 0) return [];
    const rows = await db.selectFrom('protocol_notifications').select('run_id').distinct().where('delivery_event_id', 'in', eventIds).execute();
    return rows.map((r) => r.run_id);
  },
  /** Each notified responder of a run with the outcome of each of its deliveries. */
  notificationsOf(db: DbExecutor, runId: string) {
    return db
      .selectFrom('protocol_notifications as n')
      .leftJoin('responders as r', 'r.id', 'n.responder_id')
      .leftJoin('webhook_deliveries as d', 'd.event_id', 'n.delivery_event_id')
      .select([
        'n.responder_id',
        'r.name',
        'n.escalation_level',
        'n.notified_at',
        'd.id as delivery_id',
        'd.channel',
        'd.status',
        'd.last_error',
        'd.last_status_code',
      ])
      .where('n.run_id', '=', runId)
      .orderBy('n.notified_at')
      .orderBy('n.responder_id')
      .execute();
  },
};
