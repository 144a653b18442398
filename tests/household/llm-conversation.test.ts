import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { loadConfig } from '../../src/platform/config/config.ts';
import { createContext, type VigilContext } from '../../src/context.ts';
import { buildApp } from '../../src/app.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { createTestDatabase } from '../helpers/harness.ts';
import type { FastifyInstance } from 'fastify';

// A local server speaking the OpenAI chat-completions protocol; `mode` decides how it answers.
let mode: 'tool_call' | 'fail' = 'tool_call';
let requests = 0;
let server: Server;
let baseUrl = '';
let ctx: VigilContext;
let app: FastifyInstance;
let drop: () => Promise<void>;

before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      requests++;
      const parsed = JSON.parse(body);
      assert.equal(parsed.model, 'house-model');
      if (mode === 'fail') {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              finish_reason: 'tool_calls',
              message: { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'list_watches', arguments: '{}' } }] },
            },
          ],
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  const dbase = await createTestDatabase('sqlite');
  drop = dbase.drop;
  // configured the way an operator would: through the VIGIL_LLM_* environment variables
  const config = loadConfig(
    { ...dbase.overrides, runSources: false, seedDemo: false },
    { VIGIL_LLM_BASE_URL: baseUrl, VIGIL_LLM_MODEL: 'house-model', VIGIL_LLM_TIMEOUT_MS: '2000' },
  );
  ctx = await createContext(config, { clock: new ManualClock('2026-11-21T12:00:00.000Z') });
  app = await buildApp(ctx);
});

after(async () => {
  await app.close();
  await ctx.close();
  await drop();
  server.close();
});

test('with VIGIL_LLM_* set the LLM planner chooses the tools, and the response says so; when it fails the offline planner answers', async () => {
  const key = await ctx.keys.createKey({ tenantKind: 'household', tenantName: 'LLM Home', mode: 'test', rateLimitPerMinute: 1000 });
  const headers = { authorization: `Bearer ${key.key}` };
  const viaLlm = await app.inject({ method: 'POST', url: '/v1/conversations', headers, payload: { message: 'what are you watching?' } });
  assert.equal(viaLlm.statusCode, 200, viaLlm.body);
  assert.equal(viaLlm.json().planner, 'llm');
  assert.deepEqual(
    viaLlm.json().actions.map((a: { type: string }) => a.type),
    ['watches.listed'],
  );
  assert.equal(requests, 1);

  mode = 'fail';
  const fallback = await app.inject({ method: 'POST', url: '/v1/conversations', headers, payload: { message: 'keep an eye on the back door until 6am' } });
  assert.equal(fallback.statusCode, 200, fallback.body);
  assert.equal(fallback.json().planner, 'offline');
  assert.deepEqual(
    fallback.json().actions.map((a: { type: string }) => a.type),
    ['watch.created'],
  );
  assert.equal(requests, 2);
});
