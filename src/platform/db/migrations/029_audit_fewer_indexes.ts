import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/** audit_log's columns in their order, with their SQLite types and constraints (001, 006). */
const SQLITE_COLUMNS = `seq integer PRIMARY KEY, id text NOT NULL, tenant_id text NOT NULL, at text NOT NULL, actor_key_id text, actor_operator text,
  action text NOT NULL, resource_type text NOT NULL, resource_id text, request_id text, data text, prev_hash text NOT NULL, hash text NOT NULL,
  format integer, data_hash text, salt text, location text, stream_id text`;
const COLUMN_NAMES =
  'seq, id, tenant_id, at, actor_key_id, actor_operator, action, resource_type, resource_id, request_id, data, prev_hash, hash, format, data_hash, salt, location, stream_id';

/**
 * Fewer b-trees per audit entry (docs/decisions.md, "Audit entries in fewer b-trees"): every
 * pipeline commit writes one entry per detection, and each index of audit_log is one more page
 * written per commit. Every read of the trail names its tenant, so:
 * - the id's global UNIQUE index goes; (tenant_id, id), which the listing pages by, becomes UNIQUE
 *   and keeps an id from appearing twice in a chain;
 * - SQLite: `seq` stays the rowid without AUTOINCREMENT, so sqlite_sequence is no longer written by
 *   every commit. The trail refuses DELETE (its trigger), so the largest seq is never removed and
 *   the next one is always larger, as AUTOINCREMENT promised. SQLite cannot change a column's
 *   constraints in place: the table is copied into a new one (rows, seq values and triggers kept);
 * - PostgreSQL: the primary key becomes (tenant_id, seq), which every chain read walks, and the
 *   separate (tenant_id, seq) index goes; the sequence still numbers the rows.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`ALTER TABLE audit_log DROP CONSTRAINT audit_log_id_key`.execute(db);
    await sql`ALTER TABLE audit_log DROP CONSTRAINT audit_log_pkey`.execute(db);
    await sql`ALTER TABLE audit_log ADD CONSTRAINT audit_log_pkey PRIMARY KEY (tenant_id, seq)`.execute(db);
    await sql`DROP INDEX audit_tenant_seq`.execute(db);
    await sql`DROP INDEX audit_tenant_id`.execute(db);
    await sql`CREATE UNIQUE INDEX audit_tenant_id ON audit_log (tenant_id, id)`.execute(db);
    return;
  }
  const triggers = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_log' ORDER BY name`.execute(db);
  await sql.raw(`CREATE TABLE audit_log_029 (${SQLITE_COLUMNS})`).execute(db);
  await sql.raw(`INSERT INTO audit_log_029 (${COLUMN_NAMES}) SELECT ${COLUMN_NAMES} FROM audit_log ORDER BY seq`).execute(db);
  await sql`DROP TABLE audit_log`.execute(db);
  await sql`ALTER TABLE audit_log_029 RENAME TO audit_log`.execute(db);
  await sql`DELETE FROM sqlite_sequence WHERE name = 'audit_log'`.execute(db);
  await sql`CREATE INDEX audit_tenant_seq ON audit_log (tenant_id, seq)`.execute(db);
  await sql`CREATE UNIQUE INDEX audit_tenant_id ON audit_log (tenant_id, id)`.execute(db);
  await sql`CREATE INDEX audit_tenant_resource ON audit_log (tenant_id, resource_type, resource_id)`.execute(db);
  for (const t of triggers.rows) await sql.raw(t.sql).execute(db);
}
