/**
 * What one agent tool is (docs/decisions.md, "One table of agent tools"): its schema, its LLM
 * description, the action type it logs, its words (a default reply, an owner-only refusal, a
 * reader of its own requests), and its executor over the ports below. Each tool is one file in
 * tools/; the table in tools/index.ts is what the planners, the executor, the LLM endpoint and the
 * conversation's tool runner read.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type { Actor, Principal } from '../../platform/identity/index.ts';
import type { HouseholdContext } from './context.ts';
import type { Plan } from './plan.ts';

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

/** A watch as the services hand it back (the fields the tools read). */
export interface WatchLike {
  id: string;
  subject: string;
  sensor_ids: string[];
  window: string;
  starts_at: string;
  ends_at: string;
  recurrence: string;
  conditions?: string[] | null;
  person_ids?: string[] | null;
}

interface PlaceArgs {
  room?: string;
  sensor_id?: string;
}

interface RoutingView {
  scope: 'me' | 'household';
  paused: boolean;
  quiet_hours: { from: string; to: string } | null;
  exclude: { rooms: string[]; sensors: string[]; watches: string[] };
}

interface RoutingChange {
  quietHours: { from: string; to: string } | null;
  paused: boolean;
  exclude: { rooms: string[]; sensors: string[]; watches: string[] };
}

/**
 * The services the tools act through, the same ones the HTTP routes call ("one behaviour, two
 * doors"): the conversation module hands them over (conversations/tool-runner.ts). Declared here
 * by the methods the tools use, so this module needs none of theirs.
 */
export interface ToolPorts {
  watches: {
    create(
      principal: Principal,
      actor: Actor,
      input: {
        subject: string;
        sensor_ids: string[];
        starts_at: string;
        ends_at: string;
        recurrence: 'none' | 'daily' | 'weekdays' | 'weekends';
        window: string;
        conditions?: string[];
        person_ids?: string[];
        conversation_id?: string | null;
      },
    ): Promise<WatchLike>;
    update(principal: Principal, actor: Actor, id: string, change: Record<string, unknown>): Promise<WatchLike>;
    standDown(principal: Principal, actor: Actor, id: string): Promise<WatchLike>;
    listActive(tenantId: string): Promise<WatchLike[]>;
    get(principal: Principal, id: string): Promise<WatchLike>;
  };
  household: {
    snapshot(tenantId: string): Promise<{
      sensors: { id: string; name: string; kind: string; room_id: string; muted: number }[];
      boundaries: { room_id: string | null; sensor_id: string | null }[];
    }>;
    muteSensor(principal: Principal, actor: Actor, sensorId: string, muted: boolean): Promise<{ id: string; name: string }>;
    setBoundary(principal: Principal, actor: Actor, place: PlaceArgs): Promise<{ id: string; room: string | null; sensor_id: string | null }>;
    clearBoundary(principal: Principal, actor: Actor, place: PlaceArgs): Promise<{ id: string; room: string | null; sensor_id: string | null }>;
    describe(
      principal: Principal,
      actor: Actor,
      place: PlaceArgs,
    ): Promise<{ subject: string; text: string; people: number; vehicles: number; sensorIds: string[]; freshness?: object }>;
    addSensor(
      principal: Principal,
      actor: Actor,
      input: { name: string; kind: 'camera' | 'contact' | 'motion'; room: string; source_url: string; source_type?: string },
    ): Promise<{ id: string; name: string; kind: string; room: string; status: string; publish?: { publish_url: string; whip_url: string } }>;
    addSensorByTopic(
      principal: Principal,
      actor: Actor,
      input: { name: string; kind: 'contact' | 'motion'; room: string; topic: string },
    ): Promise<{ id: string; name: string; kind: string; room: string; status: string; topic: string; broker: string }>;
    updateHome(
      principal: Principal,
      actor: Actor,
      input: Record<string, unknown>,
    ): Promise<{ city: string | null; lat: number | null; lon: number | null; time_zone: string }>;
  };
  /** routing said to the agent ("notify me only between 11pm and 7am"); absent: the tool is unavailable */
  notifications?: {
    getPreferences(principal: Principal, scope: 'me' | 'household'): Promise<RoutingView>;
    setRouting(principal: Principal, actor: Actor, scope: 'me' | 'household', routing: RoutingChange): Promise<RoutingView>;
  };
  /** "what happened in the backyard last night?": every recorded detection, the watch events and the coverage */
  answerPast(
    principal: Principal,
    timeZone: string,
    q: Record<string, unknown>,
  ): Promise<{ text: string; action: Record<string, unknown>; revealed: string[] }>;
}

/** Who asks, in which conversation, and what this turn's reply shows. */
export interface ToolScope {
  principal: Principal;
  actor: Actor;
  conversationId: string;
  timeZone: string;
  /** the server's clock (ms), so a tool's "from now" is the household's now */
  now(): number;
}

/** "the garage", and "the whole house" as it is (a subject that already starts with "the"). */
export function theSubject(subject: string): string {
  return /^the\s/i.test(subject) ? subject : `the ${subject}`;
}

export interface ToolContext {
  ports: ToolPorts;
  scope: ToolScope;
  /** sensors whose content this turn's reply shows (a scene described, events listed) */
  revealed: Set<string>;
}

export interface ToolDefinition<N extends string = string, S extends TSchema = TSchema> {
  name: N;
  schema: S;
  /** What the LLM endpoint is told the tool does. */
  description: string;
  /** The action type(s) the tool logs: one, or one chosen by the arguments. */
  actionType: string | ((args: Static<S>) => string);
  /** Every action type it may log (for the API's description of actions). */
  actionTypes?: readonly string[];
  /** The reply when it succeeds and neither the runner nor the planner said more: `the` is "the garage" or "it". */
  says(the: string, action: AgentAction): string;
  /** What an owner-only step is called in a refusal ("Only an owner of the household can lift that."). */
  ownerOnly?: string;
  /** The schema cannot express "room or sensor_id, at least one". */
  needsPlace?: boolean;
  /** add_sensor may name a room the home does not have yet (the LLM planner checks every other). */
  namesNewRoom?: boolean;
  /** The call names an active watch of this home (the LLM planner checks). */
  needsActiveWatch?: boolean;
  /** The tool's own reader, asked before the general reader: a plan when the message is one of its requests. */
  read?(message: string, ctx: HouseholdContext): Plan | undefined;
  /** A rule for the LLM planner's system prompt, numbered after the general rules. */
  llmRule?: string;
  run(tc: ToolContext, args: Static<S>): Promise<ToolResult>;
}

/** Keeps a tool's name and schema types exact, so `ToolArgs<'create_watch'>` is the schema's. */
export function defineTool<N extends string, S extends TSchema>(tool: ToolDefinition<N, S>): ToolDefinition<N, S> {
  return tool;
}
