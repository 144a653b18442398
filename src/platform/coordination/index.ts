import { defineServiceModule, LOG, token } from '../lib/index.ts';
import { CONFIG } from '../config/index.ts';
import { DATABASE } from '../db/index.ts';
import { METRICS } from '../metrics/index.ts';
import { createCoordination as makeCoordination, type Coordination as CoordinationT } from './coordination.ts';
import { SqlLeaseStore as SqlLeaseStoreT } from './sql-lease-store.ts';
import { PeerLink as PeerLinkT } from './peer-link.ts';
/**
 * Infrastructure seams for running more than one node: each an interface with an
 * in-process implementation; shared implementations (Redis, PostgreSQL) for a cluster.
 */
export { InProcessRateLimitStore, type RateLimitStore } from './rate-limit-store.ts';
export { DEFAULT_SLOT_TTL_MS, InProcessStreamSlots, keepSlotRenewed, type StreamSlot, type StreamSlots } from './stream-slots.ts';
export { InProcessWakeSignal, PostgresWakeSignal, createWakeSignal, type WakeSignal } from './wake-signal.ts';
export { CACHE_TOPICS, EVERY_KEY, InProcessCacheInvalidation, alertRuleCacheKey, type CacheInvalidation } from './cache-invalidation.ts';
export { InProcessLeaseStore, type LeaseStore, type StreamLease } from './lease-store.ts';
export { HeldStreams, type HeldSession } from './held-streams.ts';
export { createCoordination, type Coordination, type RedisProbe } from './coordination.ts';
export { RedisRateLimitStore, type OnFallback } from './redis-rate-limit-store.ts';
export { RedisStreamSlots } from './redis-stream-slots.ts';
export { RedisCacheInvalidation } from './redis-cache-invalidation.ts';
export { REDIS_COMMAND_TIMEOUT_MS, closeQuietly, connectCommands, connectSubscriber, whenReady } from './redis-connection.ts';
export { FencedWriteError, SqlLeaseStore, type FenceClaim, type StreamAssignment } from './sql-lease-store.ts';
export { PEER_HEADERS, PeerLink, type PeerNode, type PeerRequest } from './peer-link.ts';

export const COORDINATION = token<CoordinationT>('coordination');
/** cluster mode: the leases in the shared database, with heartbeats and fencing; null on a single node */
export const CLUSTER_LEASES = token<SqlLeaseStoreT | null>('clusterLeases');
/** cluster mode: signed requests to the node that runs a stream (frames, WHIP); null on a single node */
export const PEER_LINK = token<PeerLinkT | null>('peerLink');

export const coordinationServices = defineServiceModule({
  name: 'coordination',
  provide(c) {
    c.provide(CLUSTER_LEASES, (c) => (c.get(CONFIG).cluster ? new SqlLeaseStoreT(c.get(DATABASE)) : null));
    c.provide(PEER_LINK, (c) => {
      const config = c.get(CONFIG);
      return config.cluster ? new PeerLinkT({ database: c.get(DATABASE), nodeId: config.nodeId, secret: config.clusterSecret }) : null;
    });
    c.provide(COORDINATION, (c) =>
      makeCoordination({
        database: c.get(DATABASE),
        databaseUrl: c.get(CONFIG).databaseUrl,
        redisUrl: c.get(CONFIG).redisUrl,
        log: c.get(LOG),
        leases: c.get(CLUSTER_LEASES) ?? undefined,
        onFallback: (store) => c.get(METRICS).redisFallbacks.inc({ store }),
        watchRedis: (up) => c.get(METRICS).watchRedis(up),
      }),
    );
  },
  // before anything is served: connected to Redis and subscribed to invalidations (or given up waiting)
  install: async (c) => {
    await c.get(PEER_LINK)?.start();
    await c.get(COORDINATION).start();
  },
});
