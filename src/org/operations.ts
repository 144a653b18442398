import { defineServiceModule, token } from '../platform/lib/index.ts';
import { CLOCK, type Clock } from '../platform/time/index.ts';
import { CONFIG } from '../platform/config/index.ts';
import { DATABASE, type DatabaseHandle } from '../platform/db/index.ts';
import { AUDIT, type AuditService } from '../platform/audit/index.ts';
import { DELIVERY_WORKER, WEBHOOKS, type EventSink, type UrlGuard } from '../platform/outbox/index.ts';
import { NOTIFICATIONS } from '../platform/notify/index.ts';
import { findResponder, ResponderService } from './responders/index.ts';
import { COORDINATION, type CacheInvalidation } from '../platform/coordination/index.ts';
import { SCHEDULER, type Scheduler } from '../platform/scheduler/index.ts';
import { PIPELINE } from './pipeline/index.ts';
import { findActiveIncidentAtScene, AnomalyWatcher, IncidentService } from './incidents/index.ts';
import { AlertEngine, AlertRuleService, AlertService } from './alerts/index.ts';
import { ProtocolRunService, ProtocolTypeService } from './protocols/index.ts';
import { AutomationService } from './automation/index.ts';

/** Surface B operations: alerts, incidents, responders, protocols, operator control. */
export interface Operations {
  automation: AutomationService;
  alertEngine: AlertEngine;
  alertRules: AlertRuleService;
  alerts: AlertService;
  anomalies: AnomalyWatcher;
  incidents: IncidentService;
  responders: ResponderService;
  protocolTypes: ProtocolTypeService;
  protocolRuns: ProtocolRunService;
  /** gives runs scheduled before the jobs table existed their escalation jobs */
  start(): Promise<void>;
  /** stops taking escalation steps on this node and waits for those in flight */
  close(): Promise<void>;
}

/** The operations' services, made together: they share the automation settings and the protocol runs. */
function buildOperations(deps: {
  database: DatabaseHandle;
  clock: Clock;
  audit: AuditService;
  /** the webhook outbox (WebhookService) */
  events: EventSink;
  urlGuard: UrlGuard;
  /** alert rules and automation settings are cached in memory; writers announce changes here */
  invalidation: CacheInvalidation;
  /** durable timers (protocol escalations) */
  scheduler: Scheduler;
  /** cluster mode: alert cooldowns are claimed in the shared database */
  cluster?: boolean;
  /** links in responders' notifications */
  publicBaseUrl?: string;
  /** whether this node's delivery worker is sending (a trigger then waits briefly for its responders' first attempts) */
  deliveriesRunning?: () => boolean;
}): Operations {
  const { database, clock, audit, events } = deps;
  const automation = new AutomationService({ database, clock, audit, invalidation: deps.invalidation });
  const protocolTypes = new ProtocolTypeService({ database, clock, audit });
  const protocolRuns = new ProtocolRunService({
    database,
    clock,
    audit,
    events,
    automation,
    types: protocolTypes,
    scheduler: deps.scheduler,
    publicBaseUrl: deps.publicBaseUrl,
    notifyWaitMs: 3000,
    deliveriesRunning: deps.deliveriesRunning,
  });
  const incidents = new IncidentService({ database, clock, audit, events, runs: protocolRuns });
  const alertEngine = new AlertEngine({
    clock,
    audit,
    events,
    activeIncidentAt: async (db, sceneId) => (await findActiveIncidentAtScene(db, sceneId))?.id ?? null,
    sharedCooldowns: deps.cluster ?? false,
  });
  return {
    automation,
    alertEngine,
    alertRules: new AlertRuleService({ database, clock, audit, engine: alertEngine, invalidation: deps.invalidation }),
    alerts: new AlertService({ database, clock, audit }),
    anomalies: new AnomalyWatcher({ automation, incidents, events }),
    incidents,
    responders: new ResponderService({
      database,
      clock,
      audit,
      urlGuard: deps.urlGuard,
      onDeliveriesCancelled: (eventIds) => protocolRuns.onDeliveriesCancelled(eventIds),
    }),
    protocolTypes,
    protocolRuns,
    start: () => protocolRuns.start(),
    async close() {
      protocolRuns.stop();
      await protocolRuns.settled();
    },
  };
}

export const OPERATIONS = token<Operations>('operations');

/** Surface B operations as one service module: made together, then hooked onto the pipeline. */
export const operationServices = defineServiceModule({
  name: 'operations',
  provide: (c) => {
    c.provide(OPERATIONS, (c) => {
      const webhooks = c.get(WEBHOOKS);
      return buildOperations({
        database: c.get(DATABASE),
        clock: c.get(CLOCK),
        audit: c.get(AUDIT),
        events: webhooks,
        urlGuard: webhooks,
        invalidation: c.get(COORDINATION).invalidation,
        scheduler: c.get(SCHEDULER),
        cluster: c.get(CONFIG).cluster,
        publicBaseUrl: c.get(CONFIG).publicBaseUrl,
        deliveriesRunning: () => c.get(DELIVERY_WORKER).running,
      });
    });
  },
  async install(c) {
    const ops = c.get(OPERATIONS);
    const database = c.get(DATABASE);
    await ops.automation.loadAll();
    await ops.alertEngine.loadAll(database.db);
    ops.alertEngine.followChanges(c.get(COORDINATION).invalidation, database.db);
    // anomalies before alert rules: an automatic incident opened in this commit is there for the alerts that follow to attach to
    const pipeline = c.get(PIPELINE);
    pipeline.addHook(ops.anomalies, { name: 'incidents.anomalies', order: 200 });
    pipeline.addHook(ops.alertEngine, { name: 'alerts.rules', order: 300 });
    // responders_notified counts responders reached: each recorded delivery outcome recounts its run
    c.get(DELIVERY_WORKER).onOutcome((outcomes) => ops.protocolRuns.onDeliveryOutcomes(outcomes));
    // and so does a revoked device's queued delivery, cancelled before it was sent
    c.get(NOTIFICATIONS).onDeliveriesCancelled((eventIds) => ops.protocolRuns.onDeliveriesCancelled(eventIds));
    // a responder's devices are subscribed by responder id (platform/notify does not import org)
    c.get(NOTIFICATIONS).setResponderCheck(async (tenantId, id) => (await findResponder(database.db, tenantId, id)) !== undefined);
  },
});
