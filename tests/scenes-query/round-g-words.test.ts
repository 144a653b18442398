import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerQuery, interpretQuery, type QueryContext, type SceneSnapshot } from '../../src/org/scenes/query/query.ts';
import { MIN, NOW, TZ, makeDetection, ny } from './scene-fixtures.ts';

/**
 * "first truck this morning?", "last lorry?": said without "when", a question that opens with the
 * sighting asked for asks its time; the answer is the first (or last) vehicle of any kind and says
 * so (docs/decisions.md, "Round G: words").
 */

const cars = (time: string, n: number) => makeDetection('vehicle', ny(time), { count: n, location: 'parking_lot' });
const SCENE: SceneSnapshot = { people: 0, vehicles: 1, capacity: 40, active_anomalies: 0 };
const LOT: QueryContext = { now: NOW, windowMs: 60 * MIN, timeZone: TZ, location: 'parking_lot' };

test('a question that opens with "first" or "last" and a kind of vehicle asks when, bounded by any vehicle', () => {
  for (const [q, aggregate] of [
    ['first truck this morning?', 'first_seen'],
    ['the first van today?', 'first_seen'],
    ['last lorry?', 'last_seen'],
  ]) {
    const result = interpretQuery(q, LOT);
    assert.ok(result.ok, `${q}: ${result.ok ? '' : result.reason}`);
    assert.equal(result.interpretation.aggregate, aggregate, q);
    const said = answerQuery(result.interpretation, [cars('08:00', 1), cars('09:30', 1)], SCENE).answer;
    assert.match(said, /cannot tell "(truck|van|lorry)" from other vehicles, so that is the (first|last) vehicle of any kind/, `${q}: ${said}`);
  }
});

// "any trucks this morning?" was refused here too; since round J a yes/no whether any of a kind were
// there is answered with every vehicle counted, said so, never a yes (docs/decisions.md, "Round J:
// scene questions"; tests/scenes-query/round-j-causes.test.ts). About one vehicle, it stays refused.
test('a yes/no about the first or last vehicle of a kind is still refused', () => {
  for (const q of ['was the first truck before 9?', 'is the last vehicle a lorry?', 'so is the first van here yet?']) {
    const result = interpretQuery(q, LOT);
    assert.equal(result.ok, false, q);
  }
});
