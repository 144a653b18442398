/**
 * Tells the holders of in-memory copies (alert rules, automation settings, household boundaries
 * and mutes, verified keys) that the database row behind a key changed, so each re-reads or drops
 * it. Writers publish after their transaction commits; every node subscribes (a shared
 * implementation, Redis pub/sub or PostgreSQL NOTIFY, comes with issue 12). The writer's own
 * process is told too, so there is one way a cache learns of a change.
 */
export interface CacheInvalidation {
  /**
   * Announces that `key` under `topic` changed. Resolves once this process's subscribers have
   * handled it (so the writer's next read here sees the change); rejects if one of them failed.
   */
  publish(topic: string, key: string): Promise<void>;
  /** Calls `onInvalidate` for each key published under `topic` until the returned function is called. */
  subscribe(topic: string, onInvalidate: (key: string) => void | Promise<void>): () => void;
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
} as const;

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
