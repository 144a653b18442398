/**
 * The arm / disarm tool's words and its LLM door (src/home/agent/tools/arm-house.ts): the offline
 * planner's readings of "arm the house", "disarm", "I'm home, disarm", and a model's arm_house call
 * read into the same plan. The route test is tests/household/arm-house.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildChatRequest, buildSystemPrompt, readPlanFromCompletion } from '../../src/home/agent/llm-planner.ts';
import { planOffline } from '../../src/home/agent/offline-planner.ts';
import { runPlan } from '../../src/home/agent/plan-executor.ts';
import { loadContexts } from './corpus-cases.ts';
import { HouseholdSimulator } from './household-simulator.ts';

const contexts = loadContexts();
const home = contexts.lisbon;
const calls = (message: string, ctx = home) => planOffline(message, ctx).calls.map((c) => `${c.tool}:${JSON.stringify(c.args)}`);

test('"arm the house", "arm everything", "please arm the whole house" arm; nothing else is called', () => {
  for (const message of ['arm the house', 'arm everything', 'please arm the whole house', 'Arm the house.', 'can you arm the place?']) {
    assert.deepEqual(calls(message), ['arm_house:{"arm":true}'], message);
  }
});

test('"disarm" and "I\'m home, disarm" disarm an armed house; with nothing armed they say so, with no call', async () => {
  const sim = new HouseholdSimulator(home);
  const armed = await runPlan(planOffline('arm the house', sim.ctx), sim);
  assert.deepEqual(
    armed.actions.map((a) => a.type),
    ['house.armed'],
  );
  sim.recordTurn('arm the house', armed.actions);
  for (const message of ['disarm', "I'm home, disarm", 'we are back, disarm everything', 'disarm the house please']) {
    assert.deepEqual(calls(message, sim.ctx), ['arm_house:{"arm":false}'], message);
  }
  const disarmed = await runPlan(planOffline("I'm home, disarm", sim.ctx), sim);
  assert.deepEqual(
    disarmed.actions.map((a) => a.type),
    ['house.disarmed'],
  );
  const again = planOffline('disarm', sim.ctx);
  assert.deepEqual(again.calls, []);
  assert.match(again.answers?.join(' ') ?? '', /isn't armed/);
});

test('a question never arms; "arm" with words it does not follow asks; "arm the alarm system" is still refused', () => {
  for (const message of ['is the house armed?', 'should I arm the house?', 'are we armed?']) assert.deepEqual(calls(message), [], message);
  for (const message of ['arm the garage', 'arm the house at 10pm', 'arm the house every night']) {
    const plan = planOffline(message, home);
    assert.deepEqual(plan.calls, [], message);
    assert.match(plan.clarification ?? '', /only the whole house/, message);
  }
  const alarm = planOffline('arm the alarm system', home);
  assert.deepEqual(alarm.calls, []);
  assert.equal(alarm.refusals.length, 1);
});

test("the LLM planner is offered arm_house with its rule, and reads a model's arm_house call", () => {
  const request = buildChatRequest('arm the house', home, 'test-model');
  const tool = request.tools.find((x) => x.function.name === 'arm_house');
  assert.ok(tool, 'arm_house is offered');
  assert.match(tool.function.description, /until disarmed/);
  assert.match(buildSystemPrompt(home), /\n12\. "Arm the house"/);
  const body = {
    choices: [{ message: { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'arm_house', arguments: '{"arm":true}' } }] } }],
  };
  const plan = readPlanFromCompletion(body, home);
  assert.deepEqual(
    plan.calls.map((c) => [c.tool, c.args]),
    [['arm_house', { arm: true }]],
  );
  // arguments the schema refuses are dropped like any tool's
  const bad = {
    choices: [{ message: { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'arm_house', arguments: '{"arm":"yes"}' } }] } }],
  };
  assert.throws(() => readPlanFromCompletion(bad, home), /invalid/);
});
