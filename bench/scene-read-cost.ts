import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../src/platform/config/config.ts';
import { createContext } from '../src/context.ts';
import { buildApp } from '../src/app.ts';
import { findWithStreamIds } from '../src/org/scenes/scene.repository.ts';

/**
 * CPU per authenticated GET /v1/scenes/:id (app.inject, so no socket), in a tenant with STREAMS
 * streams over STREAMS/10 scenes, on SQLite, with the streams(scene_id) index (migration 028) and
 * without it, alternating in the same run (load-robust: process CPU time, a ratio), both with the
 * statement run on every read; and with the statement's rows kept between reads (`cachedHotRead`, what
 * the server does), with its hits and misses. Also prints SQLite's plan for the scene read. Env: BENCH_SR_STREAMS (1000), BENCH_SR_REQUESTS (2000 per part).
 * `node --import tsx bench/scene-read-cost.ts` prints JSON.
 */
const STREAMS = Number(process.env.BENCH_SR_STREAMS ?? 1000);
const REQUESTS = Number(process.env.BENCH_SR_REQUESTS ?? 2000);
const PARTS = 3;

const dataDir = mkdtempSync(join(tmpdir(), 'vigil-sr-'));
const ctx = await createContext(loadConfig({ dataDir, databaseUrl: null, runSources: false, seedDemo: false }, {}));
try {
  const key = await ctx.keys.createKey({ tenantKind: 'organization', tenantName: 'Bench', mode: 'live', rateLimitPerMinute: 100_000_000 });
  const app = await buildApp(ctx, { logger: false });
  const authorization = `Bearer ${key.key}`;
  let sceneId = '';
  for (let i = 0; i < STREAMS; i++) {
    const r = await app.inject({
      method: 'POST',
      url: '/v1/streams',
      headers: { authorization },
      payload: {
        name: `cam ${i}`,
        source_type: 'sandbox',
        source_url: `sandbox://lobby?scenario=lobby&seed=${i}`,
        location: `zone_${i % Math.max(1, STREAMS / 10)}`,
      },
    });
    if (r.statusCode !== 201) throw new Error(`stream create: ${r.statusCode} ${r.body}`);
    if (i === 0) sceneId = (r.json() as { scene_id: string }).scene_id;
  }
  const path = `/v1/scenes/${sceneId}`;
  const part = async () => {
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < REQUESTS; i++) {
      const r = await app.inject({ url: path, headers: { authorization } });
      if (r.statusCode !== 200) throw new Error(`scene read: ${r.statusCode}`);
    }
    const c = process.cpuUsage(cpu0);
    return (c.user + c.system) / REQUESTS;
  };
  const plan = () =>
    ctx.database
      .sqlite!.prepare(
        `EXPLAIN QUERY PLAN SELECT scenes.*, streams.id FROM scenes LEFT JOIN streams ON streams.scene_id = scenes.id AND streams.tenant_id = scenes.tenant_id WHERE scenes.tenant_id = ? AND scenes.id = ?`,
      )
      .all(key.tenant_id, sceneId)
      .map((r) => (r as { detail: string }).detail);
  const withIndex: number[] = [];
  const without: number[] = [];
  const kept: number[] = [];
  const cache = findWithStreamIds.stats;
  const plans: Record<string, string[]> = { with_index: plan() };
  await part(); // warm-up
  let hits = 0;
  let misses = 0;
  for (let p = 0; p < PARTS; p++) {
    const [h, m] = [cache.hits, cache.misses];
    kept.push(await part());
    [hits, misses] = [hits + cache.hits - h, misses + cache.misses - m];
    cache.keep = false;
    withIndex.push(await part());
    await sql`DROP INDEX streams_scene`.execute(ctx.database.db);
    if (p === 0) plans.without_index = plan();
    without.push(await part());
    await sql`CREATE INDEX streams_scene ON streams (scene_id)`.execute(ctx.database.db);
    cache.keep = true;
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(
    JSON.stringify(
      {
        streams: STREAMS,
        requests_per_part: REQUESTS,
        parts: PARTS,
        plans,
        cpu_us_per_request: {
          rows_kept: Math.round(median(kept)),
          with_index: Math.round(median(withIndex)),
          without_index: Math.round(median(without)),
        },
        ratio_with_to_without: Number((median(withIndex) / median(without)).toFixed(3)),
        ratio_kept_to_with_index: Number((median(kept) / median(withIndex)).toFixed(3)),
        kept_rows_hits: hits,
        kept_rows_misses: misses,
      },
      null,
      2,
    ),
  );
  await app.close();
} finally {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
}
