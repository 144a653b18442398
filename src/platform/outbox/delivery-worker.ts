import { metrics } from '../metrics/index.ts';
import type { DatabaseHandle } from '../db/index.ts';
import { type Clock, toIso } from '../time/index.ts';
import { planRetry } from './retry-schedule.ts';
import {
  DELIVERY_HEADER,
  EVENT_HEADER,
  PREVIOUS_SIGNATURE_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  USER_AGENT,
  deliveryBody,
  signWebhookBody,
} from './webhook-signature.ts';
import { WebhookSender, type SendResult } from './webhook-sender.ts';
import { webhookRepository, type DeliveryToSend, type RecordedAttempt } from './webhook.repository.ts';
import type { WakeSignal } from '../coordination/index.ts';
import type { DeliveryOutcome, NotificationMessage } from './channels.ts';
import { buildPushRequest, pushPayload, topicOf, type VapidKeys } from './push-sender.ts';
import type { MailSender } from './mail-sender.ts';
import { vapidRepository } from './vapid.repository.ts';

/** The wake channel on which enqueueIn's transaction announces new deliveries (PostgreSQL: sent at commit). */
export const DELIVERY_CHANNEL = 'vigil_webhook_deliveries';

export interface DeliveryWorkerOptions {
  database: DatabaseHandle;
  clock: Clock;
  /** VIGIL_WEBHOOK_ALLOW_PRIVATE: skip the address guard (tests, private deployments) */
  allowPrivate: boolean;
  /** wakes from enqueueIn on any node (PostgreSQL NOTIFY) or in this process */
  wakeSignal: WakeSignal;
  /** deliveries in flight at once */
  concurrency?: number;
  /** due deliveries claimed ahead per claim (default 4 × concurrency), so a finished send starts the next without a query */
  prefetch?: number;
  /** real-time interval to look for work enqueued elsewhere (another node, the CLI) */
  pollMs?: number;
  /** a claimed delivery becomes claimable again after this, should its worker die mid-send */
  leaseMs?: number;
  /** per-attempt HTTP timeout (10 s) */
  timeoutMs?: number;
  random?: () => number;
  log?: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  /** Web Push: the VAPID key pair (read at start) and subject; absent = push deliveries are dropped as unconfigured */
  push?: { keys: () => Promise<VapidKeys>; subject: string };
  /** email: the SMTP sender (VIGIL_SMTP_URL); absent = email deliveries are dropped as unconfigured */
  mail?: MailSender | null;
  /** a PEM certificate trusted besides the system's for outbound HTTPS (VIGIL_OUTBOUND_CA_FILE) */
  ca?: string | null;
}

/**
 * Sends outbox deliveries (docs/design.md "Webhooks"). State lives only in the database, so a restart
 * loses nothing: open rows are found again by their next_attempt_at. Scheduling uses the injected
 * Clock (ManualClock in tests covers 24 h of retries in seconds); the HTTP timeout is real time.
 */
export class DeliveryWorker {
  private readonly concurrency: number;
  private readonly prefetch: number;
  /** claimed and loaded, waiting for a free slot (their leases run while they wait) */
  private ready: DeliveryToSend[] = [];
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly sender: WebhookSender;
  private readonly inflight = new Map<string, Promise<void>>();
  private readonly stopController = new AbortController();
  /** Clock timer for the next due retry (ManualClock in tests) */
  private dueTimer: unknown = null;
  /** real-time poll for work enqueued by other processes, which run in real time */
  private pollTimer: NodeJS.Timeout | null = null;
  private started = false;
  private stopped = false;
  private pumping: Promise<void> | null = null;
  private again = false;
  private wakeQueued = false;
  private unlisten: (() => Promise<void>) | null = null;
  /** finished sends waiting to be recorded together (one transaction for all) */
  private toRecord: Array<{ item: RecordedAttempt; outcome: DeliveryOutcome; done: (err?: unknown) => void }> = [];
  private readonly outcomeListeners: Array<(outcomes: DeliveryOutcome[]) => void | Promise<void>> = [];
  private vapid: VapidKeys | null = null;
  private recording = false;
  private recordQueued = false;

  constructor(private readonly deps: DeliveryWorkerOptions) {
    this.concurrency = deps.concurrency ?? 8;
    this.prefetch = Math.max(this.concurrency, deps.prefetch ?? this.concurrency * 4);
    this.pollMs = deps.pollMs ?? 5000;
    this.leaseMs = deps.leaseMs ?? 120_000;
    this.sender = new WebhookSender({ timeoutMs: deps.timeoutMs ?? 10_000, allowPrivate: deps.allowPrivate, ca: deps.ca, maxSockets: 64 });
  }

  /**
   * Called with each batch of recorded outcomes, after their commit (a protocol run counts the
   * responders reached). A listener's failure is logged, never the worker's.
   */
  onOutcome(fn: (outcomes: DeliveryOutcome[]) => void | Promise<void>): void {
    this.outcomeListeners.push(fn);
  }

  /** Whether this worker is sending (started and not stopped). */
  get running(): boolean {
    return this.started && !this.stopped;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    try {
      this.unlisten = await this.deps.wakeSignal.listen(DELIVERY_CHANNEL, () => this.wake());
    } catch (err) {
      this.deps.log?.warn({ err }, 'webhook LISTEN unavailable; polling only');
    }
    this.pollTimer = setInterval(() => this.wake(), this.pollMs);
    this.pollTimer.unref();
    this.wake();
  }

  /** Asks for a look at the outbox soon (new deliveries committed, a send finished, a timer fired). */
  wake(): void {
    if (!this.started || this.stopped || this.wakeQueued) return;
    this.wakeQueued = true;
    setImmediate(() => {
      this.wakeQueued = false;
      if (this.pumping) {
        this.again = true;
        return;
      }
      this.pumping = this.pump().finally(() => {
        this.pumping = null;
      });
    });
  }

  /** Resolves once nothing is queued, claiming or in flight (tests step a ManualClock with it). */
  async whenIdle(): Promise<void> {
    for (;;) {
      if (this.pumping) await this.pumping;
      else if (this.inflight.size) await Promise.all(this.inflight.values());
      else if (this.wakeQueued) await new Promise((r) => setImmediate(r));
      else if (this.ready.length && !this.stopped) {
        this.wake();
        await new Promise((r) => setImmediate(r));
      } else return;
    }
  }

  /** Stops claiming, waits for attempts in flight (each bounded by the timeout), closes connections. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.deps.clock.clearTimeout(this.dueTimer);
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.pumping) await this.pumping;
    await Promise.all(this.inflight.values());
    // claimed but never started: claimable again at once by this or another node, not after the lease
    const unsent = this.ready.splice(0);
    if (unsent.length) {
      await webhookRepository
        .releaseLeases(
          this.deps.database,
          unsent.map((d) => ({ id: d.id, series: d.series })),
        )
        .catch((err: unknown) => this.deps.log?.warn({ err }, 'webhook worker: releasing unsent claims failed; they are claimable when their lease runs out'));
    }
    this.stopController.abort();
    this.sender.close();
    this.deps.mail?.close();
    if (this.unlisten) await this.unlisten().catch(() => undefined);
  }

  private async pump(): Promise<void> {
    try {
      let recheck = 0;
      for (;;) {
        this.again = false;
        if (this.stopped) return;
        while (this.inflight.size < this.concurrency && this.ready.length) this.launch(this.ready.shift()!);
        // no free slot: a finishing send wakes us
        if (this.inflight.size >= this.concurrency) return;
        // free slots and nothing claimed ahead: claim a batch (more than the free slots, so the
        // sends finishing next start without a round trip to the database)
        const want = this.prefetch - this.inflight.size;
        const claimed = await this.claim(want);
        this.ready.push(...(await webhookRepository.loadForSending(this.deps.database.db, claimed)));
        // a claimed row that vanished meanwhile keeps its lease until it runs out; nothing to send
        if (this.ready.length || claimed.length === want || this.again) continue;
        const next = await webhookRepository.nextDueAt(this.deps.database.db, [...this.inflight.keys()]);
        const now = this.deps.clock.now();
        // the clock may have moved while we claimed: due rows are claimed now, not after a timer
        if (next !== null && next <= now && ++recheck <= 3) continue;
        // still due after rechecks: rows locked by another node's claim; look again shortly
        this.armDue(next === null ? null : next <= now ? 250 : next - now);
        return;
      }
    } catch (err) {
      this.deps.log?.error({ err }, 'webhook worker: claiming deliveries failed');
      // the real-time poll tries again
    }
  }

  private async claim(limit: number): Promise<string[]> {
    const now = this.deps.clock.now();
    const claimed = await webhookRepository.claimDue(this.deps.database, {
      now,
      leaseUntil: now + this.leaseMs,
      limit,
      exclude: [...this.inflight.keys(), ...this.ready.map((d) => d.id)],
    });
    return claimed.map((r) => r.id);
  }

  private launch(d: DeliveryToSend): void {
    const id = d.id;
    const p = this.deliver(d)
      .catch((err: unknown) => this.deps.log?.error({ err, delivery_id: id }, 'webhook worker: delivery failed unexpectedly'))
      .finally(() => {
        this.inflight.delete(id);
        this.wake();
      });
    this.inflight.set(id, p);
  }

  /** Clock timer for the next retry; null: nothing scheduled (the poll covers work from elsewhere). */
  private armDue(ms: number | null): void {
    this.deps.clock.clearTimeout(this.dueTimer);
    this.dueTimer = null;
    if (ms === null || this.stopped) return;
    this.dueTimer = this.deps.clock.setTimeout(() => this.wake(), ms);
  }

  private async deliver(d: DeliveryToSend): Promise<void> {
    if (d.channel === 'push') return this.deliverPush(d);
    if (d.channel === 'email') return this.deliverEmail(d);
    const now = this.deps.clock.now();
    if (d.endpoint_id && (d.deleted_at !== null || d.enabled !== 1 || d.url === null)) {
      // the endpoint went away or was disabled after this was queued: nothing to send
      await webhookRepository.cancelDelivery(this.deps.database, d.id, d.series, toIso(now));
      return;
    }
    const url = d.endpoint_id ? d.url! : d.target_url!;
    const body = deliveryBody(d.body, d.id, toIso(now));
    const result = await this.sender.send({ url, body, headers: this.headersFor(d, body, now) }, this.stopController.signal);
    await this.record(d, url, now, result);
  }

  /**
   * One Web Push: encrypted for the subscription (aes128gcm), signed with the VAPID key. The
   * subscription is read as it is now: revoked (or its key revoked) means nothing is sent. A push
   * service's 404/410 means the subscription is gone: it is removed and the delivery dropped.
   */
  private async deliverPush(d: DeliveryToSend): Promise<void> {
    const now = this.deps.clock.now();
    if (!d.push_endpoint || d.subscription_revoked_at !== null || d.key_revoked_at !== null || !d.p256dh || !d.auth) {
      await webhookRepository.cancelDelivery(this.deps.database, d.id, d.series, toIso(now));
      return;
    }
    const origin = new URL(d.push_endpoint).origin;
    if (!this.deps.push) return this.record(d, origin, now, { statusCode: null, error: 'push is not configured', durationMs: 0 }, { final: true });
    const message = JSON.parse(d.message!) as NotificationMessage;
    this.vapid ??= await this.deps.push.keys();
    let req;
    try {
      req = buildPushRequest({ endpoint: d.push_endpoint, p256dh: d.p256dh, auth: d.auth }, pushPayload(message, { event_id: d.event_id, delivery_id: d.id }), {
        vapid: this.vapid,
        subject: this.deps.push.subject,
        ttlSeconds: 24 * 3600,
        urgency: message.severity === 'info' ? 'normal' : 'high',
        topic: topicOf(message.tag),
      });
    } catch (err) {
      return this.record(
        d,
        origin,
        now,
        { statusCode: null, error: `cannot encrypt for this subscription: ${(err as Error).message}`, durationMs: 0 },
        { final: true },
      );
    }
    const result = await this.sender.send({ url: req.endpoint, body: req.body, headers: req.headers }, this.stopController.signal);
    const gone = result.statusCode === 404 || result.statusCode === 410;
    if (gone) await webhookRepository.markSubscriptionGone(this.deps.database, d.subscription_id!, toIso(this.deps.clock.now()));
    // 4xx other than 408/429: the request itself is wrong for this service; retrying repeats it
    const refused = result.statusCode !== null && result.statusCode >= 400 && result.statusCode < 500 && result.statusCode !== 408 && result.statusCode !== 429;
    await this.record(d, origin, now, gone ? { ...result, error: `subscription gone (HTTP ${result.statusCode}); removed` } : result, { final: refused });
  }

  /** One email over SMTP; a refusal or a server that is down is retried like any delivery. */
  private async deliverEmail(d: DeliveryToSend): Promise<void> {
    const now = this.deps.clock.now();
    if (d.subscription_id && (d.subscription_revoked_at !== null || d.key_revoked_at !== null)) {
      await webhookRepository.cancelDelivery(this.deps.database, d.id, d.series, toIso(now));
      return;
    }
    const to = d.target_url!.replace(/^mailto:/, '');
    if (!this.deps.mail)
      return this.record(d, d.target_url!, now, { statusCode: null, error: 'email is not configured (VIGIL_SMTP_URL)', durationMs: 0 }, { final: true });
    const message = JSON.parse(d.message!) as NotificationMessage;
    const snapshot = message.detection_id
      ? await vapidRepository.snapshotOfDetection(this.deps.database.db, d.tenant_id, message.detection_id).catch(() => null)
      : null;
    const result = await this.deps.mail.send(to, message, snapshot);
    // SMTP 5xx is a permanent refusal; 4xx and no answer are retried
    const permanent = result.statusCode !== null && result.statusCode >= 500;
    await this.record(d, d.target_url!, now, result.error === null ? { ...result, statusCode: 250 } : result, { final: permanent, ok: result.error === null });
  }

  private headersFor(d: DeliveryToSend, body: string, now: number): Record<string, string> {
    const secret = d.endpoint_id ? d.secret! : d.target_secret;
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      [TIMESTAMP_HEADER]: toIso(now),
      [DELIVERY_HEADER]: d.id,
      [EVENT_HEADER]: d.event_kind,
    };
    if (secret) headers[SIGNATURE_HEADER] = signWebhookBody(secret, body);
    // during a rotation's overlap the old secret keeps signing alongside
    if (d.previous_secret && d.previous_secret_expires_at !== null && d.previous_secret_expires_at > now) {
      headers[PREVIOUS_SIGNATURE_HEADER] = signWebhookBody(d.previous_secret, body);
    }
    return headers;
  }

  private async record(d: DeliveryToSend, url: string, startedAt: number, r: SendResult, opts: { final?: boolean; ok?: boolean } = {}): Promise<void> {
    const now = this.deps.clock.now();
    const attempt = d.attempt_count + 1;
    const firstAttemptAt = d.first_attempt_at ?? startedAt;
    const delivered = opts.ok ?? (r.error === null && r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300);
    const plan = delivered ? null : opts.final ? { drop: true as const } : planRetry(now, firstAttemptAt, attempt, this.deps.random);
    const nextAt = plan && 'retryAt' in plan ? plan.retryAt : null;
    const outcome = delivered ? 'delivered' : nextAt !== null ? 'retrying' : 'dropped';
    metrics().webhookAttempts.inc({ outcome });
    const item: RecordedAttempt = {
      attempt: {
        delivery_id: d.id,
        series: d.series,
        attempt,
        started_at: toIso(startedAt),
        url,
        status_code: r.statusCode,
        duration_ms: r.durationMs,
        error: r.error,
        outcome,
        next_attempt_at: nextAt === null ? null : toIso(nextAt),
      },
      patch: {
        status: outcome,
        attempt_count: attempt,
        first_attempt_at: firstAttemptAt,
        next_attempt_at: nextAt,
        last_status_code: r.statusCode,
        last_error: r.error,
        delivered_at: delivered ? toIso(now) : null,
        updated_at: toIso(now),
      },
    };
    // the send stays in flight (its slot taken, whenIdle waiting) until its record is committed
    await new Promise<void>((resolve, reject) => {
      this.toRecord.push({
        item,
        outcome: { deliveryId: d.id, eventId: d.event_id, channel: d.channel, status: outcome },
        done: (err) => (err === undefined ? resolve() : reject(err)),
      });
      this.scheduleRecording();
    });
  }

  /**
   * Group commit of finished sends, as the detection pipeline does: everything that finished while
   * one record transaction ran goes into the next, so under load a commit carries many attempts and
   * an isolated send is still recorded at once.
   */
  private scheduleRecording(): void {
    if (this.recordQueued || this.recording) return;
    this.recordQueued = true;
    setImmediate(() => {
      this.recordQueued = false;
      void this.recordBatch();
    });
  }

  private async recordBatch(): Promise<void> {
    this.recording = true;
    const batch = this.toRecord.splice(0);
    try {
      await webhookRepository.recordAttempts(
        this.deps.database,
        batch.map((b) => b.item),
      );
      const outcomes = batch.map((b) => b.outcome);
      for (const fn of this.outcomeListeners) {
        try {
          await fn(outcomes);
        } catch (err) {
          this.deps.log?.error({ err }, 'webhook worker: an outcome listener failed');
        }
      }
      for (const b of batch) b.done();
    } catch (err) {
      for (const b of batch) b.done(err);
    } finally {
      this.recording = false;
      if (this.toRecord.length) this.scheduleRecording();
    }
  }
}
