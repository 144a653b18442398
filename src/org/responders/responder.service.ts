import { type Actor, type Principal, assertEveryLocation } from '../../platform/identity/index.ts';
import { type DatabaseHandle, type PageQuery, mapPage } from '../../platform/db/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import { VigilError, notFound, newId } from '../../platform/lib/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import { type UrlGuard, generateWebhookSecret } from '../../platform/outbox/index.ts';
import { responderRepository, type ResponderRow } from './responder.repository.ts';
import type { CreateResponderBodyT, ResponderView, UpdateResponderBodyT } from './responder.schemas.ts';

export function toResponderView(r: ResponderRow): ResponderView {
  return {
    id: r.id,
    object: 'responder',
    name: r.name,
    kind: r.kind,
    escalation_level: r.escalation_level,
    contact: { webhook_url: r.webhook_url === '' ? null : r.webhook_url, email: r.email, sms: r.sms },
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/**
 * Responders (docs/decisions.md, "Notifications through the outbox"): people or systems that protocol runs notify on each of their channels:
 * a webhook URL (signed like any delivery with a secret of the responder's own, shown once at
 * creation), an email address, and push devices subscribed for the responder (platform/notify).
 */
export class ResponderService {
  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      urlGuard: UrlGuard;
      /** after a deletion commits: the outbox events whose queued deliveries it cancelled (the runs that paged the responder recount) */
      onDeliveriesCancelled?: (eventIds: string[]) => Promise<void>;
    },
  ) {}

  async create(principal: Principal, actor: Actor, body: CreateResponderBodyT): Promise<ResponderView & { signing_secret: string }> {
    assertEveryLocation(principal, 'a responder (notified for every location)');
    if (body.contact.webhook_url !== undefined) await this.checkUrl(body.contact.webhook_url);
    const now = this.deps.clock.now();
    const row: ResponderRow = {
      id: newId('rsp', now),
      tenant_id: principal.tenantId,
      name: body.name,
      kind: body.kind,
      escalation_level: body.escalation_level,
      // '' = no webhook (the column predates responders reached by email and push only)
      webhook_url: body.contact.webhook_url ?? '',
      email: body.contact.email ?? null,
      sms: body.contact.sms ?? null,
      signing_secret: generateWebhookSecret(),
      created_at: toIso(now),
      updated_at: toIso(now),
    };
    await this.deps.database.withWriteLock(async (trx) => {
      await responderRepository.insert(trx, row);
      await this.deps.audit.appendIn(trx, actor, [
        { tenantId: principal.tenantId, action: 'responder.created', resourceType: 'responder', resourceId: row.id, data: { after: toResponderView(row) } },
      ]);
    });
    return { ...toResponderView(row), signing_secret: row.signing_secret };
  }

  async list(principal: Principal, q: PageQuery & { escalation_level?: number }) {
    const page = await responderRepository.listPage(this.deps.database.db, principal.tenantId, { escalationLevel: q.escalation_level }, q);
    return mapPage(page, toResponderView);
  }

  async get(principal: Principal, id: string): Promise<ResponderView> {
    return toResponderView(await this.load(principal, id));
  }

  async update(principal: Principal, actor: Actor, id: string, body: UpdateResponderBodyT): Promise<ResponderView> {
    const before = await this.load(principal, id);
    assertEveryLocation(principal, 'a responder (notified for every location)');
    if (typeof body.contact?.webhook_url === 'string') await this.checkUrl(body.contact.webhook_url);
    const patch: Partial<ResponderRow> = { updated_at: toIso(this.deps.clock.now()) };
    if (body.name !== undefined) patch.name = body.name;
    if (body.kind !== undefined) patch.kind = body.kind;
    if (body.escalation_level !== undefined) patch.escalation_level = body.escalation_level;
    if (body.contact?.webhook_url !== undefined) patch.webhook_url = body.contact.webhook_url ?? '';
    if (body.contact?.email !== undefined) patch.email = body.contact.email;
    if (body.contact?.sms !== undefined) patch.sms = body.contact.sms;
    const after = { ...before, ...patch };
    await this.deps.database.withWriteLock(async (trx) => {
      await responderRepository.update(trx, id, patch);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'responder.updated',
          resourceType: 'responder',
          resourceId: id,
          data: { before: toResponderView(before), after: toResponderView(after) },
        },
      ]);
    });
    return toResponderView(after);
  }

  async remove(principal: Principal, actor: Actor, id: string) {
    const before = await this.load(principal, id);
    assertEveryLocation(principal, 'a responder (notified for every location)');
    const at = toIso(this.deps.clock.now());
    // its devices are revoked with it and nothing queued for it is sent afterwards (docs/decisions.md,
    // "Deleting a responder revokes its devices"), in the transaction that deletes it
    const cancelled = await this.deps.database.withWriteLock(async (trx) => {
      const devices = await responderRepository.liveDevices(trx, id);
      await responderRepository.revokeDevices(trx, id, at);
      const cancelled = await responderRepository.cancelOpenDeliveries(trx, id, at);
      await responderRepository.delete(trx, id);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'responder.deleted',
          resourceType: 'responder',
          resourceId: id,
          data: { before: toResponderView(before), revoked_devices: devices.map((d) => d.id), cancelled_deliveries: cancelled.count },
        },
        ...devices.map((d) => ({
          tenantId: principal.tenantId,
          action: 'notification_subscription.revoked',
          resourceType: 'notification_subscription',
          resourceId: d.id,
          data: {
            reason: 'responder deleted',
            responder_id: id,
            before: { id: d.id, channel: d.channel, label: d.label, responder_id: d.responder_id, created_at: d.created_at },
          },
        })),
      ]);
      return cancelled;
    });
    // a protocol run's counts agree with its notification report: the cancelled are not reached
    if (cancelled.eventIds.length) await this.deps.onDeliveriesCancelled?.(cancelled.eventIds);
    return { id, object: 'responder' as const, deleted: true as const };
  }

  private async load(principal: Principal, id: string): Promise<ResponderRow> {
    const row = await responderRepository.findForTenant(this.deps.database.db, principal.tenantId, id);
    if (!row) throw notFound('responder', id);
    return row;
  }

  /** The webhook registration's URL safety check, reported against the responder's field. */
  private async checkUrl(url: string): Promise<void> {
    try {
      await this.deps.urlGuard.assertUrlAllowed(url);
    } catch (err) {
      if (!(err instanceof VigilError)) throw err;
      const detail = err.message.replace(/^url:\s*/, '');
      throw new VigilError(err.code, `contact.webhook_url: ${detail}`, {
        param: 'contact.webhook_url',
        errors: [{ param: 'contact.webhook_url', message: detail }],
      });
    }
  }
}
