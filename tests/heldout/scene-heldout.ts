/**
 * Scores scene questions on held-out cases written blind, through
 * the real route: each scenario's detections go through the real pipeline into a real database at
 * their own times, the clock is set to the scenario's "now", and POST /v1/scenes/:id/query answers.
 *   correct – answered, and every fact the case names holds (yes/no first, number, time, metric);
 *             or refused where the case expects a request to rephrase,
 *   asked   – refused with a request to rephrase (422) where an answer was expected,
 *   wrong   – answered with a fact that does not hold (yes/no backwards, another number, another
 *             metric), or answered a question the case says cannot be answered,
 *   missed  – anything else (e.g. a 400).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { fromWallClock } from '../../src/platform/time/zoned-time.ts';
import type { DetectionInput, DetectionType } from '../../src/platform/kinds/index.ts';
import { bearer, createTestApp } from '../helpers/harness.ts';
import { assertGate, formatSummary, summarise, type Gate, type Score } from './household-heldout.ts';

interface ScenarioDetection {
  type: DetectionType;
  at: string;
  value?: number;
  count?: number;
  subtype?: string;
  dwell_s?: number;
  track_id?: string;
  confidence?: number;
}
/** `stream`: the camera's state at "now" when it is not live (e.g. offline since `last_frame_at`, local wall-clock) */
interface Scenario {
  timeZone: string;
  now: string;
  location: string;
  capacity?: number;
  window?: string;
  stream?: { status: string; last_frame_at: string };
  detections: ScenarioDetection[];
}
interface Expect {
  outcome: 'answer' | 'ask';
  yes_no?: 'yes' | 'no';
  number?: number;
  time?: string;
  metric?: string;
}
interface SceneCase {
  id: string;
  scenario: string;
  category: string;
  query: string;
  window?: string;
  expect: Expect;
}

export interface SceneResult {
  id: string;
  category: string;
  score: Score;
  why: string;
}

function localToEpoch(local: string, timeZone: string): number {
  const [d, t] = local.split('T');
  const [year, month, day] = d.split('-').map(Number);
  const [hour, minute, second = 0] = t.split(':').map(Number);
  return fromWallClock({ year, month, day, hour, minute }, timeZone) + second * 1000;
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

function mentionsNumber(answer: string, n: number): boolean {
  const text = answer.toLowerCase();
  const digits = new RegExp(`(^|[^\\d.:])${String(n).replace('.', '\\.')}(?![\\d:]|\\.\\d)`);
  if (digits.test(text)) return true;
  if (Number.isInteger(n) && n < NUMBER_WORDS.length && new RegExp(`\\b${NUMBER_WORDS[n]}\\b`).test(text)) return true;
  if (n === 0 && /\b(no one|nobody|none|no (people|vehicles|cars|one|animals|pets|cats|dogs))\b/.test(text)) return true;
  return false;
}

function mentionsTime(answer: string, hhmm: string): boolean {
  const [h, m] = hhmm.split(':').map(Number);
  const forms = [hhmm, `${h}:${String(m).padStart(2, '0')}`];
  const h12 = h % 12 === 0 ? 12 : h % 12;
  const ampm = h < 12 ? 'am' : 'pm';
  forms.push(`${h12}:${String(m).padStart(2, '0')} ${ampm}`, `${h12}:${String(m).padStart(2, '0')}${ampm}`);
  if (m === 0) forms.push(`${h12} ${ampm}`, `${h12}${ampm}`);
  const text = answer.toLowerCase();
  return forms.some((f) => text.includes(f));
}

function judge(
  expect: Expect,
  status: number,
  body: { answer?: string; interpretation?: { metric?: string }; detail?: string },
): { score: Score; why: string } {
  if (status === 422) return expect.outcome === 'ask' ? { score: 'correct', why: body.detail ?? 'refused' } : { score: 'asked', why: body.detail ?? 'refused' };
  if (status !== 200) return { score: 'missed', why: `${status} ${body.detail ?? ''}` };
  const answer = body.answer ?? '';
  if (expect.outcome === 'ask') return { score: 'wrong', why: `answered what cannot be answered: ${answer}` };
  const first = answer
    .trim()
    .split(/[\s,.!]+/)[0]
    ?.toLowerCase();
  if (expect.yes_no && first !== expect.yes_no) return { score: 'wrong', why: `expected "${expect.yes_no}": ${answer}` };
  if (expect.metric && body.interpretation?.metric !== expect.metric)
    return { score: 'wrong', why: `metric ${body.interpretation?.metric}, expected ${expect.metric}: ${answer}` };
  if (expect.number !== undefined && !mentionsNumber(answer, expect.number)) return { score: 'wrong', why: `expected ${expect.number}: ${answer}` };
  if (expect.time && !mentionsTime(answer, expect.time)) return { score: 'wrong', why: `expected ${expect.time}: ${answer}` };
  return { score: 'correct', why: answer };
}

/** The API takes snake_case location labels ("parking garage" → parking_garage). */
function toLocationLabel(place: string): string {
  return place
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

export async function scoreScenes(file: string): Promise<SceneResult[]> {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { scenarios: Record<string, Scenario>; cases: SceneCase[] };
  const results: SceneResult[] = [];
  for (const [name, sc] of Object.entries(data.scenarios)) {
    const cases = data.cases.filter((c) => c.scenario === name);
    if (cases.length === 0) continue;
    const now = localToEpoch(sc.now, sc.timeZone);
    const inputs: DetectionInput[] = sc.detections
      .map((d) => ({
        type: d.type,
        subtype: d.subtype ?? null,
        value: d.value ?? null,
        count: d.count ?? null,
        confidence: d.confidence ?? 0.9,
        at: localToEpoch(d.at, sc.timeZone),
        track_id: d.track_id ?? null,
        dwell_s: d.dwell_s ?? null,
      }))
      .filter((d) => d.at <= now)
      .sort((a, b) => a.at - b.at);
    const clock = new ManualClock(Math.min(now, ...inputs.map((d) => d.at)) - 60_000);
    const t = await createTestApp({ dialect: 'sqlite', clock });
    try {
      const key = await t.orgKey();
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1/streams',
        headers: bearer(key),
        payload: { name: name, source_type: 'rtsp', source_url: 'rtsp://camera.example/heldout', location: toLocationLabel(sc.location) },
      });
      if (created.statusCode !== 201) throw new Error(`stream: ${created.body}`);
      const stream = created.json() as { id: string; scene_id: string };
      const patch = await t.app.inject({
        method: 'PATCH',
        url: `/v1/scenes/${stream.scene_id}`,
        headers: bearer(key),
        payload: { time_zone: sc.timeZone, ...(sc.capacity ? { capacity: sc.capacity } : {}) },
      });
      if (patch.statusCode !== 200) throw new Error(`scene: ${patch.body}`);
      const ref = await t.ctx.database.db
        .selectFrom('streams')
        .select(['id', 'tenant_id', 'scene_id', 'location'])
        .where('id', '=', stream.id)
        .executeTakeFirstOrThrow();
      for (const input of inputs) {
        // each detection arrives at its own time, as from a live camera (real sources do not run in
        // this app, so the camera itself adds nothing)
        if (input.at > clock.now()) await clock.advance(input.at - clock.now());
        await t.ctx.pipeline.ingest(ref, [input]);
      }
      if (now > clock.now()) await clock.advance(now - clock.now());
      await t.ctx.pipeline.drain();
      // the scenario's camera is live at "now" (docs/decisions.md, "Freshness"), or in the state the
      // scenario gives (offline since its last frame): its ingest would have written that status and
      // frame time; without it every answer is about a camera never connected
      const state = sc.stream
        ? { status: sc.stream.status, last_frame_at: new Date(localToEpoch(sc.stream.last_frame_at, sc.timeZone)).toISOString() }
        : { status: 'live', last_frame_at: new Date(now).toISOString() };
      await t.ctx.database.db.updateTable('streams').set(state).where('id', '=', stream.id).execute();
      for (const c of cases) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/v1/scenes/${stream.scene_id}/query`,
          headers: bearer(key),
          payload: { stream_id: stream.id, query: c.query, window: c.window ?? sc.window ?? '15m' },
        });
        let body: Record<string, unknown> = {};
        try {
          body = res.json();
        } catch {
          /* not JSON: judged by status */
        }
        const { score, why } = judge(c.expect, res.statusCode, body as never);
        results.push({ id: c.id, category: c.category, score, why: `"${c.query}" → ${why}` });
      }
    } finally {
      await t.close();
    }
  }
  return results;
}

/** A blind round's scene gate: scores round-<x>-scene.json through the real route, prints the summary and asserts the gate. */
export async function gateScenes(round: string, gate: Gate): Promise<SceneResult[]> {
  const results = await scoreScenes(join(import.meta.dirname, `round-${round.toLowerCase()}-scene.json`));
  assert.equal(results.length, gate.size);
  console.log(formatSummary(`round ${round} scene`, results));
  assertGate(summarise(results).total, results.length, gate, 'wrong answers');
  return results;
}
