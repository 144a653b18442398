/**
 * Loads the agent's quality corpus (tests/agent/corpus/*.json) and judges a plan against a
 * case's expectation: the same calls in the same order with the expected key arguments, times
 * as local wall-clock minutes in the household's zone, and the expected refusals/questions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import type { Plan } from '../../src/home/agent/plan.ts';
import { fromWallClock } from '../../src/platform/time/zoned-time.ts';

export interface Expectation {
  calls: { tool: string; args: Record<string, unknown> }[];
  refusals?: number;
  clarify?: boolean;
  foreign?: boolean;
  replyIncludes?: string[];
}

export interface CorpusTurn {
  message: string;
  expect: Expectation;
}

export interface CorpusCase {
  id: string;
  file: string;
  context: string;
  turns: CorpusTurn[];
}

const corpusDir = join(import.meta.dirname, 'corpus');

type RawContext = Omit<HouseholdContext, 'now' | 'conversation'> & { now: string; extends?: string; mutedSensors?: string[] };

export function loadContexts(): Record<string, HouseholdContext> {
  const raw = JSON.parse(readFileSync(join(corpusDir, 'contexts.json'), 'utf8')) as Record<string, Partial<RawContext>>;
  const out: Record<string, HouseholdContext> = {};
  const build = (name: string): HouseholdContext => {
    const r = raw[name];
    const base = r.extends ? structuredClone(build(r.extends)) : undefined;
    const merged = { ...base, ...r } as RawContext & { now: string | number };
    const ctx: HouseholdContext = {
      now: typeof merged.now === 'number' ? merged.now : Date.parse(merged.now),
      timeZone: merged.timeZone,
      location: merged.location,
      rooms: structuredClone(merged.rooms),
      sensors: structuredClone(merged.sensors).map((s) => ({ ...s, muted: s.muted || (r.mutedSensors ?? []).includes(s.id) })),
      boundaries: structuredClone(merged.boundaries ?? []),
      watches: structuredClone(merged.watches ?? []),
      conversation: { turns: [] },
    };
    return ctx;
  };
  for (const name of Object.keys(raw)) out[name] = build(name);
  return out;
}

export function loadCases(): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const file of readdirSync(corpusDir)
    .filter((f) => f.endsWith('.json') && f !== 'contexts.json')
    .sort()) {
    const data = JSON.parse(readFileSync(join(corpusDir, file), 'utf8')) as {
      cases: (Partial<CorpusTurn> & { id: string; context: string; turns?: CorpusTurn[] })[];
    };
    for (const c of data.cases) {
      cases.push({ id: c.id, file, context: c.context, turns: c.turns ?? [{ message: c.message!, expect: c.expect! }] });
    }
  }
  return cases;
}

const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

function matchValue(key: string, expected: unknown, actual: unknown, ctx: HouseholdContext): string | undefined {
  if (typeof expected === 'string' && LOCAL_TIME.test(expected)) {
    if (typeof actual !== 'string') return `${key}: expected ${expected}, got ${String(actual)}`;
    const [d, t] = expected.split('T');
    const [year, month, day] = d.split('-').map(Number);
    const [hour, minute] = t.split(':').map(Number);
    const want = fromWallClock({ year, month, day, hour, minute }, ctx.timeZone);
    const got = Date.parse(actual);
    if (Math.abs(got - want) > 60_000) {
      return `${key}: expected ${expected}, got ${new Date(got).toLocaleString('sv-SE', { timeZone: ctx.timeZone }).slice(0, 16)}`;
    }
    return undefined;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${key}: expected [${expected.join(', ')}], got ${JSON.stringify(actual)}`;
    const a = [...actual].map(String).sort().join(',');
    const e = [...expected].map(String).sort().join(',');
    return a === e ? undefined : `${key}: expected [${e}], got [${a}]`;
  }
  if (typeof expected === 'number') {
    return typeof actual === 'number' && Math.abs(actual - expected) <= 0.1 ? undefined : `${key}: expected ${expected}, got ${String(actual)}`;
  }
  if (typeof expected === 'string') {
    if (typeof actual !== 'string') return `${key}: expected "${expected}", got ${JSON.stringify(actual)}`;
    if (key === 'subject') return actual.toLowerCase().includes(expected.toLowerCase()) ? undefined : `subject: expected "${expected}", got "${actual}"`;
    return actual.toLowerCase() === expected.toLowerCase() ? undefined : `${key}: expected "${expected}", got "${actual}"`;
  }
  if (expected && typeof expected === 'object') {
    for (const [k, v] of Object.entries(expected)) {
      const m = matchValue(`${key}.${k}`, v, (actual as Record<string, unknown> | undefined)?.[k], ctx);
      if (m) return m;
    }
    return undefined;
  }
  return expected === actual ? undefined : `${key}: expected ${String(expected)}, got ${String(actual)}`;
}

/** Differences between a plan (and its reply) and the expectation; empty when exactly right. */
export function judgePlan(plan: Plan, reply: string, expect: Expectation, ctx: HouseholdContext): string[] {
  const problems: string[] = [];
  const got = plan.calls.map((c) => c.tool).join(', ') || 'none';
  const want = expect.calls.map((c) => c.tool).join(', ') || 'none';
  if (got !== want) problems.push(`calls: expected [${want}], got [${got}]`);
  else {
    expect.calls.forEach((c, i) => {
      for (const [k, v] of Object.entries(c.args)) {
        const m = matchValue(k, v, plan.calls[i].args[k], ctx);
        if (m) problems.push(`call ${i + 1} ${c.tool} ${m}`);
      }
    });
  }
  if (expect.foreign) {
    if (!plan.language || plan.language === 'en') problems.push('expected the message to be recognised as another language');
  } else {
    if (plan.language) problems.push(`message taken for another language (${plan.language})`);
    if (Boolean(expect.clarify) !== Boolean(plan.clarification)) {
      problems.push(expect.clarify ? 'expected a clarifying question' : `unexpected clarifying question: ${plan.clarification}`);
    }
    if (!expect.clarify && plan.refusals.length !== (expect.refusals ?? 0)) {
      problems.push(`refusals: expected ${expect.refusals ?? 0}, got ${plan.refusals.length} ${JSON.stringify(plan.refusals)}`);
    }
  }
  for (const s of expect.replyIncludes ?? []) {
    if (!reply.toLowerCase().includes(s.toLowerCase())) problems.push(`reply lacks "${s}": ${reply}`);
  }
  return problems;
}
