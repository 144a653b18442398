import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DatabaseHandle } from '../db/index.ts';
import type { Clock } from '../time/index.ts';
import { newId } from '../lib/index.ts';
import { toIso } from '../time/index.ts';
import { auditQueryRepository, type AuditCheckpointRow } from './audit-query.repository.ts';

const KEY_NAME = 'audit_checkpoint_key';
export const CHECKPOINT_INTERVAL_MS = 60_000;

/** The signed bytes of a checkpoint (docs/decisions.md "Audit"). */
export function checkpointMessage(c: Pick<AuditCheckpointRow, 'tenant_id' | 'head_id' | 'head_hash' | 'entry_count' | 'created_at'>): string {
  return JSON.stringify(['vigil-audit-checkpoint-v1', c.tenant_id, c.head_id, c.head_hash, c.entry_count, c.created_at]);
}

/**
 * Signed head checkpoints (issue 9 §10, DESIGN.md "Audit"). A checkpoint says "entry head_id is the
 * entry_count-th of this tenant's chain and hashes to head_hash", signed with HMAC-SHA256 under a
 * server key. Verification checks the chain against every checkpoint, so removing the newest
 * entries (which leaves a chain that links perfectly) or re-hashing a run of entries is reported.
 * The key comes from VIGIL_AUDIT_CHECKPOINT_KEY, or is generated once and kept in the database
 * (`server_secrets`) so every node signs alike.
 */
export class AuditCheckpointService {
  private key: Buffer | null = null;
  private timer: unknown = null;
  private stopped = false;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      configuredKey: string | null;
      onError?: (err: unknown) => void;
    },
  ) {}

  private async signingKey(): Promise<Buffer> {
    if (this.key) return this.key;
    if (this.deps.configuredKey) {
      this.key = Buffer.from(this.deps.configuredKey, 'utf8');
    } else {
      const stored = await auditQueryRepository.ensureServerSecret(this.deps.database.db, KEY_NAME, randomBytes(32).toString('hex'), toIso(this.deps.clock.now()));
      this.key = Buffer.from(stored, 'hex');
    }
    return this.key;
  }

  async sign(c: Parameters<typeof checkpointMessage>[0]): Promise<string> {
    return createHmac('sha256', await this.signingKey()).update(checkpointMessage(c)).digest('hex');
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
    await auditQueryRepository.insertCheckpoint(db, row);
    return row;
  }

  /** One pass over every tenant (the minute timer); a tenant whose head did not move costs two index reads. */
  async checkpointAll(): Promise<void> {
    for (const tenantId of await auditQueryRepository.tenantIds(this.deps.database.db)) await this.checkpoint(tenantId);
  }

  start(): void {
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.running = this.checkpointAll()
        .catch((err) => this.deps.onError?.(err))
        .finally(() => {
          if (!this.stopped) this.timer = this.deps.clock.setTimeout(tick, CHECKPOINT_INTERVAL_MS);
        });
    };
    tick();
  }

  /** Stops the timer and waits for a pass in progress (the database closes next). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.deps.clock.clearTimeout(this.timer);
    await this.running;
  }
}
