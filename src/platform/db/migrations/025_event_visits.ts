import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * Watch events grouped per visit (docs/decisions.md, "Watch events: one per visit"):
 *
 * - `household_events.visit_key`: what one visit of a watch shares (kind, type, sensor, the
 *   recognized person); null for changes. With `watch_id` it finds the visit still open.
 * - `visit_count` / `last_seen_at`: how many observations the event stands for and when the last
 *   one was seen (`occurred_at` is the first).
 * - `pushed_at` / `pushed_count`: when the last webhook event about it was enqueued (epoch ms,
 *   detection time) and the count it carried, so an update goes out at most once a minute.
 * - `household_event_updates`: the outbox event of each update, with the event it updates, so a
 *   boundary withdraws and hides updates exactly as it does the first delivery.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const bigint = sql.raw(dialect === 'postgres' ? 'bigint' : 'integer');
  await db.schema.alterTable('household_events').addColumn('visit_key', 'text').execute();
  await db.schema
    .alterTable('household_events')
    .addColumn('visit_count', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('household_events').addColumn('last_seen_at', 'text').execute();
  await db.schema.alterTable('household_events').addColumn('pushed_at', bigint).execute();
  await db.schema
    .alterTable('household_events')
    .addColumn('pushed_count', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('household_events_visit').on('household_events').columns(['watch_id', 'visit_key', 'id']).execute();
  await db.schema
    .createTable('household_event_updates')
    .addColumn('id', 'text', (c) => c.primaryKey()) // the update's outbox event (evt_…)
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull()) // the household event it updates
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('household_event_updates_event').on('household_event_updates').columns(['event_id']).execute();
}
