/**
 * The lobby the scene-query unit tests ask about: New York, Tuesday 10 March 2026 at 10:14 (EDT,
 * UTC-4), and detections of one stream there.
 */
import assert from 'node:assert/strict';
import type { DetectionRecord, DetectionType } from '../../src/platform/kinds/index.ts';
import { answerQuery, interpretQuery, type Interpretation, type QueryContext, type SceneSnapshot } from '../../src/org/scenes/query/query.ts';

export const TZ = 'America/New_York';
export const NOW = Date.parse('2026-03-10T10:14:00-04:00');
export const MIN = 60_000;

/** "09:42" (on 10 March unless another day is given) as epoch ms in New York. */
export function ny(time: string, day = '2026-03-10'): number {
  return Date.parse(`${day}T${time}:00-04:00`);
}

let nextId = 0;
/** A stored detection of the lobby's stream at `at`. */
export function makeDetection(type: DetectionType, at: number, fields: Partial<DetectionRecord> = {}): DetectionRecord {
  nextId += 1;
  return {
    id: `det_${String(nextId).padStart(5, '0')}`,
    tenant_id: 'org_1',
    stream_id: 'stream_1',
    scene_id: 'scene_1',
    location: 'lobby',
    type,
    confidence: 0.9,
    at,
    ...fields,
  };
}

/**
 * A question read at NOW in New York at the lobby (or `overrides`): `ask` expects it understood,
 * `refused` expects a question back and returns its reason, `answer` answers it from `history`
 * with an empty scene of capacity 40.
 */
export const QUESTION_SCENE: SceneSnapshot = { people: 0, vehicles: 0, capacity: 40, active_anomalies: 0 };
export function questionContext(overrides: Partial<QueryContext> = {}): QueryContext {
  return { now: NOW, windowMs: 15 * MIN, timeZone: TZ, location: 'lobby', ...overrides };
}
export function ask(query: string, overrides: Partial<QueryContext> = {}): Interpretation {
  const result = interpretQuery(query, questionContext(overrides));
  assert.ok(result.ok, `${query}: refused (${result.ok ? '' : result.reason})`);
  return result.interpretation;
}
export function refused(query: string, overrides: Partial<QueryContext> = {}): string {
  const result = interpretQuery(query, questionContext(overrides));
  assert.equal(result.ok, false, `${query} was understood as ${result.ok ? result.interpretation.summary : ''}`);
  return result.ok ? '' : result.reason;
}
export function answer(query: string, history: DetectionRecord[], overrides: Partial<QueryContext> = {}): string {
  const interp = ask(query, overrides);
  return answerQuery(
    interp,
    history,
    QUESTION_SCENE,
    (interp.baseline ?? []).map(() => []),
  ).answer;
}

/**
 * The answer to a question with the history loaded for every span its interpretation asks for (6 h of lead for the
 * reading before a span), in a scene showing 2 people and 3 vehicles now; a question back fails the test.
 */
export function answerWithHistory(query: string, history: DetectionRecord[], location: string): string {
  const result = interpretQuery(query, questionContext({ location }));
  assert.ok(result.ok, `${query}: ${result.ok ? '' : result.reason}`);
  const interp = result.interpretation;
  const within = (s: { from: number; to: number }) => history.filter((d) => d.at >= s.from - 6 * 3_600_000 && d.at <= s.to);
  const a = answerQuery(interp, within(interp), { ...QUESTION_SCENE, people: 2, vehicles: 3 }, (interp.baseline ?? []).map(within));
  assert.equal(a.ask, undefined, query);
  return a.answer;
}
