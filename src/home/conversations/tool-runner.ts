import { AgentToolError, type ToolResult, type ToolRunner, getTool, type ToolName, type ToolPorts } from '../agent/index.ts';
import type { Clock } from '../../platform/time/index.ts';
import type { DatabaseHandle } from '../../platform/db/index.ts';
import { answerPast, type PastQuestion } from './past-answer.ts';
import { type Actor, type Principal } from '../../platform/identity/index.ts';
import { ERROR_CATALOGUE, VigilError } from '../../platform/lib/index.ts';
import type { EventService } from '../events/index.ts';
import type { HouseholdService } from '../household/index.ts';
import type { WatchService } from '../watches/index.ts';
import type { NotificationService } from '../../platform/notify/index.ts';

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

/** Maps a service's domain error to the agent's: the planner's reply says it in words. */
function toAgentError(err: unknown): unknown {
  if (!(err instanceof VigilError)) return err;
  switch (err.code) {
    case 'boundary_in_effect':
      return new AgentToolError(err.extra?.reason === 'muted' ? 'muted' : 'boundary', err.message);
    case 'not_found':
      return new AgentToolError('not_found', err.message);
    case 'owner_role_required':
      // a member key asked to lift a boundary or unmute; the reply says only an owner can
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

/**
 * The agent's tools as adapters over the services the HTTP routes call ("one behaviour, two
 * doors", docs/design.md "One behaviour, two doors"): every change goes through the same access checks, boundary
 * checks, audit entries and event-log rows as its HTTP twin.
 */
export class HouseholdToolRunner implements ToolRunner {
  /**
   * Sensors whose content this turn's reply shows (a scene described, events listed): stored with
   * the turn so its history is hidden once the place is left alone.
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

  private dispatch(tool: ToolName, raw: Record<string, unknown>): Promise<ToolResult> {
    const { household, watches, notifications } = this.deps;
    const ports: ToolPorts = {
      watches,
      household,
      ...(notifications ? { notifications } : {}),
      answerPast: (principal, timeZone, q) => answerPast(this.deps, principal, timeZone, q as PastQuestion),
    };
    const { principal, actor, conversationId, timeZone } = this.scope;
    return getTool(tool).run(
      { ports, scope: { principal, actor, conversationId, timeZone, now: () => this.deps.clock.now() }, revealed: this.revealed },
      raw as never,
    );
  }
}
