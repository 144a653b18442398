// The module's public face: what other modules may import (docs/architecture.md).
export { offlinePlanner } from './planner.ts';
export { lookupCity } from './city-directory.ts';
export { type HouseholdContext } from './context.ts';
export { planOffline } from './offline-planner.ts';
export { AgentToolError, runPlan, type AgentAction, type ToolResult, type ToolRunner } from './plan-executor.ts';
export { type Plan } from './plan.ts';
export { createPlanner, type Planner } from './planner.ts';
export { RECURRENCES, WATCH_CONDITIONS, type ToolArgs, type ToolName } from './tools.ts';
