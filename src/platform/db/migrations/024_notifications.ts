import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * Notifications that reach people (docs/decisions.md, "Notifications through the outbox"):
 *
 * - `notification_subscriptions`: a key's devices (Web Push subscriptions) and addresses (email),
 *   or a responder's devices; each delivery reads its row when it is sent, so a revoked
 *   subscription or key stops at once.
 * - `notification_preferences`: quiet hours and exclusions per key (a person), or for the whole
 *   tenant (`key_id` = '*').
 * - `notification_throttle`: per tenant and tag (one watch, one incident): the visit being grouped,
 *   how many events it holds and when a notification last went out, so a burst becomes one
 *   notification a minute at most (cluster-wide: the row is claimed in the event's transaction).
 * - `webhook_deliveries.channel` / `subscription_id` / `message`: the outbox carries push and email
 *   deliveries beside webhooks, with the same retries, attempt log and redelivery.
 * - `protocol_runs.responders_unreached`: responders whose every channel failed.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const bigint = sql.raw(dialect === 'postgres' ? 'bigint' : 'integer');
  await db.schema
    .createTable('notification_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('key_id', 'text')
    .addColumn('responder_id', 'text')
    .addColumn('channel', 'text', (c) => c.notNull()) // push | email
    .addColumn('endpoint', 'text')
    .addColumn('p256dh', 'text')
    .addColumn('auth', 'text')
    .addColumn('address', 'text')
    .addColumn('label', 'text')
    .addColumn('events', 'text', (c) => c.notNull()) // JSON string[]
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('revoked_reason', 'text') // revoked | gone
    .execute();
  await db.schema.createIndex('notification_subscriptions_tenant').on('notification_subscriptions').columns(['tenant_id', 'id']).execute();
  await db.schema.createIndex('notification_subscriptions_key').on('notification_subscriptions').columns(['key_id']).execute();
  await db.schema.createIndex('notification_subscriptions_responder').on('notification_subscriptions').columns(['responder_id']).execute();

  await db.schema
    .createTable('notification_preferences')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('key_id', 'text', (c) => c.notNull()) // '*' = the whole tenant
    .addColumn('quiet_hours', 'text') // JSON {from, to} | null
    .addColumn('exclude', 'text', (c) => c.notNull()) // JSON {rooms, sensors, watches}
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_preferences_pk', ['tenant_id', 'key_id'])
    .execute();

  await db.schema
    .createTable('notification_throttle')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('tag', 'text', (c) => c.notNull())
    .addColumn('visit_started_at', bigint, (c) => c.notNull())
    .addColumn('last_event_at', bigint, (c) => c.notNull())
    .addColumn('last_sent_at', bigint, (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('severity', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_throttle_pk', ['tenant_id', 'tag'])
    .execute();

  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('channel', 'text', (c) => c.notNull().defaultTo('webhook'))
    .execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('subscription_id', 'text').execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('message', 'text').execute();
  await db.schema.createIndex('webhook_deliveries_subscription').on('webhook_deliveries').columns(['subscription_id', 'id']).execute();
  await db.schema
    .alterTable('protocol_runs')
    .addColumn('responders_unreached', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
