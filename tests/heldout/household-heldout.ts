/**
 * Scores the household agent on held-out requests written blind:
 * by someone who had not read src/agent, before any tuning against them. Each turn is planned,
 * run against the simulated household and scored as
 *   correct – what was expected (or a clarifying question where the case accepts one),
 *   asked   – a clarifying question where an action or answer was expected, nothing changed,
 *   missed  – nothing wrong done, but not what was asked (a refusal, a partial plan, a reply
 *             lacking what it must say),
 *   wrong   – a state change not asked for, on the wrong place or time, or a question turned
 *             into a change.
 * A case takes the worst score of its turns. The cases live in tests/heldout/*.json and are never
 * edited to match output. A context's sensor may carry `status` ('offline', …) and `last_frame_at`: the simulated
 * describe_scene then answers with the last reading, as the service does (tests/agent/household-simulator.ts).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { planOffline } from '../../src/home/agent/offline-planner.ts';
import { runPlan } from '../../src/home/agent/plan-executor.ts';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import type { ToolName } from '../../src/home/agent/tools.ts';
import { fromWallClock } from '../../src/platform/time/zoned-time.ts';
import { HouseholdSimulator } from '../agent/household-simulator.ts';

export type Score = 'correct' | 'asked' | 'missed' | 'wrong';
const SEVERITY: Score[] = ['correct', 'asked', 'missed', 'wrong'];

/** Tools that change the household; everything else only reads. */
export const STATE_TOOLS: ReadonlySet<string> = new Set<ToolName>([
  'create_watch',
  'update_watch',
  'stand_down_watch',
  'mute_sensor',
  'unmute_sensor',
  'set_boundary',
  'clear_boundary',
  'add_sensor',
  'add_sensor_by_topic',
  'set_household',
  'set_notification_routing',
  'arm_house',
]);

interface ExpectedCall {
  tool: string;
  args?: Record<string, unknown>;
}
interface Expect {
  outcome: 'act' | 'ask' | 'answer' | 'decline';
  calls?: ExpectedCall[];
  accept_ask?: boolean;
  reply_any?: string[];
}
interface Turn {
  message: string;
  expect: Expect;
}
export interface HeldoutCase {
  id: string;
  context: string;
  category: string;
  turns: Turn[];
}

export interface TurnResult {
  message: string;
  score: Score;
  why: string;
}
export interface CaseResult {
  id: string;
  category: string;
  score: Score;
  turns: TurnResult[];
}

const here = import.meta.dirname;
const corpusContexts = join(here, '..', 'agent', 'corpus', 'contexts.json');

type RawContext = Record<string, unknown> & { extends?: string; mutedSensors?: string[]; now?: string | number };

/** The corpus households plus the held-out set's own, with `extends` resolved. */
export function loadHeldoutContexts(extraFile: string): Record<string, HouseholdContext> {
  const raw: Record<string, RawContext> = {
    ...JSON.parse(readFileSync(corpusContexts, 'utf8')),
    ...JSON.parse(readFileSync(extraFile, 'utf8')),
  };
  const resolve = (name: string): RawContext => {
    const r = raw[name];
    if (!r) throw new Error(`unknown context ${name}`);
    return r.extends ? { ...resolve(r.extends), ...r, extends: undefined } : r;
  };
  const out: Record<string, HouseholdContext> = {};
  for (const name of Object.keys(raw)) {
    const r = structuredClone(resolve(name)) as RawContext & Omit<HouseholdContext, 'now' | 'conversation'>;
    const muted = new Set(r.mutedSensors ?? []);
    out[name] = {
      now: typeof r.now === 'number' ? r.now : Date.parse(String(r.now)),
      timeZone: r.timeZone,
      location: r.location ?? null,
      rooms: r.rooms,
      sensors: r.sensors.map((s) => ({ ...s, muted: Boolean(s.muted) || muted.has(s.id) })),
      boundaries: r.boundaries ?? [],
      watches: r.watches ?? [],
      conversation: { turns: [] },
    };
  }
  return out;
}

const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

function localToEpoch(local: string, timeZone: string): number {
  const [d, t] = local.split('T');
  const [year, month, day] = d.split('-').map(Number);
  const [hour, minute] = t.split(':').map(Number);
  return fromWallClock({ year, month, day, hour, minute }, timeZone);
}

/** Why an actual argument differs from the expected one, or undefined when it matches. */
function argDiff(key: string, want: unknown, got: unknown, timeZone: string): string | undefined {
  if (typeof want === 'string' && LOCAL_TIME.test(want)) {
    if (typeof got !== 'string') return `${key}: expected ${want}, got ${String(got)}`;
    const diff = Math.abs(Date.parse(got) - localToEpoch(want, timeZone));
    return diff <= 60_000 ? undefined : `${key}: expected ${want}, got ${new Date(got).toLocaleString('sv-SE', { timeZone }).slice(0, 16)}`;
  }
  if (Array.isArray(want)) {
    const g = Array.isArray(got) ? [...got].map(String).sort().join(',') : JSON.stringify(got);
    const w = [...want].map(String).sort().join(',');
    return g === w ? undefined : `${key}: expected [${w}], got [${g}]`;
  }
  if (typeof want === 'string') {
    if (typeof got !== 'string') return `${key}: expected "${want}", got ${JSON.stringify(got)}`;
    const ok =
      key === 'subject'
        ? got.toLowerCase().includes(want.toLowerCase()) || want.toLowerCase().includes(got.toLowerCase())
        : got.toLowerCase() === want.toLowerCase();
    return ok ? undefined : `${key}: expected "${want}", got "${got}"`;
  }
  if (want && typeof want === 'object') {
    for (const [k, v] of Object.entries(want)) {
      const d = argDiff(`${key}.${k}`, v, (got as Record<string, unknown> | undefined)?.[k], timeZone);
      if (d) return d;
    }
    return undefined;
  }
  return want === got ? undefined : `${key}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;
}

function callDiff(want: ExpectedCall, got: { tool: string; args: Record<string, unknown> }, timeZone: string): string | undefined {
  if (want.tool !== got.tool) return `expected ${want.tool}, got ${got.tool}`;
  for (const [k, v] of Object.entries(want.args ?? {})) {
    const d = argDiff(k, v, got.args[k], timeZone);
    if (d) return `${got.tool} ${d}`;
  }
  return undefined;
}

function replyLacks(reply: string, words: string[] | undefined): string | undefined {
  if (!words?.length) return undefined;
  const r = reply.toLowerCase();
  return words.some((w) => r.includes(w.toLowerCase())) ? undefined : `reply lacks any of ${JSON.stringify(words)}: "${reply}"`;
}

/** The arguments of a create_watch that say when and how it watches (not which sensors, nor its label). */
const WATCH_SHAPE_KEYS = new Set(['sensor_ids', 'subject', 'window']);
function watchShape(args: Record<string, unknown> | undefined): string {
  return JSON.stringify(Object.entries(args ?? {}).filter(([k]) => !WATCH_SHAPE_KEYS.has(k)));
}

/**
 * "watch the driveway and the carport from 3 to 6" is one watch of both places or one watch per
 * place: the household is watched the same either way, and the blind sets' writers chose
 * differently (one watch per place in rounds J and K, one for all in earlier rounds). Neighbouring
 * create_watch calls that watch the same way are judged as one, covering every sensor they name.
 */
function mergeSameWatches<C extends { tool: string; args?: Record<string, unknown> }>(calls: readonly C[]): C[] {
  const out: C[] = [];
  for (const c of calls) {
    const last = out.at(-1);
    const ids = c.args?.sensor_ids;
    const lastIds = last?.args?.sensor_ids;
    if (
      last &&
      c.tool === 'create_watch' &&
      last.tool === 'create_watch' &&
      Array.isArray(ids) &&
      Array.isArray(lastIds) &&
      watchShape(c.args) === watchShape(last.args)
    ) {
      const args: Record<string, unknown> = { ...last.args, sensor_ids: [...new Set([...lastIds, ...ids])] };
      delete args.subject;
      out[out.length - 1] = { ...last, args };
    } else out.push(c);
  }
  return out;
}

function scoreTurn(
  expect: Expect,
  made: { tool: string; args: Record<string, unknown> }[],
  asked: boolean,
  reply: string,
  timeZone: string,
): { score: Score; why: string } {
  const summary = made.map((c) => c.tool).join(', ') || 'no change';
  if (expect.outcome === 'act') {
    const want = mergeSameWatches(expect.calls ?? []);
    const changes = mergeSameWatches(made);
    if (changes.length === 0) {
      if (asked) return { score: expect.accept_ask ? 'correct' : 'asked', why: `asked: ${reply}` };
      return { score: 'missed', why: `no action: ${reply}` };
    }
    // every change must be one that was asked for, in order (a subsequence of the expected calls)
    let j = 0;
    for (const c of changes) {
      let matched = false;
      let firstDiff: string | undefined;
      while (j < want.length) {
        const d = callDiff(want[j++], c, timeZone);
        if (!d) {
          matched = true;
          break;
        }
        firstDiff ??= d;
      }
      if (!matched) return { score: 'wrong', why: firstDiff ?? `unexpected ${c.tool} ${JSON.stringify(c.args)}` };
    }
    if (changes.length < want.length) return { score: 'missed', why: `only ${summary} of ${want.map((c) => c.tool).join(', ')}` };
    return { score: 'correct', why: summary };
  }
  if (made.length > 0) return { score: 'wrong', why: `changed state (${summary}) where ${expect.outcome} was expected` };
  if (expect.outcome === 'ask') return asked ? { score: 'correct', why: reply } : { score: 'missed', why: `did not ask: ${reply}` };
  if (expect.outcome === 'answer' && asked) return { score: 'asked', why: reply };
  const lacks = replyLacks(reply, expect.reply_any);
  if (lacks) return { score: 'missed', why: lacks };
  if (!reply.trim()) return { score: 'missed', why: 'empty reply' };
  return { score: 'correct', why: reply };
}

export function loadHeldoutCases(file: string): HeldoutCase[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { cases: HeldoutCase[] }).cases;
}

export async function scoreHousehold(cases: HeldoutCase[], contexts: Record<string, HouseholdContext>): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const c of cases) {
    const ctx = contexts[c.context];
    if (!ctx) throw new Error(`case ${c.id}: unknown context ${c.context}`);
    const household = new HouseholdSimulator(ctx);
    const turns: TurnResult[] = [];
    for (const turn of c.turns) {
      const before = household.calls.length;
      const plan = planOffline(turn.message, household.ctx);
      const run = await runPlan(plan, household);
      const changes = household.calls.slice(before).filter((x) => STATE_TOOLS.has(x.tool));
      const asked = Boolean(plan.clarification);
      const { score, why } = scoreTurn(turn.expect, changes, asked, run.reply, household.ctx.timeZone);
      turns.push({ message: turn.message, score, why });
      household.recordTurn(turn.message, run.actions);
    }
    const score = turns.reduce<Score>((w, t) => (SEVERITY.indexOf(t.score) > SEVERITY.indexOf(w) ? t.score : w), 'correct');
    results.push({ id: c.id, category: c.category, score, turns });
  }
  return results;
}

/** Counts per score, overall and per category, as printed in the suite and quoted in notes. */
export function summarise(results: { category: string; score: Score }[]): { total: Record<Score, number>; byCategory: Record<string, Record<Score, number>> } {
  const empty = (): Record<Score, number> => ({ correct: 0, asked: 0, missed: 0, wrong: 0 });
  const total = empty();
  const byCategory: Record<string, Record<Score, number>> = {};
  for (const r of results) {
    total[r.score]++;
    (byCategory[r.category] ??= empty())[r.score]++;
  }
  return { total, byCategory };
}

export function formatSummary(name: string, results: { id: string; category: string; score: Score; turns?: TurnResult[]; why?: string }[]): string {
  const { total, byCategory } = summarise(results);
  const n = results.length;
  const pct = (x: number) => `${((x / n) * 100).toFixed(1)}%`;
  const lines = [`${name}: ${n} cases — correct ${total.correct} (${pct(total.correct)}), asked ${total.asked}, missed ${total.missed}, wrong ${total.wrong}`];
  for (const [cat, s] of Object.entries(byCategory).sort()) {
    lines.push(`  ${cat.padEnd(14)} correct ${s.correct}, asked ${s.asked}, missed ${s.missed}, wrong ${s.wrong}`);
  }
  for (const r of results.filter((x) => x.score !== 'correct')) {
    const detail = r.turns
      ? r.turns
          .filter((t) => t.score !== 'correct')
          .map((t) => `"${t.message}" → ${t.why}`)
          .join(' | ')
      : r.why;
    lines.push(`  ${r.score.toUpperCase()} ${r.id} [${r.category}] ${detail}`);
  }
  return lines.join('\n');
}

/** What a round's gate holds it to: the set's size, at least `minCorrect` correct and at most `maxWrong` wrong (0 unless said). */
export interface Gate {
  size: number;
  minCorrect: number;
  maxWrong?: number;
}

/**
 * A blind round's household gate (tests/heldout/round-<x>.test.ts): scores round-<x>-household.json in its
 * contexts, prints the summary and asserts the gate. `adjust` may rescore disputed cases under the product's
 * convention; the file itself is never edited.
 */
export async function gateHousehold(
  round: string,
  gate: Gate,
  adjust?: (cases: HeldoutCase[], contexts: Record<string, HouseholdContext>) => HeldoutCase[],
): Promise<CaseResult[]> {
  const prefix = join(import.meta.dirname, `round-${round.toLowerCase()}-household`);
  const contexts = loadHeldoutContexts(`${prefix}-contexts.json`);
  const cases = loadHeldoutCases(`${prefix}.json`);
  assert.equal(cases.length, gate.size);
  const results = await scoreHousehold(adjust ? adjust(cases, contexts) : cases, contexts);
  console.log(formatSummary(`round ${round} household`, results));
  assertGate(summarise(results).total, results.length, gate, 'wrong actions');
  return results;
}

/** Asserts a gate on a scored set's totals. */
export function assertGate(total: Record<Score, number>, size: number, gate: Gate, wrongIs: string): void {
  assert.ok(total.wrong <= (gate.maxWrong ?? 0), `${total.wrong} ${wrongIs}`);
  assert.ok(total.correct >= gate.minCorrect, `correct ${total.correct}/${size}`);
}
