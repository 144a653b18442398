import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DetectionRecord } from '../../src/platform/kinds/index.ts';
import { answerQuery, interpretQuery, type Interpretation, type QueryContext, type SceneSnapshot } from '../../src/org/scenes/query/query.ts';
import { MIN, NOW, TZ, makeDetection, ny } from './scene-fixtures.ts';

/**
 * The general causes behind round E's wrong scene answers (docs/decisions.md, "Scene questions:
 * round E's causes"), each tested on questions other than the set's own.
 */

const SCENE: SceneSnapshot = { people: 0, vehicles: 0, capacity: 40, active_anomalies: 0 };

function ctx(overrides: Partial<QueryContext> = {}): QueryContext {
  return { now: NOW, windowMs: 15 * MIN, timeZone: TZ, location: 'lobby', ...overrides };
}
function ask(query: string, overrides: Partial<QueryContext> = {}): Interpretation {
  const result = interpretQuery(query, ctx(overrides));
  assert.ok(result.ok, `${query}: refused (${result.ok ? '' : result.reason})`);
  return result.interpretation;
}
function refused(query: string, overrides: Partial<QueryContext> = {}): string {
  const result = interpretQuery(query, ctx(overrides));
  assert.equal(result.ok, false, `${query} was understood as ${result.ok ? result.interpretation.summary : ''}`);
  return result.ok ? '' : result.reason;
}
function answer(query: string, history: DetectionRecord[], overrides: Partial<QueryContext> = {}): string {
  const interp = ask(query, overrides);
  return answerQuery(interp, history, SCENE, (interp.baseline ?? []).map(() => [])).answer;
}

const YARD: Partial<QueryContext> = { location: 'garden' };
const animal = (time: string, subtype: 'cat' | 'dog', track: string) =>
  makeDetection('animal', ny(time), { location: 'garden', subtype, track_id: track, dwell_s: 0 });

test('"first" about an animal selects the earliest sighting, "last" the latest, never the other way round', () => {
  const history = [animal('07:10', 'dog', 'd1'), animal('08:30', 'dog', 'd2'), animal('09:50', 'dog', 'd3'), animal('09:00', 'cat', 'c1')];
  for (const q of ['what time did the dog first appear today?', 'when was the earliest dog sighting', 'when did we first see the dog today']) {
    const i = ask(q, YARD);
    assert.equal(i.aggregate, 'first_seen', q);
    assert.equal(i.subtype, 'dog', q);
    assert.match(answer(q, history, YARD), /^The first dog sighting in the garden today was at 07:10 \(3 dog sightings in all, the latest at 09:50\)\./, q);
  }
  // with no time named, "first" is today's, as for people and vehicles
  assert.equal(ask('when did the dog first show up?', YARD).from, ny('00:00'));
  assert.match(answer('when was the dog last spotted?', history, YARD), /latest dog sighting .* at 09:50/);
  assert.match(refused('when was the dog first and last seen today?', YARD), /first and the last/);
  // "first" where it is not the question asked is not dropped
  refused('how many dogs came first this morning?', YARD);
});

test('"busier/quieter than usual" with nothing named: people at a dock or a road, both counts only where cars park', () => {
  for (const location of ['loading_bay', 'dock', 'service_road']) {
    assert.equal(ask('is it quieter than normal around now?', { location }).metric, 'people', location);
    assert.equal(ask('is the place busier than on a typical day?', { location }).metric, 'people', location);
  }
  for (const location of ['parking_lot', 'garage']) {
    assert.equal(ask('is it quieter than normal around now?', { location }).metric, 'activity', location);
  }
  // a kind named is that kind anywhere
  assert.equal(ask('are there more vehicles than usual?', { location: 'dock' }).metric, 'vehicles');
});
