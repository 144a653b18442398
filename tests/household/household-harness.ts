/**
 * A test app for the household agent: a fresh database of the given dialect, a ManualClock so
 * sandbox hours run in seconds, and optionally a planner wrapper (the real offline planner behind
 * a gate) so streamed replies can be held open honestly.
 */
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/platform/config/config.ts';
import { createContext, type VigilContext } from '../../src/context.ts';

type ContextOverrides = Parameters<typeof createContext>[1];
import { buildApp } from '../../src/app.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';
import type { CreatedKey } from '../../src/platform/keys/key.service.ts';
import type { Planner } from '../../src/home/conversations/conversation.service.ts';
import { createTestDatabase, type DialectName } from '../helpers/harness.ts';

export interface HouseholdTestApp {
  ctx: VigilContext;
  app: FastifyInstance;
  clock: ManualClock;
  householdKey(opts?: { name?: string; mode?: 'live' | 'test' }): Promise<CreatedKey>;
  orgKey(): Promise<CreatedKey>;
  /** runs the sandbox forward and waits until every detection (and its events) is durable */
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

let n = 0;

export async function createHouseholdTestApp(opts: {
  dialect: DialectName;
  planner?: Planner;
  start?: string;
  config?: Partial<Config>;
  overrides?: ContextOverrides;
}): Promise<HouseholdTestApp> {
  const dbase = await createTestDatabase(opts.dialect);
  const config = loadConfig(
    { runSources: false, seedDemo: false, publicBaseUrl: 'http://vigil.test', webhookAllowPrivate: true, ...dbase.overrides, ...opts.config },
    {},
  );
  // 2026-11-21 12:00 UTC is 12:00 in Lisbon (UTC+0 in November); sunset there is about 17:18
  const clock = new ManualClock(opts.start ?? '2026-11-21T12:00:00.000Z');
  const ctx = await createContext(config, { clock, sandboxTickMs: 300_000, planner: opts.planner, ...opts.overrides });
  const app = await buildApp(ctx);
  return {
    ctx,
    app,
    clock,
    householdKey: (o = {}) =>
      ctx.keys.createKey({ tenantKind: 'household', tenantName: o.name ?? `Home ${++n}`, mode: o.mode ?? 'test', rateLimitPerMinute: 100_000 }),
    orgKey: () => ctx.keys.createKey({ tenantKind: 'organization', tenantName: `Org ${++n}`, mode: 'test', capabilities: 'all', rateLimitPerMinute: 100_000 }),
    async advance(ms) {
      const step = 3600_000;
      for (let left = ms; left > 0; left -= step) {
        await clock.advance(Math.min(step, left));
        await ctx.pipeline.drain();
      }
    },
    async close() {
      await app.close();
      await ctx.close();
      await dbase.drop();
    },
  };
}

/** A planner that, while its gate is closed, waits there before handing over to the real one. */
export function createGatedPlanner(inner: Planner): Planner & { close(): void; open(): void; waiting(): number } {
  let release: () => void = () => {};
  let gate = Promise.resolve();
  let waiting = 0;
  return {
    async plan(message, ctx) {
      waiting++;
      await gate;
      waiting--;
      return inner.plan(message, ctx);
    },
    close() {
      gate = new Promise<void>((r) => (release = r));
    },
    open() {
      release();
      gate = Promise.resolve();
    },
    waiting: () => waiting,
  };
}

export function bearer(key: { key: string }) {
  return { authorization: `Bearer ${key.key}` };
}
