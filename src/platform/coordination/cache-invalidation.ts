/**
 * Tells the holders of in-memory copies (alert rules, automation settings, household boundaries
 * and mutes, verified keys) that the database row behind a key changed, so each re-reads or drops
 * it. Writers publish after their transaction commits; every node subscribes (with REDIS_URL the
 * changes travel over Redis pub/sub). The writer's own process is told too, so there is
 * one way a cache learns of a change. A subscriber may also be handed EVERY_KEY.
 */
export interface CacheInvalidation {
  /**
   * Announces that `key` under `topic` changed. Resolves once this process's subscribers have
   * handled it (so the writer's next read here sees the change); rejects if one of them failed.
   */
  publish(topic: string, key: string): Promise<void>;
  /** Calls `onInvalidate` for each key published under `topic` until the returned function is called. */
  subscribe(topic: string, onInvalidate: (key: string) => void | Promise<void>): () => void;
  /**
   * true while every other process writing the same database announces its changes here before its
   * own publish resolves (the server owning its SQLite file's socket, socket-cache-invalidation.ts):
   * a cache then need not ask the database whether another process committed.
   */
  readonly othersAnnounce?: boolean;
}

/** Topics of the caches that exist today (the key each carries is in the comment). */
export const CACHE_TOPICS = {
  /** `<tenant id>/<rule id>`: a rule created, changed, paused or deleted */
  alertRule: 'alert_rule',
  /** tenant id: an organization's automation settings */
  automation: 'automation',
  /** tenant id: a household's sensors, mutes, boundaries or watches */
  household: 'household',
  /** key id: a key revoked or rotated */
  apiKey: 'api_key',
  /** console session id: a session signed out */
  consoleSession: 'console_session',
} as const;

/**
 * The key a node's own subscribers get under every topic when it reconnects to a shared bus
 * (Redis) after losing it: whatever it holds may have changed while it heard nothing, so each
 * holder re-reads everything it caches. Subscribers must accept it.
 */
export const EVERY_KEY = '*';

/** The key of one alert rule under CACHE_TOPICS.alertRule. */
export function alertRuleCacheKey(tenantId: string, ruleId: string): string {
  return `${tenantId}/${ruleId}`;
}

export class InProcessCacheInvalidation implements CacheInvalidation {
  private readonly subscribers = new Map<string, Set<(key: string) => void | Promise<void>>>();

  async publish(topic: string, key: string): Promise<void> {
    const fns = this.subscribers.get(topic);
    if (!fns) return;
    const failures: unknown[] = [];
    // every subscriber is told even if an earlier one fails
    for (const fn of [...fns]) {
      try {
        await fn(key);
      } catch (err) {
        failures.push(err);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, `${failures.length} subscribers of ${topic} failed`);
  }

  /** The topics that have subscribers (a reconnected bus tells each of them EVERY_KEY). */
  topics(): string[] {
    return [...this.subscribers.entries()].filter(([, fns]) => fns.size > 0).map(([t]) => t);
  }

  subscribe(topic: string, onInvalidate: (key: string) => void | Promise<void>): () => void {
    const entry = (key: string) => onInvalidate(key);
    let fns = this.subscribers.get(topic);
    if (!fns) this.subscribers.set(topic, (fns = new Set()));
    fns.add(entry);
    return () => {
      fns.delete(entry);
    };
  }
}
