/**
 * Round T of the rolling fresh sets for language precision, household part: 148 requests (25 of them
 * multi-turn) written blind by someone who had not read the language or agent code, committed as written
 * (round-t-household.json, round-t-household-contexts.json, round-t-README.md; never edited). Its first
 * run is the round's figure: correct 131 (88.5%), asked 15, missed 0, wrong 2 (round-t.first-run.txt).
 * This gate holds the first-run level and may only be tightened.
 * Raised to 134 correct, 1 wrong by the time fixes (t006's fronted "tomorrow morning" before "quarter to five", t112's
 * "2moro", t057's "but only from midnight" follow-up; docs/decisions.md, "Round T: times").
 * Round T reasons (docs/decisions.md, "Round T: reasons"): t009, t030 now correct (t026, t055 stay asked: a word no lexicon knows).
 * Round T arming fix (docs/decisions.md, "Round T: arming"): t092, t093, t095, t096 now act: correct ≥ 135.
 * Round T stand-downs and scope (docs/decisions.md): t065 (was wrong) and t039 now correct.
 * All round-T fixes merged: 142 correct, 6 asked (t026, t044, t050, t055, t061, t069), 0 wrong.
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';

test('round T household set: correct ≥ 142, wrong 0', { timeout: 900_000 }, async () => {
  await gateHousehold('T', { size: 148, minCorrect: 142, maxWrong: 0 });
});
