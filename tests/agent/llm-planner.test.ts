/**
 * The LLM planner against a real local HTTP server speaking the chat-completions protocol:
 * request shape, tool calls → validated plan, text → clarification, and the
 * offline planner answering when the endpoint fails, hangs or talks nonsense.
 */
import { readLlmConfig } from '../../src/platform/config/llm-config.ts';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSystemPrompt, LlmPlanner, LlmPlannerError } from '../../src/home/agent/llm-planner.ts';
import { planOffline } from '../../src/home/agent/offline-planner.ts';
import { createPlanner } from '../../src/home/agent/planner.ts';
import { runPlan } from '../../src/home/agent/plan-executor.ts';
import { TOOL_NAMES } from '../../src/home/agent/tools.ts';
import { loadContexts } from './corpus-cases.ts';
import { HouseholdSimulator } from './household-simulator.ts';

type Handler = (body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse) => void;

const contexts = loadContexts();
const home = contexts.lisbon_private; // muted living room camera, nursery boundary, two active watches

let server: Server;
let baseUrl: string;
let handler: Handler = () => {
  throw new Error('no handler set');
};
const received: { headers: IncomingMessage['headers']; url?: string; body: Record<string, unknown> }[] = [];

before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      received.push({ headers: req.headers, url: req.url, body });
      handler(body, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function completion(message: Record<string, unknown>) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: 'test-model',
    choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', ...message } }],
  };
}

function toolCall(name: string, args: unknown, id = `call_${name}`) {
  return { id, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } };
}

const backDoorTonight = {
  subject: 'back door contact',
  sensor_ids: ['sen_back_door'],
  starts_at: '2026-11-21T17:21:00.000Z',
  ends_at: '2026-11-22T07:27:00.000Z',
  recurrence: 'none',
  window: 'tonight',
};

const llm = () => ({ baseUrl, model: 'test-model', apiKey: 'sk-test-123', timeoutMs: 2_000 });

test('sends the household and the tool catalogue, and plans from the tool calls it gets back', async () => {
  received.length = 0;
  handler = (body, _req, res) => {
    const messages = body.messages as { role: string; content: string }[];
    const asked = messages.at(-1)!.content;
    if (asked !== 'watch the back door tonight') return answer(res, 400, { error: { message: 'unexpected message' } });
    answer(res, 200, completion({ content: null, tool_calls: [toolCall('create_watch', backDoorTonight)] }));
  };
  const plan = await createPlanner({ llm: llm() }).plan('watch the back door tonight', home);

  assert.equal(received.length, 1);
  const { headers, url, body } = received[0];
  assert.equal(url, '/v1/chat/completions');
  assert.equal(headers.authorization, 'Bearer sk-test-123');
  assert.equal(body.model, 'test-model');
  assert.equal(body.tool_choice, 'auto');
  const tools = body.tools as { type: string; function: { name: string; parameters: { type: string } } }[];
  assert.deepEqual(tools.map((t) => t.function.name).sort(), [...TOOL_NAMES].sort());
  assert.ok(tools.every((t) => t.type === 'function' && t.function.parameters.type === 'object'));
  const system = (body.messages as { role: string; content: string }[])[0];
  assert.equal(system.role, 'system');
  for (const s of home.sensors) {
    assert.ok(system.content.includes(s.name), `system prompt names ${s.name}`);
    assert.ok(system.content.includes(s.id), `system prompt gives the id of ${s.name}`);
  }
  assert.match(system.content, /living room camera", camera, room "living room" \[MUTED\]/);
  assert.match(system.content, /- nursery \[BOUNDARY/);
  assert.match(system.content, /wat_garage_nightly/);
  assert.match(system.content, /Europe\/Lisbon/);
  assert.match(system.content, /Current local time: Saturday 2026-11-21T17:00 local/);
  assert.match(system.content, /Next sunset: 2026-11-21T17:\d\d local/);

  assert.equal(plan.planner, 'llm');
  assert.equal(plan.fallback_reason, undefined);
  assert.deepEqual(plan.calls, [{ tool: 'create_watch', args: backDoorTonight, subject: 'back door contact' }]);
  assert.deepEqual(plan.refusals, []);

  // and the executor runs exactly that call
  const sim = new HouseholdSimulator(home);
  const result = await runPlan(plan, sim);
  assert.equal(result.planner, 'llm');
  assert.deepEqual(
    result.actions.map((a) => [a.type, a.subject]),
    [['watch.created', 'back door contact']],
  );
});

test('after dark the prompt says it is night, so "tonight" starts now (New York, UTC-4 in July)', () => {
  const prompt = buildSystemPrompt(contexts.new_york);
  assert.match(prompt, /America\/New_York \(UTC-04:00 now\)/);
  assert.match(prompt, /It is night now \(sunset was 2026-07-04T20:3\d local/);
  assert.match(prompt, /Next sunrise: 2026-07-05T05:\d\d local \(2026-07-05T09:\d\d/);
});

test('earlier turns of the conversation are sent so follow-ups resolve', async () => {
  received.length = 0;
  const ctx = structuredClone(home);
  ctx.conversation.turns.push({ message: 'watch the porch till 11', actions: [{ type: 'watch.created', id: 'wat_porch_evening', subject: 'front porch' }] });
  handler = (_body, _req, res) => answer(res, 200, completion({ content: '', tool_calls: [toolCall('stand_down_watch', { watch_id: 'wat_porch_evening' })] }));
  const plan = await createPlanner({ llm: llm() }).plan('actually stop watching it', ctx);
  const messages = received[0].body.messages as { role: string; content: string }[];
  assert.deepEqual(
    messages.slice(1).map((m) => m.role),
    ['user', 'assistant', 'user'],
  );
  assert.equal(messages[1].content, 'watch the porch till 11');
  assert.match(messages[2].content, /watch\.created wat_porch_evening \(front porch\)/);
  assert.deepEqual(plan.calls, [{ tool: 'stand_down_watch', args: { watch_id: 'wat_porch_evening' }, subject: 'front porch' }]);
});

test('a text answer without tool calls is a clarification and nothing is done', async () => {
  handler = (_body, _req, res) => answer(res, 200, completion({ content: 'Which door do you mean — the back door or the front porch?' }));
  const plan = await createPlanner({ llm: llm() }).plan('watch the door', home);
  assert.equal(plan.planner, 'llm');
  assert.deepEqual(plan.calls, []);
  assert.equal(plan.clarification, 'Which door do you mean — the back door or the front porch?');
  const sim = new HouseholdSimulator(home);
  const result = await runPlan(plan, sim);
  assert.deepEqual(sim.calls, []);
  assert.equal(result.reply, 'Which door do you mean — the back door or the front porch?');
});

test('tool calls with an unknown name, bad types or invented sensors are dropped and never run', async () => {
  handler = (_body, _req, res) =>
    answer(
      res,
      200,
      completion({
        content: null,
        tool_calls: [
          toolCall('unlock_front_door', {}),
          toolCall('create_watch', { ...backDoorTonight, sensor_ids: 'sen_back_door', recurrence: 'hourly' }),
          toolCall('mute_sensor', { sensor_id: 'sen_attic_cam' }),
          toolCall('describe_scene', '{"room": "garage"'),
          toolCall('mute_sensor', { sensor_id: 'sen_driveway_cam' }),
          toolCall('describe_scene', { room: 'Garage', sensor_id: null }),
        ],
      }),
    );
  const plan = await createPlanner({ llm: llm() }).plan('do a few things', home);
  assert.equal(plan.planner, 'llm');
  assert.deepEqual(plan.calls, [
    { tool: 'mute_sensor', args: { sensor_id: 'sen_driveway_cam' }, subject: 'driveway camera' },
    // null optional argument dropped, room written in the home's spelling
    { tool: 'describe_scene', args: { room: 'garage' }, subject: 'garage' },
  ]);
  assert.equal(plan.refusals.length, 4);
  assert.match(plan.refusals[0], /unknown tool "unlock_front_door"/);
  assert.match(plan.refusals[1], /create_watch: \/sensor_ids/);
  assert.match(plan.refusals[2], /no sensor "sen_attic_cam"/);
  assert.match(plan.refusals[3], /describe_scene: arguments are not a JSON object/);

  const sim = new HouseholdSimulator(home);
  const result = await runPlan(plan, sim);
  assert.deepEqual(
    sim.calls.map((c) => c.tool),
    ['mute_sensor', 'describe_scene'],
  );
  assert.deepEqual(
    result.actions.map((a) => a.type),
    ['sensor.muted', 'scene.described'],
  );
  assert.equal(sim.ctx.sensors.find((s) => s.id === 'sen_back_door')!.muted, false);
});

test('when every tool call is invalid the offline planner answers instead', async () => {
  handler = (_body, _req, res) => answer(res, 200, completion({ content: null, tool_calls: [toolCall('create_watch', { subject: 'back door' })] }));
  const plan = await createPlanner({ llm: llm() }).plan('watch the back door tonight', home);
  assert.equal(plan.planner, 'offline');
  assert.equal(plan.fallback_reason, 'invalid_tool_calls');
  assert.deepEqual(
    plan.calls.map((c) => [c.tool, c.args.sensor_ids]),
    [['create_watch', ['sen_back_door']]],
  );
});

test('a server answering 500 → the offline planner answers and says why', async () => {
  const warnings: unknown[] = [];
  handler = (_body, _req, res) => answer(res, 500, { error: { message: 'model overloaded' } });
  const plan = await createPlanner({ llm: llm(), log: { warn: (obj) => warnings.push(obj) } }).plan('watch the back door tonight', home);
  assert.equal(plan.planner, 'offline');
  assert.equal(plan.fallback_reason, 'http_error');
  assert.deepEqual(
    plan.calls.map((c) => c.tool),
    ['create_watch'],
  );
  assert.deepEqual(plan.calls[0].args.sensor_ids, ['sen_back_door']);
  assert.equal(warnings.length, 1);
});

test('a server that hangs → the request times out and the offline planner answers', async () => {
  handler = () => {
    /* never answers */
  };
  const planner = createPlanner({ llm: { ...llm(), timeoutMs: 200 } });
  const plan = await planner.plan('mute the nursery camera', home);
  assert.equal(plan.planner, 'offline');
  assert.equal(plan.fallback_reason, 'timeout');
  // exactly what the offline planner says on its own
  assert.deepEqual(plan.calls, planOffline('mute the nursery camera', home).calls);
  assert.deepEqual(
    plan.calls.map((c) => c.args),
    [{ sensor_id: 'sen_nursery_cam' }],
  );
});

test('a server that sends headers and then stalls the body also times out', async () => {
  handler = (_body, _req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"choices": [');
  };
  await assert.rejects(
    new LlmPlanner({ ...llm(), timeoutMs: 200 }).plan('watch the garage', home),
    (err: unknown) => err instanceof LlmPlannerError && err.reason === 'timeout',
  );
});

test('malformed bodies, empty choices and unreachable endpoints fall back with their reason', async () => {
  const cases: [Handler, string][] = [
    [(_b, _r, res) => answer(res, 200, 'this is not json'), 'malformed_response'],
    [(_b, _r, res) => answer(res, 200, { choices: [] }), 'no_choices'],
    [(_b, _r, res) => answer(res, 200, { choices: [{ message: { content: '' } }] }), 'empty_answer'],
  ];
  for (const [h, reason] of cases) {
    handler = h;
    const plan = await createPlanner({ llm: llm() }).plan('watch the garage until 6am', home);
    assert.equal(plan.planner, 'offline');
    assert.equal(plan.fallback_reason, reason);
    assert.deepEqual(
      plan.calls.map((c) => c.tool),
      ['create_watch'],
    );
  }
  // a port nobody listens on: grab one, then close it
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const plan = await createPlanner({ llm: { baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' } }).plan('watch the garage until 6am', home);
  assert.equal(plan.planner, 'offline');
  assert.equal(plan.fallback_reason, 'network_error');
});

test('without an LLM configured the offline planner acts alone', async () => {
  received.length = 0;
  const plan = await createPlanner({ llm: null }).plan('mute the nursery camera', home);
  assert.equal(plan.planner, 'offline');
  assert.equal(plan.fallback_reason, undefined);
  assert.equal(received.length, 0);
});

test('readLlmConfig reads the environment, and is null unless base URL and model are set', () => {
  assert.equal(readLlmConfig({}), null);
  assert.equal(readLlmConfig({ VIGIL_LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }), null);
  assert.equal(readLlmConfig({ VIGIL_LLM_MODEL: 'llama3.1' }), null);
  assert.equal(readLlmConfig({ VIGIL_LLM_BASE_URL: ' ', VIGIL_LLM_MODEL: 'llama3.1' }), null);
  assert.deepEqual(
    readLlmConfig({
      VIGIL_LLM_BASE_URL: 'https://api.example.com/v1/',
      VIGIL_LLM_MODEL: 'gpt-4o-mini',
      VIGIL_LLM_API_KEY: 'sk-1',
      VIGIL_LLM_TIMEOUT_MS: '5000',
    }),
    {
      baseUrl: 'https://api.example.com/v1',
      model: 'gpt-4o-mini',
      apiKey: 'sk-1',
      timeoutMs: 5000,
    },
  );
  assert.throws(() => readLlmConfig({ VIGIL_LLM_BASE_URL: 'not a url', VIGIL_LLM_MODEL: 'm' }), /VIGIL_LLM_BASE_URL/);
  assert.throws(() => readLlmConfig({ VIGIL_LLM_BASE_URL: 'ftp://x/v1', VIGIL_LLM_MODEL: 'm' }), /http/);
  assert.throws(() => readLlmConfig({ VIGIL_LLM_BASE_URL: 'http://x/v1', VIGIL_LLM_MODEL: 'm', VIGIL_LLM_TIMEOUT_MS: 'soon' }), /VIGIL_LLM_TIMEOUT_MS/);
});
