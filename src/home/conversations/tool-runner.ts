import { AgentToolError, type ToolResult, type ToolRunner } from '../agent/index.ts';
import type { ToolArgs, ToolName } from '../agent/index.ts';
import { formatClock, formatMoment } from '../../platform/time/index.ts';
import type { Actor } from '../../platform/identity/index.ts';
import type { Principal } from '../../platform/identity/index.ts';
import { ERROR_CATALOGUE, VigilError } from '../../platform/lib/index.ts';
import type { EventService } from '../events/index.ts';
import { ALERT_TYPES, EVENT_LOG_KINDS, OBSERVATION_TYPES, type EventView } from '../events/index.ts';
import type { HouseholdService } from '../household/index.ts';
import { capitalize } from '../directory/index.ts';
import { WATCHED_KINDS } from '../../platform/kinds/index.ts';
import type { WatchService } from '../watches/index.ts';
import type { WatchView } from '../watches/index.ts';

/** Event types a watch condition word stands for, when the agent lists events ("any cars today?"). */
const TYPES_OF_CONDITION: Record<string, readonly string[]> = {
  person: ['person_detected', 'person_recognized', 'unrecognized_person', 'loitering'],
  unrecognized_person: ['unrecognized_person'],
  recognized_person: ['person_recognized'],
  door_open: ['door_opened', 'door_opened_while_away'],
  motion: ['motion', 'motion_at_night', 'motion_while_away'],
  loitering: ['loitering'],
  // vehicle: ['vehicle_detected'], animal: ['animal_detected'], …: the table of detection kinds' watches
  ...Object.fromEntries(WATCHED_KINDS.map((k) => [k.watch!.condition, [k.watch!.event]])),
};

export interface ToolRunnerDeps {
  household: HouseholdService;
  watches: WatchService;
  events: EventService;
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
      case 'set_household': {
        const h = await household.updateHome(principal, actor, raw as ToolArgs<'set_household'>);
        const rename = (raw as ToolArgs<'set_household'>).rename_room;
        return { action: { city: h.city, lat: h.lat, lon: h.lon, time_zone: h.time_zone, ...(rename ? { rename_room: rename } : {}) } };
      }
    }
  }

  private async listEvents(a: ToolArgs<'list_events'>): Promise<ToolResult> {
    const { principal } = this.scope;
    let kind: string | undefined;
    let types: string[] | undefined;
    if (a.kind && TYPES_OF_CONDITION[a.kind]) types = [...TYPES_OF_CONDITION[a.kind]];
    else if (a.kind && (EVENT_LOG_KINDS as readonly string[]).includes(a.kind)) kind = a.kind;
    // what happened = observations and alerts; changes (watch set up, sensor muted) are not news
    else types = [...OBSERVATION_TYPES, ...ALERT_TYPES];
    let sensorIds: string[] | undefined;
    if (a.sensor_id) sensorIds = [a.sensor_id];
    else if (a.room) {
      const home = await this.deps.household.snapshot(principal.tenantId);
      sensorIds = home.sensors.filter((s) => s.room.toLowerCase() === a.room!.toLowerCase()).map((s) => s.id);
    }
    const page = await this.deps.events.list(principal, { limit: a.limit ?? 20, since: a.since, watch_id: a.watch_id, kind, types, sensor_ids: sensorIds });
    for (const e of page.data) if (e.sensor_id) this.revealed.add(e.sensor_id);
    // honest about coverage: "I have readings since 00:31", not "nothing in 24 hours"
    const coverage = await this.deps.household.getReadingsSince(principal.tenantId, sensorIds);
    const text = this.summarizeEvents(page.data, a) + this.describeCoverage(coverage, a);
    return {
      action: { count: page.data.length, ...(a.since ? { since: a.since } : {}), ...(a.kind ? { kind: a.kind } : {}), readings_since: coverage.since === null ? null : new Date(coverage.since).toISOString() },
      text,
    };
  }

  private describeCoverage(coverage: { since: number | null; now: number }, a: ToolArgs<'list_events'>): string {
    if (coverage.since === null) return ' I have no readings from there yet.';
    const asked = a.since ? Date.parse(a.since) : undefined;
    if (asked !== undefined && asked >= coverage.since) return '';
    return ` I have readings since ${formatMoment(coverage.since, this.scope.timeZone, coverage.now)}.`;
  }

  private summarizeEvents(events: EventView[], a: ToolArgs<'list_events'>): string {
    const tz = this.scope.timeZone;
    const where = a.room ? ` in the ${a.room}` : '';
    const when = a.since ? ` since ${formatClock(Date.parse(a.since), tz)}` : '';
    if (events.length === 0) return `Nothing${a.kind === 'alert' ? ' alarming' : ''} has happened${where}${when}.`;
    const shown = events.slice(0, 5).map((e) => `${formatClock(Date.parse(e.occurred_at), tz)} ${e.summary}`);
    const full = events.length >= (a.limit ?? 20);
    const n = events.length === 1 ? 'one event' : `${events.length}${full ? ' or more' : ''} events`;
    const rest = events.length > 5 ? ` …and ${events.length - 5} earlier.` : '';
    return `${capitalize(n)}${where}${when}, newest first: ${shown.join(' ')}${rest}`;
  }
}
