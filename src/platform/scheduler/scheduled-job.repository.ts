import { sql } from 'kysely';
import { type DatabaseHandle, type DbExecutor, type ScheduledJobTable, writeAtomically } from '../db/index.ts';
import { newId } from '../lib/index.ts';

export type ScheduledJobRow = ScheduledJobTable;

/** Columns that reset a row to "waiting for its due time, claimed by nobody". */
const UNCLAIMED = { claimed_by: null, claim_token: null, claimed_until: null } as const;
/** A job open to be claimed again from its first attempt (a fresh row, or a rescheduled one). */
const REOPENED = { ...UNCLAIMED, attempts: 0, last_error: null, done_at: null } as const;

/**
 * Queries of the durable scheduled jobs (migration 015). The claim is the queue idiom the webhook
 * outbox uses: one `UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED)` on PostgreSQL, the
 * same conditional UPDATE under the database write lock on SQLite.
 */
type NewJob = { kind: string; key: string; tenantId: string | null; payload: string | null; dueAt: number; createdAt: string };

/** A fresh, unclaimed, never-run row for `job`. */
function newJobRow(job: NewJob) {
  return {
    id: newId('sjob'),
    kind: job.kind,
    job_key: job.key,
    tenant_id: job.tenantId,
    payload: job.payload,
    due_at: job.dueAt,
    ...REOPENED,
    run_count: 0,
    last_done_at: null,
    last_done_by: null,
    created_at: job.createdAt,
  };
}

export const scheduledJobRepository = {
  /**
   * Puts the job `(kind, key)` at `dueAt`: a new row, or the existing one moved there, unclaimed
   * and open again. A node still running an earlier claim of it loses that claim (its completion
   * finds a different token), so a rescheduled timer fires at the new time only.
   */
  async schedule(db: DbExecutor, job: NewJob): Promise<void> {
    await db
      .insertInto('scheduled_jobs')
      .values(newJobRow(job))
      .onConflict((oc) =>
        oc.columns(['kind', 'job_key']).doUpdateSet({
          tenant_id: job.tenantId,
          payload: job.payload,
          due_at: job.dueAt,
          ...REOPENED,
        }),
      )
      .execute();
  },

  /** Adds the job only when no row for `(kind, key)` exists (done or not): recurring jobs and upgrades. */
  async ensure(db: DbExecutor, job: NewJob): Promise<void> {
    await db
      .insertInto('scheduled_jobs')
      .values(newJobRow(job))
      .onConflict((oc) => oc.columns(['kind', 'job_key']).doNothing())
      .execute();
  },

  /** Closes the job without running it (its reason went away); a claim in progress loses its token. */
  async cancel(db: DbExecutor, kind: string, key: string, at: number): Promise<void> {
    await db
      .updateTable('scheduled_jobs')
      .set({ done_at: at, ...UNCLAIMED })
      .where('kind', '=', kind)
      .where('job_key', '=', key)
      .where('done_at', 'is', null)
      .execute();
  },

  find(db: DbExecutor, kind: string, key: string) {
    return db.selectFrom('scheduled_jobs').selectAll().where('kind', '=', kind).where('job_key', '=', key).executeTakeFirst();
  },

  /**
   * Claims up to `limit` due, open jobs of the given kinds for `nodeId` until `leaseUntil`, each
   * with a fresh token. A row claimed by another node is skipped while its lease holds; once it has
   * run out (the node died or stalled) the row is claimable again.
   */
  async claimDue(
    database: DatabaseHandle,
    opts: { kinds: string[]; nodeId: string; now: number; leaseUntil: number; limit: number; token: string },
  ): Promise<ScheduledJobRow[]> {
    if (opts.kinds.length === 0) return [];
    return writeAtomically(database, async (db, postgres) => {
      const due = db
        .selectFrom('scheduled_jobs')
        .select('id')
        .where('done_at', 'is', null)
        .where('kind', 'in', opts.kinds)
        .where('due_at', '<=', opts.now)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', opts.now)]))
        .orderBy('due_at', 'asc')
        .limit(opts.limit);
      const claim = { claimed_by: opts.nodeId, claim_token: opts.token, claimed_until: opts.leaseUntil, attempts: sql<number>`attempts + 1` };
      if (postgres) {
        // one statement: rows another node is claiming right now are skipped, not waited for
        return db.updateTable('scheduled_jobs').set(claim).where('id', 'in', due.forUpdate().skipLocked()).returningAll().execute();
      }
      const ids = (await due.execute()).map((r) => r.id);
      if (ids.length === 0) return [];
      return db.updateTable('scheduled_jobs').set(claim).where('id', 'in', ids).returningAll().execute();
    });
  },

  /**
   * Records a run of the claim `token`: a one-shot job is done, a recurring one moves to `nextDueAt`.
   * False when the claim is no longer held (another node took the job over after the lease ran
   * out, or it was rescheduled or cancelled meanwhile): then nothing is written.
   */
  async complete(db: DbExecutor, opts: { id: string; token: string; nodeId: string; at: number; nextDueAt: number | null }): Promise<boolean> {
    const res = await db
      .updateTable('scheduled_jobs')
      .set({
        ...UNCLAIMED,
        done_at: opts.nextDueAt === null ? opts.at : null,
        ...(opts.nextDueAt === null ? {} : { due_at: opts.nextDueAt }),
        attempts: 0,
        last_error: null,
        run_count: sql<number>`run_count + 1`,
        last_done_at: opts.at,
        last_done_by: opts.nodeId,
      })
      .where('id', '=', opts.id)
      .where('claim_token', '=', opts.token)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  /** Gives a failed claim back, due again at `retryAt`, with the error kept for operators. */
  async fail(db: DbExecutor, opts: { id: string; token: string; retryAt: number; error: string }): Promise<void> {
    await db
      .updateTable('scheduled_jobs')
      .set({ ...UNCLAIMED, due_at: opts.retryAt, last_error: opts.error.slice(0, 2000) })
      .where('id', '=', opts.id)
      .where('claim_token', '=', opts.token)
      .execute();
  },

  /**
   * When this node should look again: the earliest due time of an open job of these kinds, or,
   * for one claimed elsewhere, the end of that claim's lease.
   */
  async nextWakeAt(db: DbExecutor, kinds: string[], now: number): Promise<number | null> {
    if (kinds.length === 0) return null;
    const row = await db
      .selectFrom('scheduled_jobs')
      .select(sql<number | string | null>`min(case when claimed_until > ${now} then claimed_until else due_at end)`.as('at'))
      .where('done_at', 'is', null)
      .where('kind', 'in', kinds)
      .executeTakeFirst();
    return row?.at === null || row?.at === undefined ? null : Number(row.at);
  },

  /** Removes one-shot jobs done before `before` (housekeeping); recurring jobs are never done. */
  async pruneDone(db: DbExecutor, before: number): Promise<number> {
    const res = await db.deleteFrom('scheduled_jobs').where('done_at', 'is not', null).where('done_at', '<', before).executeTakeFirst();
    return Number(res.numDeletedRows);
  },
};
