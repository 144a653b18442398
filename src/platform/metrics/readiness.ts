import { pendingMigrations, type DatabaseHandle } from '../db/index.ts';

export type CheckState = 'ok' | 'failed' | 'not_configured';

export interface ReadinessReport {
  ready: boolean;
  checks: { database: CheckState; migrations: CheckState; redis: CheckState };
  /** what is not ready, in words, for the problem's detail */
  reasons: string[];
  /** the object detector's runtime on a node that runs streams (null elsewhere): a tfjs-wasm fallback still serves, slower, and says why */
  detector: DetectorStatus | null;
}

export interface DetectorStatus {
  runtime: 'onnxruntime' | 'tfjs-wasm';
  model: string;
  fallback_reason: string | null;
}

/**
 * Set when the process begins a graceful stop. From then on /readyz answers 503 so a load balancer
 * takes the node out of rotation while it still serves; the listener closes only after the drain
 * delay (docs/deployment.md, "Rolling restarts").
 */
export class DrainState {
  private startedAt: number | null = null;

  start(now = Date.now()): void {
    this.startedAt ??= now;
  }

  get draining(): boolean {
    return this.startedAt !== null;
  }
}

/** How long one dependency may take to answer a readiness probe before it counts as unreachable. */
const CHECK_TIMEOUT_MS = 2_000;

/**
 * Whether this node can serve (GET /readyz): the database answers, its schema is the one this
 * code expects (no migration pending), and the shared Redis answers when one is configured. A
 * load balancer takes a node that is not ready out of rotation; /healthz stays 200 meanwhile.
 */
export class Readiness {
  constructor(
    private readonly deps: { database: DatabaseHandle; redis: { ping(): Promise<void> } | null; detector?: () => DetectorStatus | null; drain?: DrainState },
  ) {}

  async check(): Promise<ReadinessReport> {
    const reasons: string[] = [];
    const checks: ReadinessReport['checks'] = { database: 'ok', migrations: 'ok', redis: 'not_configured' };
    // a stopping node says so first, whatever its dependencies say: the balancer must stop sending
    if (this.deps.drain?.draining) reasons.push('this node is stopping (draining in-flight requests)');
    const [db, redis] = await Promise.allSettled([
      within(this.deps.database.ping(), 'database'),
      this.deps.redis ? within(this.deps.redis.ping(), 'Redis') : Promise.resolve(),
    ]);
    if (db.status === 'rejected') {
      checks.database = 'failed';
      checks.migrations = 'failed';
      reasons.push('the database is not reachable');
    } else {
      try {
        const pending = await within(pendingMigrations(this.deps.database), 'migrations');
        if (pending.length) {
          checks.migrations = 'failed';
          reasons.push(`${pending.length} database migration(s) have not run (${pending.join(', ')})`);
        }
      } catch {
        checks.migrations = 'failed';
        reasons.push('the database migrations could not be read');
      }
    }
    if (this.deps.redis) {
      checks.redis = redis.status === 'fulfilled' ? 'ok' : 'failed';
      if (redis.status === 'rejected') reasons.push('Redis is not reachable');
    }
    return { ready: reasons.length === 0, checks, reasons, detector: this.deps.detector?.() ?? null };
  }
}

function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
