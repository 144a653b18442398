/**
 * Scores the face-recognition held-out phrasings (tests/heldout/faces-heldout.json, written blind
 * before the query and agent language code was read): scene questions through the real route over
 * their scenario's detections (people enrolled by name, recognized detections naming them), agent
 * requests through the offline planner against the simulated household with its people.
 * Scores as in scene-heldout.ts and household-heldout.ts: correct, asked, missed, wrong.
 */
import { readFileSync } from 'node:fs';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { fromWallClock } from '../../src/platform/time/zoned-time.ts';
import type { DetectionInput, DetectionType } from '../../src/platform/kinds/index.ts';
import { planOffline } from '../../src/home/agent/offline-planner.ts';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { HouseholdSimulator } from '../agent/household-simulator.ts';
import { bearer, createTestApp } from '../helpers/harness.ts';
import type { Score } from './household-heldout.ts';

/** A detection names its person by name (`person`) or by the scenario's person id (`person_id`). */
interface Det {
  type: DetectionType;
  at: string;
  subtype?: string;
  person?: string;
  person_id?: string;
  track_id?: string;
  dwell_s?: number;
}
/** Enrolled people: names, or `{id, name}` where detections refer to them by id. */
export interface Scenario {
  timeZone: string;
  now: string;
  location: string;
  people: Array<string | { id: string; name: string }>;
  detections: Det[];
}
/** `time` is a local wall-clock "HH:MM" the answer must give (as 08:55, 8:55 or 8:55 AM). */
export interface SceneExpect {
  outcome: 'answer' | 'ask';
  yes_no?: 'yes' | 'no';
  number?: number;
  names?: string[];
  time?: string;
}
interface AgentExpect {
  outcome: 'act' | 'ask';
  sensor_ids?: string[];
  condition?: string;
  person?: string;
}
type Case =
  | { id: string; kind: 'scene'; scenario: string; category: string; query: string; expect: SceneExpect }
  | { id: string; kind: 'agent'; context: string; people: string[]; category: string; message: string; expect: AgentExpect };

export interface FaceResult {
  id: string;
  category: string;
  score: Score;
  why: string;
}

export function localToEpoch(local: string, timeZone: string): number {
  const [d, t] = local.split('T');
  const [year, month, day] = d.split('-').map(Number);
  const [hour, minute] = t.split(':').map(Number);
  return fromWallClock({ year, month, day, hour, minute }, timeZone);
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

function judgeScene(expect: SceneExpect, status: number, body: { answer?: string; detail?: string }): { score: Score; why: string } {
  if (status === 422) return expect.outcome === 'ask' ? { score: 'correct', why: body.detail ?? 'refused' } : { score: 'asked', why: body.detail ?? 'refused' };
  if (status !== 200) return { score: 'missed', why: `${status} ${body.detail ?? ''}` };
  const answer = body.answer ?? '';
  if (expect.outcome === 'ask') return { score: 'wrong', why: `answered what it should have asked about: ${answer}` };
  const text = answer.toLowerCase();
  const first = text.trim().split(/[\s,.!]+/)[0];
  if (expect.yes_no && first !== expect.yes_no) return { score: 'wrong', why: `expected "${expect.yes_no}": ${answer}` };
  if (expect.number !== undefined) {
    const n = expect.number;
    const ok = new RegExp(`(^|[^\\d.:])${n}(?![\\d:])`).test(text) || (n < NUMBER_WORDS.length && new RegExp(`\\b${NUMBER_WORDS[n]}\\b`).test(text));
    if (!ok) return { score: 'wrong', why: `expected ${n}: ${answer}` };
  }
  for (const name of expect.names ?? []) if (!text.includes(name.toLowerCase())) return { score: 'wrong', why: `expected ${name} named: ${answer}` };
  if (expect.time && !mentionsTime(text, expect.time)) return { score: 'wrong', why: `expected ${expect.time}: ${answer}` };
  return { score: 'correct', why: answer };
}

/** Whether `text` gives the wall-clock time "HH:MM" in 24-hour or 12-hour form. */
function mentionsTime(text: string, hhmm: string): boolean {
  const [h, m] = hhmm.split(':').map(Number);
  const mm = String(m).padStart(2, '0');
  const forms = [`${String(h).padStart(2, '0')}:${mm}`, `${h}:${mm}`];
  const h12 = h % 12 === 0 ? 12 : h % 12;
  const half = h < 12 ? 'am' : 'pm';
  forms.push(`${h12}:${mm} ${half}`, `${h12}:${mm}${half}`, `${h12}:${mm} ${half[0]}.m.`);
  return forms.some((f) => new RegExp(`(^|[^\\d])${f.replace(/\./g, '\\.')}(?![\\d])`).test(text));
}

export async function scoreSceneCases(
  scenarios: Record<string, Scenario>,
  cases: Array<{ id: string; scenario: string; category: string; query: string; expect: SceneExpect }>,
): Promise<FaceResult[]> {
  const results: FaceResult[] = [];
  for (const [name, sc] of Object.entries(scenarios)) {
    const mine = cases.filter((c) => c.scenario === name);
    if (!mine.length) continue;
    const now = localToEpoch(sc.now, sc.timeZone);
    const first = Math.min(...sc.detections.map((d) => localToEpoch(d.at, sc.timeZone)));
    const clock = new ManualClock(Math.min(now, first) - 60_000);
    const t = await createTestApp({ dialect: 'sqlite', clock });
    try {
      const key = await t.orgKey();
      // a tenant asking about known people has turned recognition on, as a user would; without it
      // every answer also said "recognition is off" next to the people it had recognized
      const optIn = await t.app.inject({ method: 'PATCH', url: '/v1/automation', headers: bearer(key), payload: { face_recognition: true } });
      if (optIn.statusCode !== 200) throw new Error(`face_recognition: ${optIn.body}`);
      const ids = new Map<string, string>();
      for (const person of sc.people) {
        const name = typeof person === 'string' ? person : person.name;
        const r = await t.app.inject({ method: 'POST', url: '/v1/people', headers: bearer(key), payload: { name } });
        if (r.statusCode !== 201) throw new Error(`person: ${r.body}`);
        ids.set(name, r.json().id);
        if (typeof person !== 'string') ids.set(person.id, r.json().id);
      }
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1/streams',
        headers: bearer(key),
        payload: { name, source_type: 'rtsp', source_url: 'rtsp://camera.example/heldout', location: sc.location.replace(/\W+/g, '_') },
      });
      if (created.statusCode !== 201) throw new Error(`stream: ${created.body}`);
      const stream = created.json() as { id: string; scene_id: string };
      await t.app.inject({ method: 'PATCH', url: `/v1/scenes/${stream.scene_id}`, headers: bearer(key), payload: { time_zone: sc.timeZone } });
      const ref = await t.ctx.database.db
        .selectFrom('streams')
        .select(['id', 'tenant_id', 'scene_id', 'location'])
        .where('id', '=', stream.id)
        .executeTakeFirstOrThrow();
      const inputs: DetectionInput[] = sc.detections
        .map((d) => ({
          type: d.type,
          subtype: d.person ? 'recognized' : (d.subtype ?? null),
          person_id: d.person ? ids.get(d.person)! : d.person_id ? ids.get(d.person_id)! : null,
          confidence: 0.9,
          at: localToEpoch(d.at, sc.timeZone),
          track_id: d.track_id ?? null,
          dwell_s: d.dwell_s ?? null,
        }))
        .sort((a, b) => a.at - b.at);
      for (const input of inputs) {
        if (input.at > clock.now()) await clock.advance(input.at - clock.now());
        await t.ctx.pipeline.ingest(ref, [input]);
      }
      if (now > clock.now()) await clock.advance(now - clock.now());
      await t.ctx.pipeline.drain();
      for (const c of mine) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/v1/scenes/${stream.scene_id}/query`,
          headers: bearer(key),
          payload: { stream_id: stream.id, query: c.query, window: '15m' },
        });
        let body: Record<string, unknown> = {};
        try {
          body = res.json();
        } catch {
          /* judged by status */
        }
        const { score, why } = judgeScene(c.expect, res.statusCode, body as never);
        results.push({ id: c.id, category: c.category, score, why: `"${c.query}" → ${why}` });
      }
    } finally {
      await t.close();
    }
  }
  return results;
}

function scoreAgentCase(c: Extract<Case, { kind: 'agent' }>, contexts: Record<string, HouseholdContext>): FaceResult {
  const base = contexts[c.context];
  if (!base) throw new Error(`case ${c.id}: unknown context ${c.context}`);
  const people = c.people.map((name, i) => ({ id: `person_heldout${i}`, name }));
  const ctx = { ...structuredClone(base), people } as HouseholdContext;
  const household = new HouseholdSimulator(ctx);
  const plan = planOffline(c.message, household.ctx);
  return { id: c.id, category: c.category, ...judgeAgent(c.expect, plan, people) };
}

function judgeAgent(expect: AgentExpect, plan: ReturnType<typeof planOffline>, people: Array<{ id: string; name: string }>): { score: Score; why: string } {
  const calls = (plan.calls ?? []) as Array<{ tool: string; args: Record<string, any> }>;
  const watch = calls.find((x) => x.tool === 'create_watch');
  const asked = Boolean(plan.clarification);
  const summary = calls.map((x) => `${x.tool} ${JSON.stringify(x.args)}`).join('; ') || (plan.clarification ?? 'nothing');
  if (expect.outcome === 'ask') {
    if (watch) return { score: 'wrong', why: `made a watch instead of asking: ${summary}` };
    return asked ? { score: 'correct', why: summary } : { score: 'missed', why: `did not ask: ${summary}` };
  }
  if (!watch) return { score: asked ? 'asked' : 'missed', why: summary };
  if (expect.sensor_ids && [...watch.args.sensor_ids].sort().join() !== [...expect.sensor_ids].sort().join())
    return { score: 'wrong', why: `sensors: ${summary}` };
  if (expect.condition && !(watch.args.conditions ?? []).includes(expect.condition)) return { score: 'wrong', why: `condition: ${summary}` };
  if (expect.person) {
    const id = people.find((p) => p.name === expect.person)?.id;
    if (!(watch.args.person_ids ?? []).includes(id)) return { score: 'wrong', why: `person: ${summary}` };
  }
  return { score: 'correct', why: summary };
}

export async function scoreFaces(file: string, contexts: Record<string, HouseholdContext>): Promise<FaceResult[]> {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { scenarios: Record<string, Scenario>; cases: Case[] };
  const scene = await scoreSceneCases(
    data.scenarios,
    data.cases.filter((c): c is Extract<Case, { kind: 'scene' }> => c.kind === 'scene'),
  );
  const agent = data.cases.filter((c): c is Extract<Case, { kind: 'agent' }> => c.kind === 'agent').map((c) => scoreAgentCase(c, contexts));
  return [...scene, ...agent].sort((a, b) => a.id.localeCompare(b.id));
}
