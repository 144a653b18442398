import type { Actor, Principal } from '../../platform/identity/index.ts';
import { type DatabaseHandle, mapPage } from '../../platform/db/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import { VigilError, notFound } from '../../platform/lib/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import type { DetectionView } from '../scenes/index.ts';
import { readStoredCondition } from './rule-condition.ts';
import { alertRepository, type AlertRow } from './alert.repository.ts';
import type { AlertListQueryT, AlertView } from './alert.schemas.ts';

export function toAlertView(r: AlertRow): AlertView {
  return {
    id: r.id,
    object: 'alert',
    rule_id: r.rule_id,
    rule_name: r.rule_name,
    status: r.status,
    stream_id: r.stream_id,
    scene_id: r.scene_id,
    location: r.location,
    incident_id: r.incident_id,
    condition: readStoredCondition(r.condition),
    observed: r.observed,
    detection: JSON.parse(r.detection) as DetectionView,
    fired_at: r.fired_at,
    acknowledged_at: r.acknowledged_at,
    acknowledged_by: r.acknowledged_at ? { key_id: r.acknowledged_by_key_id, operator: r.acknowledged_by_operator } : null,
  };
}

/** Fired alerts: listing, fetching, acknowledging. Firing is AlertEngine's job. */
export class AlertService {
  constructor(private readonly deps: { database: DatabaseHandle; clock: Clock; audit: AuditService }) {}

  async list(principal: Principal, q: AlertListQueryT) {
    const filter = { ruleId: q.rule_id, status: q.status, location: q.location, since: q.since ? toIso(Date.parse(q.since)) : undefined };
    return mapPage(await alertRepository.listPage(this.deps.database.db, principal.tenantId, principal.locations, filter, q), toAlertView);
  }

  async get(principal: Principal, id: string): Promise<AlertView> {
    return toAlertView(await this.load(principal, id));
  }

  async acknowledge(principal: Principal, actor: Actor, id: string): Promise<AlertView> {
    const now = toIso(this.deps.clock.now());
    const after = await this.deps.database.withWriteLock(async (trx) => {
      const before = await this.load(principal, id, trx);
      if (before.status !== 'open') {
        throw new VigilError('invalid_state_transition', `Alert ${id} is already ${before.status}.`, { param: 'id', extra: { current_status: before.status } });
      }
      const patch = {
        status: 'acknowledged' as const,
        acknowledged_at: now,
        acknowledged_by_key_id: actor.keyId,
        acknowledged_by_operator: actor.operator ?? null,
      };
      await alertRepository.update(trx, id, patch);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'alert.acknowledged',
          resourceType: 'alert',
          resourceId: id,
          data: { before: { status: before.status }, after: { status: patch.status } },
          scope: { location: before.location },
        },
      ]);
      return { ...before, ...patch };
    });
    return toAlertView(after);
  }

  private async load(principal: Principal, id: string, db = this.deps.database.db as Parameters<typeof alertRepository.findForTenant>[0]): Promise<AlertRow> {
    const row = await alertRepository.findForTenant(db, principal.tenantId, id);
    if (!row || (principal.locations && !principal.locations.includes(row.location))) throw notFound('alert', id);
    return row;
  }
}
