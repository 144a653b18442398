/**
 * Round A of the rolling fresh sets for language precision (docs/decisions.md, "Coverage before
 * action"): 177 household cases written blind by someone who had not read the agent, committed as
 * written (round-a-household.json and its contexts) and never edited.
 *
 * First run, before any tuning against it (commit 0475a4c): correct 116 (65.5%), asked 19,
 * missed 9, wrong 33. After fixing general causes: correct 144 (81.4%), asked 16, missed 6,
 * wrong 11. The round after (one spoken-clock reader, reasons, corrections): correct 147
 * (83.1%), asked 15, missed 6, wrong 9. After round C's general causes (docs/decisions.md,
 * "Round C household: general causes"): correct 152 (85.9%), asked 13, missed 6, wrong 6. After round F's safeguards before acting
 * (docs/decisions.md, "Round F household: safeguards before acting"): correct 154 (87.0%), asked
 * 13, missed 6, wrong 4; with round F's follow-ups 155 / 13 / 5 / 4. The gate
 * holds that level so no later change slides back; the target (0 wrong, ≥ 95% correct) is not
 * reached yet.
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';

const CORRECT_MIN = 155;
const WRONG_MAX = 4;

test(`round A household set: correct ≥ ${CORRECT_MIN}, wrong ≤ ${WRONG_MAX}`, async () => {
  await gateHousehold('A', { size: 177, minCorrect: CORRECT_MIN, maxWrong: WRONG_MAX });
});
