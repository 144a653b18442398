import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/** Foundation tables: tenants, keys, streams, scenes, detections, the audit chain, idempotency. */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
  const real = dialect === 'postgres' ? 'double precision' : 'real';

  await createTenantsAndKeys(db);
  await createScenesAndStreams(db, real);
  await createDetections(db, real, bigint);
  await createAuditLog(db, dialect);
  await createIdempotencyKeys(db);
}

/** Tenants and their API keys. */
async function createTenantsAndKeys(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tenants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('tenants_kind_name', ['kind', 'name'])
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('tenant_kind', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('preview', 'text', (c) => c.notNull())
    .addColumn('capabilities', 'text', (c) => c.notNull())
    .addColumn('locations', 'text')
    .addColumn('rate_limit_per_minute', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
}

/** Scenes (a location's live counts) and the streams that feed them. */
async function createScenesAndStreams(db: Kysely<any>, real: string): Promise<void> {
  await db.schema
    .createTable('scenes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('people', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('vehicles', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('crowd_density', sql.raw(real), (c) => c.notNull().defaultTo(0))
    .addColumn('active_anomalies', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_detection_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('scenes_tenant_location', ['tenant_id', 'location'])
    .execute();

  await db.schema
    .createTable('streams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addColumn('source_url', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('scene_id', 'text', (c) => c.notNull().references('scenes.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('sandbox', 'integer', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('error', 'text')
    .addColumn('last_frame_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('streams_tenant_id').on('streams').columns(['tenant_id', 'id']).execute();
}

/** Detections, with the indexes their reads and retention use. */
async function createDetections(db: Kysely<any>, real: string, bigint: string): Promise<void> {
  await db.schema
    .createTable('detections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('stream_id', 'text', (c) => c.notNull())
    .addColumn('scene_id', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('subtype', 'text')
    .addColumn('value', sql.raw(real))
    .addColumn('count', 'integer')
    .addColumn('confidence', sql.raw(real), (c) => c.notNull())
    .addColumn('at', sql.raw(bigint), (c) => c.notNull())
    .addColumn('track_id', 'text')
    .addColumn('dwell_s', sql.raw(real))
    .addColumn('zone', 'text')
    .execute();
  await db.schema.createIndex('detections_scene_at').on('detections').columns(['scene_id', 'at']).execute();
  // retention deletes by age across tenants
  await db.schema.createIndex('detections_at').on('detections').column('at').execute();
  await db.schema.createIndex('detections_stream_type_at').on('detections').columns(['stream_id', 'type', 'at']).execute();
}

/** The audit chain, append-only in the database itself. */
async function createAuditLog(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('seq', dialect === 'postgres' ? 'bigserial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_key_id', 'text')
    .addColumn('actor_operator', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'text')
    .addColumn('request_id', 'text')
    .addColumn('data', 'text')
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_tenant_seq').on('audit_log').columns(['tenant_id', 'seq']).execute();

  // docs/design.md "Audit": the database itself refuses UPDATE and DELETE on audit rows.
  if (dialect === 'postgres') {
    await sql`CREATE FUNCTION audit_log_refuse_change() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'audit_log is append-only'; END; $$ LANGUAGE plpgsql`.execute(db);
    await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change()`.execute(db);
    await sql`CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change()`.execute(db);
  } else {
    await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
      BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db);
    await sql`CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
      BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db);
  }
}

/** Stored responses of requests sent with an Idempotency-Key. */
async function createIdempotencyKeys(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('body_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('response', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_pk', ['key_id', 'idempotency_key'])
    .execute();
}
