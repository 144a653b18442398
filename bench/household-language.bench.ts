/**
 * Interpretation and planning time of household requests as people write them (target: p95 ≤ 5 ms
 * per message): every turn of the blind household sets (tests/heldout/household.json and the round
 * A, B and C sets: long, multi-clause, quoted and follow-up messages, unlike the team's own corpus
 * in agent.bench.ts), each planned in the conversation state its earlier turns left. Wall and CPU
 * time per message, p50/p95/max over several rounds, each round reading every message cold.
 * The limit: the language libraries the planner calls, alone, on the same messages (compromise's
 * parse with roots and chrono-node's parse); the ratio is the planner's own share.
 * Writes bench/results/household-language.json.
 *   node --import tsx bench/household-language.bench.ts
 */
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { summarizeLatency } from './latency-summary.ts';
import { LIBRARIES_LIMIT, measureLibraries } from './language-libraries.ts';
import { figure, writeResult } from './machine.ts';
import { clearNormalizerCache } from '../src/platform/language/normalize.ts';
import { loadWordNet } from '../src/platform/language/lexicon/wordnet.ts';
import { planOffline } from '../src/home/agent/offline-planner.ts';
import { runPlan } from '../src/home/agent/plan-executor.ts';
import { loadHeldoutCases, loadHeldoutContexts } from '../tests/heldout/household-heldout.ts';
import { HouseholdSimulator } from '../tests/agent/household-simulator.ts';

const ROUNDS = 3;
const BUDGET_MS = 5;
const HELDOUT = join(import.meta.dirname, '..', 'tests', 'heldout');
const SETS: [cases: string, contexts: string][] = [
  ['household.json', 'household-contexts.json'],
  ['round-a-household.json', 'round-a-household-contexts.json'],
  ['round-b-household.json', 'round-b-household-contexts.json'],
  ['round-c-household.json', 'round-c-household-contexts.json'],
];

const lexiconLoadMs = loadWordNet();
const sets = SETS.map(([cases, ctx]) => ({ cases: loadHeldoutCases(join(HELDOUT, cases)), contexts: loadHeldoutContexts(join(HELDOUT, ctx)) }));
const samples: number[] = [];
const cpuSamples: number[] = [];
const messages: string[] = [];
let first = true;
for (let round = 0; round < ROUNDS; round++) {
  clearNormalizerCache();
  for (const { cases, contexts } of sets) {
    for (const c of cases) {
      const household = new HouseholdSimulator(structuredClone(contexts[c.context]));
      for (const turn of c.turns) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const plan = planOffline(turn.message, household.ctx);
        const ms = performance.now() - t0;
        const cpu = process.cpuUsage(c0);
        // the first plan of the process warms the libraries up; it is left out
        if (!first) {
          samples.push(ms);
          cpuSamples.push((cpu.user + cpu.system) / 1000);
        }
        first = false;
        if (round === 0) messages.push(turn.message);
        const result = await runPlan(plan, household);
        household.recordTurn(turn.message, result.actions);
      }
    }
  }
}

const { samples: libSamples, cpu: libCpu } = measureLibraries(messages, ROUNDS);
const plan = summarizeLatency(samples, cpuSamples, BUDGET_MS);
const libs = summarizeLatency(libSamples, libCpu, BUDGET_MS);
const LIMIT = LIBRARIES_LIMIT;
writeResult(
  'household-language',
  'household_language.plan_time_blind_sets',
  [
    figure(
      'household interpretation + plan per blind-set message, p95 (wall)',
      plan.p95_ms,
      'ms',
      'lower',
      { name: `${LIMIT}, p95 (wall)`, value: libs.p95_ms, unit: 'ms' },
      { value: BUDGET_MS },
    ),
    figure(
      'household interpretation + plan per blind-set message, CPU p95',
      plan.cpu_p95_ms,
      'ms',
      'lower',
      { name: `${LIMIT}, CPU p95`, value: libs.cpu_p95_ms, unit: 'ms' },
      { value: BUDGET_MS },
    ),
    figure('household interpretation + plan per blind-set message, p50 (wall)', plan.p50_ms, 'ms', 'lower', {
      name: `${LIMIT}, p50 (wall)`,
      value: libs.p50_ms,
      unit: 'ms',
    }),
  ],
  {
    messages: messages.length,
    rounds: ROUNDS,
    ...plan,
    lexicon_load_ms: Number(lexiconLoadMs.toFixed(1)),
    libraries_alone: { calls: libSamples.length, ...libs },
  },
);
