import { incidentRepository } from './incidents/index.ts';
import type { DatabaseHandle } from '../platform/db/index.ts';
import type { Clock } from '../platform/time/index.ts';
import type { AuditService } from '../platform/audit/index.ts';
import type { DetectionPipeline } from './pipeline/index.ts';
import { AlertEngine } from './alerts/index.ts';
import { AlertRuleService } from './alerts/index.ts';
import { AlertService } from './alerts/index.ts';
import { AnomalyWatcher } from './incidents/index.ts';
import { IncidentService } from './incidents/index.ts';
import { ProtocolRunService } from './protocols/index.ts';
import { ProtocolTypeService } from './protocols/index.ts';
import { ResponderService } from './responders/index.ts';
import { AutomationService, type AutomationDefaults } from './automation/index.ts';
import type { EventSink, UrlGuard } from '../platform/outbox/index.ts';
import type { CacheInvalidation } from '../platform/coordination/index.ts';

/** Surface B operations (issue 3 §1, §3–§5): alerts, incidents, responders, protocols, operator control. */
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
  /** re-arms escalation timers from the database */
  start(): Promise<void>;
  /** clears timers and waits for escalations in flight */
  close(): Promise<void>;
}

export async function createOperations(deps: {
  database: DatabaseHandle;
  clock: Clock;
  audit: AuditService;
  pipeline: DetectionPipeline;
  /** the webhook outbox (WebhookService) */
  events: EventSink;
  urlGuard: UrlGuard;
  /** alert rules and automation settings are cached in memory; writers announce changes here */
  invalidation: CacheInvalidation;
  automationDefaults?: Partial<AutomationDefaults>;
  log?: { error(obj: unknown, msg?: string): void };
}): Promise<Operations> {
  const { database, clock, audit, events } = deps;
  const automation = new AutomationService({ database, clock, audit, invalidation: deps.invalidation, defaults: deps.automationDefaults });
  const protocolTypes = new ProtocolTypeService({ database, clock, audit });
  const protocolRuns = new ProtocolRunService({ database, clock, audit, events, automation, types: protocolTypes, log: deps.log });
  const incidents = new IncidentService({ database, clock, audit, events, runs: protocolRuns });
  const alertEngine = new AlertEngine({
    clock,
    audit,
    events,
    activeIncidentAt: async (db, sceneId) => (await incidentRepository.findActiveAtScene(db, sceneId))?.id ?? null,
  });
  const anomalies = new AnomalyWatcher({ automation, incidents, events });
  await automation.loadAll();
  await alertEngine.loadAll(database.db);
  alertEngine.followChanges(deps.invalidation, database.db);
  // anomalies first: an automatic incident opened in this commit is there for the alerts that follow to attach to
  deps.pipeline.addHook(anomalies, { name: 'incidents.anomalies', order: 200 });
  deps.pipeline.addHook(alertEngine, { name: 'alerts.rules', order: 300 });
  return {
    automation,
    alertEngine,
    alertRules: new AlertRuleService({ database, clock, audit, engine: alertEngine, invalidation: deps.invalidation }),
    alerts: new AlertService({ database, clock, audit }),
    anomalies,
    incidents,
    responders: new ResponderService({ database, clock, audit, urlGuard: deps.urlGuard }),
    protocolTypes,
    protocolRuns,
    start: () => protocolRuns.start(),
    async close() {
      protocolRuns.stop();
      await protocolRuns.settled();
    },
  };
}
