import pg from 'pg';
import { startCluster, type ClusterNode, type LocalCluster } from '../../scripts/cluster-lib.mjs';

/**
 * Real-process cluster tests: PostgreSQL + Redis + three Vigil nodes + HAProxy,
 * started the way `npm run cluster` starts them (scripts/cluster-lib.mjs). A test file calls
 * `startTestCluster()` once, talks to the cluster through `api` (HAProxy, or one node with `via`),
 * reads the shared database through `sql`, and stops everything in `after`.
 *
 * Each file starts its own cluster (~20 s on two cores), so files run in parallel with the other
 * slow suites; keep a file's own waits short (the failover waits are the 15 s failover target).
 */
export interface TestCluster extends LocalCluster {
  /** an HTTP call through HAProxy (or straight to one node): status and parsed JSON body */
  api<T = any>(key: string, method: string, path: string, body?: unknown, via?: ClusterNode): Promise<{ status: number; body: T; headers: Headers }>;
  /** a query on the shared PostgreSQL database */
  sql<T = any>(text: string, params?: unknown[]): Promise<T[]>;
  /** stream id → node id of the unexpired leases */
  owners(): Promise<Map<string, string>>;
  /** the node process by id */
  byId(id: string): ClusterNode;
  close(): Promise<void>;
}

export async function startTestCluster(opts: { env?: Record<string, string> } = {}): Promise<TestCluster> {
  const cluster = await startCluster({
    nodes: 3,
    pgUrl: process.env.VIGIL_TEST_PG_URL,
    // the tests stop nodes to test takeover, not the balancer: no drain delay (bench/availability.bench.ts measures that)
    drainDelayMs: 0,
    env: { VIGIL_ALLOW_FILE_SOURCES: '1', VIGIL_WEBHOOK_ALLOW_PRIVATE: '1', LOG_LEVEL: 'warn', ...opts.env },
  });
  const pool = new pg.Pool({ connectionString: cluster.databaseUrl, max: 2 });
  return Object.assign(cluster, {
    async api(key: string, method: string, path: string, body?: unknown, via?: ClusterNode) {
      const res = await fetch(`${via ? via.url : cluster.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON */
      }
      return { status: res.status, body: parsed as any, headers: res.headers };
    },
    async sql(text: string, params: unknown[] = []) {
      return (await pool.query(text, params)).rows;
    },
    async owners() {
      const rows = await pool.query<{ stream_id: string; node_id: string }>('select stream_id, node_id from stream_leases where expires_at > $1', [Date.now()]);
      return new Map(rows.rows.map((r) => [r.stream_id, r.node_id]));
    },
    byId(id: string) {
      const n = cluster.node(id);
      if (!n) throw new Error(`no node ${id}`);
      return n;
    },
    async close() {
      await pool.end().catch(() => undefined);
      await cluster.stop();
    },
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sleeps until the wall clock is at `second` past a minute. The sandbox scenarios report on minute
 * boundaries, so a test that needs "generation happened while X" arranges X around one.
 */
export async function atSecondOfMinute(second: number): Promise<void> {
  const now = Date.now();
  let at = Math.floor(now / 60_000) * 60_000 + second * 1000;
  if (at <= now) at += 60_000;
  await sleep(at - now);
}

/** Polls `check` until it answers truthy; the last answer is returned (or the timeout says what it was). */
export async function waitUntil<T>(what: string, check: () => Promise<T>, timeoutMs: number, everyMs = 250): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < until) {
    last = await check();
    if (last) return last;
    await sleep(everyMs);
  }
  throw new Error(`${what}: not within ${timeoutMs} ms (last: ${JSON.stringify(last)})`);
}

/** Detections recorded twice: same stream, type, time, track and value (a stream run by two nodes). */
export async function duplicateDetections(c: TestCluster, sinceMs: number): Promise<unknown[]> {
  return c.sql(
    `select stream_id, type, at, track_id, value, count(*)::int as n from detections where at >= $1
     group by stream_id, type, at, track_id, value, subtype, count, dwell_s having count(*) > 1 limit 20`,
    [sinceMs],
  );
}
