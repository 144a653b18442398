import { type Actor, type Principal } from '../../platform/identity/index.ts';
import { type DatabaseHandle, mapPage, type Page, type PageQuery } from '../../platform/db/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import { invalid, notFound, newId } from '../../platform/lib/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import { type HouseholdContext, planOffline, type Planner, runPlan, type AgentAction } from '../agent/index.ts';
import type { EventService } from '../events/index.ts';
import type { HouseholdService } from '../household/index.ts';
import type { WatchService } from '../watches/index.ts';
import { conversationRepository, type ConversationRow, type TurnRow } from './conversation.repository.ts';
import { MAX_MESSAGE_CHARS, type ConversationDetail, type ConversationReply, type ConversationSummary, type MessageView } from './conversation.schemas.ts';
import { findPlacesLeftAlone, redactTurn } from './conversation-privacy.ts';
import { buildHouseholdContext } from './household-context.ts';
import { personNamesOfTenant } from '../../org/people/index.ts';
import { HouseholdToolRunner } from './tool-runner.ts';
import type { NotificationService } from '../../platform/notify/index.ts';

/** Earlier turns handed to the planner so follow-ups resolve. */
const MEMORY_TURNS = 8;

export { offlinePlanner, type Planner } from '../agent/index.ts';

export interface TurnHooks {
  onAction?(action: AgentAction): void | Promise<void>;
  onText?(delta: string): void | Promise<void>;
}

/** A turn that has been opened: its conversation exists and its message is stored. */
export interface OpenedTurn {
  conversation: ConversationRow;
  turn: TurnRow;
  created: boolean;
}

export function toMessageView(t: TurnRow & { redacted?: boolean }): MessageView {
  return {
    ...(t.redacted ? { redacted: true } : {}),
    id: t.id,
    object: 'message',
    message: t.message,
    reply: t.reply,
    actions: JSON.parse(t.actions) as AgentAction[],
    planner: t.planner,
    status: t.status,
    created_at: t.created_at,
    completed_at: t.completed_at,
  };
}

function toSummary(c: ConversationRow): ConversationSummary {
  return { id: c.id, object: 'conversation', title: c.title, message_count: c.turn_count, created_at: c.created_at, updated_at: c.updated_at };
}

/**
 * Conversations with the household agent. A turn is stored before the agent
 * acts, each action is added to it the moment its tool returns, and the reply when it is done,
 * so a client that goes away mid-stream leaves a truthful record: the actions taken stay taken
 * and logged, and nothing is half-written.
 */
export class ConversationService {
  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      household: HouseholdService;
      watches: WatchService;
      events: EventService;
      planner: Planner;
      /** routing said to the agent (set_notification_routing) */
      notifications?: NotificationService;
    },
  ) {}

  /**
   * Runs the planner once on a sample home so its language tables are built before the first
   * real request (the server calls this at start; the first plan otherwise takes seconds).
   */
  async warmUp(): Promise<void> {
    const ctx: HouseholdContext = {
      now: this.deps.clock.now(),
      timeZone: 'UTC',
      location: null,
      rooms: [{ name: 'garage' }],
      sensors: [{ id: 'stream_warmup', name: 'Garage camera', kind: 'camera', room: 'garage', muted: false }],
      boundaries: [],
      watches: [],
      conversation: { turns: [] },
    };
    // the offline planner directly: an LLM planner must not be called at start, and the offline
    // one answers whenever the LLM fails, so its tables are needed either way
    planOffline('watch the garage until 6am', ctx);
  }

  /** Checks the message (before any stream byte, so errors are ordinary problem responses). */
  validateMessage(message: string): void {
    if (!message.trim()) throw invalid('message', 'must not be empty');
    if (message.length > MAX_MESSAGE_CHARS) throw invalid('message', `must be at most ${MAX_MESSAGE_CHARS} characters (got ${message.length})`);
  }

  /** Starts a turn: the conversation (new, or this household's by id) and the stored message. */
  async open(principal: Principal, body: { message: string; conversation_id?: string }): Promise<OpenedTurn> {
    this.validateMessage(body.message);
    await this.deps.household.ensureHome(principal);
    const now = this.deps.clock.now();
    return this.deps.database.withWriteLock(async (trx) => {
      let conversation: ConversationRow | undefined;
      let created = false;
      if (body.conversation_id !== undefined) {
        conversation = await conversationRepository.findForTenant(trx, principal.tenantId, body.conversation_id);
        if (!conversation) throw notFound('conversation', body.conversation_id, 'conversation_id');
      } else {
        conversation = {
          id: newId('conv', now),
          tenant_id: principal.tenantId,
          created_by_key_id: principal.keyId,
          title: body.message.trim().replace(/\s+/g, ' ').slice(0, 80),
          turn_count: 0,
          created_at: toIso(now),
          updated_at: toIso(now),
        };
        await conversationRepository.insert(trx, conversation);
        created = true;
      }
      const turn: TurnRow = {
        id: newId('msg', now),
        conversation_id: conversation.id,
        tenant_id: principal.tenantId,
        seq: conversation.turn_count + 1,
        key_id: principal.keyId,
        message: body.message,
        reply: '',
        actions: '[]',
        planner: 'offline',
        status: 'in_progress',
        created_at: toIso(now),
        completed_at: null,
        revealed_sensor_ids: '[]',
      };
      await conversationRepository.insertTurn(trx, turn);
      conversation = { ...conversation, turn_count: turn.seq, updated_at: toIso(now) };
      await conversationRepository.touch(trx, conversation.id, turn.seq, toIso(now));
      return { conversation, turn, created };
    });
  }

  /** Plans and runs an opened turn; `signal` is aborted when a streaming client disconnects. */
  async run(principal: Principal, actor: Actor, opened: OpenedTurn, hooks: TurnHooks = {}, signal?: AbortSignal): Promise<ConversationReply> {
    const { database, clock } = this.deps;
    const { conversation, turn } = opened;
    const { home, ctx } = await this.readTurnContext(principal, opened);
    const taken: AgentAction[] = [];
    let plannerName: string = 'offline';
    let result: Awaited<ReturnType<typeof runPlan>>;
    const runner = new HouseholdToolRunner(this.deps, {
      principal,
      actor,
      conversationId: conversation.id,
      timeZone: home.settings.time_zone,
      signal,
    });
    const revealed = () => JSON.stringify([...runner.revealed]);
    try {
      const plan = await this.deps.planner.plan(turn.message, ctx);
      plannerName = plan.planner;
      result = await runPlan(plan, runner, {
        onAction: async (action) => {
          taken.push(action);
          // durable before the client hears of it, so a disconnect never loses a taken action's record
          await conversationRepository.updateTurn(database.db, turn.id, {
            actions: JSON.stringify(taken),
            planner: plannerName,
            revealed_sensor_ids: revealed(),
          });
          await hooks.onAction?.(action);
        },
        onText: hooks.onText,
      });
    } catch (err) {
      await conversationRepository.updateTurn(database.db, turn.id, {
        actions: JSON.stringify(taken),
        planner: plannerName,
        status: 'interrupted',
        completed_at: toIso(clock.now()),
        revealed_sensor_ids: revealed(),
      });
      throw err;
    }
    await this.completeTurn(principal, actor, opened, result, signal?.aborted ? 'interrupted' : 'completed', revealed());
    return {
      id: conversation.id,
      object: 'conversation',
      message_id: turn.id,
      reply: result.reply,
      actions: result.actions,
      planner: result.planner,
      created_at: conversation.created_at,
    };
  }

  /** The home as the planner sees it for this turn: state, active watches, known people and the conversation's earlier turns. */
  private async readTurnContext(principal: Principal, opened: OpenedTurn) {
    const { database, clock, household, watches } = this.deps;
    const { conversation, turn } = opened;
    const [home, active, earlier, people] = await Promise.all([
      household.snapshot(principal.tenantId),
      watches.listActive(principal.tenantId),
      conversationRepository.listRecentTurns(database.db, conversation.id, MEMORY_TURNS + 1),
      // known people, so "let me know when Maria arrives" resolves
      personNamesOfTenant(database.db, principal.tenantId),
    ]);
    // the planner's memory is history too: what a place left alone showed is not handed back to it
    const left = findPlacesLeftAlone(home);
    const memory = earlier.filter((t) => t.id !== turn.id && t.status !== 'in_progress').map((t) => redactTurn(t, left));
    const ctx = {
      ...buildHouseholdContext(home, active, memory, clock.now()),
      people,
      faceRecognition: home.settings.face_recognition,
      mqttBroker: household.defaultBrokerOf(home.settings),
    };
    return { home, ctx };
  }

  /** Stores the turn's reply, actions and status, and audits the message, in one write. */
  private async completeTurn(
    principal: Principal,
    actor: Actor,
    opened: OpenedTurn,
    result: Awaited<ReturnType<typeof runPlan>>,
    status: 'interrupted' | 'completed',
    revealedSensorIds: string,
  ): Promise<void> {
    const { conversation, turn } = opened;
    const completedAt = toIso(this.deps.clock.now());
    await this.deps.database.withWriteLock(async (trx) => {
      await conversationRepository.updateTurn(trx, turn.id, {
        reply: result.reply,
        actions: JSON.stringify(result.actions),
        planner: result.planner,
        status,
        completed_at: completedAt,
        revealed_sensor_ids: revealedSensorIds,
      });
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'conversation.message',
          resourceType: 'conversation',
          resourceId: conversation.id,
          data: { message_id: turn.id, status, planner: result.planner, actions: result.actions.map((a) => ({ type: a.type, id: a.id })) },
        },
      ]);
    });
  }

  /** POST /v1/conversations without streaming: open the turn and run it. */
  async converse(principal: Principal, actor: Actor, body: { message: string; conversation_id?: string }): Promise<ConversationReply> {
    return this.run(principal, actor, await this.open(principal, body));
  }

  async get(principal: Principal, id: string): Promise<ConversationDetail> {
    const row = await conversationRepository.findForTenant(this.deps.database.db, principal.tenantId, id);
    if (!row) throw notFound('conversation', id);
    const [turns, home] = await Promise.all([conversationRepository.listTurns(this.deps.database.db, id), this.deps.household.snapshot(principal.tenantId)]);
    const left = findPlacesLeftAlone(home);
    return { ...toSummary(row), messages: turns.map((t) => toMessageView(redactTurn(t, left))) };
  }

  async list(principal: Principal, q: PageQuery): Promise<Page<ConversationSummary>> {
    return mapPage(await conversationRepository.listPage(this.deps.database.db, principal.tenantId, q), toSummary);
  }
}
