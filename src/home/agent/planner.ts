/**
 * Which planner reads a message (issue 4 §3): the offline planner by default; the LLM planner
 * when an endpoint is configured, with the offline planner answering whenever the endpoint fails,
 * and the plan saying which one acted (`planner`, and `fallback_reason` when it fell back).
 */
import type { HouseholdContext } from './context.ts';
import { LlmPlanner, LlmPlannerError, type LlmPlannerOptions } from './llm-planner.ts';
import { planOffline } from './offline-planner.ts';
import { loadWordNet } from '../../platform/language/lexicon/wordnet.ts';
import type { Plan } from './plan.ts';

export interface Planner {
  plan(message: string, ctx: HouseholdContext): Promise<Plan>;
}

export type LlmConfig = LlmPlannerOptions;

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

const MAX_TIMEOUT_MS = 120_000;

/**
 * Reads the LLM endpoint from the environment (`VIGIL_LLM_BASE_URL`, `VIGIL_LLM_MODEL`,
 * `VIGIL_LLM_API_KEY`, `VIGIL_LLM_TIMEOUT_MS`). Null when the base URL or the model is unset:
 * the offline planner then works alone. Throws on a value that is set but wrong, so a typo
 * stops the server at start rather than silently disabling the LLM.
 */
export function readLlmConfig(env: Record<string, string | undefined>): LlmConfig | null {
  const baseUrl = env.VIGIL_LLM_BASE_URL?.trim();
  const model = env.VIGIL_LLM_MODEL?.trim();
  if (!baseUrl || !model) return null;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`VIGIL_LLM_BASE_URL is not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`VIGIL_LLM_BASE_URL must be http:// or https:// (got ${url.protocol})`);
  }
  const config: LlmConfig = { baseUrl: url.href.replace(/\/+$/, ''), model };
  const apiKey = env.VIGIL_LLM_API_KEY?.trim();
  if (apiKey) config.apiKey = apiKey;
  const timeout = env.VIGIL_LLM_TIMEOUT_MS?.trim();
  if (timeout) {
    const ms = Number(timeout);
    if (!Number.isInteger(ms) || ms < 1 || ms > MAX_TIMEOUT_MS) {
      throw new Error(`VIGIL_LLM_TIMEOUT_MS must be an integer from 1 to ${MAX_TIMEOUT_MS} (got ${JSON.stringify(timeout)})`);
    }
    config.timeoutMs = ms;
  }
  return Object.freeze(config);
}
