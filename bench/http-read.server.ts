import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/platform/config/config.ts';
import { createContext } from '../src/context.ts';
import { buildApp } from '../src/app.ts';
import { createProcessLogger, processLogDestination } from '../src/platform/lib/index.ts';

/**
 * One server of the read benchmark, in its own process so it has a core to itself and autocannon
 * does not share its event loop. `app`: the real Vigil app on SQLite (WAL) with the production
 * logger (createProcessLogger, its buffered destination) at info level, writing to /dev/null, so
 * the cost of building and writing each log line is counted but not a terminal's, an organization key and one scene. `bare`: plain Fastify
 * answering the same JSON (read from stdin), the limit the app is compared against.
 * Prints one JSON line {url, path, authorization} once listening.
 */
const mode = process.argv[2];

if (mode === 'app') {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-http-'));
  const config = loadConfig({ dataDir, databaseUrl: null, runSources: false, seedDemo: false }, {});
  // the production logger and its buffered destination (main.ts), writing to /dev/null
  const log = createProcessLogger({ level: 'info', nodeId: 'bench', destination: processLogDestination('/dev/null') });
  const ctx = await createContext(config, { log });
  // what ctx.start() does first in `npm start`: the admin CLI on this file announces its revocations here
  await ctx.coordination.serve();
  // a high per-key limit: the bench measures the work of an allowed request, not 429s
  const key = await ctx.keys.createKey({ tenantKind: 'organization', tenantName: 'Bench', mode: 'live', rateLimitPerMinute: 1_000_000 });
  const app = await buildApp(ctx, { loggerInstance: log });
  const authorization = `Bearer ${key.key}`;
  const created = await app.inject({
    method: 'POST',
    url: '/v1/streams',
    headers: { authorization },
    payload: { name: 'Lobby cam', source_type: 'sandbox', source_url: 'sandbox://lobby', location: 'lobby' },
  });
  if (created.statusCode !== 201) throw new Error(`stream create: ${created.statusCode} ${created.body}`);
  const path = `/v1/scenes/${(created.json() as { scene_id: string }).scene_id}`;
  const check = await app.inject({ url: path, headers: { authorization } });
  if (check.statusCode !== 200) throw new Error(`scene read: ${check.statusCode} ${check.body}`);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  process.stdout.write(`${JSON.stringify({ url, path, authorization, body: check.json() })}\n`);
  process.on(
    'SIGTERM',
    () =>
      void app
        .close()
        .then(() => ctx.close())
        .finally(() => process.exit(0)),
  );
} else if (mode === 'bare') {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  const app = Fastify();
  app.get('/v1/scenes/:scene_id', async () => body);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  process.stdout.write(`${JSON.stringify({ url, path: '/v1/scenes/x', authorization: null })}\n`);
  process.on('SIGTERM', () => void app.close().finally(() => process.exit(0)));
} else {
  throw new Error('usage: http-read.server.ts app|bare');
}
