import { sql } from 'kysely';
import { type DbExecutor, type HouseholdEventTable, type PageQuery, paginate } from '../../platform/db/index.ts';

export type EventRow = HouseholdEventTable;

/**
 * A source hidden from event listings: from `since` on (a muted sensor: what it saw before stays),
 * or entirely when `since` is null (a place left alone: nothing about it is readable).
 */
export interface HiddenSource {
  sensorId: string;
  since: string | null;
}

export interface EventFilter {
  watchId?: string;
  kind?: string;
  types?: string[];
  since?: string;
  sensorIds?: string[];
  hidden: HiddenSource[];
}

export const eventRepository = {
  async insert(db: DbExecutor, row: EventRow): Promise<void> {
    await db.insertInto('household_events').values(row).execute();
  },
  listQuery(db: DbExecutor, tenantId: string, f: EventFilter) {
    let q = db.selectFrom('household_events').selectAll().where('tenant_id', '=', tenantId);
    if (f.watchId) q = q.where('watch_id', '=', f.watchId);
    if (f.kind) q = q.where('kind', '=', f.kind);
    if (f.types) q = f.types.length ? q.where('type', 'in', f.types) : q.where(sql<boolean>`1 = 0`);
    if (f.since) q = q.where('occurred_at', '>=', f.since);
    if (f.sensorIds) q = f.sensorIds.length ? q.where('sensor_id', 'in', f.sensorIds) : q.where(sql<boolean>`1 = 0`);
    const always = f.hidden.filter((h) => h.since === null).map((h) => h.sensorId);
    if (always.length) q = q.where((eb) => eb.or([eb('sensor_id', 'is', null), eb('sensor_id', 'not in', always)]));
    for (const h of f.hidden) {
      if (h.since !== null) q = q.where((eb) => eb.or([eb('sensor_id', 'is', null), eb('sensor_id', '!=', h.sensorId), eb('occurred_at', '<', h.since!)]));
    }
    return q;
  },
  /** A page of a household's events matching the filter (docs/design.md "Lists"). */
  listPage(db: DbExecutor, tenantId: string, f: EventFilter, page: PageQuery) {
    return paginate(this.listQuery(db, tenantId, f), 'id', page);
  },
  /**
   * Ids of the outbox events about a household's events from these sensors: each event's own
   * (its webhook event shares the id) and those of its visit's updates.
   */
  idsFromSensors(db: DbExecutor, tenantId: string, sensorIds: string[]) {
    return db
      .selectFrom('household_events')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('sensor_id', 'in', sensorIds)
      .unionAll(
        db
          .selectFrom('household_event_updates as u')
          .innerJoin('household_events as e', 'e.id', 'u.event_id')
          .select('u.id')
          .where('e.tenant_id', '=', tenantId)
          .where('e.sensor_id', 'in', sensorIds),
      );
  },
  /** The latest event of one visit key of a watch (the visit that may still be open). */
  async latestOfVisit(db: DbExecutor, tenantId: string, watchId: string, visitKey: string): Promise<EventRow | undefined> {
    const row = await db
      .selectFrom('household_events')
      .selectAll()
      .where('watch_id', '=', watchId)
      .where('visit_key', '=', visitKey)
      .where('tenant_id', '=', tenantId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? { ...row, pushed_at: row.pushed_at === null ? null : Number(row.pushed_at) } : undefined;
  },
  async updateVisit(
    db: DbExecutor,
    id: string,
    patch: Pick<EventRow, 'visit_count' | 'last_seen_at'> & Partial<Pick<EventRow, 'pushed_at' | 'pushed_count'>>,
  ): Promise<void> {
    await db.updateTable('household_events').set(patch).where('id', '=', id).execute();
  },
  async insertUpdate(db: DbExecutor, row: { id: string; tenant_id: string; event_id: string; created_at: string }): Promise<void> {
    await db.insertInto('household_event_updates').values(row).execute();
  },
};
