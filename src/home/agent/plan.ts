/**
 * What a planner hands the executor: the tool calls to run in order, plus what it will not do
 * and why. The offline planner and the LLM planner produce the same shape.
 */
import type { ToolName } from './tools.ts';

/**
 * Longest message the agent reads (a pasted document is not a request): the planners read up to
 * this many characters and the API refuses a longer message with a 400 naming `message`, so no
 * message is accepted that the planner would refuse (docs/decisions.md, "One message limit").
 */
export const MAX_MESSAGE_CHARS = 1000;

export interface PlannedCall {
  tool: ToolName;
  /** Validated against tools.ts before running. A string "$ref:N" stands for the id returned by call N. */
  args: Record<string, unknown>;
  /** What the call is about in the user's words (room or sensor name), for the action log and the reply. */
  subject?: string;
  /** Sentence the reply uses when the call succeeds (the planner knows the time zone and names). */
  say?: string;
}

export interface Plan {
  planner: 'offline' | 'llm';
  calls: PlannedCall[];
  /** Per-request explanations of what was not done: boundaries, muted sensors, unknown rooms, out of scope. */
  refusals: string[];
  /** Set when the message is ambiguous: the reply asks, and no call is made. */
  clarification?: string;
  /** ISO 639-1 code when the message is not in English (no call is made). */
  language?: string;
  /** Things worth saying that are not refusals ("left out the nursery, as you asked"). */
  notes?: string[];
  /** Answers to questions the household's state already answers ("Yes, the nursery camera is muted."): said first, no call. */
  answers?: string[];
  /** How sure the planner is of its reading, 0–1; under the threshold it asks instead of acting. */
  confidence?: number;
  /** Set by a planner that fell back (e.g. the LLM endpoint failed). */
  fallback_reason?: string;
}

export function createEmptyPlan(planner: Plan['planner'] = 'offline'): Plan {
  return { planner, calls: [], refusals: [] };
}
