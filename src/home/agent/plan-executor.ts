/**
 * Runs a plan's tool calls in order through an injected runner and composes the reply.
 * Each action is handed to `onAction` as soon as its tool returns, and the
 * reply text that follows it to `onText` in word-sized deltas, so a streamed response shows the
 * action before the words about it. A tool's typed error becomes part of the reply, not a crash;
 * the actions already taken stay taken.
 */
import type { Plan, PlannedCall } from './plan.ts';
import { actionTypeOf, getTool, validateToolArgs, type ToolName } from './tools.ts';
import { AgentToolError, theSubject, type AgentAction, type ToolErrorCode, type ToolResult } from './tool-kit.ts';

export { AgentToolError, type AgentAction, type ToolErrorCode, type ToolResult } from './tool-kit.ts';

export interface ToolRunner {
  call(tool: ToolName, args: Record<string, unknown>): Promise<ToolResult>;
}

export interface ExecutionHooks {
  onAction?(action: AgentAction): void | Promise<void>;
  onText?(delta: string): void | Promise<void>;
}

export interface ExecutionError {
  tool: ToolName;
  code: ToolErrorCode | 'internal';
  message: string;
  cause?: unknown;
}

export interface ExecutionResult {
  reply: string;
  actions: AgentAction[];
  errors: ExecutionError[];
  planner: Plan['planner'];
}

const REF = /^\$ref:(\d+)$/;

/** Replaces "$ref:N" strings by the id call N returned; undefined when that call failed. */
function resolveRefs(value: unknown, ids: (string | undefined)[]): { value: unknown; missing: boolean } {
  let missing = false;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const m = REF.exec(v);
      if (!m) return v;
      const id = ids[Number(m[1])];
      if (id === undefined) missing = true;
      return id ?? v;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return { value: walk(value), missing };
}

function describeDefault(call: PlannedCall, action: AgentAction): string {
  const subject = call.subject ?? action.subject;
  const the = subject ? theSubject(subject) : 'it';
  return getTool(call.tool).says(the, action);
}

function describeFailure(call: PlannedCall, error: ExecutionError): string {
  const what = call.subject ? ` for the ${call.subject}` : '';
  if (error.code === 'forbidden') return `Only an owner of the household can ${getTool(call.tool).ownerOnly ?? 'do that'}.`;
  if (error.code === 'internal') return `Something went wrong while running ${call.tool.replace(/_/g, ' ')}${what}; nothing more was changed.`;
  return `I couldn't ${call.tool.replace(/_/g, ' ')}${what}: ${error.message}`;
}

/** A room named by where it is ("under the house", "out the back") takes no article of its own. */
const ARTICLE_BEFORE_PLACE_PHRASE =
  /\b([Tt])he (under|out|over|behind|beside|below|above|inside|outside|up|down|round|around|off|between) (?=(?:the|a|an|my|our) )/g;

/** "the under the house" → "under the house", "There's no the carport" → "There's no carport" (docs/decisions.md, "Round L household: places and words"). */
export function tidyArticles(text: string): string {
  return text
    .replace(ARTICLE_BEFORE_PLACE_PHRASE, (_, t: string, prep: string) => `${t === 'T' ? prep[0].toUpperCase() + prep.slice(1) : prep} `)
    .replace(/\b(There(?:'s| is) no) (?:the|a|an) /g, '$1 ');
}

async function emitText(raw: string, hooks: ExecutionHooks | undefined, parts: string[]): Promise<void> {
  if (!raw) return;
  const text = tidyArticles(raw);
  const piece = parts.length ? ` ${text}` : text;
  parts.push(piece);
  if (!hooks?.onText) return;
  for (const delta of piece.match(/\s*\S+/g) ?? []) await hooks.onText(delta);
}

/** Runs the plan's calls in order and composes the reply. */
export async function runPlan(plan: Plan, runner: ToolRunner, hooks?: ExecutionHooks): Promise<ExecutionResult> {
  const parts: string[] = [];
  const actions: AgentAction[] = [];
  const errors: ExecutionError[] = [];
  const ids: (string | undefined)[] = [];

  for (const text of plan.answers ?? []) await emitText(text, hooks, parts);
  if (plan.clarification || plan.calls.length === 0) {
    for (const text of [...(plan.clarification ? [] : (plan.notes ?? [])), ...plan.refusals, plan.clarification ?? '']) await emitText(text, hooks, parts);
    if (!parts.length) await emitText("I'm not sure what to do there — could you say it another way?", hooks, parts);
    return { reply: parts.join(''), actions, errors, planner: plan.planner };
  }

  for (const call of plan.calls) {
    const { value: args, missing } = resolveRefs(call.args, ids);
    if (missing) {
      ids.push(undefined);
      await emitText(
        `I didn't ${call.tool.replace(/_/g, ' ')}${call.subject ? ` for the ${call.subject}` : ''} because the step before it failed.`,
        hooks,
        parts,
      );
      continue;
    }
    const invalid = validateToolArgs(call.tool, args);
    if (invalid.length) {
      const error: ExecutionError = { tool: call.tool, code: 'invalid', message: invalid.join('; ') };
      errors.push(error);
      ids.push(undefined);
      await emitText(describeFailure(call, error), hooks, parts);
      continue;
    }
    let result: ToolResult;
    try {
      result = await runner.call(call.tool, args as Record<string, unknown>);
    } catch (err) {
      const error: ExecutionError =
        err instanceof AgentToolError
          ? { tool: call.tool, code: err.code, message: err.message }
          : { tool: call.tool, code: 'internal', message: 'internal error', cause: err };
      errors.push(error);
      ids.push(undefined);
      await emitText(describeFailure(call, error), hooks, parts);
      continue;
    }
    const action: AgentAction = {
      type: actionTypeOf(call.tool, args as Record<string, unknown>),
      ...(call.subject ? { subject: call.subject } : {}),
      ...result.action,
    } as AgentAction;
    ids.push(typeof action.id === 'string' ? action.id : undefined);
    actions.push(action);
    if (hooks?.onAction) await hooks.onAction(action);
    await emitText(result.text ?? call.say ?? describeDefault(call, action), hooks, parts);
  }
  for (const text of [...(plan.notes ?? []), ...plan.refusals]) await emitText(text, hooks, parts);
  return { reply: parts.join(''), actions, errors, planner: plan.planner };
}
