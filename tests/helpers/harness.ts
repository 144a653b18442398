import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/platform/config/config.ts';
import { createContext, type VigilContext } from '../../src/context.ts';
import { buildApp } from '../../src/app.ts';
import type { Clock } from '../../src/platform/time/clock.ts';
import type { CreatedKey } from '../../src/platform/keys/key.service.ts';
import { startPostgres } from '../../scripts/pg-server.mjs';

export type DialectName = 'sqlite' | 'postgres';
export const DIALECTS: DialectName[] = ['sqlite', 'postgres'];

let ownServer: Promise<{ url: string; stop(): void }> | null = null;

/** The PostgreSQL server of this run (npm test starts one), or one of our own when a file runs alone. */
async function serverUrl(): Promise<string> {
  if (process.env.VIGIL_TEST_PG_URL) return process.env.VIGIL_TEST_PG_URL;
  if (!ownServer) {
    ownServer = startPostgres();
    const started = await ownServer;
    process.on('exit', () => started.stop());
  }
  const server = await ownServer;
  return server.url;
}

/** A fresh, empty database: a temp dir for SQLite, a new database for PostgreSQL. */
export async function createTestDatabase(dialect: DialectName): Promise<{ overrides: Partial<Config>; drop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-test-'));
  if (dialect === 'sqlite') {
    return { overrides: { dataDir, databaseUrl: null }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const admin = await serverUrl();
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = admin.replace(/\/[^/]*$/, `/${name}`);
  return {
    overrides: { dataDir, databaseUrl: url },
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestApp {
  ctx: VigilContext;
  app: FastifyInstance;
  config: Config;
  /** an organization key (all capabilities unless given) */
  orgKey(opts?: { name?: string; capabilities?: string[] | 'all'; locations?: string[]; mode?: 'live' | 'test'; rate?: number }): Promise<CreatedKey>;
  householdKey(opts?: { name?: string; mode?: 'live' | 'test' }): Promise<CreatedKey>;
  close(): Promise<void>;
}

export async function createTestApp(
  opts: {
    dialect?: DialectName;
    clock?: Clock;
    config?: Partial<Config>;
    sandboxTickMs?: number;
    start?: boolean;
    contextOptions?: Parameters<typeof createContext>[1];
  } = {},
): Promise<TestApp> {
  const dbase = await createTestDatabase(opts.dialect ?? 'sqlite');
  const config = loadConfig({ runSources: false, seedDemo: false, publicBaseUrl: 'http://vigil.test', ...dbase.overrides, ...opts.config }, {});
  const ctx = await createContext(config, { clock: opts.clock, sandboxTickMs: opts.sandboxTickMs, ...opts.contextOptions });
  const app = await buildApp(ctx);
  if (opts.start) await ctx.start();
  let n = 0;
  return {
    ctx,
    app,
    config,
    orgKey: (o = {}) =>
      ctx.keys.createKey({
        tenantKind: 'organization',
        tenantName: o.name ?? `Org ${++n}`,
        mode: o.mode ?? 'live',
        capabilities: o.capabilities ?? 'all',
        locations: o.locations ?? null,
        rateLimitPerMinute: o.rate ?? 100_000,
      }),
    householdKey: (o = {}) =>
      ctx.keys.createKey({ tenantKind: 'household', tenantName: o.name ?? `Home ${++n}`, mode: o.mode ?? 'live', rateLimitPerMinute: 100_000 }),
    async close() {
      await app.close();
      await ctx.close();
      await dbase.drop();
    },
  };
}

export function bearer(key: { key: string } | string) {
  return { authorization: `Bearer ${typeof key === 'string' ? key : key.key}` };
}
