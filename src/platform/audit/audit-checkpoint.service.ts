import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseHandle, DbExecutor } from '../db/index.ts';
import { type Clock, toIso } from '../time/index.ts';
import type { Scheduler } from '../scheduler/index.ts';
import { newId } from '../lib/index.ts';
import { auditQueryRepository, type AuditCheckpointRow } from './audit-query.repository.ts';

const KEY_NAME = 'audit_checkpoint_key';
/** The file in the data directory that holds the checkpoint key (mode 0600) when none is configured. */
export const CHECKPOINT_KEY_FILE = 'audit-checkpoint.key';
/**
 * How often a tenant's moved head is checkpointed: the longest run of newest entries that could be
 * deleted unseen (docs/audit-threat-model.md).
 */
export const CHECKPOINT_INTERVAL_MS = 60_000;
/** The webhook event every checkpoint is sent as (subscribers keep it: docs/audit-threat-model.md). */
export const CHECKPOINT_EVENT = 'audit.checkpoint';

/** A checkpoint as the API and the audit.checkpoint webhook show it. */
export function checkpointPayload(c: AuditCheckpointRow) {
  return {
    id: c.id,
    object: 'audit_checkpoint' as const,
    tenant_id: c.tenant_id,
    head_id: c.head_id,
    head_hash: c.head_hash,
    entry_count: c.entry_count,
    created_at: c.created_at,
    mac: c.mac,
  };
}
/** The recurring scheduled job (platform/scheduler) that checkpoints every tenant once a minute, cluster-wide. */
export const CHECKPOINT_JOB = 'audit.checkpoint';

/** The signed bytes of a checkpoint (docs/decisions.md "Audit"). */
export function checkpointMessage(c: Pick<AuditCheckpointRow, 'tenant_id' | 'head_id' | 'head_hash' | 'entry_count' | 'created_at'>): string {
  return JSON.stringify(['vigil-audit-checkpoint-v1', c.tenant_id, c.head_id, c.head_hash, c.entry_count, c.created_at]);
}

/**
 * Signed head checkpoints (docs/design.md "Audit"). A checkpoint says "entry head_id is the
 * entry_count-th of this tenant's chain and hashes to head_hash", signed with HMAC-SHA256 under a
 * server key. Verification checks the chain against every checkpoint, so removing the newest
 * entries (which leaves a chain that links perfectly) or re-hashing a run of entries is reported.
 * The key comes from VIGIL_AUDIT_CHECKPOINT_KEY, or from a 0600 file in the data directory
 * (generated once; a key an earlier version kept in the database is moved there and removed from
 * it), so someone who can write the database cannot re-sign what they re-hash. Only a cluster
 * without VIGIL_AUDIT_CHECKPOINT_KEY keeps it in the database, so every node signs alike
 * (docs/audit-threat-model.md says what that costs). Every new checkpoint is also sent as an
 * `audit.checkpoint` webhook event in the same transaction. The pass is a recurring scheduled job,
 * so with several nodes one of them makes it each interval (docs/architecture.md, the scheduler).
 */
export class AuditCheckpointService {
  private key: Buffer | null = null;
  private unhandle: (() => void) | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      configuredKey: string | null;
      /** where the key is kept when none is configured; null: in the database (a cluster without a configured key) */
      keyFile?: string | null;
      scheduler: Scheduler;
      onError?: (err: unknown) => void;
    },
  ) {}

  private publishers: Array<(trx: DbExecutor, c: AuditCheckpointRow) => Promise<unknown>> = [];

  /** Called in the transaction that stores each new checkpoint (the composition root sends it as a webhook event). */
  onCheckpoint(fn: (trx: DbExecutor, c: AuditCheckpointRow) => Promise<unknown>): void {
    this.publishers.push(fn);
  }

  private async signingKey(): Promise<Buffer> {
    if (this.key) return this.key;
    if (this.deps.configuredKey) {
      this.key = Buffer.from(this.deps.configuredKey, 'utf8');
    } else if (this.deps.keyFile) {
      this.key = Buffer.from(await this.keyFromFile(this.deps.keyFile), 'hex');
    } else {
      const stored = await auditQueryRepository.ensureServerSecret(
        this.deps.database.db,
        KEY_NAME,
        randomBytes(32).toString('hex'),
        toIso(this.deps.clock.now()),
      );
      this.key = Buffer.from(stored, 'hex');
    }
    return this.key;
  }

  /**
   * The key in the file; made on first use: the key an earlier version kept in the database when
   * there is one (so its checkpoints still verify), else a new one. The row is removed from the
   * database once the file holds it.
   */
  private async keyFromFile(path: string): Promise<string> {
    const read = () => readFileSync(path, 'utf8').trim();
    try {
      return read();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const db = this.deps.database.db;
    const legacy = await auditQueryRepository.serverSecret(db, KEY_NAME);
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `${legacy ?? randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
      chmodSync(path, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const key = read();
    if (legacy === key) await auditQueryRepository.deleteServerSecret(db, KEY_NAME);
    return key;
  }

  async sign(c: Parameters<typeof checkpointMessage>[0]): Promise<string> {
    return createHmac('sha256', await this.signingKey())
      .update(checkpointMessage(c))
      .digest('hex');
  }

  async isAuthentic(c: AuditCheckpointRow): Promise<boolean> {
    const expected = Buffer.from(await this.sign(c), 'hex');
    const given = Buffer.from(c.mac, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /**
   * Checkpoints the tenant's current head, or returns the latest checkpoint when the head has not
   * moved. A head older than the latest checkpoint (entries were removed) is never signed: the
   * earlier checkpoint keeps the removal visible.
   */
  async checkpoint(tenantId: string): Promise<AuditCheckpointRow | null> {
    const db = this.deps.database.db;
    const [head, last] = await Promise.all([auditQueryRepository.head(db, tenantId), auditQueryRepository.latestCheckpoint(db, tenantId)]);
    if (!head) return last;
    if (last && head.seq <= last.head_seq) return last;
    const count = (last?.entry_count ?? 0) + (await auditQueryRepository.countBetween(db, tenantId, last?.head_seq ?? 0, head.seq));
    const now = this.deps.clock.now();
    const fields = { tenant_id: tenantId, head_id: head.id, head_hash: head.hash, entry_count: count, created_at: toIso(now) };
    const row: AuditCheckpointRow = { id: newId('ackp', now), head_seq: head.seq, ...fields, mac: await this.sign(fields) };
    await this.deps.database.withWriteLock(async (trx) => {
      await auditQueryRepository.insertCheckpoint(trx, row);
      for (const publish of this.publishers) await publish(trx, row);
    });
    return row;
  }

  /** One pass over every tenant (the interval timer); a tenant whose head did not move costs two index reads. */
  async checkpointAll(): Promise<void> {
    for (const tenantId of await auditQueryRepository.tenantIds(this.deps.database.db)) await this.checkpoint(tenantId);
  }

  /**
   * Makes the minute pass on this node when its turn comes: the first node to start creates the
   * recurring job due at once; a node starting later finds it and takes the next minute it claims.
   */
  async start(): Promise<void> {
    if (this.unhandle) return;
    this.unhandle = this.deps.scheduler.handle(
      CHECKPOINT_JOB,
      async () => {
        // a failed pass is reported; the next minute's pass tries again
        this.running = this.checkpointAll().catch((err) => this.deps.onError?.(err));
        await this.running;
      },
      { everyMs: CHECKPOINT_INTERVAL_MS },
    );
    await this.deps.scheduler.ensure({ kind: CHECKPOINT_JOB, key: 'all', dueAt: this.deps.clock.now() }).catch((err) => this.deps.onError?.(err));
  }

  /** This node stops making passes; waits for a pass in progress (the database closes next). */
  async stop(): Promise<void> {
    this.unhandle?.();
    this.unhandle = null;
    await this.running;
  }
}
