/**
 * The optional LLM planner: the same tool catalogue and the same argument validation
 * as the offline planner, chosen by a model behind any OpenAI-compatible chat-completions
 * endpoint with tool calling (`POST {base}/chat/completions`, `tools`, `tool_choice: "auto"`).
 *
 * The planner only plans: it asks the model once, turns the answer's `tool_calls` into
 * `Plan.calls`, and the plan executor runs them through the same services as every other door,
 * which enforce boundaries, muting and ownership again. Any failure of the endpoint is thrown as
 * an `LlmPlannerError` with a stable reason, so the facade (planner.ts) can let the offline planner
 * answer and say so.
 *
 * Invalid tool calls (decision, in the terms of docs/design.md "One behaviour, two doors"):
 * a call whose name is not in the catalogue, whose arguments are not JSON or fail the tool's
 * schema, or that names a sensor, room or watch this home does not have, is dropped and the
 * reply says a step was left out. When every call the model proposed is dropped, the model's
 * answer is worthless, so the planner throws (`invalid_tool_calls`) and the offline planner answers.
 */
import type { LlmConfig } from '../../platform/config/index.ts';
import SunCalc from 'suncalc';
import type { ContextSensor, HouseholdContext } from './context.ts';
import type { Plan, PlannedCall } from './plan.ts';
import { getTool, isToolName, toOpenAiTools, TOOL_LLM_RULES, validateToolArgs, type ToolName } from './tools.ts';
import { formatLocal, getOffsetMinutes, toWallClock } from '../../platform/time/index.ts';

export const DEFAULT_LLM_TIMEOUT_MS = 8_000;

export type LlmPlannerOptions = LlmConfig;

export type LlmFailureReason = 'timeout' | 'network_error' | 'http_error' | 'malformed_response' | 'no_choices' | 'empty_answer' | 'invalid_tool_calls';

/** The endpoint could not give a usable plan; `reason` is stable, `message` is for logs. */
export class LlmPlannerError extends Error {
  readonly reason: LlmFailureReason;
  readonly status?: number;
  constructor(reason: LlmFailureReason, message: string, status?: number) {
    super(message);
    this.name = 'LlmPlannerError';
    this.reason = reason;
    this.status = status;
  }
}

/** The parts of the chat-completions request this planner sends. */
export interface ChatCompletionRequest {
  model: string;
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
  tools: ReturnType<typeof toOpenAiTools>;
  tool_choice: 'auto';
  temperature: number;
}

interface RawToolCall {
  id?: unknown;
  type?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** "+01:00" offset of the zone at an instant (the model must turn local times into UTC). */
function formatUtcOffset(ms: number, timeZone: string): string {
  const minutes = getOffsetMinutes(ms, timeZone);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

function describeInstant(ms: number, timeZone: string): string {
  return `${formatLocal(ms, timeZone)} local (${new Date(ms).toISOString()})`;
}

/**
 * The sun around now (last sunset, next sunrise, next sunset), so "tonight" and "sunset to
 * sunrise" need no astronomy from the model, also when it asks after dark.
 */
function describeSun(ctx: HouseholdContext): string | undefined {
  if (!ctx.location) return undefined;
  const { lat, lon } = ctx.location;
  const sunsets: number[] = [];
  const sunrises: number[] = [];
  for (const day of [-1, 0, 1, 2]) {
    const t = SunCalc.getTimes(new Date(ctx.now + day * 86_400_000), lat, lon);
    sunsets.push(t.sunset.getTime());
    sunrises.push(t.sunrise.getTime());
  }
  const valid = (xs: number[]) => xs.filter(Number.isFinite).sort((a, b) => a - b);
  const lastSunset = valid(sunsets)
    .filter((t) => t <= ctx.now)
    .at(-1);
  const nextSunset = valid(sunsets).find((t) => t > ctx.now);
  const nextSunrise = valid(sunrises).find((t) => t > ctx.now);
  // polar day or night: no sunset/sunrise to offer, the model must ask
  if (nextSunset === undefined || nextSunrise === undefined) return undefined;
  const dark = lastSunset !== undefined && nextSunrise < nextSunset;
  return [
    dark ? `It is night now (sunset was ${describeInstant(lastSunset, ctx.timeZone)}).` : 'It is daytime now.',
    `Next sunrise: ${describeInstant(nextSunrise, ctx.timeZone)}.`,
    `Next sunset: ${describeInstant(nextSunset, ctx.timeZone)}.`,
  ].join(' ');
}

function isUnderBoundary(ctx: HouseholdContext, sensor: ContextSensor): boolean {
  return ctx.boundaries.some((b) => b.sensor_id === sensor.id || (b.room !== undefined && b.room.toLowerCase() === sensor.room.toLowerCase()));
}

/** The household and the rules, as the system message (the model knows nothing else of this home). */
export function buildSystemPrompt(ctx: HouseholdContext): string {
  const wc = toWallClock(ctx.now, ctx.timeZone);
  const where = ctx.location
    ? `${ctx.location.city ? `${ctx.location.city}, ` : ''}lat ${ctx.location.lat}, lon ${ctx.location.lon}`
    : 'unknown (ask the user for their city before using sunset or sunrise)';
  const rooms = ctx.rooms.map((r) => {
    const fenced = ctx.boundaries.some((b) => b.room?.toLowerCase() === r.name.toLowerCase());
    return `- ${r.name}${fenced ? ' [BOUNDARY: leave alone]' : ''}`;
  });
  const sensors = ctx.sensors.map((s) => {
    // a feed that is not live sees nothing now: said with its last frame (src/home/agent/feed-status.ts)
    const feed = s.status && s.status !== 'live' ? `FEED ${s.status.toUpperCase()}${s.last_frame_at ? `, last frame ${s.last_frame_at}` : ''}` : '';
    const flags = [s.muted ? 'MUTED' : '', isUnderBoundary(ctx, s) ? 'BOUNDARY: leave alone' : '', feed].filter(Boolean);
    return `- id ${s.id}: "${s.name}", ${s.kind}, room "${s.room}"${flags.length ? ` [${flags.join('; ')}]` : ''}`;
  });
  const boundaries = ctx.boundaries.map((b) => {
    if (b.room) return `- room "${b.room}"`;
    const s = ctx.sensors.find((x) => x.id === b.sensor_id);
    return `- sensor ${b.sensor_id}${s ? ` ("${s.name}")` : ''}`;
  });
  const watches = ctx.watches.map(
    (w) => `- id ${w.id}: subject "${w.subject}", sensors ${w.sensor_ids.join(', ')}, ${w.window} (${w.starts_at} to ${w.ends_at}, recurrence ${w.recurrence})`,
  );
  const sun = describeSun(ctx);
  return [
    'You are Vigil, the security agent of one household. You act only by calling the tools provided.',
    '',
    '# The household',
    `Location: ${where}. Time zone: ${ctx.timeZone} (UTC${formatUtcOffset(ctx.now, ctx.timeZone)} now).`,
    `Current local time: ${WEEKDAYS[wc.weekday]} ${describeInstant(ctx.now, ctx.timeZone)}.`,
    ...(sun ? [sun] : []),
    'Rooms:',
    ...(rooms.length ? rooms : ['- (none)']),
    'Sensors:',
    ...(sensors.length ? sensors : ['- (none)']),
    'Boundaries (places the household asked you to leave alone):',
    ...(boundaries.length ? boundaries : ['- (none)']),
    'Active watches:',
    ...(watches.length ? watches : ['- (none)']),
    `Known people (recognized by face on cameras; face recognition is ${ctx.faceRecognition === false ? 'OFF' : 'on'}):`,
    ...(ctx.people?.length ? ctx.people.map((p) => `- id ${p.id}: ${p.name}`) : ['- (none)']),
    `Default MQTT broker for sensors added by topic: ${ctx.mqttBroker ?? '(none)'}`,
    '',
    '# Rules',
    '1. Use only the rooms, sensor ids and watch ids listed above. Never invent a room, sensor or watch. If the user names one that is not listed, do not call a tool: answer in text that this home has no such thing and list what it has.',
    '2. Never watch or describe a MUTED sensor or anything under a BOUNDARY: answer in text why not. Unmute a sensor or lift a boundary only when the user explicitly asks for exactly that.',
    '3. If a request is ambiguous (which sensor, which watch, what time), do not call any tool: answer with one short question.',
    '4. Requests outside these tools (or in a language you cannot act on) get a short text answer saying what you can do, with no tool call.',
    '5. One message may ask for several things: call one tool per thing, in the order asked.',
    '6. Times in tool arguments are ISO 8601 UTC with a Z suffix. Convert the user\'s local times with the time zone above. "Tonight" and "sunset to sunrise" mean from the next sunset (from now if it is night now) until the sunrise after it; a window that ends at a time already past today ends tomorrow. Put the window in the user\'s words in `window` and use `recurrence` for "every night", "weekdays", "weekends".',
    "7. create_watch: `subject` is the room or sensor name as listed; `sensor_ids` are the ids of that room's (or that) sensor(s), excluding muted or bounded ones.",
    '8. Follow-ups ("make it until 6am instead", "stop watching it", "what about the garage?") refer to the conversation so far and to the active watches above; use their ids.',
    '9. "Let me know when Maria arrives": create_watch on cameras with conditions ["recognized_person"] and person_ids of that known person; "anyone we don\'t know": conditions ["unrecognized_person"]. A name that is not among the known people: do not call a tool, say you do not know them and list who you know.',
    // the tools' own rules (tools/*.ts, llmRule), numbered on from the general ones
    ...TOOL_LLM_RULES.map((rule, k) => `${10 + k}. ${rule}`),
  ].join('\n');
}

/** Earlier turns as chat messages, so follow-ups resolve the way they do offline. */
function buildHistory(ctx: HouseholdContext): ChatCompletionRequest['messages'] {
  const out: ChatCompletionRequest['messages'] = [];
  for (const turn of ctx.conversation.turns) {
    out.push({ role: 'user', content: turn.message });
    const done = turn.actions.map((a) => `${a.type}${a.id ? ` ${a.id}` : ''}${a.subject ? ` (${a.subject})` : ''}`);
    out.push({ role: 'assistant', content: done.length ? `Done: ${done.join('; ')}.` : 'No action taken.' });
  }
  return out;
}

export function buildChatRequest(message: string, ctx: HouseholdContext, model: string): ChatCompletionRequest {
  return {
    model,
    messages: [{ role: 'system', content: buildSystemPrompt(ctx) }, ...buildHistory(ctx), { role: 'user', content: message }],
    tools: toOpenAiTools(),
    tool_choice: 'auto',
    // planning is not creative writing: the same message should give the same plan
    temperature: 0,
  };
}

/** Models often send `null` for an optional argument they do not use; the schemas mean "absent". */
function dropNulls(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null));
}

function parseArguments(raw: unknown): Record<string, unknown> | undefined {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch {
      return undefined;
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return dropNulls(value as Record<string, unknown>);
}

/**
 * Schema validation cannot know this home; this can. Returns why the call names something that
 * does not exist, and canonicalises room names the model wrote in another case.
 */
function checkAgainstHome(tool: ToolName, args: Record<string, unknown>, ctx: HouseholdContext): string | undefined {
  const sensorIds = new Set(ctx.sensors.map((s) => s.id));
  const findRoom = (name: string) => ctx.rooms.find((r) => r.name.toLowerCase() === name.trim().toLowerCase())?.name;
  const ids = [...(Array.isArray(args.sensor_ids) ? (args.sensor_ids as string[]) : []), ...(typeof args.sensor_id === 'string' ? [args.sensor_id] : [])];
  const unknownSensor = ids.find((id) => !sensorIds.has(id));
  if (unknownSensor) return `there is no sensor "${unknownSensor}" in this home`;
  // add_sensor may name a new room; every other room must exist
  if (!getTool(tool).namesNewRoom && typeof args.room === 'string') {
    const room = findRoom(args.room);
    if (!room) return `there is no room "${args.room}" in this home`;
    args.room = room;
  }
  if (getTool(tool).needsActiveWatch && !ctx.watches.some((w) => w.id === args.watch_id)) {
    return `there is no active watch "${String(args.watch_id)}"`;
  }
  const rename = args.rename_room as { from?: string } | undefined;
  if (rename?.from !== undefined) {
    const room = findRoom(rename.from);
    if (!room) return `there is no room "${rename.from}" in this home`;
    rename.from = room;
  }
  return undefined;
}

/** What the call is about in the household's words, for the action log and the reply. */
function findSubject(tool: ToolName, args: Record<string, unknown>, ctx: HouseholdContext): string | undefined {
  if (typeof args.subject === 'string') return args.subject;
  if (typeof args.room === 'string' && !getTool(tool).namesNewRoom) return args.room;
  if (typeof args.sensor_id === 'string') return ctx.sensors.find((s) => s.id === args.sensor_id)?.name;
  if (typeof args.watch_id === 'string') return ctx.watches.find((w) => w.id === args.watch_id)?.subject;
  if (getTool(tool).namesNewRoom && typeof args.name === 'string') return args.name;
  return undefined;
}

/**
 * Reads a chat-completions response body into a plan. Tool calls become the plan's calls (each
 * validated); with no tool calls the model's text is the reply (a question or a refusal).
 * Throws `LlmPlannerError` when the body is not a usable answer.
 */
export function readPlanFromCompletion(body: unknown, ctx: HouseholdContext): Plan {
  if (!body || typeof body !== 'object') throw new LlmPlannerError('malformed_response', 'response body is not a JSON object');
  const choices = (body as { choices?: unknown }).choices;
  if (!Array.isArray(choices) || choices.length === 0) throw new LlmPlannerError('no_choices', 'response has no choices');
  const message = (choices[0] as { message?: unknown } | null)?.message as { content?: unknown; tool_calls?: unknown } | undefined;
  if (!message || typeof message !== 'object') throw new LlmPlannerError('malformed_response', 'first choice has no message');
  const rawCalls: RawToolCall[] = Array.isArray(message.tool_calls) ? (message.tool_calls as RawToolCall[]) : [];
  const text = typeof message.content === 'string' ? message.content.trim() : '';

  const plan: Plan = { planner: 'llm', calls: [], refusals: [] };
  if (rawCalls.length === 0) {
    if (!text) throw new LlmPlannerError('empty_answer', 'response has neither tool calls nor text');
    // rule 3/4 of the prompt: no tool call means the model asks or declines; nothing is done
    plan.clarification = text;
    return plan;
  }

  const dropped: string[] = [];
  for (const raw of rawCalls) {
    const name = typeof raw?.function?.name === 'string' ? raw.function.name : '';
    const args = parseArguments(raw?.function?.arguments);
    if (!isToolName(name)) {
      dropped.push(`unknown tool "${name}"`);
      continue;
    }
    if (!args) {
      dropped.push(`${name}: arguments are not a JSON object`);
      continue;
    }
    const errors = validateToolArgs(name, args);
    const problem = errors.length ? errors.join('; ') : checkAgainstHome(name, args, ctx);
    if (problem) {
      dropped.push(`${name}: ${problem}`);
      continue;
    }
    const call: PlannedCall = { tool: name, args };
    const subject = findSubject(name, args, ctx);
    if (subject) call.subject = subject;
    plan.calls.push(call);
  }
  if (plan.calls.length === 0) {
    throw new LlmPlannerError('invalid_tool_calls', `every tool call was invalid: ${dropped.join(' | ')}`);
  }
  for (const why of dropped) plan.refusals.push(`I left one step out because it was not valid (${why}).`);
  return plan;
}

/** Plans through an OpenAI-compatible chat-completions endpoint. Throws `LlmPlannerError` on any failure. */
export class LlmPlanner {
  private readonly url: string;
  private readonly timeoutMs: number;

  constructor(private readonly opts: LlmPlannerOptions) {
    this.url = `${opts.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  }

  async plan(message: string, ctx: HouseholdContext): Promise<Plan> {
    const request = buildChatRequest(message, ctx, this.opts.model);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`;
    // one signal for the whole exchange: a server that sends headers and then stalls the body also times out
    const signal = AbortSignal.timeout(this.timeoutMs);
    let body: unknown;
    try {
      const res = await fetch(this.url, { method: 'POST', headers, body: JSON.stringify(request), signal });
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        throw new LlmPlannerError('http_error', `endpoint answered ${res.status}`, res.status);
      }
      const raw = await res.text();
      try {
        body = JSON.parse(raw);
      } catch {
        throw new LlmPlannerError('malformed_response', 'response body is not JSON');
      }
    } catch (err) {
      if (err instanceof LlmPlannerError) throw err;
      if (signal.aborted) throw new LlmPlannerError('timeout', `no answer within ${this.timeoutMs} ms`);
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new LlmPlannerError('network_error', `request failed: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
    }
    return readPlanFromCompletion(body, ctx);
  }
}
