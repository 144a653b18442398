import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf, principalOf, withErrors, type RouteApp } from '../../platform/http/index.ts';
import type { AlertRuleService } from './alert-rule.service.ts';
import type { AlertService } from './alert.service.ts';
import { AlertRuleIdParams, AlertRuleList, AlertRuleListQuery, CreateAlertRuleBody, DeletedAlertRule, UpdateAlertRuleBody } from './alert-rule.schemas.ts';
import { AlertIdParams, AlertList, AlertListQuery } from './alert.schemas.ts';

const tags = ['Alerts'];
const security = [{ bearerAuth: [] }];

/** POST /v1/alert-rules, and GET of the rules and of one rule. */
function registerRuleCreateAndReads(app: RouteApp, rules: AlertRuleService): void {
  app.post(
    '/v1/alert-rules',
    {
      config: { surface: 'organization', capability: 'alerts:manage' },
      schema: {
        tags,
        security,
        operationId: 'createAlertRule',
        summary: 'Create an alert rule',
        description:
          'A condition on detections (person_count above N, crowd_density at or above x, a person of a subtype, vehicle count above N, an animal (cat or dog), dwell of at least S seconds), optionally limited to locations or streams, with a weekly schedule and a cooldown. Fires `alert.fired`.',
        body: CreateAlertRuleBody,
        response: withErrors({ 201: Type.Ref('AlertRule') }),
      },
    },
    async (req, reply) => reply.code(201).send(await rules.create(principalOf(req), actorOf(req), req.body)),
  );

  app.get(
    '/v1/alert-rules',
    {
      config: { surface: 'organization', capability: 'alerts:read' },
      schema: {
        tags,
        security,
        operationId: 'listAlertRules',
        summary: 'List alert rules, newest first',
        querystring: AlertRuleListQuery,
        response: withErrors({ 200: AlertRuleList }),
      },
    },
    async (req) => rules.list(principalOf(req), req.query),
  );

  app.get(
    '/v1/alert-rules/:id',
    {
      config: { surface: 'organization', capability: 'alerts:read' },
      schema: {
        tags,
        security,
        operationId: 'getAlertRule',
        summary: 'Fetch an alert rule',
        params: AlertRuleIdParams,
        response: withErrors({ 200: Type.Ref('AlertRule') }),
      },
    },
    async (req) => rules.get(principalOf(req), req.params.id),
  );
}

/** PATCH and DELETE /v1/alert-rules/:id, and the operator's pause and resume. */
function registerRuleChanges(app: RouteApp, rules: AlertRuleService): void {
  app.patch(
    '/v1/alert-rules/:id',
    {
      config: { surface: 'organization', capability: 'alerts:manage' },
      schema: {
        tags,
        security,
        operationId: 'updateAlertRule',
        summary: 'Change an alert rule',
        params: AlertRuleIdParams,
        body: UpdateAlertRuleBody,
        response: withErrors({ 200: Type.Ref('AlertRule') }),
      },
    },
    async (req) => rules.update(principalOf(req), actorOf(req), req.params.id, req.body),
  );

  app.delete(
    '/v1/alert-rules/:id',
    {
      config: { surface: 'organization', capability: 'alerts:manage' },
      schema: {
        tags,
        security,
        operationId: 'deleteAlertRule',
        summary: 'Delete an alert rule (its alerts stay)',
        params: AlertRuleIdParams,
        response: withErrors({ 200: DeletedAlertRule }),
      },
    },
    async (req) => rules.remove(principalOf(req), actorOf(req), req.params.id),
  );

  for (const [verb, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    app.post(
      `/v1/alert-rules/:id/${verb}`,
      {
        config: { surface: 'organization', capability: 'operator' },
        schema: {
          tags: ['Operator'],
          security,
          operationId: `${verb}AlertRule`,
          summary: paused ? 'Pause an alert rule (operator)' : 'Resume a paused alert rule (operator)',
          description: 'Needs the `operator` capability; the operator is named by `X-Operator` (else the key). Recorded in the audit trail with before/after.',
          params: AlertRuleIdParams,
          response: withErrors({ 200: Type.Ref('AlertRule') }),
        },
      },
      async (req) => rules.setPaused(principalOf(req), actorOf(req), req.params.id, paused),
    );
  }
}

/** The fired alerts: list, fetch, acknowledge. */
function registerAlertRoutes(app: RouteApp, alerts: AlertService): void {
  app.get(
    '/v1/alerts',
    {
      config: { surface: 'organization', capability: 'alerts:read' },
      schema: {
        tags,
        security,
        operationId: 'listAlerts',
        summary: 'List fired alerts, newest first',
        querystring: AlertListQuery,
        response: withErrors({ 200: AlertList }),
      },
    },
    async (req) => alerts.list(principalOf(req), req.query),
  );

  app.get(
    '/v1/alerts/:id',
    {
      config: { surface: 'organization', capability: 'alerts:read' },
      schema: {
        tags,
        security,
        operationId: 'getAlert',
        summary: 'Fetch a fired alert',
        params: AlertIdParams,
        response: withErrors({ 200: Type.Ref('Alert') }),
      },
    },
    async (req) => alerts.get(principalOf(req), req.params.id),
  );

  app.post(
    '/v1/alerts/:id/acknowledge',
    {
      config: { surface: 'organization', capability: 'alerts:manage' },
      schema: {
        tags,
        security,
        operationId: 'acknowledgeAlert',
        summary: 'Acknowledge a fired alert',
        params: AlertIdParams,
        response: withErrors({ 200: Type.Ref('Alert') }),
      },
    },
    async (req) => alerts.acknowledge(principalOf(req), actorOf(req), req.params.id),
  );
}

export const alertRoutes =
  (rules: AlertRuleService, alerts: AlertService): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerRuleCreateAndReads(app, rules);
    registerRuleChanges(app, rules);
    registerAlertRoutes(app, alerts);
  };
