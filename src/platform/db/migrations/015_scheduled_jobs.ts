import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * Durable scheduled jobs (timers run once cluster-wide). One row per timer:
 * `(kind, job_key)` is unique, so the same timer scheduled from two nodes is one row, and
 * rescheduling it moves the row. A node claims a due row by setting `claimed_by`, a fresh
 * `claim_token` and `claimed_until` (its lease); a claim whose node died is claimable again once
 * the lease runs out. `done_at` marks a one-shot job done; a recurring job is moved to its next
 * due time instead. `run_count`, `last_done_at` and `last_done_by` say how often and where it ran.
 * Times the scheduler compares by are epoch-ms bigints (as in 003).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const bigint = sql.raw(dialect === 'postgres' ? 'bigint' : 'integer');
  await db.schema
    .createTable('scheduled_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('job_key', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text')
    .addColumn('payload', 'text')
    .addColumn('due_at', bigint, (c) => c.notNull())
    .addColumn('claimed_by', 'text')
    .addColumn('claim_token', 'text')
    .addColumn('claimed_until', bigint)
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('done_at', bigint)
    .addColumn('run_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_done_at', bigint)
    .addColumn('last_done_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('scheduled_jobs_kind_key', ['kind', 'job_key'])
    .execute();
  // the claim and next-wake queries read open rows by due time
  await db.schema.createIndex('scheduled_jobs_open_due').on('scheduled_jobs').columns(['done_at', 'due_at']).execute();
}
