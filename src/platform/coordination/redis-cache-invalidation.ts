import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { EVERY_KEY, InProcessCacheInvalidation, type CacheInvalidation } from './cache-invalidation.ts';
import type { OnFallback } from './redis-rate-limit-store.ts';

interface Message {
  /** the publishing process, which has told its own subscribers already */
  o: string;
  t: string;
  k: string;
}

/**
 * Invalidations over Redis pub/sub: a change published on one node reaches every node's
 * subscribers (typically within milliseconds; the target is 1 s). `publish` tells this
 * process's subscribers directly and resolves once they have handled it, as the in-process bus
 * does, and once Redis has taken the message (or failed to: then it is kept and published again
 * when Redis is back, so other nodes learn of the change late rather than never). A node whose
 * subscription was cut off hands EVERY_KEY to its subscribers when it is back, since it may have
 * missed changes meanwhile.
 */
export class RedisCacheInvalidation implements CacheInvalidation {
  private readonly local = new InProcessCacheInvalidation();
  private readonly origin = randomUUID();
  /** publishes Redis did not take, sent again on reconnect (deduplicated: a key is a nudge) */
  private readonly unsent = new Map<string, Message>();
  private readonly channel: string;
  private readonly subscribed: Promise<void>;
  /** per topic and key, the latest change from another node being applied */
  private readonly applying = new Map<string, Promise<void>>();

  constructor(
    private readonly pub: Redis,
    sub: Redis,
    private readonly opts: { channel?: string; onFallback?: OnFallback; log?: { warn(obj: unknown, msg?: string): void } } = {},
  ) {
    this.channel = opts.channel ?? 'vigil:invalidate';
    sub.on('message', (channel: string, raw: string) => {
      if (channel !== this.channel) return;
      let msg: Message;
      try {
        msg = JSON.parse(raw) as Message;
      } catch {
        return;
      }
      if (msg.o === this.origin || typeof msg.t !== 'string' || typeof msg.k !== 'string') return;
      this.apply(msg.t, msg.k);
    });
    pub.on('ready', () => void this.resend());
    // Subscribed here on every (re)connect rather than by ioredis's autoResubscribe, which leaves a
    // SUBSCRIBE cut short by another disconnect as an unhandled rejection. After a reconnect,
    // messages may have been missed: once subscribed again, every holder re-reads.
    let subscribedOnce = false;
    let firstSubscribed: () => void = () => undefined;
    this.subscribed = new Promise((resolve) => (firstSubscribed = resolve));
    const subscribe = () =>
      sub.subscribe(this.channel).then(
        () => {
          if (subscribedOnce) void this.resync();
          subscribedOnce = true;
          firstSubscribed();
        },
        (err: unknown) => opts.log?.warn({ err }, 'subscribing to cache invalidations failed; retried on reconnect'),
      );
    sub.on('ready', () => void subscribe());
    if (sub.status === 'ready') void subscribe();
  }

  /**
   * Applies another node's change. Changes to one key are applied one after another: each holder
   * re-reads the row when told, so a slow re-read of an older change must not land after a newer one.
   */
  private apply(topic: string, key: string): void {
    const id = `${topic}\u0000${key}`;
    const run = (this.applying.get(id) ?? Promise.resolve())
      .then(() => this.local.publish(topic, key))
      .catch((err: unknown) => this.opts.log?.warn({ err, topic, key }, 'cache invalidation from another node failed'))
      .finally(() => {
        if (this.applying.get(id) === run) this.applying.delete(id);
      });
    this.applying.set(id, run);
  }

  private async resync(): Promise<void> {
    for (const topic of this.local.topics()) {
      await this.local.publish(topic, EVERY_KEY).catch((err: unknown) => this.opts.log?.warn({ err, topic }, 'cache resync after a Redis reconnect failed'));
    }
  }

  /** Resolves once subscribed to the shared channel (which waits for Redis; callers bound the wait). */
  start(): Promise<void> {
    return this.subscribed;
  }

  async publish(topic: string, key: string): Promise<void> {
    const remote = this.send({ o: this.origin, t: topic, k: key });
    try {
      await this.local.publish(topic, key);
    } finally {
      await remote;
    }
  }

  subscribe(topic: string, onInvalidate: (key: string) => void | Promise<void>): () => void {
    return this.local.subscribe(topic, onInvalidate);
  }

  /** Publishes of this node that still wait for Redis. */
  get unsentCount(): number {
    return this.unsent.size;
  }

  /** Never rejects: a message Redis did not take is kept for the reconnect. */
  private async send(msg: Message): Promise<void> {
    const id = `${msg.t}\u0000${msg.k}`;
    if (this.pub.status !== 'ready') {
      this.unsent.set(id, msg);
      this.opts.onFallback?.('invalidation', new Error(`Redis ${this.pub.status}`));
      return;
    }
    try {
      await this.pub.publish(this.channel, JSON.stringify(msg));
    } catch (err) {
      this.unsent.set(id, msg);
      this.opts.onFallback?.('invalidation', err);
    }
  }

  private async resend(): Promise<void> {
    const batch = [...this.unsent.values()];
    this.unsent.clear();
    for (const msg of batch) await this.send(msg);
  }
}
