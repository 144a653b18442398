import { randomBytes } from 'node:crypto';
import type { DatabaseHandle, DbExecutor } from '../db/index.ts';
import { type Clock, toIso } from '../time/index.ts';
import type { WakeSignal } from '../coordination/index.ts';
import { scheduledJobRepository, type ScheduledJobRow } from './scheduled-job.repository.ts';

/** A job as its handler sees it. */
export interface ScheduledJob {
  id: string;
  kind: string;
  key: string;
  tenantId: string | null;
  payload: unknown;
  dueAt: number;
  /** 1 on the first run; more when earlier claims failed or their node died */
  attempt: number;
}

export interface JobRun {
  /**
   * Marks the job run inside `trx`, the transaction that carries its effect, so the effect and
   * "done" commit together or not at all. Throws {@link JobClaimLost} when this node no longer
   * holds the claim (its lease ran out and another node took the job, or the job was rescheduled
   * or cancelled meanwhile): the transaction then rolls back and the effect is not written twice.
   * Call it before scheduling the same job again in that transaction.
   */
  completeIn(trx: DbExecutor): Promise<void>;
}

/**
 * Runs one job. A handler either calls `run.completeIn(trx)` in the transaction of its effect
 * (exactly once), or is idempotent and lets the scheduler record the run when it returns.
 */
export type JobHandler = (job: ScheduledJob, run: JobRun) => Promise<void>;

/** The claim was taken over or the job moved while this node ran it; nothing was committed. */
export class JobClaimLost extends Error {
  constructor(job: ScheduledJob) {
    super(`scheduled job ${job.kind}/${job.key} was taken over or rescheduled while it ran`);
  }
}

interface Registration {
  handler: JobHandler;
  /** recurring jobs move this far on after each run, on a grid from their first due time */
  everyMs: number | null;
}

/** Channel on which a node tells the others that a job was scheduled (PostgreSQL NOTIFY). */
export const SCHEDULER_WAKE_CHANNEL = 'vigil_scheduler';

export interface SchedulerOptions {
  database: DatabaseHandle;
  clock: Clock;
  /** this process's name in `claimed_by` (several contexts in one process are several nodes) */
  nodeId: string;
  /** cross-node nudge when a job is scheduled; every node also polls */
  wakeSignal?: WakeSignal;
  /** how long a claim holds before another node may take the job over */
  leaseMs?: number;
  /** how often a started node looks for jobs scheduled elsewhere (wakes can be lost) */
  pollMs?: number;
  /** how many due jobs one claim takes */
  batch?: number;
  log?: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
}

export const DEFAULT_JOB_LEASE_MS = 60_000;
export const DEFAULT_SCHEDULER_POLL_MS = 10_000;
/** retry delays after a failed run: 5 s, 30 s, 2 min, then 10 min */
const RETRY_MS = [5_000, 30_000, 120_000, 600_000];
/** the longest delay a Node timer takes (2^31 − 1 ms, about 24.8 days); longer ones fire at once */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A node id for processes that were not given one: host, process and a random part (two contexts in one process differ). */
export function defaultNodeId(): string {
  return `${process.env.HOSTNAME ?? 'node'}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/**
 * Durable timers that fire once cluster-wide (docs/decisions.md "Scheduled jobs").
 * A timer is a row in `scheduled_jobs`, written in the transaction of the change that sets it.
 * Each node keeps one clock timer at the next due time it knows of; when it fires, the node claims
 * the due rows of the kinds it has handlers for (SKIP LOCKED on PostgreSQL, so two nodes never
 * claim one row), runs them and records the run. A claim is a lease: if its node dies, another
 * node takes the job after the lease. `completeIn` fences a stale claim out of the effect's
 * transaction. A node that was started also polls (`pollMs`) and listens for wakes, so it runs
 * jobs other nodes scheduled; a node that was not (the CLI, tests) follows only the jobs it
 * scheduled itself, as the per-process timers it replaces did.
 */
export class Scheduler {
  private readonly handlers = new Map<string, Registration>();
  private timer: unknown = null;
  private timerAt = Number.POSITIVE_INFINITY;
  private started = false;
  private stopped = false;
  private busy = false;
  private again = false;
  private current: Promise<void> = Promise.resolve();
  private unlisten: (() => Promise<void>) | null = null;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly batch: number;

  constructor(private readonly deps: SchedulerOptions) {
    this.leaseMs = deps.leaseMs ?? DEFAULT_JOB_LEASE_MS;
    this.pollMs = deps.pollMs ?? DEFAULT_SCHEDULER_POLL_MS;
    this.batch = deps.batch ?? 20;
  }

  get nodeId(): string {
    return this.deps.nodeId;
  }

  /**
   * Runs jobs of `kind` on this node with `handler`; `everyMs` makes the kind recurring. Returns a
   * function that stops this node running the kind (another node may still run it).
   */
  handle(kind: string, handler: JobHandler, opts: { everyMs?: number } = {}): () => void {
    if (this.handlers.has(kind)) throw new Error(`scheduled job kind ${kind} already has a handler`);
    const reg: Registration = { handler, everyMs: opts.everyMs ?? null };
    this.handlers.set(kind, reg);
    return () => {
      if (this.handlers.get(kind) === reg) this.handlers.delete(kind);
    };
  }

  /**
   * Sets the timer `(kind, key)` to fire at `dueAt`, inside the caller's transaction (the change
   * that sets it). Scheduling an existing timer moves it. Call {@link wakeAt} after the commit.
   */
  async scheduleIn(trx: DbExecutor, job: { kind: string; key: string; dueAt: number; tenantId?: string | null; payload?: unknown }): Promise<void> {
    await scheduledJobRepository.schedule(trx, this.newJob(job));
    // other nodes look again at commit (NOTIFY is transactional); this node is told by wakeAt
    await this.deps.wakeSignal?.wake(SCHEDULER_WAKE_CHANNEL, trx).catch((err: unknown) => this.deps.log?.warn({ err }, 'scheduler wake failed'));
  }

  /** The repository's row fields for a timer set now. */
  private newJob(job: { kind: string; key: string; dueAt: number; tenantId?: string | null; payload?: unknown }) {
    return {
      kind: job.kind,
      key: job.key,
      tenantId: job.tenantId ?? null,
      payload: job.payload === undefined ? null : JSON.stringify(job.payload),
      dueAt: job.dueAt,
      createdAt: toIso(this.deps.clock.now()),
    };
  }

  /** Cancels the timer `(kind, key)` inside the caller's transaction: it will not fire. */
  async cancelIn(trx: DbExecutor, kind: string, key: string): Promise<void> {
    await scheduledJobRepository.cancel(trx, kind, key, this.deps.clock.now());
  }

  /**
   * Makes sure the timer `(kind, key)` exists, adding it at `dueAt` only when it does not (done or
   * not): the first node to start a recurring job creates it; the rest find it. Wakes this node
   * for it.
   */
  async ensure(job: { kind: string; key: string; dueAt: number; tenantId?: string | null; payload?: unknown }): Promise<void> {
    await scheduledJobRepository.ensure(this.deps.database.db, this.newJob(job));
    const row = await scheduledJobRepository.find(this.deps.database.db, job.kind, job.key);
    if (row && row.done_at === null) this.wakeAt(Number(row.due_at));
  }

  /** Tells this node a job it may run falls due at `at` (after the commit that scheduled it). */
  wakeAt(at: number): void {
    if (this.stopped) return;
    if (at <= this.deps.clock.now()) this.kick();
    else if (at < this.timerAt) this.arm(at);
  }

  /** Polls for jobs scheduled anywhere (every `pollMs`, and on other nodes' wakes) until stopped. */
  async start(): Promise<void> {
    if (this.started || this.stopped) return;
    this.started = true;
    if (this.deps.wakeSignal) {
      this.unlisten = await this.deps.wakeSignal
        .listen(SCHEDULER_WAKE_CHANNEL, () => this.kick())
        .catch((err: unknown) => {
          this.deps.log?.warn({ err }, 'scheduler cannot listen for wakes; polling only');
          return null;
        });
    }
    this.kick();
  }

  /** Stops timers and polling and waits for jobs in progress. A claim not finished is taken over after its lease. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.deps.clock.clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Number.POSITIVE_INFINITY;
    await this.unlisten?.();
    this.unlisten = null;
    await this.settled();
  }

  /** Resolves when the jobs this node has started running so far are recorded (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.busy) await this.current;
  }

  /** Looks for due jobs now (or right after the pass in progress). */
  kick(): void {
    if (this.stopped) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    this.current = this.pass();
  }

  private arm(at: number): void {
    this.deps.clock.clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = this.deps.clock.setTimeout(
      () => {
        this.timer = null;
        this.timerAt = Number.POSITIVE_INFINITY;
        this.kick();
      },
      // a timer longer than Node's limit (about 24.8 days) would fire at once and spin: wake at the limit instead, find
      // nothing due and arm again
      Math.min(MAX_TIMER_MS, Math.max(0, at - this.deps.clock.now())),
    );
  }

  /** Claims and runs due jobs until none is left, then sets the timer to the next one. Never rejects. */
  private async pass(): Promise<void> {
    let next: number | null = null;
    try {
      for (;;) {
        this.again = false;
        while (!this.stopped && (await this.runDue()) === this.batch);
        next = await scheduledJobRepository.nextWakeAt(this.deps.database.db, [...this.handlers.keys()], this.deps.clock.now());
        if (!this.again || this.stopped) break;
      }
    } catch (err) {
      this.deps.log?.warn({ err }, 'scheduled jobs pass failed');
      next = this.deps.clock.now() + Math.min(this.pollMs, RETRY_MS[0]!);
    }
    // synchronous from here: a kick that arrives now starts a fresh pass
    this.busy = false;
    if (this.stopped) return;
    let at = next ?? Number.POSITIVE_INFINITY;
    if (this.started) at = Math.min(at, this.deps.clock.now() + this.pollMs);
    if (at === Number.POSITIVE_INFINITY) return;
    if (at <= this.deps.clock.now()) {
      // due already (a lease that ran out during the pass): look again on the next turn
      this.arm(this.deps.clock.now());
      return;
    }
    if (this.timer === null || at < this.timerAt || this.timerAt <= this.deps.clock.now()) this.arm(at);
  }

  /** One claim and its runs; returns how many jobs were claimed. */
  private async runDue(): Promise<number> {
    const now = this.deps.clock.now();
    const claimed = await scheduledJobRepository.claimDue(this.deps.database, {
      kinds: [...this.handlers.keys()],
      nodeId: this.deps.nodeId,
      now,
      leaseUntil: now + this.leaseMs,
      limit: this.batch,
      token: randomBytes(12).toString('hex'),
    });
    await Promise.all(claimed.map((row) => this.run(row, now)));
    return claimed.length;
  }

  private async run(row: ScheduledJobRow, claimedAt: number): Promise<void> {
    const reg = this.handlers.get(row.kind);
    const token = row.claim_token!;
    const job: ScheduledJob = {
      id: row.id,
      kind: row.kind,
      key: row.job_key,
      tenantId: row.tenant_id,
      payload: row.payload === null ? null : JSON.parse(row.payload),
      dueAt: Number(row.due_at),
      attempt: row.attempts,
    };
    // a recurring job's next slot on its own grid: the first one after this claim. Slots that went
    // by while no node ran it fold into this run; a slot that began while it ran is due at once.
    const nextDueAt = () => (reg?.everyMs ? job.dueAt + (Math.floor((claimedAt - job.dueAt) / reg.everyMs) + 1) * reg.everyMs : null);
    let completed = false;
    const runCtx: JobRun = {
      completeIn: async (trx) => {
        const at = this.deps.clock.now();
        if (!(await scheduledJobRepository.complete(trx, { id: row.id, token, nodeId: this.deps.nodeId, at, nextDueAt: nextDueAt() })))
          throw new JobClaimLost(job);
        completed = true;
      },
    };
    try {
      if (!reg) throw new Error(`no handler for scheduled job kind ${row.kind}`);
      await reg.handler(job, runCtx);
      if (!completed) {
        const at = this.deps.clock.now();
        await scheduledJobRepository.complete(this.deps.database.db, { id: row.id, token, nodeId: this.deps.nodeId, at, nextDueAt: nextDueAt() });
      }
    } catch (err) {
      if (err instanceof JobClaimLost) {
        this.deps.log?.warn({ kind: job.kind, key: job.key }, err.message);
        return;
      }
      this.deps.log?.error({ err, kind: job.kind, key: job.key, attempt: job.attempt }, 'scheduled job failed; it will be retried');
      const retryAt = this.deps.clock.now() + RETRY_MS[Math.min(job.attempt, RETRY_MS.length) - 1]!;
      await scheduledJobRepository
        .fail(this.deps.database.db, { id: row.id, token, retryAt, error: err instanceof Error ? err.message : String(err) })
        .catch((e: unknown) => this.deps.log?.warn({ err: e }, 'could not record a failed scheduled job'));
    }
  }
}
