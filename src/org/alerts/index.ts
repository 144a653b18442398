// The module's public face: what other modules may import (docs/architecture.md).
export { AlertEngine } from './alert-engine.ts';
export { AlertRuleService } from './alert-rule.service.ts';
export { findAlert, listAlertsOfIncident } from './alert-queries.ts';
export { AlertService, toAlertView } from './alert.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import type { AlertRuleService } from './alert-rule.service.ts';
import type { AlertService } from './alert.service.ts';
import { AlertRuleSchema } from './alert-rule.schemas.ts';
import { AlertSchema } from './alert.schemas.ts';
import { alertRoutes } from './alert.routes.ts';

/** The alerts module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const alertsApi = defineApiModule({
  name: 'alerts',
  tags: [{ name: 'Alerts', description: 'Alert rules on detections and the alerts they fire (Surface B)' }],
  schemas: [AlertRuleSchema, AlertSchema],
  routes: ({ operations }: { operations: { alertRules: AlertRuleService; alerts: AlertService } }) => alertRoutes(operations.alertRules, operations.alerts),
});
