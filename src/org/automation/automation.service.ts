import { type Actor, type Principal, assertEveryLocation } from '../../platform/identity/index.ts';
import type { DatabaseHandle, DbExecutor } from '../../platform/db/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import { invalid } from '../../platform/lib/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import { automationRepository, type AutomationSettingsRow } from './automation.repository.ts';
import type { AutomationView, UpdateAutomationBodyT } from './automation.schemas.ts';
import { compileSchedule, findScheduleProblem, isWithinSchedule, type CompiledSchedule, type Schedule } from './local-schedule.ts';
import { CACHE_TOPICS, EVERY_KEY, type CacheInvalidation } from '../../platform/coordination/index.ts';

export type AutomationTarget = 'incidents' | 'escalation';

export interface AutomationDefaults {
  incidentGapS: number;
  escalationAfterS: number;
  businessHours: Schedule;
}

export const DEFAULT_AUTOMATION: AutomationDefaults = {
  incidentGapS: 600,
  escalationAfterS: 300,
  businessHours: { days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '08:00', end: '18:00' },
};

interface TenantAutomation {
  row: AutomationSettingsRow;
  businessHours: CompiledSchedule;
  stored: boolean;
}

/**
 * Per-organization automation switches and timings ("paused automation takes no
 * automated step until resumed"). Read on the detection hot path, so every tenant's settings
 * live in memory; writes go to the database first, then announce the change (CacheInvalidation),
 * and every node's copy re-reads that tenant's row.
 */
export class AutomationService {
  private readonly byTenant = new Map<string, TenantAutomation>();
  private readonly listeners: Array<(tenantId: string, target: AutomationTarget, paused: boolean) => Promise<void> | void> = [];

  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      invalidation: CacheInvalidation;
      defaults?: Partial<AutomationDefaults>;
    },
  ) {
    deps.invalidation.subscribe(CACHE_TOPICS.automation, (tenantId) => (tenantId === EVERY_KEY ? this.loadAll() : this.reload(tenantId)));
  }

  private get defaults(): AutomationDefaults {
    return { ...DEFAULT_AUTOMATION, ...this.deps.defaults };
  }

  async loadAll(): Promise<void> {
    for (const row of await automationRepository.listAll(this.deps.database.db)) this.cache(row, true);
  }

  /** One tenant's settings as the database holds them now (a change was announced). */
  private async reload(tenantId: string): Promise<void> {
    const row = await automationRepository.find(this.deps.database.db, tenantId);
    if (row) this.cache(row, true);
    else this.byTenant.delete(tenantId);
  }

  /** Called after an operator pauses or resumes a target (the escalation scheduler re-arms its timers). */
  onPauseChange(fn: (tenantId: string, target: AutomationTarget, paused: boolean) => Promise<void> | void): void {
    this.listeners.push(fn);
  }

  incidentsPaused(tenantId: string): boolean {
    return this.settings(tenantId).row.incidents_paused === 1;
  }

  escalationPaused(tenantId: string): boolean {
    return this.settings(tenantId).row.escalation_paused === 1;
  }

  /**
   * Whether escalation is paused, as the database says inside `db` (a transaction): a scheduled
   * escalation may run on a node whose cache has not yet heard of a pause made elsewhere.
   */
  async escalationPausedIn(db: DbExecutor, tenantId: string): Promise<boolean> {
    const row = await automationRepository.find(db, tenantId);
    return row ? row.escalation_paused === 1 : this.escalationPaused(tenantId);
  }

  incidentGapMs(tenantId: string): number {
    return this.settings(tenantId).row.incident_gap_s * 1000;
  }

  escalationAfterMs(tenantId: string): number {
    return this.settings(tenantId).row.escalation_after_s * 1000;
  }

  /** The organization's opt-in to face recognition; off until turned on. */
  faceRecognition(tenantId: string): boolean {
    return this.settings(tenantId).row.face_recognition === 1;
  }

  isAfterHours(tenantId: string, at: number, sceneTimeZone: string): boolean {
    return !isWithinSchedule(this.settings(tenantId).businessHours, at, sceneTimeZone);
  }

  get(principal: Principal): AutomationView {
    return toAutomationView(this.settings(principal.tenantId));
  }

  async update(principal: Principal, actor: Actor, body: UpdateAutomationBodyT): Promise<AutomationView> {
    assertEveryLocation(principal, 'the automation settings');
    if (body.business_hours) {
      const problem = findScheduleProblem(body.business_hours);
      if (problem) throw invalid(`business_hours.${problem.param}`, problem.message);
    }
    const before = this.settings(principal.tenantId);
    const row: AutomationSettingsRow = {
      ...before.row,
      ...(body.incident_gap_s !== undefined ? { incident_gap_s: body.incident_gap_s } : {}),
      ...(body.escalation_after_s !== undefined ? { escalation_after_s: body.escalation_after_s } : {}),
      ...(body.business_hours !== undefined ? { business_hours: JSON.stringify(body.business_hours) } : {}),
      ...(body.face_recognition !== undefined ? { face_recognition: body.face_recognition ? 1 : 0 } : {}),
      updated_at: toIso(this.deps.clock.now()),
    };
    await this.write(principal.tenantId, actor, 'automation.updated', before, row);
    return toAutomationView(this.settings(principal.tenantId));
  }

  /** Operator pause/resume of automatic incidents or automatic escalation for the whole organization. */
  async setPaused(principal: Principal, actor: Actor, target: AutomationTarget, paused: boolean): Promise<AutomationView> {
    assertEveryLocation(principal, `automatic ${target}`);
    const before = this.settings(principal.tenantId);
    const column = target === 'incidents' ? 'incidents_paused' : 'escalation_paused';
    const row: AutomationSettingsRow = { ...before.row, [column]: paused ? 1 : 0, updated_at: toIso(this.deps.clock.now()) };
    await this.write(principal.tenantId, actor, `automation.${target}_${paused ? 'paused' : 'resumed'}`, before, row);
    for (const fn of this.listeners) await fn(principal.tenantId, target, paused);
    return toAutomationView(this.settings(principal.tenantId));
  }

  private async write(tenantId: string, actor: Actor, action: string, before: TenantAutomation, row: AutomationSettingsRow) {
    await this.deps.database.withWriteLock(async (trx: DbExecutor) => {
      await automationRepository.upsert(trx, row);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId,
          action,
          resourceType: 'automation',
          resourceId: tenantId,
          data: { before: toAutomationView(before), after: toAutomationView({ row, businessHours: before.businessHours, stored: true }) },
        },
      ]);
    });
    await this.deps.invalidation.publish(CACHE_TOPICS.automation, tenantId);
  }

  private settings(tenantId: string): TenantAutomation {
    const known = this.byTenant.get(tenantId);
    if (known) return known;
    const d = this.defaults;
    return this.cache(
      {
        tenant_id: tenantId,
        incidents_paused: 0,
        escalation_paused: 0,
        incident_gap_s: d.incidentGapS,
        escalation_after_s: d.escalationAfterS,
        business_hours: JSON.stringify(d.businessHours),
        face_recognition: 0,
        updated_at: toIso(0),
      },
      false,
    );
  }

  private cache(row: AutomationSettingsRow, stored: boolean): TenantAutomation {
    const entry = { row, businessHours: compileSchedule(JSON.parse(row.business_hours) as Schedule), stored };
    this.byTenant.set(row.tenant_id, entry);
    return entry;
  }
}

function toAutomationView(s: TenantAutomation): AutomationView {
  return {
    object: 'automation',
    incidents: { paused: s.row.incidents_paused === 1, gap_s: s.row.incident_gap_s },
    escalation: { paused: s.row.escalation_paused === 1, after_s: s.row.escalation_after_s },
    business_hours: JSON.parse(s.row.business_hours) as Schedule,
    face_recognition: s.row.face_recognition === 1,
    updated_at: s.stored ? s.row.updated_at : null,
  };
}
