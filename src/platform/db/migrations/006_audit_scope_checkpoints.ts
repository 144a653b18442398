import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * Audit format 2 and checkpoints (docs/design.md "Audit"; docs/decisions.md "Audit").
 *
 * - `format` 2 entries commit to their content through `data_hash` (salted SHA-256 of location,
 *   stream_id and data), so a read or export can redact content and the chain still verifies.
 *   Rows written before this migration keep `format` NULL (= 1) and their old hash.
 * - `location` / `stream_id` say which place an entry is about; reads confine and redact by them.
 *   For format-1 rows they are filled here from what the row already says (they are index columns,
 *   not hashed), so detections recorded before the upgrade are confined too.
 * - `audit_checkpoints`: HMAC-signed heads of each tenant's chain, append-only like the trail.
 * - `server_secrets`: the checkpoint key when it is not given by VIGIL_AUDIT_CHECKPOINT_KEY.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
  for (const [name, type] of [
    ['format', 'integer'],
    ['data_hash', 'text'],
    ['salt', 'text'],
    ['location', 'text'],
    ['stream_id', 'text'],
  ] as const) {
    await db.schema.alterTable('audit_log').addColumn(name, type).execute();
  }

  // Backfill the scope of older rows. The trigger refuses UPDATE, so it is lifted for this
  // statement only; the hashed fields are not touched.
  const governance = sql`('sensor.muted', 'sensor.unmuted', 'boundary.set', 'boundary.cleared')`;
  if (dialect === 'postgres') {
    await sql`ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update`.execute(db);
    await sql`UPDATE audit_log SET stream_id = CASE
        WHEN action IN ('detection.recorded', 'sandbox.detection_injected') THEN (data::json ->> 'stream_id')
        ELSE resource_id END
      WHERE (action IN ('detection.recorded', 'sandbox.detection_injected') OR resource_type IN ('stream', 'sensor'))
        AND action NOT IN ${governance}`.execute(db);
    await sql`UPDATE audit_log SET location = s.location FROM streams s WHERE s.id = audit_log.stream_id`.execute(db);
    await sql`ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update`.execute(db);
  } else {
    await sql`DROP TRIGGER audit_log_no_update`.execute(db);
    await sql`UPDATE audit_log SET stream_id = CASE
        WHEN action IN ('detection.recorded', 'sandbox.detection_injected') THEN json_extract(data, '$.stream_id')
        ELSE resource_id END
      WHERE (action IN ('detection.recorded', 'sandbox.detection_injected') OR resource_type IN ('stream', 'sensor'))
        AND action NOT IN ${governance}`.execute(db);
    await sql`UPDATE audit_log SET location = (SELECT s.location FROM streams s WHERE s.id = audit_log.stream_id)
      WHERE stream_id IS NOT NULL`.execute(db);
    await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
      BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db);
  }

  await db.schema
    .createTable('audit_checkpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('head_seq', sql.raw(bigint), (c) => c.notNull())
    .addColumn('head_id', 'text', (c) => c.notNull())
    .addColumn('head_hash', 'text', (c) => c.notNull())
    .addColumn('entry_count', sql.raw(bigint), (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('mac', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_checkpoints_tenant_seq').on('audit_checkpoints').columns(['tenant_id', 'head_seq']).execute();

  if (dialect === 'postgres') {
    await sql`CREATE FUNCTION audit_checkpoints_refuse_change() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'audit_checkpoints is append-only'; END; $$ LANGUAGE plpgsql`.execute(db);
    await sql`CREATE TRIGGER audit_checkpoints_no_update BEFORE UPDATE ON audit_checkpoints
      FOR EACH ROW EXECUTE FUNCTION audit_checkpoints_refuse_change()`.execute(db);
    await sql`CREATE TRIGGER audit_checkpoints_no_delete BEFORE DELETE ON audit_checkpoints
      FOR EACH ROW EXECUTE FUNCTION audit_checkpoints_refuse_change()`.execute(db);
  } else {
    await sql`CREATE TRIGGER audit_checkpoints_no_update BEFORE UPDATE ON audit_checkpoints
      BEGIN SELECT RAISE(ABORT, 'audit_checkpoints is append-only'); END`.execute(db);
    await sql`CREATE TRIGGER audit_checkpoints_no_delete BEFORE DELETE ON audit_checkpoints
      BEGIN SELECT RAISE(ABORT, 'audit_checkpoints is append-only'); END`.execute(db);
  }

  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
