/**
 * The offline planner's quality gate: every corpus case is planned, executed against
 * a simulated household, and judged; the share answered exactly right must be at least 95%.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planOffline } from '../../src/home/agent/offline-planner.ts';
import { runPlan } from '../../src/home/agent/plan-executor.ts';
import { judgePlan, loadCases, loadContexts } from './corpus-cases.ts';
import { HouseholdSimulator } from './household-simulator.ts';

const REQUIRED_SHARE = 0.95;

test('offline planner answers at least 95% of the corpus exactly right', async () => {
  const contexts = loadContexts();
  const cases = loadCases();
  assert.ok(cases.length >= 150, `corpus has ${cases.length} cases, needs at least 150`);
  const failures: string[] = [];
  let turns = 0;
  for (const c of cases) {
    const ctx = contexts[c.context];
    assert.ok(ctx, `case ${c.id}: unknown context ${c.context}`);
    const household = new HouseholdSimulator(ctx);
    const problems: string[] = [];
    for (const [i, turn] of c.turns.entries()) {
      turns++;
      const plan = planOffline(turn.message, household.ctx);
      const result = await runPlan(plan, household);
      const found = judgePlan(plan, result.reply, turn.expect, household.ctx);
      if (found.length) problems.push(`  turn ${i + 1} "${turn.message}":\n    ${found.join('\n    ')}`);
      household.recordTurn(turn.message, result.actions);
    }
    if (problems.length) failures.push(`${c.id} (${c.file}):\n${problems.join('\n')}`);
  }
  const right = cases.length - failures.length;
  const share = right / cases.length;
  console.log(`agent corpus: ${right}/${cases.length} cases (${turns} messages) exactly right = ${(share * 100).toFixed(1)}%`);
  if (failures.length) console.log(`not right:\n${failures.join('\n')}`);
  assert.ok(share >= REQUIRED_SHARE, `corpus score ${(share * 100).toFixed(1)}% is under ${REQUIRED_SHARE * 100}%`);
});

test('the planner answers every corpus message in every household without throwing', () => {
  const contexts = Object.values(loadContexts());
  const messages = loadCases().flatMap((c) => c.turns.map((t) => t.message));
  messages.push('', '   ', '?!', 'watch '.repeat(600), 'rtsp://10.0.0.1/x', '12:00', 'until until until', 'the the the');
  for (const ctx of contexts) {
    for (const message of messages) {
      const plan = planOffline(message, ctx);
      assert.ok(plan.calls.length > 0 || plan.refusals.length > 0 || plan.clarification, `no answer at all for "${message.slice(0, 40)}"`);
      if (plan.clarification) assert.equal(plan.calls.length, 0, 'a question takes no action');
    }
  }
});
