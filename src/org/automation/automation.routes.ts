import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, principalOf, withErrors } from '../../platform/http/index.ts';
import type { AutomationService } from './automation.service.ts';
import { AutomationSchema, AutomationTarget, UpdateAutomationBody } from './automation.schemas.ts';

const tags = ['Operator'];
const security = [{ bearerAuth: [] }];
const config = { surface: 'organization' as const, capability: 'operator' as const };

export const automationRoutes =
  (automation: AutomationService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v1/automation',
      {
        config,
        schema: {
          tags,
          security,
          operationId: 'getAutomation',
          summary: 'The organization’s automation switches and timings',
          response: withErrors({ 200: AutomationSchema }),
        },
      },
      async (req) => automation.get(principalOf(req)),
    );

    app.patch(
      '/v1/automation',
      {
        config,
        schema: {
          tags,
          security,
          operationId: 'updateAutomation',
          summary: 'Set the incident grouping gap, escalation delay, business hours or face recognition',
          body: UpdateAutomationBody,
          response: withErrors({ 200: AutomationSchema }),
        },
      },
      async (req) => automation.update(principalOf(req), actorOf(req), req.body),
    );

    for (const [verb, paused] of [
      ['pause', true],
      ['resume', false],
    ] as const) {
      app.post(
        `/v1/automation/:target/${verb}`,
        {
          config,
          schema: {
            tags,
            security,
            operationId: `${verb}Automation`,
            summary: paused ? 'Pause automatic incidents or automatic escalation for the organization' : 'Resume automatic incidents or automatic escalation',
            description:
              'target `incidents`: anomalies open or extend no incident while paused (detection.anomaly still fires, incident_id null). target `escalation`: no protocol run escalates; on resume each unacknowledged active run’s delay starts again. Audited with before/after.',
            params: AutomationTarget,
            response: withErrors({ 200: AutomationSchema }),
          },
        },
        async (req) => automation.setPaused(principalOf(req), actorOf(req), req.params.target, paused),
      );
    }
  };
