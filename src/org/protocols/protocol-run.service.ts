import { MAX_ESCALATION_LEVEL, listRespondersAtOrBelow } from '../responders/index.ts';
import { type IncidentProtocols, findIncident, findIncidentById, type IncidentRow, toIncidentView } from '../incidents/index.ts';
import { type Actor, type Principal, AUTOMATION_ACTOR } from '../../platform/identity/index.ts';
import type { DatabaseHandle, DbExecutor } from '../../platform/db/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import { VigilError, notFound, newId } from '../../platform/lib/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import type { JobRun, Scheduler } from '../../platform/scheduler/index.ts';
import type { ChannelTarget, DeliveryOutcome, EventSink, NotificationMessage } from '../../platform/outbox/index.ts';
import { responderDevices } from '../../platform/notify/index.ts';
import type { AutomationService, AutomationTarget } from '../automation/index.ts';
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
    responders_unreached: r.responders_unreached,
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

/** The scheduled job (platform/scheduler) that escalates a run; its key is the run id. */
export const ESCALATION_JOB = 'protocol.escalation';

/** Whether a run waits for an automatic escalation step. */
function escalates(run: ProtocolRunRow): boolean {
  return run.status === 'active' && run.acknowledged_at === null && run.next_escalation_at !== null;
}

/**
 * Protocol runs: triggering on an incident, notifying responders through the
 * signed delivery outbox, automatic escalation, and operator control: pause, resume, terminate
 * (final) and override (change the level, dismiss). Every change is audited with before/after and
 * published as protocol.state_changed.
 *
 * The escalation timer is a durable scheduled job, set or cancelled in the same
 * transaction as the run change that moves `next_escalation_at`: it survives a restart, and with
 * several nodes exactly one runs each step (the step and "done" commit together; a node whose
 * claim was taken over rolls back).
 */
export class ProtocolRunService implements IncidentProtocols {
  private unhandle: (() => void) | null = null;

  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      events: EventSink;
      automation: AutomationService;
      types: ProtocolTypeService;
      /** durable timers: escalation steps run once cluster-wide; failures are logged and retried there */
      scheduler: Scheduler;
      /** links in responders' push and email (VIGIL_PUBLIC_URL) */
      publicBaseUrl?: string;
      /**
       * How long a trigger or an override waits for its responders' first attempts before it
       * answers, so its `responders_notified` counts people reached (0: does not wait); only while
       * `deliveriesRunning()` says a delivery worker is sending
       */
      notifyWaitMs?: number;
      deliveriesRunning?: () => boolean;
    },
  ) {
    deps.automation.onPauseChange((tenantId, target, paused) => this.applyAutomationPause(tenantId, target, paused));
    this.unhandle = deps.scheduler.handle(ESCALATION_JOB, (job, run) => this.escalate(job.key, run));
  }

  /**
   * Server start: gives every scheduled run its escalation job if it has none (runs escalating
   * before the jobs table existed), and wakes this node for them. Jobs a node already scheduled
   * are left as they are, so every node may do this.
   */
  async start(): Promise<void> {
    for (const run of await protocolRepository.listScheduled(this.deps.database.db)) {
      if (run.acknowledged_at !== null) continue;
      await this.deps.scheduler.ensure({ kind: ESCALATION_JOB, key: run.id, tenantId: run.tenant_id, dueAt: Number(run.next_escalation_at) });
    }
  }

  /** This node stops taking escalation steps (others still do). */
  stop(): void {
    this.unhandle?.();
    this.unhandle = null;
  }

  /** Resolves when escalations this node has started so far have committed (tests, shutdown). */
  async settled(): Promise<void> {
    await this.deps.scheduler.settled();
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
        responders_unreached: 0,
        acknowledged_at: null,
        next_escalation_at: this.nextEscalation(principal.tenantId, body.escalation_level, now),
        created_by_key_id: actor.keyId,
        created_by_operator: actor.operator ?? null,
        created_at: toIso(now),
        updated_at: toIso(now),
        ended_at: null,
      };
      await protocolRepository.insertRun(trx, row);
      await this.scheduleIn(trx, row);
      if (body.notify_responders) await this.notifyIn(trx, row, incident, 'triggered');
      const view = toProtocolRunView(row);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'protocol.triggered',
          resourceType: 'protocol_run',
          resourceId: row.id,
          data: { incident_id: incident.id, after: view },
          scope: { location: incident.location },
        },
      ]);
      await this.deps.events.enqueueIn(trx, {
        tenantId: principal.tenantId,
        kind: 'protocol.triggered',
        payload: { protocol_run: view, incident: toIncidentView(incident) },
      });
      return row;
    });
    this.arm(run);
    return toProtocolRunView(run.notify_responders === 1 ? await this.awaitReach(run.id) : run);
  }

  /**
   * Waits (bounded by notifyWaitMs) until every delivery of the run's responders has had its
   * outcome or a retry is planned, then records and returns the run with its counts of responders
   * reached and unreached (docs/decisions.md, "Notifications through the outbox").
   */
  private async awaitReach(runId: string): Promise<ProtocolRunRow> {
    const wait = this.deps.notifyWaitMs ?? 0;
    const deadline = Date.now() + wait;
    const db = this.deps.database.db;
    if (wait > 0 && this.deps.deliveriesRunning?.()) {
      for (;;) {
        const reach = await protocolRepository.reach(db, runId);
        const settled = reach.every((r) => r.delivered > 0 || r.open === 0 || r.total === 0);
        if (settled || Date.now() >= deadline) break;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    await this.recount([runId]);
    return (await protocolRepository.findRun(db, runId))!;
  }

  /** The outcome of deliveries (from the delivery worker): the runs they notify recount who was reached. */
  async onDeliveryOutcomes(outcomes: DeliveryOutcome[]): Promise<void> {
    const runs = await protocolRepository.runsOfEvents(this.deps.database.db, [...new Set(outcomes.map((o) => o.eventId))]);
    if (runs.length) await this.recount(runs);
  }

  /**
   * Deliveries were cancelled before they were sent (a responder deleted, a device revoked): the
   * runs they notify recount, so a responder left with nothing delivered nor still trying counts
   * as unreached, as the run's notification report says.
   */
  async onDeliveriesCancelled(eventIds: string[]): Promise<void> {
    const runs = await protocolRepository.runsOfEvents(this.deps.database.db, [...new Set(eventIds)]);
    if (runs.length) await this.recount(runs);
  }

  /** responders_notified: responders with a delivered notification; responders_unreached: those with none delivered and none still trying. */
  private async recount(runIds: string[]): Promise<void> {
    const counts: Array<{ id: string; reached: number; unreached: number }> = [];
    for (const id of runIds) {
      const reach = await protocolRepository.reach(this.deps.database.db, id);
      counts.push({ id, reached: reach.filter((r) => r.delivered > 0).length, unreached: reach.filter((r) => r.delivered === 0 && r.open === 0).length });
    }
    await this.deps.database.withWriteLock(async (trx) => {
      for (const c of counts) await protocolRepository.updateRun(trx, c.id, { responders_notified: c.reached, responders_unreached: c.unreached });
    });
  }

  /** Each responder notified for a run, with the outcome of each channel: who was reached, who was not and why. */
  async notifications(principal: Principal, id: string) {
    const run = await this.loadRun(this.deps.database.db, principal, id);
    const rows = await protocolRepository.notificationsOf(this.deps.database.db, run.id);
    const byResponder = new Map<
      string,
      {
        responder_id: string;
        name: string | null;
        escalation_level: number;
        notified_at: string;
        reached: boolean;
        pending: boolean;
        channels: Array<{ channel: string; delivery_id: string; status: string; error: string | null }>;
      }
    >();
    for (const r of rows) {
      let entry = byResponder.get(r.responder_id);
      if (!entry)
        byResponder.set(
          r.responder_id,
          (entry = {
            responder_id: r.responder_id,
            name: r.name,
            escalation_level: r.escalation_level,
            notified_at: r.notified_at,
            reached: false,
            pending: false,
            channels: [],
          }),
        );
      if (!r.delivery_id) continue;
      entry.channels.push({ channel: r.channel ?? 'webhook', delivery_id: r.delivery_id, status: r.status!, error: r.last_error });
      if (r.status === 'delivered') entry.reached = true;
      if (r.status === 'pending' || r.status === 'retrying') entry.pending = true;
    }
    const data = [...byResponder.values()].map((e) => ({ ...e, pending: !e.reached && e.pending }));
    return { object: 'list' as const, data, has_more: false };
  }

  async get(principal: Principal, id: string): Promise<ProtocolRunView> {
    return toProtocolRunView(await this.loadRun(this.deps.database.db, principal, id));
  }

  /** Operator control. Terminated runs refuse everything with 409 protocol_run_terminated. */
  async operate(principal: Principal, actor: Actor, id: string, action: OperatorAction, body: OverrideRunBodyT = {}): Promise<ProtocolRunView> {
    const now = this.deps.clock.now();
    const after = await this.deps.database.withWriteLock(async (trx) => {
      const run = await this.loadRun(trx, principal, id);
      if (run.status === 'terminated') {
        throw new VigilError('protocol_run_terminated', `Protocol run ${id} was terminated; a terminated run is final.`, { param: 'id' });
      }
      const incident = (await findIncidentById(trx, run.incident_id))!;
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
    return toProtocolRunView(action === 'override' && after.notify_responders === 1 ? await this.awaitReach(after.id) : after);
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
        changed.push(
          await this.applyIn(
            trx,
            actor,
            run,
            incident,
            { acknowledged_at: toIso(now), next_escalation_at: null, updated_at: toIso(now) },
            'protocol_run.acknowledged',
          ),
        );
      } else if (CLOSED_INCIDENT.has(incident.status)) {
        changed.push(
          await this.applyIn(
            trx,
            actor,
            run,
            incident,
            { status: 'completed', next_escalation_at: null, ended_at: toIso(now), updated_at: toIso(now) },
            'protocol_run.completed',
          ),
        );
      }
    }
    return () => changed.forEach((r) => this.arm(r));
  }

  private async overridePatch(trx: DbExecutor, run: ProtocolRunRow, incident: IncidentRow, body: OverrideRunBodyT, now: number): Promise<RunPatch> {
    const level = body.escalation_level ?? run.escalation_level;
    if (body.dismiss) return { status: 'dismissed', escalation_level: level, next_escalation_at: null, ended_at: toIso(now) };
    if (run.notify_responders === 1 && level > run.escalation_level) {
      await this.notifyIn(trx, { ...run, escalation_level: level }, incident, 'override');
    }
    const escalates = run.status === 'active' && run.acknowledged_at === null;
    return {
      escalation_level: level,
      next_escalation_at: escalates ? this.nextEscalation(run.tenant_id, level, now) : null,
    };
  }

  /** Writes a run change with its audit entry (before/after) and protocol.state_changed event. */
  private async applyIn(
    trx: DbExecutor,
    actor: Actor,
    run: ProtocolRunRow,
    incident: IncidentRow,
    patch: RunPatch,
    action: string,
    reason?: string,
  ): Promise<ProtocolRunRow> {
    const after: ProtocolRunRow = { ...run, ...patch };
    await protocolRepository.updateRun(trx, run.id, patch);
    await this.scheduleIn(trx, after);
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
   * each on every channel it has: a signed webhook to its contact URL, an email to its contact
   * address, a push to each of its devices, all under one outbox event per responder so the run
   * can tell who was reached (docs/decisions.md, "Notifications through the outbox"). Returns how
   * many responders were sent to now.
   */
  private async notifyIn(trx: DbExecutor, run: ProtocolRunRow, incident: IncidentRow, reason: 'triggered' | 'escalated' | 'override'): Promise<number> {
    const responders = await listRespondersAtOrBelow(trx, run.tenant_id, run.escalation_level);
    const already = new Set((await protocolRepository.listNotifiedResponderIds(trx, run.id)).map((r) => r.responder_id));
    const fresh = responders.filter((r) => !already.has(r.id));
    const now = toIso(this.deps.clock.now());
    const runView = toProtocolRunView(run);
    const base = (this.deps.publicBaseUrl ?? '').replace(/\/+$/, '');
    const message: NotificationMessage = {
      event: reason === 'triggered' ? 'protocol.triggered' : 'protocol.state_changed',
      title: `${reason === 'triggered' ? 'Protocol' : 'Escalated'}: ${run.protocol_type} — ${incident.title ?? 'incident'}`,
      body: `Level ${run.escalation_level} at ${incident.location}. Open the incident to acknowledge.`,
      url: `${base}/console/#/incidents?id=${encodeURIComponent(incident.id)}`,
      tag: `incident:${incident.id}`,
      severity: 'critical',
      count: 1,
      occurred_at: now,
      location: incident.location,
      incident_id: incident.id,
    };
    const rows = [];
    for (const r of fresh) {
      const targets: ChannelTarget[] = r.webhook_url ? [{ channel: 'webhook', url: r.webhook_url, secret: r.signing_secret }] : [];
      if (r.email) targets.push({ channel: 'email', address: r.email, message });
      for (const d of await responderDevices(trx, r.id)) {
        targets.push(
          d.channel === 'push' ? { channel: 'push', subscriptionId: d.id, message } : { channel: 'email', address: d.address!, subscriptionId: d.id, message },
        );
      }
      const { eventId } = await this.deps.events.enqueueToTargetsIn(
        trx,
        {
          tenantId: run.tenant_id,
          kind: reason === 'triggered' ? 'protocol.triggered' : 'protocol.state_changed',
          location: incident.location,
          payload: {
            reason,
            responder: { id: r.id, name: r.name, kind: r.kind, escalation_level: r.escalation_level },
            protocol_run: runView,
            incident: toIncidentView(incident),
          },
        },
        targets,
      );
      rows.push({
        run_id: run.id,
        responder_id: r.id,
        tenant_id: run.tenant_id,
        escalation_level: run.escalation_level,
        delivery_event_id: eventId,
        notified_at: now,
      });
    }
    await protocolRepository.insertNotifications(trx, rows);
    return fresh.length;
  }

  private nextEscalation(tenantId: string, level: number, now: number): number | null {
    return level < MAX_ESCALATION_LEVEL ? now + this.deps.automation.escalationAfterMs(tenantId) : null;
  }

  /** Sets (or cancels) the run's escalation job to match its row, in the run change's transaction. */
  private async scheduleIn(trx: DbExecutor, run: ProtocolRunRow): Promise<void> {
    if (escalates(run)) {
      await this.deps.scheduler.scheduleIn(trx, { kind: ESCALATION_JOB, key: run.id, tenantId: run.tenant_id, dueAt: Number(run.next_escalation_at) });
    } else {
      await this.deps.scheduler.cancelIn(trx, ESCALATION_JOB, run.id);
    }
  }

  /** After the commit: wakes this node for the run's next escalation step. */
  private arm(run: ProtocolRunRow): void {
    if (escalates(run)) this.deps.scheduler.wakeAt(Number(run.next_escalation_at));
  }

  /**
   * One automatic escalation step (the scheduled job): one level up, the new responders notified,
   * the next step scheduled, all in one transaction with the job marked done first, so a node
   * whose claim was taken over writes nothing.
   */
  private async escalate(runId: string, job: JobRun): Promise<void> {
    const now = this.deps.clock.now();
    const after = await this.deps.database.withWriteLock(async (trx) => {
      await job.completeIn(trx);
      const run = await protocolRepository.findRun(trx, runId);
      if (!run || !escalates(run)) return null;
      // paused automation takes no automated step; resuming schedules again. Read in this
      // transaction, not from the cache, so a pause made on another node counts at once.
      if (await this.deps.automation.escalationPausedIn(trx, run.tenant_id)) return null;
      if (Number(run.next_escalation_at) > now) {
        await this.scheduleIn(trx, run);
        return run;
      }
      const incident = (await findIncidentById(trx, run.incident_id))!;
      const level = Math.min(MAX_ESCALATION_LEVEL, run.escalation_level + 1);
      const raised = { ...run, escalation_level: level };
      if (run.notify_responders === 1) await this.notifyIn(trx, raised, incident, 'escalated');
      return this.applyIn(
        trx,
        AUTOMATION_ACTOR,
        run,
        incident,
        {
          escalation_level: level,
          next_escalation_at: this.nextEscalation(run.tenant_id, level, now),
          updated_at: toIso(now),
        },
        'protocol_run.escalated',
      );
    });
    if (after) this.arm(after);
  }

  /**
   * Organization-wide pause/resume of automatic escalation (operator control). A pause leaves the
   * jobs in place (each finds the pause when it falls due and takes no step); resuming schedules
   * every waiting run again.
   */
  private async applyAutomationPause(tenantId: string, target: AutomationTarget, paused: boolean): Promise<void> {
    if (target !== 'escalation') return;
    if (paused) return;
    // escalation time restarts at resume: the pause is not counted as time left unanswered
    const now = this.deps.clock.now();
    const runs = await this.deps.database.withWriteLock(async (trx) => {
      const due = await protocolRepository.listEscalatable(trx, tenantId, MAX_ESCALATION_LEVEL);
      const next = this.nextEscalation(tenantId, 1, now);
      const after = due.map((r) => ({ ...r, next_escalation_at: next }));
      for (const r of after) {
        await protocolRepository.updateRun(trx, r.id, { next_escalation_at: next });
        await this.scheduleIn(trx, r);
      }
      return after;
    });
    runs.forEach((r) => this.arm(r));
  }

  private async loadIncident(db: DbExecutor, principal: Principal, id: string): Promise<IncidentRow> {
    const row = await findIncident(db, principal.tenantId, id);
    if (!row || (principal.locations && !principal.locations.includes(row.location))) throw notFound('incident', id, 'incident_id');
    return row;
  }

  private async loadRun(db: DbExecutor, principal: Principal, id: string): Promise<ProtocolRunRow> {
    const run = await protocolRepository.findRunForTenant(db, principal.tenantId, id);
    if (run && principal.locations) {
      const incident = await findIncidentById(db, run.incident_id);
      if (!incident || !principal.locations.includes(incident.location)) throw notFound('protocol run', id);
    }
    if (!run) throw notFound('protocol run', id);
    return run;
  }
}
