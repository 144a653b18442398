import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * Surface A, the household agent: rooms and sensor metadata over the household's
 * streams, boundaries, watches, the household event log and conversations. Timestamps are ISO
 * text and booleans 0/1 integers on both dialects; `window` is a reserved word in PostgreSQL, so
 * the watch's window in words is `window_text`.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await createRoomsAndSensors(db);
  await createBoundaries(db);
  await createWatches(db);
  await createHouseholdEvents(db);
  await createConversations(db);
}

/** Rooms and the sensor metadata over the household's streams. */
async function createRoomsAndSensors(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('household_rooms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('household_rooms_tenant_location', ['tenant_id', 'location'])
    .execute();

  await db.schema
    .createTable('household_sensors')
    .addColumn('stream_id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('room_id', 'text', (c) => c.notNull().references('household_rooms.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('muted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('muted_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('household_sensors_tenant').on('household_sensors').columns(['tenant_id']).execute();
}

/** Boundaries: set and cleared, on a room or a sensor. */
async function createBoundaries(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('household_boundaries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('room_id', 'text')
    .addColumn('sensor_id', 'text')
    .addColumn('set_at', 'text', (c) => c.notNull())
    .addColumn('set_by_key_id', 'text')
    .addColumn('cleared_at', 'text')
    .addColumn('cleared_by_key_id', 'text')
    .execute();
  await db.schema.createIndex('household_boundaries_tenant').on('household_boundaries').columns(['tenant_id', 'cleared_at']).execute();
}

/** Watches. */
async function createWatches(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('watches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('sensor_ids', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text', (c) => c.notNull())
    .addColumn('recurrence', 'text', (c) => c.notNull())
    .addColumn('window_text', 'text', (c) => c.notNull())
    .addColumn('conditions', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text')
    .addColumn('created_by_key_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('stood_down_at', 'text')
    .execute();
  await db.schema.createIndex('watches_tenant_status').on('watches').columns(['tenant_id', 'status', 'id']).execute();
}

/** The household event log. */
async function createHouseholdEvents(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('household_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('watch_id', 'text')
    .addColumn('sensor_id', 'text')
    .addColumn('room', 'text')
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('detection', 'text')
    .addColumn('data', 'text')
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('household_events_tenant_id').on('household_events').columns(['tenant_id', 'id']).execute();
  await db.schema.createIndex('household_events_watch').on('household_events').columns(['watch_id', 'id']).execute();
}

/** Conversations and their turns. */
async function createConversations(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('created_by_key_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('turn_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('conversations_tenant_id').on('conversations').columns(['tenant_id', 'id']).execute();

  await db.schema
    .createTable('conversation_turns')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.id'))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('key_id', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('reply', 'text', (c) => c.notNull())
    .addColumn('actions', 'text', (c) => c.notNull())
    .addColumn('planner', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addUniqueConstraint('conversation_turns_seq', ['conversation_id', 'seq'])
    .execute();
}
