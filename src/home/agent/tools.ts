/**
 * The household agent's tool catalogue, read from the table of tools (tools/table.ts):
 * the names, the argument types and validation, the OpenAI function definitions, the action types.
 * The offline planner's calls and an LLM planner's calls are validated by the same schemas, and
 * the same schemas are sent to an OpenAI-compatible endpoint as function definitions.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { TOOL_TABLE } from './tools/table.ts';
import type { ToolDefinition } from './tool-kit.ts';

export { RECURRENCES, SENSOR_KINDS, WATCH_CONDITIONS } from './tools/fields.ts';

type AnyTool = (typeof TOOL_TABLE)[number];
export type ToolName = AnyTool['name'];
export type ToolSchema<T extends ToolName> = Extract<AnyTool, { name: T }>['schema'];
export type ToolArgs<T extends ToolName> = Static<ToolSchema<T>>;
export const TOOL_NAMES = TOOL_TABLE.map((t) => t.name) as ToolName[];

const byName = new Map<string, ToolDefinition>(TOOL_TABLE.map((t) => [t.name, t as unknown as ToolDefinition]));

/** The schema of every tool, by name. */
export const toolSchemas = Object.fromEntries(TOOL_TABLE.map((t) => [t.name, t.schema])) as { [T in ToolName]: ToolSchema<T> };

export interface ToolCall<T extends ToolName = ToolName> {
  tool: T;
  args: ToolArgs<T>;
}

export function isToolName(name: string): name is ToolName {
  return byName.has(name);
}

/** A tool's row of the table. */
export function getTool(name: ToolName): ToolDefinition {
  return byName.get(name)!;
}

const checkers = new Map<ToolName, TypeCheck<TSchema>>();
function getChecker(tool: ToolName): TypeCheck<TSchema> {
  let c = checkers.get(tool);
  if (!c) {
    c = TypeCompiler.Compile(getTool(tool).schema);
    checkers.set(tool, c);
  }
  return c;
}

/** Validates a tool call's arguments; returns readable errors (empty when valid). */
export function validateToolArgs(tool: string, args: unknown): string[] {
  if (!isToolName(tool)) return [`unknown tool "${tool}"`];
  const checker = getChecker(tool);
  if (checker.Check(args)) {
    const a = args as Record<string, unknown>;
    // the schema cannot express "room or sensor_id, at least one"
    if (getTool(tool).needsPlace && !a.room && !a.sensor_id) {
      return ['room or sensor_id is required'];
    }
    return [];
  }
  return [...checker.Errors(args)].slice(0, 5).map((e) => `${e.path || '/'}: ${e.message}`);
}

/** The catalogue as OpenAI chat-completions `tools` (function definitions). */
export function toOpenAiTools(): { type: 'function'; function: { name: string; description: string; parameters: unknown } }[] {
  return TOOL_NAMES.map((name) => ({
    type: 'function' as const,
    function: { name, description: getTool(name).description, parameters: JSON.parse(JSON.stringify(getTool(name).schema)) as unknown },
  }));
}

/** Action type a call logs; read-only tools log what they looked at. */
export function actionTypeOf(tool: ToolName, args: Record<string, unknown>): string {
  const type = getTool(tool).actionType;
  return typeof type === 'function' ? type(args) : type;
}

/** Every action type the tools log, in table order, each once. */
export function listActionTypes(): string[] {
  return [
    ...new Set(
      TOOL_TABLE.flatMap((t): readonly string[] =>
        'actionTypes' in t && t.actionTypes ? t.actionTypes : typeof t.actionType === 'string' ? [t.actionType] : [],
      ),
    ),
  ];
}

/** The tools' own readers, in table order (direct-intents.ts asks them before the general reader). */
export const TOOL_READERS = TOOL_TABLE.flatMap((t) => ('read' in t && t.read ? [t.read] : []));

/** The tools' own rules for the LLM planner's system prompt, in table order. */
export const TOOL_LLM_RULES = TOOL_TABLE.flatMap((t) => ('llmRule' in t && t.llmRule ? [t.llmRule] : []));
