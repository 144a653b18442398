import { AgentToolError, type ToolArgs, type ToolName, type ToolResult, type ToolRunner } from '../agent/index.ts';
import type { Clock } from '../../platform/time/index.ts';
import type { DatabaseHandle } from '../../platform/db/index.ts';
import { answerPast } from './past-answer.ts';
import type { Actor, Principal } from '../../platform/identity/index.ts';
import { ERROR_CATALOGUE, VigilError } from '../../platform/lib/index.ts';
import type { EventService } from '../events/index.ts';
import type { HouseholdService } from '../household/index.ts';
import type { WatchService, WatchView } from '../watches/index.ts';
import type { NotificationService } from '../../platform/notify/index.ts';
import { describeRouting } from './routing-words.ts';

export interface ToolRunnerDeps {
  database: DatabaseHandle;
  clock: Clock;
  household: HouseholdService;
  watches: WatchService;
  events: EventService;
  /** routing said to the agent ("notify me only between 11pm and 7am"); absent: the tool is unavailable */
  notifications?: NotificationService;
}

export interface ToolRunnerScope {
  principal: Principal;
  actor: Actor;
  conversationId: string;
  timeZone: string;
  /** aborted when the client of a streamed reply went away: the steps after that are not taken */
  signal?: AbortSignal;
}

/** Maps a service's domain error to the agent's: the planner's reply says it in words (issue 4 §2). */
function toAgentError(err: unknown): unknown {
  if (!(err instanceof VigilError)) return err;
  switch (err.code) {
    case 'boundary_in_effect':
      return new AgentToolError(err.extra?.reason === 'muted' ? 'muted' : 'boundary', err.message);
    case 'not_found':
      return new AgentToolError('not_found', err.message);
    case 'owner_role_required':
      // issue 9 §2: a member key asked to lift a boundary or unmute; the reply says only an owner can
      return new AgentToolError('conflict', err.message);
    case 'validation_failed':
    case 'unknown_field':
    case 'unsupported_source':
      return new AgentToolError('invalid', err.message.replace(/^[a-z_.]+: /, ''));
    default:
      // a key that may not do this (a household member lifting a boundary): a plain refusal, not a crash
      return ERROR_CATALOGUE[err.code]?.status === 403 ? new AgentToolError('forbidden', err.message) : err;
  }
}

function describeWatch(w: WatchView): Record<string, unknown> {
  return { id: w.id, subject: w.subject, window: w.window, starts_at: w.starts_at, ends_at: w.ends_at, recurrence: w.recurrence };
}

/**
 * The agent's tools as adapters over the services the HTTP routes call ("one behaviour, two
 * doors", DESIGN.md guideline 5): every change goes through the same access checks, boundary
 * checks, audit entries and event-log rows as its HTTP twin.
 */
export class HouseholdToolRunner implements ToolRunner {
  /**
   * Sensors whose content this turn's reply shows (a scene described, events listed): stored with
   * the turn so its history is hidden once the place is left alone (issue 9 §1).
   */
  readonly revealed = new Set<string>();

  constructor(
    private readonly deps: ToolRunnerDeps,
    private readonly scope: ToolRunnerScope,
  ) {}

  async call(tool: ToolName, args: Record<string, unknown>): Promise<ToolResult> {
    if (this.scope.signal?.aborted) throw new AgentToolError('unavailable', 'the request was closed before this step, so I did not do it');
    try {
      return await this.dispatch(tool, args);
    } catch (err) {
      throw toAgentError(err);
    }
  }

  private async dispatch(tool: ToolName, raw: Record<string, unknown>): Promise<ToolResult> {
    const { principal, actor } = this.scope;
    const { household, watches } = this.deps;
    switch (tool) {
      case 'create_watch': {
        const a = raw as ToolArgs<'create_watch'>;
        const w = await watches.create(principal, actor, { ...a, conversation_id: this.scope.conversationId });
        return { action: describeWatch(w) };
      }
      case 'update_watch': {
        const { watch_id, ...change } = raw as ToolArgs<'update_watch'>;
        return { action: describeWatch(await watches.update(principal, actor, watch_id, change)) };
      }
      case 'stand_down_watch': {
        const w = await watches.standDown(principal, actor, (raw as ToolArgs<'stand_down_watch'>).watch_id);
        return { action: { id: w.id, subject: w.subject } };
      }
      case 'list_watches': {
        const list = await watches.listActive(principal.tenantId);
        const text = list.length
          ? `I'm watching ${list.map((w) => `the ${w.subject} (${w.window})`).join(', ')}.`
          : "I'm not watching anything right now.";
        return { action: { count: list.length, ids: list.map((w) => w.id) }, text };
      }
      case 'mute_sensor':
      case 'unmute_sensor': {
        const s = await household.muteSensor(principal, actor, (raw as ToolArgs<'mute_sensor'>).sensor_id, tool === 'mute_sensor');
        return { action: { id: s.id, subject: s.name } };
      }
      case 'set_boundary':
      case 'clear_boundary': {
        const place = raw as ToolArgs<'set_boundary'>;
        const b = tool === 'set_boundary' ? await household.setBoundary(principal, actor, place) : await household.clearBoundary(principal, actor, place);
        return { action: { id: b.id, ...(b.room ? { room: b.room } : {}), ...(b.sensor_id ? { sensor_id: b.sensor_id } : {}) } };
      }
      case 'describe_scene': {
        const d = await household.describe(principal, actor, raw as ToolArgs<'describe_scene'>);
        for (const id of d.sensorIds) this.revealed.add(id);
        return { action: { subject: d.subject, people: d.people, vehicles: d.vehicles, ...d.freshness }, text: d.text };
      }
      case 'list_events':
        return this.listEvents(raw as ToolArgs<'list_events'>);
      case 'add_sensor': {
        const s = await household.addSensor(principal, actor, raw as ToolArgs<'add_sensor'>);
        // a WHIP publisher: the reply gives its publish link (shown once, like the organization API's)
        if (s.publish) {
          return {
            action: { id: s.id, subject: s.name, kind: s.kind, room: s.room, status: s.status, publish_url: s.publish.publish_url, whip_url: s.publish.whip_url },
            text: `I've added the ${s.name} in the ${s.room}. Open ${s.publish.publish_url} on the phone or browser that should publish its camera (the link carries its publish token: share it like a password); WHIP clients publish to ${s.publish.whip_url} with that token.`,
          };
        }
        return { action: { id: s.id, subject: s.name, kind: s.kind, room: s.room, status: s.status } };
      }
      case 'add_sensor_by_topic': {
        const a = raw as ToolArgs<'add_sensor_by_topic'>;
        const s = await household.addSensorByTopic(principal, actor, a);
        const kind = s.kind === 'contact' ? 'a door or window contact' : 'a motion sensor';
        return {
          action: { id: s.id, subject: s.name, kind: s.kind, room: s.room, status: s.status, topic: s.topic, broker: s.broker },
          text: `I've added the ${s.name} in the ${s.room}: ${kind} reading the Zigbee2MQTT topic ${s.topic} on ${s.broker}.`,
        };
      }
      case 'set_notification_routing':
        return this.setRouting(raw as ToolArgs<'set_notification_routing'>);
      case 'set_household': {
        const h = await household.updateHome(principal, actor, raw as ToolArgs<'set_household'>);
        const rename = (raw as ToolArgs<'set_household'>).rename_room;
        return { action: { city: h.city, lat: h.lat, lon: h.lon, time_zone: h.time_zone, ...(rename ? { rename_room: rename } : {}) } };
      }
    }
  }

  /**
   * "Notify me only between 11pm and 7am", "don't send me the garage ones", "stop the
   * notifications": the change applied to the routing in force, through the same service (and
   * checks, and audit) as PUT /v1/notification-preferences; the reply says the whole routing now.
   */
  private async setRouting(a: ToolArgs<'set_notification_routing'>): Promise<ToolResult> {
    const { principal, actor } = this.scope;
    const notifications = this.deps.notifications;
    if (!notifications) throw new AgentToolError('unavailable', 'notifications are not set up on this server');
    const scope = a.scope ?? 'me';
    const before = await notifications.getPreferences(principal, scope);
    const add = a.exclude_add ?? {};
    const remove = a.exclude_remove ?? {};
    const merge = (now: string[], plus: string[] = [], minus: string[] = []) => {
      const out = [...now];
      for (const x of plus) if (!out.some((y) => y.toLowerCase() === x.toLowerCase())) out.push(x);
      return out.filter((x) => !minus.some((y) => y.toLowerCase() === x.toLowerCase()));
    };
    const after = await notifications.setRouting(principal, actor, scope, {
      quietHours: a.quiet_hours === undefined ? before.quiet_hours : a.quiet_hours,
      paused: a.paused === undefined ? before.paused : a.paused,
      exclude: { rooms: merge(before.exclude.rooms, add.rooms, remove.rooms), sensors: merge(before.exclude.sensors, add.sensors, remove.sensors), watches: before.exclude.watches },
    });
    const home = await this.deps.household.snapshot(principal.tenantId);
    const text = describeRouting(after, (id) => home.sensors.find((s) => s.id === id)?.name);
    return { action: { scope, paused: after.paused, quiet_hours: after.quiet_hours, exclude: after.exclude }, text };
  }

  /** "what happened in the backyard last night?": every recorded detection, the watch events and the coverage (past-answer.ts). */
  private async listEvents(a: ToolArgs<'list_events'>): Promise<ToolResult> {
    const { principal, timeZone } = this.scope;
    const watchSensors = a.watch_id ? (await this.deps.watches.get(principal, a.watch_id)).sensor_ids : undefined;
    const answer = await answerPast(this.deps, principal, timeZone, { ...a, ...(watchSensors ? { watch_sensor_ids: watchSensors } : {}) });
    for (const id of answer.revealed) this.revealed.add(id);
    return { action: answer.action, text: answer.text };
  }
}
