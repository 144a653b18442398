import type { DatabaseHandle } from '../db/index.ts';
import { InProcessCacheInvalidation, type CacheInvalidation } from './cache-invalidation.ts';
import { InProcessLeaseStore, type LeaseStore } from './lease-store.ts';
import { InProcessRateLimitStore, type RateLimitStore } from './rate-limit-store.ts';
import { InProcessStreamSlots, type StreamSlots } from './stream-slots.ts';
import { createWakeSignal, type WakeSignal } from './wake-signal.ts';

/** The infrastructure one node shares with the others (DESIGN.md "multi-node"), chosen in one place. */
export interface Coordination {
  rateLimits: RateLimitStore;
  streamSlots: StreamSlots;
  wakeSignal: WakeSignal;
  invalidation: CacheInvalidation;
  leases: LeaseStore;
}

/**
 * What a single node needs: everything in process, except wakes, which ride PostgreSQL NOTIFY when
 * the database is PostgreSQL (the CLI and other processes on it enqueue webhooks too). Shared
 * implementations (Redis for counters, slots and invalidation; PostgreSQL leases) are chosen here
 * by configuration in issue 12.
 */
export function createCoordination(opts: {
  database: DatabaseHandle;
  databaseUrl: string | null;
  log?: { warn(obj: unknown, msg?: string): void };
  /** cluster mode (issue 12): the stream leases every node shares in the database */
  leases?: LeaseStore;
}): Coordination {
  return {
    rateLimits: new InProcessRateLimitStore(),
    streamSlots: new InProcessStreamSlots(),
    wakeSignal: createWakeSignal(opts.database, opts.databaseUrl, opts.log),
    invalidation: new InProcessCacheInvalidation(),
    leases: opts.leases ?? new InProcessLeaseStore(),
  };
}
