import { incidentRepository } from './incidents/incident.repository.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DatabaseHandle } from '../platform/db/database.ts';
import type { Clock } from '../platform/time/clock.ts';
import type { AuditService } from '../platform/audit/audit.service.ts';
import type { DetectionPipeline } from './pipeline/detection-pipeline.ts';
import { AlertEngine } from './alerts/alert-engine.ts';
import { AlertRuleService } from './alerts/alert-rule.service.ts';
import { AlertService } from './alerts/alert.service.ts';
import { AlertRuleSchema } from './alerts/alert-rule.schemas.ts';
import { AlertSchema } from './alerts/alert.schemas.ts';
import { alertRoutes } from './alerts/alert.routes.ts';
import { AnomalyWatcher } from './incidents/anomaly-watcher.ts';
import { IncidentService } from './incidents/incident.service.ts';
import { IncidentSchema, NoteSchema } from './incidents/incident.schemas.ts';
import { incidentRoutes } from './incidents/incident.routes.ts';
import { ProtocolRunService } from './protocols/protocol-run.service.ts';
import { ProtocolTypeService } from './protocols/protocol-type.service.ts';
import { ProtocolRunSchema, ProtocolTypeSchema } from './protocols/protocol.schemas.ts';
import { protocolRoutes } from './protocols/protocol.routes.ts';
import { ResponderService } from './responders/responder.service.ts';
import { ResponderSchema } from './responders/responder.schemas.ts';
import { responderRoutes } from './responders/responder.routes.ts';
import { AutomationService, type AutomationDefaults } from './automation/automation.service.ts';
import { automationRoutes } from './automation/automation.routes.ts';
import type { EventSink, UrlGuard } from '../platform/outbox/event-sink.ts';
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
  deps.pipeline.addHook(anomalies);
  deps.pipeline.addHook(alertEngine);
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

/** Shared component schemas ($id) the operations routes reference. */
export const OPERATIONS_SCHEMAS = [AlertRuleSchema, AlertSchema, IncidentSchema, NoteSchema, ResponderSchema, ProtocolRunSchema, ProtocolTypeSchema];

export const OPERATIONS_TAGS = [
  { name: 'Alerts', description: 'Alert rules on detections and the alerts they fire (Surface B)' },
  { name: 'Incidents', description: 'Grouped detections and events with a timeline (Surface B)' },
  { name: 'Protocols', description: 'Response protocols run on incidents, with responder notification and escalation (Surface B)' },
  { name: 'Responders', description: 'People and systems that protocol runs notify (Surface B)' },
  { name: 'Operator', description: 'Pause, resume, override and terminate automated actions (capability `operator`)' },
];

export const operationsRoutes = (ops: Operations): FastifyPluginAsyncTypebox => async (app) => {
  await app.register(alertRoutes(ops.alertRules, ops.alerts));
  await app.register(incidentRoutes(ops.incidents));
  await app.register(protocolRoutes(ops.protocolTypes, ops.protocolRuns));
  await app.register(responderRoutes(ops.responders));
  await app.register(automationRoutes(ops.automation));
};
