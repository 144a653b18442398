/**
 * Round Q of the rolling fresh sets for language precision, household part: 152 requests (25 of them
 * multi-turn) written blind by someone who had not read the language or agent code, committed as written
 * (round-q-household.json, round-q-household-contexts.json, round-q-README.md; never edited). Its first
 * run is the round's figure: correct 123 (80.9%), asked 16, missed 3, wrong 10 (round-q.first-run.txt).
 * This gate holds the first-run level and may only be tightened; after the fixes by cause (docs/decisions.md, "Round Q: bare
 * hours", "Round Q: verbs", "Round Q: places"): correct 141, wrong 1 (q055: a watch on an offline camera, which
 * sets H, I, J, K, L, N and P expect to be made and this set expects to be asked; it is made and its reply says the camera
 * is offline since when). After "Before round R: feed status" (q088, a feed status question): correct 142; with "Before round R: follow-ups" (q046, q052): 144; after "Before round S: times" and "Round S: times": 148.
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';

test('round Q household set: correct ≥ 148, wrong ≤ 1', { timeout: 900_000 }, async () => {
  await gateHousehold('Q', { size: 152, minCorrect: 148, maxWrong: 1 });
});
