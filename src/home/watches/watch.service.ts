import { toKnownWatch } from './known-watch.ts';
import { type Actor, type Principal, findTenant } from '../../platform/identity/index.ts';
import { type DatabaseHandle, type DbExecutor, mapPage, type Page } from '../../platform/db/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import { VigilError, invalid, notFound, newId } from '../../platform/lib/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import type { EventService } from '../events/index.ts';
import { parseHomeSettings, type HomeSettings } from '../directory/index.ts';
import { CACHE_TOPICS, type CacheInvalidation } from '../../platform/coordination/index.ts';
import type { HouseholdService } from '../household/index.ts';
import { watchRepository, type WatchRow } from './watch.repository.ts';
import type { WatchListQueryT, WatchView } from './watch.schemas.ts';
import { WatchSchedule } from './watch-schedule.ts';
import { findPerson } from '../../org/people/index.ts';

/** The household's people a watch is for, each checked to exist (an unknown id names the field). */
async function requireKnownPeople(db: DbExecutor, tenantId: string, ids: readonly string[] | undefined): Promise<string[] | null> {
  if (!ids?.length) return null;
  const unique = [...new Set(ids)];
  for (const id of unique) {
    if (!(await findPerson(db, tenantId, id))) throw invalid('person_ids', `no person ${id} in this household (POST /v1/people)`);
  }
  return unique;
}

export interface NewWatch {
  subject: string;
  sensor_ids: string[];
  starts_at: string;
  ends_at: string;
  recurrence: WatchRow['recurrence'];
  window: string;
  conditions?: string[];
  /** only these known people, recognized by face; needs recognized_person among the conditions or none */
  person_ids?: string[];
  conversation_id?: string | null;
}

export type WatchChange = Partial<Omit<NewWatch, 'conversation_id'>>;

/**
 * Watches: created and changed by the agent, listed and stood down over HTTP, both
 * through these methods. Each change is audited and written to the event log in its transaction;
 * the change is announced after the commit, so the household directory (the detection hook's
 * picture) re-reads it at once.
 */
export class WatchService {
  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      events: EventService;
      household: HouseholdService;
      /** the household directory on every node re-reads a household announced here */
      invalidation: CacheInvalidation;
    },
  ) {}

  async create(principal: Principal, actor: Actor, input: NewWatch): Promise<WatchView> {
    const sensorIds = [...new Set(input.sensor_ids)];
    if (sensorIds.length === 0) throw invalid('sensor_ids', 'name at least one sensor');
    const { startsAt, endsAt } = readSpan(input.starts_at, input.ends_at);
    const now = this.deps.clock.now();
    const view = await this.deps.database.withWriteLock(async (trx) => {
      await this.deps.household.requireReachableSensors(principal.tenantId, sensorIds, trx);
      const personIds = await requireKnownPeople(trx, principal.tenantId, input.person_ids);
      const row: WatchRow = {
        id: newId('wat', now),
        tenant_id: principal.tenantId,
        subject: input.subject.trim(),
        sensor_ids: JSON.stringify(sensorIds),
        starts_at: toIso(startsAt),
        ends_at: toIso(endsAt),
        recurrence: input.recurrence,
        window_text: input.window.trim(),
        conditions: input.conditions?.length ? JSON.stringify([...new Set(input.conditions)]) : null,
        person_ids: personIds ? JSON.stringify(personIds) : null,
        status: 'active',
        conversation_id: input.conversation_id ?? null,
        created_by_key_id: actor.keyId,
        created_at: toIso(now),
        updated_at: toIso(now),
        stood_down_at: null,
      };
      await watchRepository.insert(trx, row);
      const v = this.toView(row, await this.settingsOf(principal.tenantId, trx));
      await this.deps.audit.appendIn(trx, actor, [
        { tenantId: principal.tenantId, action: 'watch.created', resourceType: 'watch', resourceId: row.id, data: { after: v } },
      ]);
      await this.deps.events.recordIn(trx, {
        tenantId: principal.tenantId,
        kind: 'watch.created',
        type: 'watch.created',
        watchId: row.id,
        summary: `A watch on the ${row.subject} was set up (${row.window_text}).`,
        data: { watch: v },
        occurredAt: now,
      });
      return v;
    });
    await this.deps.invalidation.publish(CACHE_TOPICS.household, principal.tenantId);
    return view;
  }

  async update(principal: Principal, actor: Actor, id: string, change: WatchChange): Promise<WatchView> {
    const now = this.deps.clock.now();
    const view = await this.deps.database.withWriteLock(async (trx) => {
      const before = await watchRepository.findForTenant(trx, principal.tenantId, id);
      if (!before) throw notFound('watch', id, 'watch_id');
      if (before.status !== 'active')
        throw new VigilError('validation_failed', `The watch on the ${before.subject} was stood down; it cannot change.`, { param: 'watch_id' });
      const patch: Partial<WatchRow> = { updated_at: toIso(now) };
      if (change.subject !== undefined) patch.subject = change.subject.trim();
      if (change.sensor_ids !== undefined) {
        const ids = [...new Set(change.sensor_ids)];
        if (ids.length === 0) throw invalid('sensor_ids', 'name at least one sensor');
        await this.deps.household.requireReachableSensors(principal.tenantId, ids, trx);
        patch.sensor_ids = JSON.stringify(ids);
      }
      if (change.starts_at !== undefined || change.ends_at !== undefined) {
        const span = readSpan(change.starts_at ?? before.starts_at, change.ends_at ?? before.ends_at);
        patch.starts_at = toIso(span.startsAt);
        patch.ends_at = toIso(span.endsAt);
      }
      if (change.recurrence !== undefined) patch.recurrence = change.recurrence;
      if (change.window !== undefined) patch.window_text = change.window.trim();
      if (change.conditions !== undefined) patch.conditions = change.conditions.length ? JSON.stringify([...new Set(change.conditions)]) : null;
      if (change.person_ids !== undefined) {
        const ids = await requireKnownPeople(trx, principal.tenantId, change.person_ids);
        patch.person_ids = ids ? JSON.stringify(ids) : null;
      }
      await watchRepository.update(trx, id, patch);
      const settings = await this.settingsOf(principal.tenantId, trx);
      const v = this.toView({ ...before, ...patch }, settings);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'watch.updated',
          resourceType: 'watch',
          resourceId: id,
          data: { before: this.toView(before, settings), after: v },
        },
      ]);
      await this.deps.events.recordIn(trx, {
        tenantId: principal.tenantId,
        kind: 'watch.updated',
        type: 'watch.updated',
        watchId: id,
        summary: `The watch on the ${v.subject} was changed (${v.window}).`,
        data: { watch: v },
        occurredAt: now,
      });
      return v;
    });
    await this.deps.invalidation.publish(CACHE_TOPICS.household, principal.tenantId);
    return view;
  }

  /** Stands a watch down at once; a second stand-down returns it unchanged. */
  async standDown(principal: Principal, actor: Actor, id: string): Promise<WatchView> {
    const now = this.deps.clock.now();
    const view = await this.deps.database.withWriteLock(async (trx) => {
      const before = await watchRepository.findForTenant(trx, principal.tenantId, id);
      if (!before) throw notFound('watch', id);
      const settings = await this.settingsOf(principal.tenantId, trx);
      if (before.status === 'stood_down') return this.toView(before, settings);
      const patch = { status: 'stood_down' as const, stood_down_at: toIso(now), updated_at: toIso(now) };
      await watchRepository.update(trx, id, patch);
      const v = this.toView({ ...before, ...patch }, settings);
      await this.deps.audit.appendIn(trx, actor, [
        { tenantId: principal.tenantId, action: 'watch.stood_down', resourceType: 'watch', resourceId: id, data: { after: v } },
      ]);
      await this.deps.events.recordIn(trx, {
        tenantId: principal.tenantId,
        kind: 'watch.stood_down',
        type: 'watch.stood_down',
        watchId: id,
        summary: `The watch on the ${v.subject} was stood down.`,
        data: { watch: v },
        occurredAt: now,
      });
      return v;
    });
    await this.deps.invalidation.publish(CACHE_TOPICS.household, principal.tenantId);
    return view;
  }

  async list(principal: Principal, q: WatchListQueryT): Promise<Page<WatchView>> {
    await this.deps.household.ensureHome(principal);
    const settings = await this.settingsOf(principal.tenantId);
    const page = await watchRepository.listPage(this.deps.database.db, principal.tenantId, q.status ?? 'active', q);
    return mapPage(page, (r) => this.toView(r, settings));
  }

  async get(principal: Principal, id: string): Promise<WatchView> {
    const row = await watchRepository.findForTenant(this.deps.database.db, principal.tenantId, id);
    if (!row) throw notFound('watch', id);
    return this.toView(row, await this.settingsOf(principal.tenantId));
  }

  async listActive(tenantId: string): Promise<WatchView[]> {
    const settings = await this.settingsOf(tenantId);
    return (await watchRepository.listActive(this.deps.database.db, tenantId)).map((r) => this.toView(r, settings));
  }

  private async settingsOf(tenantId: string, db: DbExecutor = this.deps.database.db): Promise<HomeSettings> {
    return parseHomeSettings((await findTenant(db, tenantId))?.settings ?? '{}');
  }

  private toView(r: WatchRow, settings: HomeSettings): WatchView {
    const now = this.deps.clock.now();
    const active = r.status === 'active';
    const schedule = new WatchSchedule(toKnownWatch(r), { timeZone: settings.time_zone, lat: settings.lat, lon: settings.lon });
    const next = active ? schedule.currentOrNext(now) : null;
    return {
      id: r.id,
      object: 'watch',
      subject: r.subject,
      sensor_ids: JSON.parse(r.sensor_ids) as string[],
      window: r.window_text,
      starts_at: r.starts_at,
      ends_at: r.ends_at,
      recurrence: r.recurrence,
      conditions: r.conditions ? (JSON.parse(r.conditions) as WatchView['conditions']) : null,
      person_ids: r.person_ids ? (JSON.parse(r.person_ids) as string[]) : null,
      status: r.status,
      observing: active && schedule.contains(now),
      next_window: next ? { starts_at: toIso(next.startsAt), ends_at: toIso(next.endsAt) } : null,
      conversation_id: r.conversation_id,
      created_at: r.created_at,
      updated_at: r.updated_at,
      stood_down_at: r.stood_down_at,
    };
  }
}

function readSpan(startsAtText: string, endsAtText: string): { startsAt: number; endsAt: number } {
  const startsAt = Date.parse(startsAtText);
  const endsAt = Date.parse(endsAtText);
  if (Number.isNaN(startsAt)) throw invalid('starts_at', 'must be an ISO 8601 time');
  if (Number.isNaN(endsAt)) throw invalid('ends_at', 'must be an ISO 8601 time');
  if (endsAt <= startsAt) throw invalid('ends_at', 'must be after starts_at');
  return { startsAt, endsAt };
}
