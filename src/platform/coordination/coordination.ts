import { sharedDatabaseFile, type DatabaseHandle } from '../db/index.ts';
import { InProcessCacheInvalidation, type CacheInvalidation } from './cache-invalidation.ts';
import { SocketCacheInvalidation } from './socket-cache-invalidation.ts';
import { InProcessLeaseStore, type LeaseStore } from './lease-store.ts';
import { InProcessRateLimitStore, type RateLimitStore } from './rate-limit-store.ts';
import { InProcessStreamSlots, type StreamSlots } from './stream-slots.ts';
import { createWakeSignal, type WakeSignal } from './wake-signal.ts';
import { HeldStreams } from './held-streams.ts';
import { closeQuietly, connectCommands, connectSubscriber, REDIS_COMMAND_TIMEOUT_MS, whenReady } from './redis-connection.ts';
import { RedisRateLimitStore, type OnFallback } from './redis-rate-limit-store.ts';
import { RedisStreamSlots } from './redis-stream-slots.ts';
import { RedisCacheInvalidation } from './redis-cache-invalidation.ts';

/** Whether the shared Redis answers (for /readyz and the vigil_redis_up metric). */
export interface RedisProbe {
  /** true while the command connection is up */
  readonly up: boolean;
  /** Rejects when Redis does not answer PING within the command time-out. */
  ping(): Promise<void>;
}

/** The infrastructure one node shares with the others (docs/design.md "Multi-node"), chosen in one place. */
export interface Coordination {
  rateLimits: RateLimitStore;
  streamSlots: StreamSlots;
  wakeSignal: WakeSignal;
  invalidation: CacheInvalidation;
  leases: LeaseStore;
  /** the streams each key holds open on this node, ended when the key is revoked */
  heldStreams: HeldStreams;
  /** the shared Redis, when REDIS_URL is configured */
  redis: RedisProbe | null;
  /** Connects to Redis and subscribes to invalidations (waits at most a few seconds: the node starts without Redis too). */
  start(): Promise<void>;
  /**
   * The serving process (the context's start, never the CLI): on a single node on a SQLite file,
   * hears the other processes on that file announce their changes (SocketCacheInvalidation).
   */
  serve(): Promise<void>;
  close(): Promise<void>;
}

type Log = { warn(obj: unknown, msg?: string): void; info?(obj: unknown, msg?: string): void };

/**
 * Without Redis, what a single node needs: everything in process, except wakes, which ride
 * PostgreSQL NOTIFY when the database is PostgreSQL (the CLI and other processes on it enqueue
 * webhooks too). With REDIS_URL, rate-limit counters, stream slots and cache invalidation are
 * shared through Redis, each falling back to this node's own store while Redis is
 * unreachable (docs/decisions.md "Redis down"). Stream leases live in PostgreSQL.
 */
export function createCoordination(opts: {
  database: DatabaseHandle;
  databaseUrl: string | null;
  redisUrl?: string | null;
  log?: Log;
  /** counts calls answered locally because Redis was unreachable (the metrics module's counter) */
  onFallback?: OnFallback;
  /** reports whether Redis is up (the vigil_redis_up metric); returns its removal */
  watchRedis?: (up: () => boolean) => () => void;
  /** cluster mode: the stream leases every node shares in the database */
  leases?: LeaseStore;
}): Coordination {
  const wakeSignal = createWakeSignal(opts.database, opts.databaseUrl, opts.log);
  const leases = opts.leases ?? new InProcessLeaseStore();
  if (!opts.redisUrl) {
    // processes on one SQLite file tell the serving one of their changes (a file only: memory is not shared)
    const file = sharedDatabaseFile(opts.database);
    const shared = file === null ? null : new SocketCacheInvalidation(`${file}.sock`);
    const invalidation = shared ?? new InProcessCacheInvalidation();
    return {
      rateLimits: new InProcessRateLimitStore(),
      streamSlots: new InProcessStreamSlots(),
      wakeSignal,
      invalidation,
      leases,
      heldStreams: new HeldStreams(),
      redis: null,
      start: async () => undefined,
      serve: async () => shared?.listen(),
      close: async () => shared?.close(),
    };
  }
  const commands = connectCommands(opts.redisUrl, opts.log);
  const subscriber = connectSubscriber(opts.redisUrl, opts.log);
  const onFallback = throttledFallbackLog(opts.log, opts.onFallback);
  const invalidation = new RedisCacheInvalidation(commands, subscriber, { onFallback, log: opts.log });
  const unwatch = opts.watchRedis?.(() => commands.status === 'ready');
  return {
    rateLimits: new RedisRateLimitStore(commands, new InProcessRateLimitStore(), onFallback),
    streamSlots: new RedisStreamSlots(commands, new InProcessStreamSlots(), { onFallback, log: opts.log }),
    wakeSignal,
    invalidation,
    leases,
    heldStreams: new HeldStreams(),
    redis: {
      get up() {
        return commands.status === 'ready';
      },
      async ping() {
        if (commands.status !== 'ready') throw new Error(`Redis connection is ${commands.status}`);
        await commands.ping();
      },
    },
    async start() {
      await Promise.all([whenReady(commands, 3_000), whenReady(subscriber, 3_000)]);
      // ioredis keeps the SUBSCRIBE queued until Redis is reachable; wait for it only briefly
      await Promise.race([invalidation.start(), new Promise((r) => setTimeout(r, REDIS_COMMAND_TIMEOUT_MS * 6).unref())]);
    },
    serve: async () => undefined,
    async close() {
      unwatch?.();
      await Promise.all([closeQuietly(commands), closeQuietly(subscriber)]);
    },
  };
}

/** Every fallback is counted; one warning per store per 30 s says the node is on its own. */
function throttledFallbackLog(log: Log | undefined, count: OnFallback | undefined): OnFallback {
  const lastWarned = new Map<string, number>();
  return (store, err) => {
    count?.(store, err);
    const now = Date.now();
    if (now - (lastWarned.get(store) ?? 0) < 30_000) return;
    lastWarned.set(store, now);
    log?.warn({ store, err: { message: (err as Error)?.message } }, 'Redis unreachable: answered by this node alone');
  };
}
