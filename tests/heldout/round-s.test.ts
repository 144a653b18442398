/**
 * Round S of the rolling fresh sets for language precision, household part: 146 requests (25 of them
 * multi-turn) written blind by someone who had not read the language or agent code, committed as written
 * (round-s-household.json, round-s-household-contexts.json, round-s-README.md; never edited). Its first
 * run is the round's figure: correct 129 (88.4%), asked 12, missed 3, wrong 2 (round-s.first-run.txt).
 * This gate holds the first-run level and may only be tightened.
 * After the fixes by cause (docs/decisions.md, "Round S: times", "Round S: reasons", "Round S: places"): 142 correct, 1 wrong
 * (s033: the set's own README maps a room to all its sensors, and its landing holds the front door contact too).
 * Before round T (docs/decisions.md, "Before round T: words"): 144 correct (s044's "trick or treating", s112's "disram").
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';

test('round S household set: correct ≥ 144, wrong ≤ 1', { timeout: 900_000 }, async () => {
  await gateHousehold('S', { size: 146, minCorrect: 144, maxWrong: 1 });
});
