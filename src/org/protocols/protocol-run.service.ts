import { MAX_ESCALATION_LEVEL } from '../responders/index.ts';
import type { IncidentProtocols } from '../incidents/index.ts';
import type { Actor } from '../../platform/identity/index.ts';
import type { DatabaseHandle, DbExecutor } from '../../platform/db/index.ts';
import type { Clock } from '../../platform/time/index.ts';
import { VigilError, notFound } from '../../platform/lib/index.ts';
import { newId } from '../../platform/lib/index.ts';
import { toIso } from '../../platform/time/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import type { Principal } from '../../platform/identity/index.ts';
import type { EventSink } from '../../platform/outbox/index.ts';
import { AUTOMATION_ACTOR } from '../../platform/identity/index.ts';
import type { AutomationService, AutomationTarget } from '../automation/index.ts';
import { incidentRepository, type IncidentRow } from '../incidents/index.ts';
import { toIncidentView } from '../incidents/index.ts';
import { responderRepository } from '../responders/index.ts';
import type { ProtocolTypeService } from './protocol-type.service.ts';
import { protocolRepository, type ProtocolRunRow } from './protocol.repository.ts';
import { type OverrideRunBodyT, type ProtocolRunView, type TriggerProtocolBodyT } from './protocol.schemas.ts';

export function toProtocolRunView(r: ProtocolRunRow): ProtocolRunView {
  return {
    id: r.id,
    object: 'protocol_run',
    incident_id: r.incident_id,
    protocol_type: r.protocol_type,
    status: r.status,
    escalation_level: r.escalation_level,
    responders_notified: r.responders_notified,
    notify_responders: r.notify_responders === 1,
    steps: JSON.parse(r.steps) as string[],
    acknowledged_at: r.acknowledged_at,
    next_escalation_at: r.next_escalation_at === null ? null : toIso(Number(r.next_escalation_at)),
    created_at: r.created_at,
    updated_at: r.updated_at,
    ended_at: r.ended_at,
  };
}

type OperatorAction = 'pause' | 'resume' | 'terminate' | 'override';
type RunPatch = Partial<ProtocolRunRow>;

const CLOSED_INCIDENT = new Set(['resolved', 'dismissed']);

/**
 * Protocol runs (issue 3 §4–§5): triggering on an incident, notifying responders through the
 * signed delivery outbox, automatic escalation on a Clock timer (re-armed from the database at
 * start, so it survives a restart), and operator control: pause, resume, terminate (final) and
 * override (change the level, dismiss). Every change is audited with before/after and published
 * as protocol.state_changed.
 */
export class ProtocolRunService implements IncidentProtocols {
  private readonly timers = new Map<string, { handle: unknown; tenantId: string }>();
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      events: EventSink;
      automation: AutomationService;
      types: ProtocolTypeService;
      log?: { error(obj: unknown, msg?: string): void };
    },
  ) {
    deps.automation.onPauseChange((tenantId, target, paused) => this.applyAutomationPause(tenantId, target, paused));
  }

  /** Re-arms the escalation timers of every active run (server start). */
  async start(): Promise<void> {
    for (const run of await protocolRepository.listScheduled(this.deps.database.db)) this.arm(run);
  }

  stop(): void {
    for (const t of this.timers.values()) this.deps.clock.clearTimeout(t.handle);
    this.timers.clear();
  }

  /** Resolves when escalations started by timers so far have committed (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.inflight.size) await Promise.allSettled([...this.inflight]);
  }

  async trigger(principal: Principal, actor: Actor, incidentId: string, body: TriggerProtocolBodyT): Promise<ProtocolRunView> {
    const now = this.deps.clock.now();
    const run = await this.deps.database.withWriteLock(async (trx) => {
      const incident = await this.loadIncident(trx, principal, incidentId);
      const type = await this.deps.types.resolve(trx, principal.tenantId, body.protocol_type);
      if (CLOSED_INCIDENT.has(incident.status)) {
        throw new VigilError('invalid_state_transition', `Incident ${incident.id} is ${incident.status}; reopen work on a new incident to run a protocol.`, {
          param: 'incident_id',
          extra: { current_status: incident.status },
        });
      }
      const row: ProtocolRunRow = {
        id: newId('prot', now),
        tenant_id: principal.tenantId,
        incident_id: incident.id,
        protocol_type: type.name,
        steps: JSON.stringify(type.steps),
        status: 'active',
        escalation_level: body.escalation_level,
        notify_responders: body.notify_responders ? 1 : 0,
        responders_notified: 0,
        acknowledged_at: null,
        next_escalation_at: this.nextEscalation(principal.tenantId, body.escalation_level, now),
        created_by_key_id: actor.keyId,
        created_by_operator: actor.operator ?? null,
        created_at: toIso(now),
        updated_at: toIso(now),
        ended_at: null,
      };
      await protocolRepository.insertRun(trx, row);
      if (body.notify_responders) {
        row.responders_notified = await this.notifyIn(trx, row, incident, 'triggered');
        await protocolRepository.updateRun(trx, row.id, { responders_notified: row.responders_notified });
      }
      const view = toProtocolRunView(row);
      await this.deps.audit.appendIn(trx, actor, [
        { tenantId: principal.tenantId, action: 'protocol.triggered', resourceType: 'protocol_run', resourceId: row.id, data: { incident_id: incident.id, after: view }, scope: { location: incident.location } },
      ]);
      await this.deps.events.enqueueIn(trx, {
        tenantId: principal.tenantId,
        kind: 'protocol.triggered',
        payload: { protocol_run: view, incident: toIncidentView(incident) },
      });
      return row;
    });
    this.arm(run);
    return toProtocolRunView(run);
  }

  async get(principal: Principal, id: string): Promise<ProtocolRunView> {
    return toProtocolRunView(await this.loadRun(this.deps.database.db, principal, id));
  }

  /** Operator control (issue 3 §5). Terminated runs refuse everything with 409 protocol_run_terminated. */
  async operate(principal: Principal, actor: Actor, id: string, action: OperatorAction, body: OverrideRunBodyT = {}): Promise<ProtocolRunView> {
    const now = this.deps.clock.now();
    const after = await this.deps.database.withWriteLock(async (trx) => {
      const run = await this.loadRun(trx, principal, id);
      if (run.status === 'terminated') {
        throw new VigilError('protocol_run_terminated', `Protocol run ${id} was terminated; a terminated run is final.`, { param: 'id' });
      }
      const incident = (await incidentRepository.findById(trx, run.incident_id))!;
      const refuse = (allowed: string) =>
        new VigilError('invalid_state_transition', `Cannot ${action} protocol run ${id}: it is ${run.status} (${action} needs ${allowed}).`, {
          param: 'id',
          extra: { current_status: run.status },
        });
      let patch: RunPatch;
      let auditAction: string;
      switch (action) {
        case 'pause':
          if (run.status !== 'active') throw refuse('active');
          patch = { status: 'paused', next_escalation_at: null };
          auditAction = 'protocol_run.paused';
          break;
        case 'resume':
          if (run.status !== 'paused') throw refuse('paused');
          patch = { status: 'active', next_escalation_at: run.acknowledged_at ? null : this.nextEscalation(run.tenant_id, run.escalation_level, now) };
          auditAction = 'protocol_run.resumed';
          break;
        case 'terminate':
          if (run.status !== 'active' && run.status !== 'paused') throw refuse('active or paused');
          patch = { status: 'terminated', next_escalation_at: null, ended_at: toIso(now) };
          auditAction = 'protocol_run.terminated';
          break;
        case 'override':
          if (run.status !== 'active' && run.status !== 'paused') throw refuse('active or paused');
          patch = await this.overridePatch(trx, run, incident, body, now);
          auditAction = 'protocol_run.overridden';
          break;
      }
      return this.applyIn(trx, actor, run, incident, { ...patch, updated_at: toIso(now) }, auditAction, body.reason);
    });
    this.arm(after);
    return toProtocolRunView(after);
  }

  /**
   * Follows the incident (called in the incident's transaction): acknowledging it acknowledges its
   * live runs (no more escalation); resolving or dismissing it completes them. Returns what to do
   * after commit.
   */
  async runsOf(db: DbExecutor, incidentId: string): Promise<Array<{ id: string; created_at: string; view: ProtocolRunView }>> {
    return (await protocolRepository.listRunsByIncident(db, incidentId)).map((r) => ({ id: r.id, created_at: r.created_at, view: toProtocolRunView(r) }));
  }

  async followIncidentIn(trx: DbExecutor, actor: Actor, incident: IncidentRow): Promise<() => void> {
    const now = this.deps.clock.now();
    const changed: ProtocolRunRow[] = [];
    for (const run of await protocolRepository.listLiveRunsByIncident(trx, incident.id)) {
      if (incident.status === 'acknowledged' && run.acknowledged_at === null) {
        changed.push(await this.applyIn(trx, actor, run, incident, { acknowledged_at: toIso(now), next_escalation_at: null, updated_at: toIso(now) }, 'protocol_run.acknowledged'));
      } else if (CLOSED_INCIDENT.has(incident.status)) {
        changed.push(
          await this.applyIn(trx, actor, run, incident, { status: 'completed', next_escalation_at: null, ended_at: toIso(now), updated_at: toIso(now) }, 'protocol_run.completed'),
        );
      }
    }
    return () => changed.forEach((r) => this.arm(r));
  }

  private async overridePatch(trx: DbExecutor, run: ProtocolRunRow, incident: IncidentRow, body: OverrideRunBodyT, now: number): Promise<RunPatch> {
    const level = body.escalation_level ?? run.escalation_level;
    if (body.dismiss) return { status: 'dismissed', escalation_level: level, next_escalation_at: null, ended_at: toIso(now) };
    let notified = run.responders_notified;
    if (run.notify_responders === 1 && level > run.escalation_level) {
      notified += await this.notifyIn(trx, { ...run, escalation_level: level }, incident, 'override');
    }
    const escalates = run.status === 'active' && run.acknowledged_at === null;
    return {
      escalation_level: level,
      responders_notified: notified,
      next_escalation_at: escalates ? this.nextEscalation(run.tenant_id, level, now) : null,
    };
  }

  /** Writes a run change with its audit entry (before/after) and protocol.state_changed event. */
  private async applyIn(trx: DbExecutor, actor: Actor, run: ProtocolRunRow, incident: IncidentRow, patch: RunPatch, action: string, reason?: string): Promise<ProtocolRunRow> {
    const after: ProtocolRunRow = { ...run, ...patch };
    await protocolRepository.updateRun(trx, run.id, patch);
    const before = toProtocolRunView(run);
    const view = toProtocolRunView(after);
    await this.deps.audit.appendIn(trx, actor, [
      {
        tenantId: run.tenant_id,
        action,
        resourceType: 'protocol_run',
        resourceId: run.id,
        data: { incident_id: run.incident_id, before, after: view, ...(reason ? { reason } : {}) },
        scope: { location: incident.location },
      },
    ]);
    await this.deps.events.enqueueIn(trx, {
      tenantId: run.tenant_id,
      kind: 'protocol.state_changed',
      location: incident.location,
      payload: {
        change: action.replace(/^protocol_run\./, ''),
        previous: { status: before.status, escalation_level: before.escalation_level },
        protocol_run: view,
        incident_id: incident.id,
        actor: { key_id: actor.keyId, operator: actor.operator ?? null },
      },
    });
    return after;
  }

  /**
   * Notifies responders at or below the run's level who have not been notified for this run yet,
   * each by a signed delivery to its own contact URL. Returns how many were notified now.
   */
  private async notifyIn(trx: DbExecutor, run: ProtocolRunRow, incident: IncidentRow, reason: 'triggered' | 'escalated' | 'override'): Promise<number> {
    const responders = await responderRepository.listAtOrBelow(trx, run.tenant_id, run.escalation_level);
    const already = new Set((await protocolRepository.listNotifiedResponderIds(trx, run.id)).map((r) => r.responder_id));
    const fresh = responders.filter((r) => !already.has(r.id));
    const now = toIso(this.deps.clock.now());
    const runView = toProtocolRunView({ ...run, responders_notified: already.size + fresh.length });
    const rows = [];
    for (const r of fresh) {
      const { eventId } = await this.deps.events.enqueueToUrlIn(trx, {
        tenantId: run.tenant_id,
        kind: reason === 'triggered' ? 'protocol.triggered' : 'protocol.state_changed',
        url: r.webhook_url,
        secret: r.signing_secret,
        payload: {
          reason,
          responder: { id: r.id, name: r.name, kind: r.kind, escalation_level: r.escalation_level },
          protocol_run: runView,
          incident: toIncidentView(incident),
        },
      });
      rows.push({ run_id: run.id, responder_id: r.id, tenant_id: run.tenant_id, escalation_level: run.escalation_level, delivery_event_id: eventId, notified_at: now });
    }
    await protocolRepository.insertNotifications(trx, rows);
    return fresh.length;
  }

  private nextEscalation(tenantId: string, level: number, now: number): number | null {
    return level < MAX_ESCALATION_LEVEL ? now + this.deps.automation.escalationAfterMs(tenantId) : null;
  }

  /** Sets (or clears) the run's escalation timer to match its row. */
  private arm(run: ProtocolRunRow): void {
    const existing = this.timers.get(run.id);
    if (existing) {
      this.deps.clock.clearTimeout(existing.handle);
      this.timers.delete(run.id);
    }
    if (run.status !== 'active' || run.acknowledged_at !== null || run.next_escalation_at === null) return;
    if (this.deps.automation.escalationPaused(run.tenant_id)) return;
    const delay = Math.max(0, Number(run.next_escalation_at) - this.deps.clock.now());
    const handle = this.deps.clock.setTimeout(() => this.track(this.escalate(run.id)), delay);
    this.timers.set(run.id, { handle, tenantId: run.tenant_id });
  }

  private track(p: Promise<void>): void {
    const done = p.catch((err) => this.deps.log?.error({ err }, 'protocol escalation failed')).finally(() => this.inflight.delete(done));
    this.inflight.add(done);
  }

  /** One automatic escalation step: one level up, the new responders notified, the next step armed. */
  private async escalate(runId: string): Promise<void> {
    this.timers.delete(runId);
    const now = this.deps.clock.now();
    const after = await this.deps.database.withWriteLock(async (trx) => {
      const run = await protocolRepository.findRun(trx, runId);
      if (!run || run.status !== 'active' || run.acknowledged_at !== null || run.next_escalation_at === null) return null;
      // paused automation takes no automated step; resuming re-arms from the database
      if (this.deps.automation.escalationPaused(run.tenant_id)) return null;
      if (Number(run.next_escalation_at) > now) return run;
      const incident = (await incidentRepository.findById(trx, run.incident_id))!;
      const level = Math.min(MAX_ESCALATION_LEVEL, run.escalation_level + 1);
      const raised = { ...run, escalation_level: level };
      const notified = run.notify_responders === 1 ? await this.notifyIn(trx, raised, incident, 'escalated') : 0;
      return this.applyIn(
        trx,
        AUTOMATION_ACTOR,
        run,
        incident,
        {
          escalation_level: level,
          responders_notified: run.responders_notified + notified,
          next_escalation_at: this.nextEscalation(run.tenant_id, level, now),
          updated_at: toIso(now),
        },
        'protocol_run.escalated',
      );
    });
    if (after) this.arm(after);
  }

  /** Organization-wide pause/resume of automatic escalation (operator control). */
  private async applyAutomationPause(tenantId: string, target: AutomationTarget, paused: boolean): Promise<void> {
    if (target !== 'escalation') return;
    if (paused) {
      for (const [id, t] of this.timers) {
        if (t.tenantId !== tenantId) continue;
        this.deps.clock.clearTimeout(t.handle);
        this.timers.delete(id);
      }
      return;
    }
    // escalation time restarts at resume: the pause is not counted as time left unanswered
    const now = this.deps.clock.now();
    const runs = await this.deps.database.withWriteLock(async (trx) => {
      const due = await protocolRepository.listEscalatable(trx, tenantId, MAX_ESCALATION_LEVEL);
      const next = this.nextEscalation(tenantId, 1, now);
      for (const r of due) await protocolRepository.updateRun(trx, r.id, { next_escalation_at: next });
      return due.map((r) => ({ ...r, next_escalation_at: next }));
    });
    runs.forEach((r) => this.arm(r));
  }

  private async loadIncident(db: DbExecutor, principal: Principal, id: string): Promise<IncidentRow> {
    const row = await incidentRepository.findForTenant(db, principal.tenantId, id);
    if (!row || (principal.locations && !principal.locations.includes(row.location))) throw notFound('incident', id, 'incident_id');
    return row;
  }

  private async loadRun(db: DbExecutor, principal: Principal, id: string): Promise<ProtocolRunRow> {
    const run = await protocolRepository.findRunForTenant(db, principal.tenantId, id);
    if (run && principal.locations) {
      const incident = await incidentRepository.findById(db, run.incident_id);
      if (!incident || !principal.locations.includes(incident.location)) throw notFound('protocol run', id);
    }
    if (!run) throw notFound('protocol run', id);
    return run;
  }
}
