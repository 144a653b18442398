// The module's public face: what other modules may import (docs/architecture.md).

export { ScheduleSchema } from './automation.schemas.ts';
export { AutomationService, type AutomationDefaults, type AutomationTarget } from './automation.service.ts';
export { compileSchedule, findScheduleProblem, isWithinSchedule, type CompiledSchedule, type Schedule } from './local-schedule.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import type { AutomationService } from './automation.service.ts';
import { automationRoutes } from './automation.routes.ts';

/** The automation module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const automationApi = defineApiModule({
  name: 'automation',
  tags: [{ name: 'Operator', description: 'Pause, resume, override and terminate automated actions (capability `operator`)' }],
  schemas: [],
  routes: ({ operations }: { operations: { automation: AutomationService } }) => automationRoutes(operations.automation),
});
