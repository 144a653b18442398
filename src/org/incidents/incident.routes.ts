import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf, principalOf, withErrors, type RouteApp } from '../../platform/http/index.ts';
import type { IncidentService } from './incident.service.ts';
import {
  CreateIncidentBody,
  CreateNoteBody,
  IncidentDetailSchema,
  IncidentIdParams,
  IncidentList,
  IncidentListQuery,
  UpdateIncidentBody,
} from './incident.schemas.ts';

const tags = ['Incidents'];
const security = [{ bearerAuth: [] }];

/** POST /v1/incidents, and GET of the incidents and of one with its timeline. */
function registerIncidentCreateAndReads(app: RouteApp, incidents: IncidentService): void {
  app.post(
    '/v1/incidents',
    {
      config: { surface: 'organization', capability: 'incidents:write' },
      schema: {
        tags,
        security,
        operationId: 'createIncident',
        summary: 'Open an incident from a stream',
        description: 'Creates an incident from a stream_id; detections of the organization can be attached. Publishes incident.created.',
        body: CreateIncidentBody,
        response: withErrors({ 201: Type.Ref('Incident') }),
      },
    },
    async (req, reply) => reply.code(201).send(await incidents.create(principalOf(req), actorOf(req), req.body)),
  );

  app.get(
    '/v1/incidents',
    {
      config: { surface: 'organization', capability: 'incidents:read' },
      schema: {
        tags,
        security,
        operationId: 'listIncidents',
        summary: 'List incidents, newest first',
        querystring: IncidentListQuery,
        response: withErrors({ 200: IncidentList }),
      },
    },
    async (req) => incidents.list(principalOf(req), req.query),
  );

  app.get(
    '/v1/incidents/:id',
    {
      config: { surface: 'organization', capability: 'incidents:read' },
      schema: {
        tags,
        security,
        operationId: 'getIncident',
        summary: 'An incident with its timeline',
        description: 'The timeline holds detections, alerts, notes, protocol runs and actions (status changes, operator actions, escalations) in time order.',
        params: IncidentIdParams,
        response: withErrors({ 200: IncidentDetailSchema }),
      },
    },
    async (req) => incidents.get(principalOf(req), req.params.id),
  );
}

/** Moving an incident on, and adding a note to its timeline. */
function registerIncidentChanges(app: RouteApp, incidents: IncidentService): void {
  app.patch(
    '/v1/incidents/:id',
    {
      config: { surface: 'organization', capability: 'incidents:write' },
      schema: {
        tags,
        security,
        operationId: 'updateIncident',
        summary: 'Move an incident on, or retitle it',
        description:
          'status: open → acknowledged → resolved | dismissed; other transitions answer 409 invalid_state_transition. Acknowledging stops its protocol runs escalating; resolving or dismissing completes them. Publishes incident.updated.',
        params: IncidentIdParams,
        body: UpdateIncidentBody,
        response: withErrors({ 200: Type.Ref('Incident') }),
      },
    },
    async (req) => incidents.update(principalOf(req), actorOf(req), req.params.id, req.body),
  );

  app.post(
    '/v1/incidents/:id/notes',
    {
      config: { surface: 'organization', capability: 'incidents:write' },
      schema: {
        tags,
        security,
        operationId: 'addIncidentNote',
        summary: 'Add a note to an incident’s timeline',
        params: IncidentIdParams,
        body: CreateNoteBody,
        response: withErrors({ 201: Type.Ref('IncidentNote') }),
      },
    },
    async (req, reply) => reply.code(201).send(await incidents.addNote(principalOf(req), actorOf(req), req.params.id, req.body)),
  );
}

export const incidentRoutes =
  (incidents: IncidentService): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerIncidentCreateAndReads(app, incidents);
    registerIncidentChanges(app, incidents);
  };
