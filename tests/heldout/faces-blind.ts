/**
 * Scores the second, independent set of face-recognition cases: 30 scene questions
 * and 20 household requests written by a separate session that read no Vigil code or tests, only
 * the format of two earlier held-out files (faces-blind-scene.json, faces-blind-household.json,
 * committed exactly as written). Scene questions go through the real route; household requests
 * through the offline planner against the Lisbon household with the writers' three people.
 */
import { readFileSync } from 'node:fs';
import { planOffline } from '../../src/home/agent/offline-planner.ts';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { HouseholdSimulator } from '../agent/household-simulator.ts';
import { localToEpoch, scoreSceneCases, type FaceResult, type Scenario, type SceneExpect } from './faces-heldout.ts';
import type { Score } from './household-heldout.ts';

interface WatchExpect {
  sensor_ids: string[];
  who: string;
  starts_at?: string;
  ends_at?: string;
}
interface HouseholdExpect {
  outcome: 'act' | 'ask';
  watch?: WatchExpect;
  accept_ask?: boolean;
}
interface HouseholdCase {
  id: string;
  context: string;
  category?: string;
  accept_ask?: boolean;
  turns: Array<{ message: string; expect: HouseholdExpect }>;
}
interface Person {
  id: string;
  name: string;
  role?: string;
}

export async function scoreBlindScenes(file: string): Promise<FaceResult[]> {
  const data = JSON.parse(readFileSync(file, 'utf8')) as {
    scenarios: Record<string, Scenario>;
    cases: Array<{ id: string; scenario: string; category?: string; query: string; expect: SceneExpect }>;
  };
  const cases = data.cases.map((c) => ({ ...c, category: c.category ?? 'scene' }));
  return (await scoreSceneCases(data.scenarios, cases)).sort((a, b) => a.id.localeCompare(b.id));
}

function judge(
  expect: HouseholdExpect,
  acceptAsk: boolean,
  plan: ReturnType<typeof planOffline>,
  people: Person[],
  timeZone: string,
): { score: Score; why: string } {
  const calls = (plan.calls ?? []) as Array<{ tool: string; args: Record<string, any> }>;
  const watches = calls.filter((x) => x.tool === 'create_watch');
  const changes = calls.filter((x) => !x.tool.startsWith('list_') && !x.tool.startsWith('get_'));
  const asked = Boolean(plan.clarification);
  const summary = calls.map((x) => `${x.tool} ${JSON.stringify(x.args)}`).join('; ') || (plan.clarification ?? 'nothing');
  if (expect.outcome === 'ask') {
    if (changes.length) return { score: 'wrong', why: `acted instead of asking: ${summary}` };
    return asked ? { score: 'correct', why: summary } : { score: 'missed', why: `did not ask: ${summary}` };
  }
  if (!watches.length) {
    if (asked && acceptAsk) return { score: 'correct', why: `asked (accepted): ${summary}` };
    return { score: asked ? 'asked' : 'missed', why: summary };
  }
  if (watches.length > 1 || changes.length > 1) return { score: 'wrong', why: `more than one change: ${summary}` };
  const want = expect.watch!;
  const args = watches[0].args;
  const got = [...(args.sensor_ids ?? [])].sort().join();
  if (got !== [...want.sensor_ids].sort().join()) return { score: 'wrong', why: `sensors (want ${want.sensor_ids.join()}): ${summary}` };
  const conditions: string[] = args.conditions ?? [];
  if (want.who === 'unrecognized') {
    if (!conditions.includes('unrecognized_person')) return { score: 'wrong', why: `condition: ${summary}` };
  } else {
    const person = people.find((p) => p.id === want.who);
    if (!person || !conditions.includes('recognized_person') || !(args.person_ids ?? []).includes(person.id))
      return { score: 'wrong', why: `person ${want.who}: ${summary}` };
  }
  for (const key of ['starts_at', 'ends_at'] as const) {
    const w = want[key];
    if (!w) continue;
    if (typeof args[key] !== 'string' || Math.abs(Date.parse(args[key]) - localToEpoch(w, timeZone)) > 60_000)
      return { score: 'wrong', why: `${key} (want ${w}): ${summary}` };
  }
  return { score: 'correct', why: summary };
}

export function scoreBlindHousehold(file: string, contexts: Record<string, HouseholdContext>, base = 'lisbon'): FaceResult[] {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { contexts: Record<string, { people: Person[]; now: string }>; cases: HouseholdCase[] };
  return data.cases.map((c) => {
    const written = data.contexts[c.context];
    const ctx = {
      ...structuredClone(contexts[base]),
      now: Date.parse(written.now),
      people: written.people.map((p) => ({ id: p.id, name: p.name, ...(p.role ? { note: p.role } : {}) })),
    } as HouseholdContext;
    const household = new HouseholdSimulator(ctx);
    const turn = c.turns[0];
    const plan = planOffline(turn.message, household.ctx);
    const acceptAsk = Boolean(turn.expect.accept_ask ?? c.accept_ask);
    const { score, why } = judge(turn.expect, acceptAsk, plan, written.people, ctx.timeZone);
    return { id: c.id, category: c.category ?? 'household', score, why: `"${turn.message}" → ${why}` };
  });
}
