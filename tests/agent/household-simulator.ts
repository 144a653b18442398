/**
 * An in-memory household for the agent's tests: it applies tool calls the way the household
 * services do (ids wat_1, wat_2…; muting; boundaries; renames) and keeps the conversation, so
 * multi-turn corpus cases see the state earlier turns left behind.
 */
import { AgentToolError, runPlan, type AgentAction, type ToolResult, type ToolRunner } from '../../src/home/agent/plan-executor.ts';
import { rememberAction, type ContextSensor, type HouseholdContext } from '../../src/home/agent/context.ts';
import { mergeFreshness, sceneFreshness, staleSentence, type SceneFreshness } from '../../src/org/scenes/scene-freshness.ts';
import type { ToolName } from '../../src/home/agent/tools.ts';
import { planOffline } from '../../src/home/agent/offline-planner.ts';
import { contactSentence } from '../../src/home/household/contact-sentence.ts';
import { formatMoment } from '../../src/platform/time/index.ts';

/**
 * A conversation with the offline planner in a fresh copy of `ctx`: each message planned, run
 * against the simulator and recorded as a turn. Per turn: the plan, the calls among `stateTools`
 * it made, the reply, and whether it asked.
 */
export async function converseOffline(ctx: HouseholdContext, messages: string[], stateTools: ReadonlySet<string>) {
  const household = new HouseholdSimulator(structuredClone(ctx));
  const turns: { plan: ReturnType<typeof planOffline>; changes: { tool: string; args: Record<string, unknown> }[]; reply: string; asked: boolean }[] = [];
  for (const message of messages) {
    const before = household.calls.length;
    const plan = planOffline(message, household.ctx);
    const run = await runPlan(plan, household);
    turns.push({ plan, changes: household.calls.slice(before).filter((c) => stateTools.has(c.tool)), reply: run.reply, asked: Boolean(plan.clarification) });
    household.recordTurn(message, run.actions);
  }
  return turns;
}

/**
 * A simulated sensor may say how its feed is: `status` ('live' by default, or 'offline', 'connecting', 'reconnecting')
 * and `last_frame_at` (ISO). The freshness of a place's cameras is then worked out as the service does
 * (src/org/scenes/scene-freshness.ts); undefined when the place has no camera or one is live.
 */
function staleCameras(sensors: ContextSensor[], now: number): SceneFreshness | undefined {
  const cameras = sensors.filter((x) => x.kind === 'camera') as (ContextSensor & { status?: string; last_frame_at?: string })[];
  if (!cameras.length) return undefined;
  const merged = mergeFreshness(
    cameras.map((c) =>
      sceneFreshness({ now, lastDetectionAt: null, sources: [{ status: c.status ?? 'live', last_frame_at: c.last_frame_at ?? null, source_type: 'rtsp' }] }),
    ),
  );
  return merged.stale ? merged : undefined;
}

/**
 * A simulated door or gate contact whose feed is not live (`status`, `error`, `last_seen_at`):
 * worded as the household service words it (src/home/household/contact-sentence.ts). The
 * simulated home has no state changes recorded, so only its feed and when it was last heard from.
 */
function staleContacts(sensors: ContextSensor[], now: number, timeZone: string): string[] {
  const contacts = sensors.filter((x) => x.kind === 'contact') as (ContextSensor & {
    status?: string;
    error?: string;
    last_seen_at?: string;
    last_frame_at?: string;
  })[];
  return contacts
    .filter((c) => c.status && c.status !== 'live')
    .map((c) => {
      const heard = c.last_frame_at ?? c.last_seen_at;
      const room = /door|window|gate/i.test(c.room) ? `The ${c.room}` : c.name.replace(/^\w/, (x) => x.toUpperCase());
      return contactSentence({
        subject: room,
        sensor: c.name,
        status: c.status!,
        error: c.error ?? null,
        heardAt: heard ? Date.parse(heard) : null,
        now,
        timeZone,
      });
    });
}

export class HouseholdSimulator implements ToolRunner {
  ctx: HouseholdContext;
  private watchSeq = 0;
  private sensorSeq = 0;
  readonly calls: { tool: ToolName; args: Record<string, unknown> }[] = [];
  /** notification routing as the simulated person has it (set_notification_routing) */
  routing = { quiet_hours: null as { from: string; to: string } | null, paused: false, exclude: { rooms: [] as string[], sensors: [] as string[] } };

  constructor(ctx: HouseholdContext) {
    this.ctx = structuredClone(ctx);
  }

  recordTurn(message: string, actions: AgentAction[]): void {
    this.ctx.conversation.turns.push({ message, actions: actions.map(rememberAction) });
  }

  async call(tool: ToolName, args: Record<string, unknown>): Promise<ToolResult> {
    this.calls.push({ tool, args });
    const ctx = this.ctx;
    const sensorOf = (id: unknown) => {
      const s = ctx.sensors.find((x) => x.id === id);
      if (!s) throw new AgentToolError('not_found', `there is no sensor ${String(id)}`);
      return s;
    };
    switch (tool) {
      case 'create_watch': {
        const id = `wat_${++this.watchSeq}`;
        const w = {
          id,
          subject: args.subject as string,
          sensor_ids: args.sensor_ids as string[],
          starts_at: args.starts_at as string,
          ends_at: args.ends_at as string,
          recurrence: args.recurrence as string,
          window: args.window as string,
        };
        ctx.watches.push(w);
        return { action: { id, subject: w.subject, window: w.window, starts_at: w.starts_at, ends_at: w.ends_at, recurrence: w.recurrence } };
      }
      case 'update_watch': {
        const w = ctx.watches.find((x) => x.id === args.watch_id);
        if (!w) throw new AgentToolError('not_found', 'that watch is no longer active');
        Object.assign(w, Object.fromEntries(Object.entries(args).filter(([k]) => k !== 'watch_id')));
        return { action: { id: w.id, subject: w.subject, window: w.window, starts_at: w.starts_at, ends_at: w.ends_at } };
      }
      case 'stand_down_watch': {
        const w = ctx.watches.find((x) => x.id === args.watch_id);
        if (!w) throw new AgentToolError('not_found', 'that watch is no longer active');
        ctx.watches = ctx.watches.filter((x) => x !== w);
        return { action: { ...w } };
      }
      case 'list_watches':
        return {
          action: { count: ctx.watches.length },
          text: ctx.watches.length
            ? `I'm watching: ${ctx.watches.map((w) => `the ${w.subject} (${w.window})`).join(', ')}.`
            : "I'm not watching anything right now.",
        };
      case 'mute_sensor':
      case 'unmute_sensor': {
        const s = sensorOf(args.sensor_id);
        s.muted = tool === 'mute_sensor';
        return { action: { id: s.id, subject: s.name } };
      }
      case 'set_boundary':
        ctx.boundaries.push(args.room ? { room: args.room as string } : { sensor_id: args.sensor_id as string });
        return { action: { subject: (args.room as string) ?? sensorOf(args.sensor_id).name } };
      case 'clear_boundary':
        ctx.boundaries = ctx.boundaries.filter((b) => !(b.room === args.room && b.sensor_id === args.sensor_id));
        return { action: { subject: (args.room as string) ?? sensorOf(args.sensor_id).name } };
      case 'describe_scene': {
        const subject = (args.room as string) ?? sensorOf(args.sensor_id).name;
        const sensors = args.sensor_id ? [sensorOf(args.sensor_id)] : ctx.sensors.filter((x) => x.room === args.room);
        const stale = staleCameras(sensors, ctx.now);
        // as the household service: a contact that is not live says so, with when it last reported
        const contacts = staleContacts(sensors, ctx.now, ctx.timeZone);
        const cameras = sensors.some((x) => x.kind === 'camera');
        if (contacts.length && !stale && !cameras) return { action: { subject }, text: contacts.join(' ') };
        const tail = contacts.length ? ` ${contacts.join(' ')}` : '';
        // as the household service: a camera that is offline past the silence threshold gives its last reading, never "now"
        if (stale)
          return {
            action: { subject },
            text: staleSentence({ freshness: stale, now: ctx.now, timeZone: ctx.timeZone, place: `the ${subject}`, counts: { people: 0 } }) + tail,
          };
        return { action: { subject }, text: `The ${subject} is quiet: nobody there right now.${tail}` };
      }
      case 'list_events': {
        // as the tool runner (conversations/past-answer.ts): the simulated home has no readings
        // recorded, so the answer says it cannot tell, naming the place and the period it covers
        const moment = (iso: unknown) => formatMoment(Date.parse(iso as string), ctx.timeZone, ctx.now);
        const place = args.room ? `in the ${args.room as string}` : args.sensor_id ? `at the ${sensorOf(args.sensor_id).name}` : 'at home';
        const span =
          args.since && args.until
            ? `from ${moment(args.since)} to ${moment(args.until)}`
            : args.since
              ? `since ${moment(args.since)}`
              : 'in the last 24 hours';
        return {
          action: { count: 0, readings_since: null },
          text: `I can't say what happened ${place} ${span}: no sensor there was looking. I have no readings from there yet.`,
        };
      }
      case 'add_sensor': {
        const id = `sen_new_${++this.sensorSeq}`;
        const s = { id, name: args.name as string, kind: args.kind as 'camera', room: args.room as string, muted: false };
        ctx.sensors.push(s);
        if (!ctx.rooms.some((r) => r.name === s.room)) ctx.rooms.push({ name: s.room });
        return { action: { id, subject: s.name } };
      }
      case 'add_sensor_by_topic': {
        const id = `sen_new_${++this.sensorSeq}`;
        const s = { id, name: args.name as string, kind: args.kind as 'contact', room: args.room as string, muted: false };
        ctx.sensors.push(s);
        if (!ctx.rooms.some((r) => r.name === s.room)) ctx.rooms.push({ name: s.room });
        return { action: { id, subject: s.name, topic: args.topic } };
      }
      case 'set_notification_routing': {
        const r = this.routing;
        if (args.quiet_hours !== undefined) r.quiet_hours = args.quiet_hours as typeof r.quiet_hours;
        if (args.paused !== undefined) r.paused = args.paused as boolean;
        const add = (args.exclude_add ?? {}) as { rooms?: string[]; sensors?: string[] };
        const remove = (args.exclude_remove ?? {}) as { rooms?: string[]; sensors?: string[] };
        r.exclude.rooms = [...new Set([...r.exclude.rooms, ...(add.rooms ?? [])])].filter((x) => !(remove.rooms ?? []).includes(x));
        r.exclude.sensors = [...new Set([...r.exclude.sensors, ...(add.sensors ?? [])])].filter((x) => !(remove.sensors ?? []).includes(x));
        return { action: { scope: args.scope ?? 'me', ...structuredClone(r) }, text: `Routing now: ${JSON.stringify(r)}.` };
      }
      case 'arm_house': {
        // as the tool (src/home/agent/tools/arm-house.ts): one watch over every camera and door contact, until disarmed
        const armed = ctx.watches.filter((w) => w.window === 'armed until disarmed');
        if (!args.arm) {
          if (!armed.length) throw new AgentToolError('conflict', "the house isn't armed, so nothing changed");
          ctx.watches = ctx.watches.filter((w) => !armed.includes(w));
          return { action: { ids: armed.map((w) => w.id), subject: 'house' } };
        }
        if (armed.length) throw new AgentToolError('conflict', 'the house is already armed');
        const id = `wat_${++this.watchSeq}`;
        const sensorIds = ctx.sensors.filter((s) => (s.kind === 'camera' || s.kind === 'contact') && !s.muted).map((s) => s.id);
        ctx.watches.push({
          id,
          subject: 'house',
          sensor_ids: sensorIds,
          starts_at: new Date(ctx.now).toISOString(),
          ends_at: '9999-12-31T23:59:59.000Z',
          recurrence: 'none',
          window: 'armed until disarmed',
        });
        return { action: { id, subject: 'house', sensor_ids: sensorIds } };
      }
      case 'set_household': {
        if (args.lat !== undefined) ctx.location = { lat: args.lat as number, lon: args.lon as number, city: args.city as string | undefined };
        if (args.time_zone) ctx.timeZone = args.time_zone as string;
        const rename = args.rename_room as { from: string; to: string } | undefined;
        if (rename) {
          for (const r of ctx.rooms) if (r.name === rename.from) r.name = rename.to;
          for (const s of ctx.sensors) if (s.room === rename.from) s.room = rename.to;
        }
        return { action: {} };
      }
    }
  }
}
