import type { DatabaseHandle, DbExecutor } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { toIso } from '../lib/time.ts';
import type { AuditFields } from './audit-chain.ts';
import { auditRepository } from './audit.repository.ts';

/** Who did something: the key, and the operator named by X-Operator when present. */
export interface Actor {
  keyId: string | null;
  operator?: string | null;
  requestId?: string | null;
}

export const SYSTEM_ACTOR: Actor = { keyId: null, operator: 'system' };

export interface AuditInput {
  tenantId: string;
  action: string;
  resourceType: string;
  resourceId: string | null;
  data?: unknown;
  at?: number;
}

export class AuditService {
  constructor(private readonly deps: { database: DatabaseHandle; clock: Clock }) {}

  build(actor: Actor, input: AuditInput): AuditFields {
    const at = input.at ?? this.deps.clock.now();
    return {
      id: newId('aud', at),
      tenant_id: input.tenantId,
      at: toIso(at),
      actor_key_id: actor.keyId,
      actor_operator: actor.operator ?? null,
      action: input.action,
      resource_type: input.resourceType,
      resource_id: input.resourceId,
      request_id: actor.requestId ?? null,
      data: input.data === undefined ? null : JSON.stringify(input.data),
    };
  }

  /** Appends inside an existing write-locked transaction (same transaction as the change it records). */
  async appendIn(trx: DbExecutor, actor: Actor, inputs: AuditInput[]): Promise<void> {
    await auditRepository.appendChained(
      trx,
      inputs.map((i) => this.build(actor, i)),
    );
  }

  async append(actor: Actor, ...inputs: AuditInput[]): Promise<void> {
    await this.deps.database.withWriteLock((trx) => this.appendIn(trx, actor, inputs));
  }
}
