import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createScenario, SCENARIO_NAMES, type ScenarioName } from '../../src/ingest/sandbox/scenarios.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;
// a Monday; the window covers weekday morning rush hours in UTC
const MONDAY = Date.parse('2026-11-23T06:00:00.000Z');

function collectInPieces(name: ScenarioName, cuts: number[], opts = { seed: 7 }) {
  const g = createScenario(name, opts);
  const out = [];
  for (let i = 1; i < cuts.length; i++) out.push(...g.detectionsBetween(cuts[i - 1], cuts[i]));
  return out;
}

test('the same seed gives the same detections, a different seed different ones, for every scenario', () => {
  for (const name of SCENARIO_NAMES) {
    const a = createScenario(name, { seed: 7 }).detectionsBetween(MONDAY, MONDAY + 3 * HOUR);
    const b = createScenario(name, { seed: 7 }).detectionsBetween(MONDAY, MONDAY + 3 * HOUR);
    const c = createScenario(name, { seed: 8 }).detectionsBetween(MONDAY, MONDAY + 3 * HOUR);
    assert.ok(a.length > 0, `${name} produced nothing in 3 h`);
    assert.deepEqual(a, b, `${name} is not deterministic`);
    assert.notDeepEqual(a, c, `${name} ignores the seed`);
  }
});

test('detections are the same however the interval is split (ticks, odd cuts, cuts on event and minute instants)', () => {
  for (const name of SCENARIO_NAMES) {
    const from = MONDAY;
    const to = MONDAY + 5 * HOUR;
    const whole = createScenario(name, { seed: 7 }).detectionsBetween(from, to);
    assert.ok(whole.length > 0);
    // cut exactly on some detection instants and on whole minutes (where heartbeats fall)
    const eventCuts = whole.filter((_, i) => i % 97 === 0).map((d) => d.at);
    const cuts = [...new Set([from, to, ...eventCuts, from + 7 * MINUTE, from + 2 * HOUR + 1, from + 3 * HOUR - 1, from + 4 * HOUR])].sort((x, y) => x - y);
    assert.deepEqual(collectInPieces(name, cuts), whole, `${name}: split answer differs from whole`);
    // a stream runner ticking every 10 s over the first half hour
    const ticks = Array.from({ length: 181 }, (_, i) => from + i * 10_000);
    assert.deepEqual(
      collectInPieces(name, ticks),
      whole.filter((d) => d.at <= from + 30 * MINUTE),
      `${name}: tick-by-tick answer differs`,
    );
  }
});

test('answers do not depend on what was asked before (a fresh generator and a used one agree)', () => {
  const used = createScenario('home_driveway', { seed: 3 });
  used.detectionsBetween(MONDAY + 40 * HOUR, MONDAY + 41 * HOUR);
  used.detectionsBetween(MONDAY - 300 * HOUR, MONDAY - 299 * HOUR);
  const fresh = createScenario('home_driveway', { seed: 3 });
  assert.deepEqual(used.detectionsBetween(MONDAY, MONDAY + 2 * HOUR), fresh.detectionsBetween(MONDAY, MONDAY + 2 * HOUR));
});

test('output is ascending by time, inside the asked interval, with confidences in 0.6..1', () => {
  for (const name of SCENARIO_NAMES) {
    const from = MONDAY + 1234;
    const to = MONDAY + 4 * HOUR + 567;
    const d = createScenario(name, { seed: 11 }).detectionsBetween(from, to);
    for (let i = 0; i < d.length; i++) {
      assert.ok(d[i].at > from && d[i].at <= to, `${name}: detection outside (from, to]`);
      if (i > 0) assert.ok(d[i].at >= d[i - 1].at, `${name}: not ascending`);
      assert.ok(d[i].confidence >= 0.6 && d[i].confidence <= 1, `${name}: confidence ${d[i].confidence}`);
      assert.ok(Number.isInteger(d[i].at));
    }
  }
});

test('far past and far future intervals work, including across a DST change', () => {
  for (const at of [Date.parse('1901-03-04T00:00:00Z'), 0, Date.parse('2199-07-01T00:00:00Z'), Date.parse('-000050-01-01T00:00:00Z')]) {
    const d = createScenario('lobby', { seed: 1, timeZone: 'Europe/Berlin' }).detectionsBetween(at - 12 * HOUR, at + 12 * HOUR);
    assert.ok(d.length >= 24 * 60, 'at least the minute heartbeats');
    assert.ok(d.every((x) => Number.isFinite(x.at) && (x.type !== 'person_count' || Number.isInteger(x.value))));
  }
  // Europe/Berlin springs forward on 2026-03-29 at 01:00 UTC and falls back on 2026-10-25 at 01:00 UTC
  for (const change of [Date.parse('2026-03-29T01:00:00Z'), Date.parse('2026-10-25T01:00:00Z')]) {
    const g = createScenario('home_nursery', { seed: 5, timeZone: 'Europe/Berlin' });
    const whole = g.detectionsBetween(change - 20 * HOUR, change + 20 * HOUR);
    const parts = [
      ...createScenario('home_nursery', { seed: 5, timeZone: 'Europe/Berlin' }).detectionsBetween(change - 20 * HOUR, change),
      ...createScenario('home_nursery', { seed: 5, timeZone: 'Europe/Berlin' }).detectionsBetween(change, change + 20 * HOUR),
    ];
    assert.deepEqual(parts, whole);
  }
});

test('bad arguments are refused with a reason', () => {
  const g = createScenario('lobby', { seed: 1 });
  assert.deepEqual(g.detectionsBetween(MONDAY, MONDAY), []);
  assert.deepEqual(g.detectionsBetween(MONDAY, MONDAY - 1), []);
  assert.throws(() => g.detectionsBetween(Number.NaN, MONDAY), RangeError);
  assert.throws(() => g.detectionsBetween(MONDAY, Infinity), /toMs/);
  assert.throws(() => createScenario('lobby', { seed: 1.5 }), /seed must be an integer/);
  assert.throws(() => createScenario('lobby', { seed: 1, timeZone: 'Mars/Olympus' }), /unknown time zone "Mars\/Olympus"/);
  assert.throws(() => createScenario('toString' as ScenarioName, { seed: 1 }), /unknown sandbox scenario/);
});
