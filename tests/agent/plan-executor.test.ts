import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentToolError, runPlan, type ToolResult } from '../../src/home/agent/plan-executor.ts';
import type { Plan } from '../../src/home/agent/plan.ts';
import type { ToolName } from '../../src/home/agent/tools.ts';

const watchArgs = (subject: string, sensor: string) => ({
  subject,
  sensor_ids: [sensor],
  starts_at: '2026-11-21T17:21:00.000Z',
  ends_at: '2026-11-22T07:27:00.000Z',
  recurrence: 'none',
  window: 'sunset to sunrise',
});

function createRunner(handlers: Partial<Record<ToolName, (args: Record<string, unknown>) => ToolResult>>) {
  const calls: { tool: ToolName; args: Record<string, unknown> }[] = [];
  return {
    calls,
    async call(tool: ToolName, args: Record<string, unknown>): Promise<ToolResult> {
      calls.push({ tool, args });
      const h = handlers[tool];
      if (!h) throw new Error(`no handler for ${tool}`);
      return h(args);
    },
  };
}

test('runs every call in order and streams each action before the words about it', async () => {
  const plan: Plan = {
    planner: 'offline',
    refusals: [],
    calls: [
      { tool: 'create_watch', args: watchArgs('garage', 'sen_garage'), subject: 'garage', say: "I'm watching the garage tonight." },
      { tool: 'mute_sensor', args: { sensor_id: 'sen_nursery' }, subject: 'nursery camera', say: "I've muted the nursery camera." },
    ],
  };
  const runner = createRunner({
    create_watch: () => ({ action: { id: 'wat_1', window: 'sunset to sunrise' } }),
    mute_sensor: (a) => ({ action: { id: a.sensor_id as string } }),
  });
  const events: string[] = [];
  let streamed = '';
  const result = await runPlan(plan, runner, {
    onAction: (a) => {
      events.push(`action:${a.type}`);
    },
    onText: (d) => {
      events.push('text');
      streamed += d;
    },
  });
  assert.deepEqual(
    runner.calls.map((c) => c.tool),
    ['create_watch', 'mute_sensor'],
  );
  assert.deepEqual(
    result.actions.map((a) => [a.type, a.id, a.subject]),
    [
      ['watch.created', 'wat_1', 'garage'],
      ['sensor.muted', 'sen_nursery', 'nursery camera'],
    ],
  );
  // the first action comes before any text, the second before the text about it
  assert.equal(events[0], 'action:watch.created');
  const second = events.indexOf('action:sensor.muted');
  assert.ok(second > 1 && events.slice(1, second).every((e) => e === 'text'));
  assert.ok(events.slice(second + 1).length > 0 && events.slice(second + 1).every((e) => e === 'text'));
  assert.equal(streamed, result.reply);
  assert.equal(result.reply, "I'm watching the garage tonight. I've muted the nursery camera.");
});

test('a typed tool error becomes part of the reply and later calls still run', async () => {
  const plan: Plan = {
    planner: 'offline',
    refusals: ['There is no pool in your home.'],
    calls: [
      { tool: 'describe_scene', args: { room: 'nursery' }, subject: 'nursery' },
      { tool: 'list_watches', args: {} },
    ],
  };
  const runner = createRunner({
    describe_scene: () => {
      throw new AgentToolError('boundary', 'you asked me to leave the nursery alone.');
    },
    list_watches: () => ({ text: "I'm watching the garage." }),
  });
  const result = await runPlan(plan, runner);
  assert.deepEqual(
    result.actions.map((a) => a.type),
    ['watches.listed'],
  );
  assert.deepEqual(
    result.errors.map((e) => [e.tool, e.code]),
    [['describe_scene', 'boundary']],
  );
  assert.match(result.reply, /couldn't describe scene for the nursery: you asked me to leave the nursery alone\./);
  assert.match(result.reply, /I'm watching the garage\./);
  assert.match(result.reply, /There is no pool in your home\.$/);
});

test('an unexpected runner failure is reported without internals and does not throw', async () => {
  const plan: Plan = { planner: 'offline', refusals: [], calls: [{ tool: 'mute_sensor', args: { sensor_id: 's1' }, subject: 'porch camera' }] };
  const runner = createRunner({
    mute_sensor: () => {
      throw new Error('SQLITE_BUSY: database is locked');
    },
  });
  const result = await runPlan(plan, runner);
  assert.equal(result.actions.length, 0);
  assert.equal(result.errors[0].code, 'internal');
  assert.doesNotMatch(result.reply, /SQLITE/);
  assert.match(result.reply, /Something went wrong while running mute sensor for the porch camera/);
});

test('arguments that fail the tool schema are never sent to the runner', async () => {
  const plan: Plan = {
    planner: 'llm',
    refusals: [],
    calls: [{ tool: 'create_watch', args: { ...watchArgs('garage', 'sen_garage'), ends_at: 'tomorrow-ish' } }],
  };
  const runner = createRunner({ create_watch: () => ({ action: { id: 'wat_1' } }) });
  const result = await runPlan(plan, runner);
  assert.equal(runner.calls.length, 0);
  assert.equal(result.errors[0].code, 'invalid');
  assert.match(result.reply, /ends_at/);
});

test('a later call can use the id an earlier call returned, and is skipped when that call failed', async () => {
  const plan: Plan = {
    planner: 'offline',
    refusals: [],
    calls: [
      { tool: 'add_sensor', args: { name: 'shed camera', kind: 'camera', room: 'shed', source_url: 'rtsp://10.0.0.8/live' }, subject: 'shed camera' },
      { tool: 'create_watch', args: watchArgs('shed camera', '$ref:0'), subject: 'shed camera' },
    ],
  };
  const ok = createRunner({ add_sensor: () => ({ action: { id: 'sen_77' } }), create_watch: () => ({ action: { id: 'wat_9' } }) });
  await runPlan(plan, ok);
  assert.deepEqual(ok.calls[1].args.sensor_ids, ['sen_77']);

  const failing = createRunner({
    add_sensor: () => {
      throw new AgentToolError('invalid', 'that address does not answer.');
    },
  });
  const result = await runPlan(plan, failing);
  assert.equal(failing.calls.length, 1);
  assert.equal(result.actions.length, 0);
  assert.match(result.reply, /didn't create watch for the shed camera because the step before it failed/);
});

test('a clarification takes no action and is the whole reply', async () => {
  const plan: Plan = { planner: 'offline', refusals: [], calls: [], clarification: 'Which camera do you mean: driveway camera, backyard camera?' };
  const runner = createRunner({});
  const deltas: string[] = [];
  const result = await runPlan(plan, runner, {
    onText: (d) => {
      deltas.push(d);
    },
  });
  assert.equal(runner.calls.length, 0);
  assert.equal(result.reply, plan.clarification);
  assert.equal(deltas.join(''), plan.clarification);
  assert.ok(deltas.length > 3, 'streamed word by word');
});

test('a step the key may not take (a member lifting a boundary) is refused in plain words', async () => {
  const plan: Plan = { planner: 'offline', refusals: [], calls: [{ tool: 'clear_boundary', args: { room: 'nursery' }, subject: 'nursery' }] };
  const runner = createRunner({
    clear_boundary: () => {
      throw new AgentToolError('forbidden', 'this key is a member key');
    },
  });
  const result = await runPlan(plan, runner);
  assert.deepEqual(result.actions, []);
  assert.equal(result.reply, 'Only an owner of the household can lift that.');
});

test('answers and notes are said even when no tool runs', async () => {
  const plan: Plan = { planner: 'offline', refusals: [], calls: [], answers: ['Yes, the nursery camera is muted.'], notes: ["I'll leave the driveway out."] };
  const result = await runPlan(plan, createRunner({}));
  assert.equal(result.reply, "Yes, the nursery camera is muted. I'll leave the driveway out.");
});
