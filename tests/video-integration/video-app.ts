import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/platform/config/config.ts';
import { createContext, type VigilContext } from '../../src/context.ts';
import type { LiveVideoTuning } from '../../src/org/sources/live-video-sources.ts';
import { bearer, createTestDatabase, type DialectName } from '../helpers/harness.ts';

export interface VideoApp {
  ctx: VigilContext;
  app: FastifyInstance;
  /** a live organization key with every capability */
  orgKey(name?: string): Promise<{ key: string; tenant_id: string }>;
  /** GET/POST/PATCH as that key, JSON in and out */
  call(key: { key: string }, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * A serving Vigil (ctx.start(): sources run, the delivery worker sends webhooks) with real
 * video ingest; the shared harness builds route-only apps that never ingest real sources.
 */
export async function startVideoApp(opts: { dialect?: DialectName; config?: Partial<Config>; video?: LiveVideoTuning } = {}): Promise<VideoApp> {
  const dbase = await createTestDatabase(opts.dialect ?? 'sqlite');
  const config = loadConfig(
    { runSources: true, seedDemo: false, publicBaseUrl: 'http://vigil.test', webhookAllowPrivate: true, ...dbase.overrides, ...opts.config },
    {},
  );
  const ctx = await createContext(config, { video: { detectorWorkers: 1, ...opts.video } });
  const app = await buildApp(ctx);
  await ctx.start();
  let n = 0;
  return {
    ctx,
    app,
    orgKey: (name) =>
      ctx.keys.createKey({
        tenantKind: 'organization',
        tenantName: name ?? `Video Org ${++n}`,
        mode: 'live',
        capabilities: 'all',
        locations: null,
        rateLimitPerMinute: 100_000,
      }),
    async call(key, method, url, payload) {
      const res = await app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
      return { status: res.statusCode, body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.rawPayload };
    },
    async close() {
      await app.close();
      await ctx.close();
      await dbase.drop();
    },
  };
}

/** Polls (real time, bounded) until probe returns something truthy. */
export async function waitUntil<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const v = await probe();
    if (v) return v;
    last = v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
