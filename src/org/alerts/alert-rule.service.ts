import { type Actor, assertLocationAllowed, type Principal } from '../../platform/identity/index.ts';
import { type DatabaseHandle, type DbExecutor, mapPage, type PageQuery } from '../../platform/db/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import { VigilError, invalid, notFound, newId } from '../../platform/lib/index.ts';
import { scopeOfLocations, type AuditService } from '../../platform/audit/index.ts';
import { findStream } from '../streams/index.ts';
import { findPerson } from '../people/index.ts';
import { findScheduleProblem, type Schedule } from '../automation/index.ts';
import type { AlertEngine } from './alert-engine.ts';
import { readStoredCondition } from './rule-condition.ts';
import { alertRuleRepository, type AlertRuleRow } from './alert-rule.repository.ts';
import { CACHE_TOPICS, alertRuleCacheKey, type CacheInvalidation } from '../../platform/coordination/index.ts';
import type { AlertRuleView, CreateAlertRuleBodyT, RuleConditionT, UpdateAlertRuleBodyT } from './alert-rule.schemas.ts';

export function toAlertRuleView(r: AlertRuleRow): AlertRuleView {
  return {
    id: r.id,
    object: 'alert_rule',
    name: r.name,
    condition: readStoredCondition(r.condition),
    min_confidence: r.min_confidence,
    locations: r.locations === null ? null : (JSON.parse(r.locations) as string[]),
    stream_ids: r.stream_ids === null ? null : (JSON.parse(r.stream_ids) as string[]),
    schedule: r.schedule === null ? null : (JSON.parse(r.schedule) as Schedule),
    cooldown_s: r.cooldown_s,
    status: r.status,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** Alert rules CRUD and operator pause/resume; the engine's in-memory index follows every commit. */
export class AlertRuleService {
  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      engine: AlertEngine;
      /** the engine (on every node) re-reads a rule announced here after its change commits */
      invalidation: CacheInvalidation;
    },
  ) {}

  async create(principal: Principal, actor: Actor, body: CreateAlertRuleBodyT): Promise<AlertRuleView> {
    // a location-limited key's rules are limited to its locations
    const locations = body.locations ?? principal.locations;
    await this.validate(principal, { ...body, locations });
    const now = toIso(this.deps.clock.now());
    const row: AlertRuleRow = {
      id: newId('rule', this.deps.clock.now()),
      tenant_id: principal.tenantId,
      name: body.name,
      condition: JSON.stringify(body.condition),
      min_confidence: body.min_confidence ?? 0,
      locations: locations ? JSON.stringify(locations) : null,
      stream_ids: body.stream_ids ? JSON.stringify(body.stream_ids) : null,
      schedule: body.schedule ? JSON.stringify(body.schedule) : null,
      cooldown_s: body.cooldown_s ?? 300,
      status: 'active',
      created_at: now,
      updated_at: now,
    };
    await this.deps.database.withWriteLock(async (trx) => {
      await alertRuleRepository.insert(trx, row);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'alert_rule.created',
          resourceType: 'alert_rule',
          resourceId: row.id,
          data: { after: toAlertRuleView(row) },
          scope: scopeOfLocations(row.locations),
        },
      ]);
    });
    await this.announce(principal.tenantId, row.id);
    return toAlertRuleView(row);
  }

  async list(principal: Principal, q: PageQuery) {
    // a location-limited key sees the rules confined within its locations
    const ids = principal.locations ? this.deps.engine.ruleIdsWithin(principal.tenantId, principal.locations) : null;
    return mapPage(await alertRuleRepository.listPage(this.deps.database.db, principal.tenantId, ids, q), toAlertRuleView);
  }

  async get(principal: Principal, id: string): Promise<AlertRuleView> {
    return toAlertRuleView(await this.load(principal, id));
  }

  async update(principal: Principal, actor: Actor, id: string, body: UpdateAlertRuleBodyT): Promise<AlertRuleView> {
    const before = await this.load(principal, id);
    const merged = { ...toAlertRuleView(before), ...body };
    if (principal.locations && body.locations === null) merged.locations = [...principal.locations];
    // the condition is checked when it is given (a person erased since does not block renaming the rule)
    await this.validate(principal, { ...merged, condition: body.condition });
    const patch: Partial<AlertRuleRow> = { updated_at: toIso(this.deps.clock.now()) };
    if (body.name !== undefined) patch.name = body.name;
    if (body.condition !== undefined) patch.condition = JSON.stringify(body.condition);
    if (body.min_confidence !== undefined) patch.min_confidence = body.min_confidence;
    if (body.locations !== undefined) patch.locations = merged.locations ? JSON.stringify(merged.locations) : null;
    if (body.stream_ids !== undefined) patch.stream_ids = body.stream_ids ? JSON.stringify(body.stream_ids) : null;
    if (body.schedule !== undefined) patch.schedule = body.schedule ? JSON.stringify(body.schedule) : null;
    if (body.cooldown_s !== undefined) patch.cooldown_s = body.cooldown_s;
    return this.write(principal, actor, before, patch, 'alert_rule.updated');
  }

  /** Operator control: a paused rule takes no automated step until resumed. */
  async setPaused(principal: Principal, actor: Actor, id: string, paused: boolean): Promise<AlertRuleView> {
    const before = await this.load(principal, id);
    const status = paused ? 'paused' : 'active';
    if (before.status === status) {
      throw new VigilError('invalid_state_transition', `Alert rule ${id} is already ${status}.`, { param: 'id', extra: { current_status: status } });
    }
    return this.write(principal, actor, before, { status, updated_at: toIso(this.deps.clock.now()) }, paused ? 'alert_rule.paused' : 'alert_rule.resumed');
  }

  async remove(principal: Principal, actor: Actor, id: string) {
    const before = await this.load(principal, id);
    await this.deps.database.withWriteLock(async (trx) => {
      await alertRuleRepository.delete(trx, id);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'alert_rule.deleted',
          resourceType: 'alert_rule',
          resourceId: id,
          data: { before: toAlertRuleView(before) },
          scope: scopeOfLocations(before.locations),
        },
      ]);
    });
    await this.announce(principal.tenantId, id);
    return { id, object: 'alert_rule' as const, deleted: true as const };
  }

  private async write(principal: Principal, actor: Actor, before: AlertRuleRow, patch: Partial<AlertRuleRow>, action: string): Promise<AlertRuleView> {
    const after = { ...before, ...patch };
    await this.deps.database.withWriteLock(async (trx) => {
      await alertRuleRepository.update(trx, before.id, patch);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action,
          resourceType: 'alert_rule',
          resourceId: before.id,
          data: { before: toAlertRuleView(before), after: toAlertRuleView(after) },
          scope: scopeOfLocations(before.locations === after.locations ? before.locations : null),
        },
      ]);
    });
    await this.announce(principal.tenantId, before.id);
    return toAlertRuleView(after);
  }

  private announce(tenantId: string, ruleId: string): Promise<void> {
    return this.deps.invalidation.publish(CACHE_TOPICS.alertRule, alertRuleCacheKey(tenantId, ruleId));
  }

  private async load(principal: Principal, id: string, db: DbExecutor = this.deps.database.db): Promise<AlertRuleRow> {
    const row = await alertRuleRepository.findForTenant(db, principal.tenantId, id);
    const visible = row && (!principal.locations || this.deps.engine.ruleIdsWithin(principal.tenantId, principal.locations).includes(id));
    if (!row || !visible) throw notFound('alert rule', id);
    return row;
  }

  private async validate(
    principal: Principal,
    r: { locations?: readonly string[] | null; stream_ids?: readonly string[] | null; schedule?: Schedule | null; condition?: RuleConditionT },
  ): Promise<void> {
    const c = r.condition;
    if (c?.type === 'person' && typeof c.person_id === 'string') {
      if (c.subtype === 'unrecognized')
        throw invalid('condition.subtype', 'A person_id names someone recognized: use subtype "recognized" (or leave it out) with person_id.');
      if (!(await findPerson(this.deps.database.db, principal.tenantId, c.person_id))) {
        throw invalid('condition.person_id', `no person ${c.person_id} in this organization (POST /v1/people)`);
      }
    }
    for (const l of r.locations ?? []) assertLocationAllowed(principal, l);
    if (r.schedule) {
      const problem = findScheduleProblem(r.schedule);
      if (problem) throw invalid(`schedule.${problem.param}`, problem.message);
    }
    if (r.stream_ids?.length) {
      for (const sid of r.stream_ids) {
        const stream = await findStream(this.deps.database.db, principal.tenantId, sid);
        if (!stream || (principal.locations && !principal.locations.includes(stream.location))) {
          throw invalid('stream_ids', `no stream ${sid} in this organization`);
        }
      }
    }
  }
}
