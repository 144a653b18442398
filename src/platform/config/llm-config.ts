/** The LLM endpoint the agent's planner may use (read from the environment at start). */
export interface LlmConfig {
  /** e.g. "https://api.openai.com/v1" or "http://127.0.0.1:11434/v1"; `/chat/completions` is appended. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Whole request, headers and body (default 8 s). */
  timeoutMs?: number;
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
