/**
 * Runs a plan's tool calls in order through an injected runner and composes the reply.
 * Each action is handed to `onAction` as soon as its tool returns, and the
 * reply text that follows it to `onText` in word-sized deltas, so a streamed response shows the
 * action before the words about it. A tool's typed error becomes part of the reply, not a crash;
 * the actions already taken stay taken.
 */
import type { Plan, PlannedCall } from './plan.ts';
import { ACTION_TYPES, validateToolArgs, type ToolName } from './tools.ts';

export interface AgentAction {
  type: string;
  id?: string;
  subject?: string;
  [field: string]: unknown;
}

/** What a runner returns for one call: the logged action's fields, and optional words for the reply. */
export interface ToolResult {
  /** Fields of the action (e.g. the new watch's id, resolved starts_at/ends_at). `type` defaults from the tool. */
  action?: Partial<AgentAction>;
  /** A sentence for the reply; read-only tools (describe_scene, list_events, list_watches) should give one. */
  text?: string;
}

export interface ToolRunner {
  call(tool: ToolName, args: Record<string, unknown>): Promise<ToolResult>;
}

export type ToolErrorCode = 'boundary' | 'muted' | 'not_found' | 'invalid' | 'conflict' | 'unavailable' | 'forbidden';

/** A refusal or failure the runner wants the user to hear ("the nursery is under a boundary"). */
export class AgentToolError extends Error {
  readonly code: ToolErrorCode;
  constructor(code: ToolErrorCode, message: string) {
    super(message);
    this.name = 'AgentToolError';
    this.code = code;
  }
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
  const the = subject ? `the ${subject}` : 'it';
  switch (call.tool) {
    case 'create_watch': return `I'm watching ${the}${action.window ? ` (${action.window})` : ''}.`;
    case 'update_watch': return `I've updated the watch on ${the}.`;
    case 'stand_down_watch': return `I've stood down the watch on ${the}.`;
    case 'mute_sensor': return `I've muted ${the}.`;
    case 'unmute_sensor': return `I've unmuted ${the}.`;
    case 'set_boundary': return `I'll leave ${the} alone.`;
    case 'clear_boundary': return `I can watch ${the} again.`;
    case 'add_sensor':
    case 'add_sensor_by_topic': return `I've added ${the}.`;
    case 'set_notification_routing': return "I've changed your notifications.";
    case 'set_household': return "I've updated your home's settings.";
    case 'describe_scene': return `I looked at ${the}.`;
    case 'list_events': return 'Here are the recent events.';
    case 'list_watches': return "Here's what I'm watching.";
  }
}

/** What an owner-only step is called in a refusal ("Only an owner of the household can lift that."). */
const OWNER_ONLY_WORDS: Partial<Record<ToolName, string>> = {
  clear_boundary: 'lift that',
  unmute_sensor: 'unmute that',
  set_boundary: 'change boundaries',
  mute_sensor: 'mute sensors',
  add_sensor: 'add sensors',
  add_sensor_by_topic: 'add sensors',
  set_household: "change the home's settings",
};

function describeFailure(call: PlannedCall, error: ExecutionError): string {
  const what = call.subject ? ` for the ${call.subject}` : '';
  if (error.code === 'forbidden') return `Only an owner of the household can ${OWNER_ONLY_WORDS[call.tool] ?? 'do that'}.`;
  if (error.code === 'internal') return `Something went wrong while running ${call.tool.replace(/_/g, ' ')}${what}; nothing more was changed.`;
  return `I couldn't ${call.tool.replace(/_/g, ' ')}${what}: ${error.message}`;
}

async function emitText(text: string, hooks: ExecutionHooks | undefined, parts: string[]): Promise<void> {
  if (!text) return;
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
    for (const text of [...(plan.clarification ? [] : plan.notes ?? []), ...plan.refusals, plan.clarification ?? '']) await emitText(text, hooks, parts);
    if (!parts.length) await emitText("I'm not sure what to do there — could you say it another way?", hooks, parts);
    return { reply: parts.join(''), actions, errors, planner: plan.planner };
  }

  for (const call of plan.calls) {
    const { value: args, missing } = resolveRefs(call.args, ids);
    if (missing) {
      ids.push(undefined);
      await emitText(`I didn't ${call.tool.replace(/_/g, ' ')}${call.subject ? ` for the ${call.subject}` : ''} because the step before it failed.`, hooks, parts);
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
      const error: ExecutionError = err instanceof AgentToolError
        ? { tool: call.tool, code: err.code, message: err.message }
        : { tool: call.tool, code: 'internal', message: 'internal error', cause: err };
      errors.push(error);
      ids.push(undefined);
      await emitText(describeFailure(call, error), hooks, parts);
      continue;
    }
    const action: AgentAction = { type: ACTION_TYPES[call.tool], ...(call.subject ? { subject: call.subject } : {}), ...result.action } as AgentAction;
    ids.push(typeof action.id === 'string' ? action.id : undefined);
    actions.push(action);
    if (hooks?.onAction) await hooks.onAction(action);
    await emitText(result.text ?? call.say ?? describeDefault(call, action), hooks, parts);
  }
  for (const text of [...(plan.notes ?? []), ...plan.refusals]) await emitText(text, hooks, parts);
  return { reply: parts.join(''), actions, errors, planner: plan.planner };
}
