import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf, principalOf, withErrors, type RouteApp } from '../../platform/http/index.ts';
import type { ProtocolRunService } from './protocol-run.service.ts';
import type { ProtocolTypeService } from './protocol-type.service.ts';
import {
  CreateProtocolTypeBody,
  IncidentProtocolParams,
  OverrideRunBody,
  ProtocolTypeList,
  RunIdParams,
  TriggerProtocolBody,
  RunNotificationList,
} from './protocol.schemas.ts';

const tags = ['Protocols'];
const security = [{ bearerAuth: [] }];
const operatorNote =
  'Needs the `operator` capability; the operator is named by `X-Operator` (else the key). Audited with before/after and shown in the incident timeline; a terminated run answers 409 protocol_run_terminated.';

/** POST /v1/incidents/:incident_id/protocol. */
function registerTriggerRoute(app: RouteApp, runs: ProtocolRunService): void {
  app.post(
    '/v1/incidents/:incident_id/protocol',
    {
      config: { surface: 'organization', capability: 'protocols:trigger' },
      schema: {
        tags,
        security,
        operationId: 'triggerProtocol',
        summary: 'Trigger a response protocol on an incident',
        description:
          'Starts a protocol run (status active). With notify_responders every responder at or below escalation_level (1–5) gets a signed webhook and responders_notified counts them. Unless the incident is acknowledged, the run escalates one level at a time after the organization’s escalation delay (GET /v1/automation). Publishes protocol.triggered.',
        params: IncidentProtocolParams,
        body: TriggerProtocolBody,
        response: withErrors({ 201: Type.Ref('ProtocolRun') }),
      },
    },
    async (req, reply) => reply.code(201).send(await runs.trigger(principalOf(req), actorOf(req), req.params.incident_id, req.body)),
  );
}

/** The protocol types: list and define. */
function registerTypeRoutes(app: RouteApp, types: ProtocolTypeService): void {
  app.get(
    '/v1/protocols',
    {
      config: { surface: 'organization', capability: 'protocols:trigger' },
      schema: {
        tags,
        security,
        operationId: 'listProtocolTypes',
        summary: 'Protocol types: the built-ins and the organization’s own',
        response: withErrors({ 200: ProtocolTypeList }),
      },
    },
    async (req) => types.list(principalOf(req)),
  );

  app.post(
    '/v1/protocols',
    {
      config: { surface: 'organization', capability: 'protocols:manage' },
      schema: {
        tags,
        security,
        operationId: 'createProtocolType',
        summary: 'Define an organization protocol type with its steps',
        body: CreateProtocolTypeBody,
        response: withErrors({ 201: Type.Ref('ProtocolType') }),
      },
    },
    async (req, reply) => reply.code(201).send(await types.create(principalOf(req), actorOf(req), req.body)),
  );
}

/** A protocol run, and whom it notified. */
function registerRunReads(app: RouteApp, runs: ProtocolRunService): void {
  app.get(
    '/v1/protocol-runs/:id',
    {
      config: { surface: 'organization', capability: 'incidents:read' },
      schema: {
        tags,
        security,
        operationId: 'getProtocolRun',
        summary: 'Fetch a protocol run',
        params: RunIdParams,
        response: withErrors({ 200: Type.Ref('ProtocolRun') }),
      },
    },
    async (req) => runs.get(principalOf(req), req.params.id),
  );

  app.get(
    '/v1/protocol-runs/:id/notifications',
    {
      config: { surface: 'organization', capability: 'incidents:read' },
      schema: {
        tags,
        security,
        operationId: 'listProtocolRunNotifications',
        summary: 'Who a run notified, on which channels, and who was not reached',
        params: RunIdParams,
        response: withErrors({ 200: RunNotificationList }),
      },
    },
    async (req) => runs.notifications(principalOf(req), req.params.id),
  );
}

/** The operator's pause, resume, terminate and override of a run. */
function registerRunOperations(app: RouteApp, runs: ProtocolRunService): void {
  const summaries = {
    pause: 'Pause a protocol run: it takes no automated step (escalation) until resumed',
    resume: 'Resume a paused protocol run; its escalation delay starts again',
    terminate: 'Terminate a protocol run (final)',
  } as const;
  for (const action of ['pause', 'resume', 'terminate'] as const) {
    app.post(
      `/v1/protocol-runs/:id/${action}`,
      {
        config: { surface: 'organization', capability: 'operator' },
        schema: {
          tags: ['Operator'],
          security,
          operationId: `${action}ProtocolRun`,
          summary: summaries[action],
          description: operatorNote,
          params: RunIdParams,
          response: withErrors({ 200: Type.Ref('ProtocolRun') }),
        },
      },
      async (req) => runs.operate(principalOf(req), actorOf(req), req.params.id, action),
    );
  }

  app.post(
    '/v1/protocol-runs/:id/override',
    {
      config: { surface: 'organization', capability: 'operator' },
      schema: {
        tags: ['Operator'],
        security,
        operationId: 'overrideProtocolRun',
        summary: 'Override a protocol run: set its escalation level or dismiss it',
        description: `Raising the level notifies the responders newly in range (when the run notifies). ${operatorNote}`,
        params: RunIdParams,
        body: OverrideRunBody,
        response: withErrors({ 200: Type.Ref('ProtocolRun') }),
      },
    },
    async (req) => runs.operate(principalOf(req), actorOf(req), req.params.id, 'override', req.body),
  );
}

export const protocolRoutes =
  (types: ProtocolTypeService, runs: ProtocolRunService): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerTriggerRoute(app, runs);
    registerTypeRoutes(app, types);
    registerRunReads(app, runs);
    registerRunOperations(app, runs);
  };
