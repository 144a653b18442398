import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/** Every column of audit_log but the two an erasure clears. */
const KEPT = [
  'seq',
  'id',
  'tenant_id',
  'at',
  'actor_key_id',
  'actor_operator',
  'action',
  'resource_type',
  'resource_id',
  'request_id',
  'prev_hash',
  'hash',
  'format',
  'data_hash',
  'location',
  'stream_id',
];

/**
 * Erasure of a person (docs/decisions.md, "Erasure removes the person from every read"): the audit
 * log stays append-only except for one change, clearing a format-2 entry's `data` and `salt`
 * together. The entry's hash covers `data_hash`, not the content, so the chain still verifies; the
 * entry reads as redacted from then on. Every other update, and every delete, is still refused.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    const same = KEPT.map((c) => `NEW.${c} IS NOT DISTINCT FROM OLD.${c}`).join(' AND ');
    await sql
      .raw(
        `CREATE OR REPLACE FUNCTION audit_log_refuse_change() RETURNS trigger AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND OLD.format = 2 AND NEW.data IS NULL AND NEW.salt IS NULL AND ${same} THEN RETURN NEW; END IF;
        RAISE EXCEPTION 'audit_log is append-only';
      END; $$ LANGUAGE plpgsql`,
      )
      .execute(db);
  } else {
    const same = KEPT.map((c) => `NEW.${c} IS OLD.${c}`).join(' AND ');
    await sql`DROP TRIGGER IF EXISTS audit_log_no_update`.execute(db);
    await sql
      .raw(
        `CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
      WHEN NOT (OLD.format = 2 AND NEW.data IS NULL AND NEW.salt IS NULL AND ${same})
      BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`,
      )
      .execute(db);
  }
}
