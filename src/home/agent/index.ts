import { defineServiceModule, LOG, token } from '../../platform/lib/index.ts';
import { CONFIG } from '../../platform/config/index.ts';
import { createPlanner as createPlannerF, type Planner as PlannerT } from './planner.ts';
// The module's public face: what other modules may import (docs/architecture.md).
export { offlinePlanner } from './planner.ts';
export { lookupCity } from './city-directory.ts';
export { rememberAction, type HouseholdContext } from './context.ts';
export { planOffline } from './offline-planner.ts';
export { AgentToolError, runPlan, type AgentAction, type ToolResult, type ToolRunner } from './plan-executor.ts';
export { MAX_MESSAGE_CHARS, type Plan } from './plan.ts';
export { createPlanner, type Planner } from './planner.ts';
export { getTool, listActionTypes, RECURRENCES, WATCH_CONDITIONS, type ToolArgs, type ToolName } from './tools.ts';
export { type ToolPorts } from './tool-kit.ts';

export const PLANNER = token<PlannerT>('planner');

export const agentServices = defineServiceModule({
  name: 'agent',
  provide: (c) => c.provide(PLANNER, (c) => createPlannerF({ llm: c.get(CONFIG).llm, log: c.get(LOG) })),
});
