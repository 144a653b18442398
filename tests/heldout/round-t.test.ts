/**
 * Round T of the rolling fresh sets for language precision, household part: 148 requests (25 of them
 * multi-turn) written blind by someone who had not read the language or agent code, committed as written
 * (round-t-household.json, round-t-household-contexts.json, round-t-README.md; never edited). Its first
 * run is the round's figure: correct 131 (88.5%), asked 15, missed 0, wrong 2 (round-t.first-run.txt).
 * This gate holds the first-run level and may only be tightened.
 * tf-stop (Round T: stand-downs and scope): 133 correct, 1 wrong (t065 and t039 now correct).
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';

test('round T household set: correct ≥ 133, wrong ≤ 1', { timeout: 900_000 }, async () => {
  await gateHousehold('T', { size: 148, minCorrect: 133, maxWrong: 1 });
});
