import { defineApiModule } from '../../platform/http/api-module.ts';
import type { AutomationService } from './automation.service.ts';
import { automationRoutes } from './automation.routes.ts';

/** The automation module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const automationApi = defineApiModule({
  name: 'automation',
  tags: [{ name: 'Operator', description: 'Pause, resume, override and terminate automated actions (capability `operator`)' }],
  schemas: [],
  routes: ({ operations }: { operations: { automation: AutomationService } }) => automationRoutes(operations.automation),
});
