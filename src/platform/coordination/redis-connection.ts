import { Redis } from 'ioredis';

/** How long a Redis command on the request path may take before the caller falls back (ms). */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

export interface RedisLog {
  warn(obj: unknown, msg?: string): void;
  info?(obj: unknown, msg?: string): void;
}

/**
 * One Redis connection for commands on the request path (rate-limit counters, stream slots,
 * publishing invalidations). It must never make a request wait long: while disconnected,
 * commands fail at once (no offline queue) and the callers fall back to this process's own
 * stores; while connected, each command has REDIS_COMMAND_TIMEOUT_MS (a Redis that hangs,
 * e.g. SIGSTOPped, is treated like one that is down). ioredis reconnects on its own, every
 * second at most, for as long as the process runs.
 */
export function connectCommands(url: string, log?: RedisLog): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(100 * times, 1_000),
  });
  reportTransitions(client, 'commands', log);
  return client;
}

/**
 * The connection that subscribes to invalidations. A subscribing connection can run nothing
 * else; its owner subscribes on every 'ready' (RedisCacheInvalidation), not ioredis.
 */
export function connectSubscriber(url: string, log?: RedisLog): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    connectTimeout: 2_000,
    autoResubscribe: false,
    retryStrategy: (times) => Math.min(100 * times, 1_000),
  });
  reportTransitions(client, 'subscriber', log);
  return client;
}

/** Logs going down and coming back once each, not every failed reconnect attempt. */
function reportTransitions(client: Redis, role: string, log?: RedisLog): void {
  let down = false;
  client.on('error', (err: Error) => {
    if (down) return;
    down = true;
    log?.warn({ err: { message: err.message }, redis: role }, 'Redis unreachable; falling back to this node until it returns');
  });
  client.on('close', () => {
    if (!down) log?.warn({ redis: role }, 'Redis connection closed; reconnecting');
    down = true;
  });
  client.on('ready', () => {
    if (down) (log?.info ?? log?.warn)?.call(log, { redis: role }, 'Redis reachable again');
    down = false;
  });
}

/** Resolves once `client` is ready, or after `ms` (the node starts either way; /readyz reports it). */
export function whenReady(client: Redis, ms: number): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      resolve(ok);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    client.on('ready', onReady);
  });
}

/** Closes a connection without waiting for a Redis that is gone. */
export async function closeQuietly(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  try {
    if (client.status === 'ready') await Promise.race([client.quit(), new Promise((r) => setTimeout(r, 500))]);
  } catch {
    // already closing
  }
  client.disconnect();
}
