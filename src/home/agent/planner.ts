/**
 * Which planner reads a message: the offline planner by default; the LLM planner
 * when an endpoint is configured, with the offline planner answering whenever the endpoint fails,
 * and the plan saying which one acted (`planner`, and `fallback_reason` when it fell back).
 */
import type { LlmConfig } from '../../platform/config/index.ts';
import type { HouseholdContext } from './context.ts';
import { LlmPlanner, LlmPlannerError } from './llm-planner.ts';
import { planOffline } from './offline-planner.ts';
import { loadWordNet } from '../../platform/language/index.ts';
import type { Plan } from './plan.ts';

export interface Planner {
  plan(message: string, ctx: HouseholdContext): Promise<Plan>;
}

export interface PlannerLog {
  warn(obj: unknown, msg?: string): void;
}

export const offlinePlanner: Planner = { plan: async (message, ctx) => planOffline(message, ctx) };

/** The offline planner alone, or the LLM planner backed by it. Reads the lexicon now, at start-up, not on the first message. */
export function createPlanner(opts: { llm?: LlmConfig | null; log?: PlannerLog } = {}): Planner {
  loadWordNet();
  if (!opts.llm) return offlinePlanner;
  const llm = new LlmPlanner(opts.llm);
  const log = opts.log;
  return {
    async plan(message, ctx) {
      try {
        return await llm.plan(message, ctx);
      } catch (err) {
        // any failure — also a bug in reading the answer — must not cost the user their request
        const reason = err instanceof LlmPlannerError ? err.reason : 'internal_error';
        log?.warn({ err, reason }, 'LLM planner failed; the offline planner answers');
        return { ...planOffline(message, ctx), planner: 'offline', fallback_reason: reason };
      }
    },
  };
}
